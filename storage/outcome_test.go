package storage

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestOutcomeRecordTexts: every outcome is stored as the reason earlier
// versions wrote for it and reads back as itself; ByRules is no reason at
// all; an unknown reason is an error that names it.
func TestOutcomeRecordTexts(t *testing.T) {
	for o, want := range map[Outcome]string{
		ByRules:        `{"winner":0}`,
		Resigned:       `{"winner":0,"reason":"resigned"}`,
		TimedOut:       `{"winner":0,"reason":"timeout"}`,
		GaveUp:         `{"winner":0,"reason":"gave up"}`,
		NoWayOn:        `{"winner":0,"reason":"no way on"}`,
		SolvedByGambit: `{"winner":0,"reason":"solved by Gambit"}`,
		DrawAgreed:     `{"winner":0,"reason":"draw agreed"}`,
	} {
		data, err := json.Marshal(Result{Outcome: o})
		if err != nil || string(data) != want {
			t.Errorf("%s is stored as %s, %v; want %s", o, data, err, want)
		}
		var r Result
		if err := DecodeJSON(data, &r); err != nil || r.Outcome != o {
			t.Errorf("%s reads back as %s, %v", data, r.Outcome, err)
		}
	}
	var r Result
	if err := DecodeJSON([]byte(`{"winner":0,"reason":"solved"}`), &r); err != nil || r.Outcome != ByRules {
		t.Errorf(`reason "solved" reads as %s, %v; want by rules`, r.Outcome, err)
	}
	err := DecodeJSON([]byte(`{"winner":0,"reason":"four in a row"}`), &r)
	if err == nil || !strings.Contains(err.Error(), `unknown outcome "four in a row"`) {
		t.Errorf("an unknown reason reads with error %v; want one naming it", err)
	}
	if _, err := json.Marshal(Result{Outcome: outcomes}); err == nil {
		t.Error("an outcome out of range was stored")
	}
	if s := Outcome(200).String(); s != "Outcome(200)" {
		t.Errorf("Outcome(200).String() = %q", s)
	}
}

// TestOutcomesFitTheGame: a duel ends by the rules, a resignation, a
// timeout (the last two with a winner) or a draw agreed (without one); a solved puzzle by the rules, an
// abandoned one by a puzzle's outcome.
func TestOutcomesFitTheGame(t *testing.T) {
	duel := func(winner int, o Outcome) *Game {
		g := validGame()
		g.Status, g.Result = StatusFinished, &Result{Winner: winner, Outcome: o}
		return g
	}
	puzzle := func(status Status, o Outcome) *Game {
		g := validGame()
		g.Players = g.Players[:1]
		g.Status, g.Result = status, &Result{Winner: Nobody, Outcome: o}
		if status == StatusFinished {
			g.Result.Winner = 0
		}
		return g
	}
	for _, tc := range []struct {
		name string
		g    *Game
		ok   bool
	}{
		{"duel won by the rules", duel(0, ByRules), true},
		{"duel drawn by the rules", duel(Draw, ByRules), true},
		{"duel resigned", duel(1, Resigned), true},
		{"duel timed out", duel(0, TimedOut), true},
		{"duel drawn by resignation", duel(Draw, Resigned), false},
		{"duel drawn on time", duel(Draw, TimedOut), false},
		{"duel given up", duel(0, GaveUp), false},
		{"duel solved by Gambit", duel(0, SolvedByGambit), false},
		{"duel drawn by agreement", duel(Draw, DrawAgreed), true},
		{"duel won by a draw agreed", duel(0, DrawAgreed), false},
		{"puzzle drawn by agreement", puzzle(StatusAbandoned, DrawAgreed), false},
		{"puzzle solved", puzzle(StatusFinished, ByRules), true},
		{"puzzle solved, given up", puzzle(StatusFinished, GaveUp), false},
		{"puzzle given up", puzzle(StatusAbandoned, GaveUp), true},
		{"puzzle without a way on", puzzle(StatusAbandoned, NoWayOn), true},
		{"puzzle solved by Gambit", puzzle(StatusAbandoned, SolvedByGambit), true},
		{"puzzle resigned", puzzle(StatusAbandoned, Resigned), false},
		{"puzzle timed out", puzzle(StatusAbandoned, TimedOut), false},
	} {
		if err := tc.g.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: Validate = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// How a game ended is an Outcome beside its Winner; records keep it as the
// text earlier versions stored, so an old record reads as its outcome.
func ExampleOutcome() {
	data, _ := json.Marshal(Result{Winner: 1, Outcome: Resigned})
	fmt.Println(string(data))
	var old Result
	if err := DecodeJSON([]byte(`{"winner":-2,"reason":"gave up","moves_used":3}`), &old); err != nil {
		fmt.Println(err)
	}
	fmt.Println(old.Outcome == GaveUp, old.Outcome.EndsPuzzle(), old.Outcome.EndsDuel())
	fmt.Println(DecodeJSON([]byte(`{"winner":0,"reason":"four in a row"}`), &old))
	// Output:
	// {"winner":1,"reason":"resigned"}
	// true true false
	// storage: unknown outcome "four in a row"
}
