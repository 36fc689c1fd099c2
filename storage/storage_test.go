package storage

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"
)

func validGame() *Game {
	return &Game{
		ID: "00000001", Version: 1, Kind: Kind("tictactoe"), Status: StatusActive,
		Players: []Player{{ID: User("1")}, {ID: AI("minimax")}},
	}
}

func TestGameValidate(t *testing.T) {
	if err := validGame().Validate(); err != nil {
		t.Fatalf("valid game: %v", err)
	}
	for name, breakIt := range map[string]func(g *Game){
		"malformed kind":    func(g *Game) { g.Kind = "Chess 960" },
		"unknown status":    func(g *Game) { g.Status = "paused" },
		"same players":      func(g *Game) { g.Players[1] = g.Players[0] },
		"bad player id":     func(g *Game) { g.Players[0].ID = "alice" },
		"empty user id":     func(g *Game) { g.Players[0].ID = User("") },
		"turn 2":            func(g *Game) { g.Turn = 2 },
		"result while open": func(g *Game) { g.Result = &Result{Winner: 0} },
		"finished, no result": func(g *Game) {
			g.Status = StatusFinished
		},
		"winner 2": func(g *Game) {
			g.Status, g.Result = StatusFinished, &Result{Winner: 2}
		},
		"deadline when over": func(g *Game) {
			g.Status, g.Result, g.Deadline = StatusFinished, &Result{Winner: Draw}, time.Now()
		},
		"cancelled with a result": func(g *Game) {
			g.Status, g.Result = StatusCancelled, &Result{Winner: 0}
		},
		"cancelled with a deadline": func(g *Game) {
			g.Status, g.Deadline = StatusCancelled, time.Now()
		},
		"rematch claimed while open": func(g *Game) { g.Rematched = true },
		"rematch claimed when cancelled": func(g *Game) {
			g.Status, g.Rematched = StatusCancelled, true
		},
		"empty move":        func(g *Game) { g.Moves = []string{"a1", ""} },
		"NUL in message id": func(g *Game) { g.MessageID = "1\x002" },
		"negative rounds":   func(g *Game) { g.Settings.Rounds = -1 },
		"aborted after each side moved twice": func(g *Game) {
			g.Status, g.Moves = StatusAborted, []string{"1", "2", "3", "4"}
		},
		"aborted with a result": func(g *Game) {
			g.Status, g.Result = StatusAborted, &Result{Winner: 0}
		},
		"aborted puzzle": func(g *Game) {
			g.Status, g.Players = StatusAborted, g.Players[:1]
		},
		"draw offered against an AI": func(g *Game) { g.DrawOffer = &DrawOffer{Seat: 0} },
		"draw offer from seat 2": func(g *Game) {
			g.Players[1].ID, g.DrawOffer = User("2"), &DrawOffer{Seat: 2}
		},
		"draw offer outlasting a move": func(g *Game) {
			g.Players[1].ID, g.Moves, g.DrawOffer = User("2"), []string{"5"}, &DrawOffer{Seat: 0, Ply: 0}
		},
		"draw offer on a finished game": func(g *Game) {
			g.Players[1].ID, g.DrawOffer = User("2"), &DrawOffer{Seat: 0}
			g.Status, g.Result = StatusFinished, &Result{Winner: Draw}
		},
	} {
		g := validGame()
		breakIt(g)
		if err := g.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Validate = %v, want ErrInvalid", name, err)
		}
	}
}

func TestStatusTransitions(t *testing.T) {
	for _, tc := range []struct {
		from, to  Status
		finishing bool
		want      bool
	}{
		{StatusPending, StatusActive, false, true},
		{StatusPending, StatusExpired, false, true},
		{StatusPending, StatusDeclined, false, true},
		{StatusPending, StatusWithdrawn, false, true},
		{StatusWithdrawn, StatusPending, false, false},
		{StatusActive, StatusWithdrawn, false, false},
		{StatusPending, StatusFinished, true, false},
		{StatusActive, StatusActive, false, true},
		{StatusActive, StatusPending, false, false},
		{StatusActive, StatusExpired, false, false},
		{StatusActive, StatusFinished, false, false},
		{StatusActive, StatusFinished, true, true},
		{StatusActive, StatusForfeited, true, true},
		{StatusFinished, StatusFinished, false, false},
		{StatusExpired, StatusActive, false, false},
		{StatusPending, StatusCancelled, false, true},
		{StatusActive, StatusCancelled, false, true},
		{StatusActive, StatusCancelled, true, false},
		{StatusCancelled, StatusActive, false, false},
		{StatusCancelled, StatusCancelled, false, false},
		{StatusFinished, StatusCancelled, false, false},
		{StatusExpired, StatusCancelled, false, false},
		{StatusActive, StatusAborted, false, true},
		{StatusActive, StatusAborted, true, false},
		{StatusPending, StatusAborted, false, false},
		{StatusAborted, StatusActive, false, false},
	} {
		if got := tc.from.CanBecome(tc.to, tc.finishing); got != tc.want {
			t.Errorf("%s→%s (finishing %v) = %v, want %v", tc.from, tc.to, tc.finishing, got, tc.want)
		}
	}
}

func TestCancelledIsFinalWithoutAResult(t *testing.T) {
	if !StatusCancelled.Valid() || !slices.Contains(Statuses(), StatusCancelled) {
		t.Fatal("cancelled is not a known status")
	}
	if StatusCancelled.Open() || StatusCancelled.Ended() {
		t.Fatal("a cancelled game is neither open nor played out")
	}
	g := validGame()
	g.Status = StatusCancelled
	if err := g.Validate(); err != nil {
		t.Fatalf("a cancelled game without result or deadline: %v", err)
	}
	if g.AwaitingAI() {
		t.Fatal("a cancelled game awaits the AI")
	}
	for _, to := range Statuses() {
		for _, finishing := range []bool{false, true} {
			if StatusCancelled.CanBecome(to, finishing) {
				t.Errorf("cancelled can become %s (finishing %v)", to, finishing)
			}
		}
	}
}

func TestPlayerIDs(t *testing.T) {
	if id, ok := User("42").UserID(); !ok || id != "42" {
		t.Fatalf("User(42).UserID() = %q, %v", id, ok)
	}
	if name, ok := AI("minimax").Strategy(); !ok || name != "minimax" || !AI("minimax").IsAI() || User("1").IsAI() {
		t.Fatal("AI ids are not recognised")
	}
	if _, ok := Anonymous.UserID(); ok {
		t.Fatal("the anonymous player has a user id")
	}
	g := validGame()
	if g.Seat(AI("minimax")) != 1 || g.Seat(User("2")) != -1 {
		t.Fatal("Seat finds the wrong player")
	}
	g.Turn = 1
	if !g.AwaitingAI() {
		t.Fatal("an active game with the AI to move is not awaiting the AI")
	}
}

func TestResultScore(t *testing.T) {
	win, draw := Result{Winner: 1}, Result{Winner: Draw}
	if win.Score(1) != 1 || win.Score(0) != 0 || draw.Score(0) != 0.5 || draw.Score(1) != 0.5 {
		t.Fatal("wrong scores")
	}
}

func TestRatingApplyKeepsRecord(t *testing.T) {
	at := time.Unix(100, 0)
	a, b := NewRating(User("a")), NewRating(User("b"))
	a = a.Apply(b, 1, at).Apply(b, 0.5, at).Apply(b, 0, at)
	if a.Games != 3 || a.Wins != 1 || a.Draws != 1 || a.Losses != 1 || !a.UpdatedAt.Equal(at) || a.Validate() != nil {
		t.Fatalf("record after win, draw, loss: %+v", a)
	}
	if !a.Provisional() {
		t.Fatalf("three games settled a rating: RD %.1f", a.Deviation)
	}
}

func TestLadderNames(t *testing.T) {
	for _, l := range []Ladder{Global(Kind("adjacency")), {Kind: Kind("connect4"), Guild: "123"}} {
		got, err := ParseLadder(l.String())
		if err != nil || got != l {
			t.Fatalf("ParseLadder(%q) = %+v, %v", l.String(), got, err)
		}
	}
	for _, bad := range []string{"", "Chess!", "connect4/", "/123"} {
		if _, err := ParseLadder(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseLadder(%q) = %v, want ErrInvalid", bad, err)
		}
	}
}

func FuzzParseLadder(f *testing.F) {
	f.Add("connect4/123")
	f.Fuzz(func(t *testing.T, s string) {
		if l, err := ParseLadder(s); err == nil && l.String() != s {
			t.Fatalf("ParseLadder(%q) = %+v, which prints as %q", s, l, l.String())
		}
	})
}

func TestGuildSettings(t *testing.T) {
	s := GuildSettings{AllowedGames: []Kind{Kind("tictactoe")}}
	if !s.Allows(Kind("tictactoe")) || s.Allows(Kind("adjacency")) || !(GuildSettings{}).Allows(Kind("adjacency")) {
		t.Fatal("Allows is wrong")
	}
	if err := (GuildSettings{TurnTimeout: -time.Second}).Validate(); !errors.Is(err, ErrInvalid) {
		t.Fatalf("negative timeout: %v", err)
	}
}

func TestRecordError(t *testing.T) {
	cause := errors.New("unexpected end of JSON input")
	err := error(&RecordError{Bucket: "games", Key: "0000002a", Err: cause})
	if !errors.Is(err, ErrCorrupt) || !errors.Is(err, cause) || err.Error() != `corrupt record games/"0000002a": unexpected end of JSON input` {
		t.Fatalf("RecordError: %v", err)
	}
}

func validPuzzle() *Game {
	return &Game{
		ID: "00000002", Version: 1, Kind: Kind("tictactoe"), Status: StatusActive,
		Players: []Player{{ID: User("1")}},
	}
}

func TestSoloGameValidate(t *testing.T) {
	for name, makeIt := range map[string]func(g *Game){
		"active":    func(*Game) {},
		"cancelled": func(g *Game) { g.Status = StatusCancelled },
		"solved": func(g *Game) {
			g.Status, g.Result = StatusFinished, &Result{Winner: 0, MovesUsed: 7, Optimal: 5}
		},
		"solved, optimum unknown": func(g *Game) {
			g.Status, g.Result = StatusFinished, &Result{Winner: 0, MovesUsed: 7}
		},
		"abandoned": func(g *Game) {
			g.Status, g.Result = StatusAbandoned, &Result{Winner: Nobody, Outcome: GaveUp, MovesUsed: 2, Optimal: 5}
		},
		"anonymised": func(g *Game) {
			g.Players[0].ID = Anonymous
			g.Status, g.Result = StatusFinished, &Result{Winner: 0}
		},
	} {
		g := validPuzzle()
		makeIt(g)
		if err := g.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if !g.Solo() || g.Next(0) != 0 {
			t.Errorf("%s: Solo %v, Next(0) %d", name, g.Solo(), g.Next(0))
		}
		if _, ok := g.Opponent(0); ok {
			t.Errorf("%s: a puzzle has an opponent", name)
		}
		if g.Solved() != (g.Status == StatusFinished) {
			t.Errorf("%s: Solved = %v", name, g.Solved())
		}
	}
	for name, breakIt := range map[string]func(g *Game){
		"no players":      func(g *Game) { g.Players = nil },
		"three players":   func(g *Game) { g.Players = []Player{{ID: User("1")}, {ID: User("2")}, {ID: User("3")}} },
		"an AI":           func(g *Game) { g.Players[0].ID = AI("minimax") },
		"turn 1":          func(g *Game) { g.Turn = 1 },
		"pending":         func(g *Game) { g.Status = StatusPending },
		"expired":         func(g *Game) { g.Status = StatusExpired },
		"a deadline":      func(g *Game) { g.Deadline = time.Now() },
		"forfeited":       func(g *Game) { g.Status, g.Result = StatusForfeited, &Result{Winner: 0} },
		"solved, nobody":  func(g *Game) { g.Status, g.Result = StatusFinished, &Result{Winner: Nobody} },
		"abandoned, won":  func(g *Game) { g.Status, g.Result = StatusAbandoned, &Result{Winner: 0} },
		"abandoned, none": func(g *Game) { g.Status = StatusAbandoned },
		"beats optimal": func(g *Game) {
			g.Status, g.Result = StatusFinished, &Result{Winner: 0, MovesUsed: 4, Optimal: 5}
		},
		"negative moves": func(g *Game) {
			g.Status, g.Result = StatusAbandoned, &Result{Winner: Nobody, MovesUsed: -1}
		},
	} {
		g := validPuzzle()
		breakIt(g)
		if err := g.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Validate = %v, want ErrInvalid", name, err)
		}
	}
	// What is a puzzle's alone is refused in a duel.
	for name, breakIt := range map[string]func(g *Game){
		"abandoned duel": func(g *Game) { g.Status, g.Result = StatusAbandoned, &Result{Winner: Nobody} },
		"duel won by nobody": func(g *Game) {
			g.Status, g.Result = StatusFinished, &Result{Winner: Nobody}
		},
		"duel with a score": func(g *Game) {
			g.Status, g.Result = StatusFinished, &Result{Winner: 0, MovesUsed: 3}
		},
	} {
		g := validGame()
		breakIt(g)
		if err := g.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Validate = %v, want ErrInvalid", name, err)
		}
	}
}

func TestAbandonedIsFinalAndEnded(t *testing.T) {
	if !StatusAbandoned.Valid() || !slices.Contains(Statuses(), StatusAbandoned) || StatusAbandoned.Open() || !StatusAbandoned.Ended() {
		t.Fatal("abandoned is not a known, final, played-out status")
	}
	if !StatusActive.CanBecome(StatusAbandoned, true) || StatusActive.CanBecome(StatusAbandoned, false) {
		t.Fatal("only FinishGame abandons an active game")
	}
	for _, to := range Statuses() {
		if StatusAbandoned.CanBecome(to, false) || StatusAbandoned.CanBecome(to, true) {
			t.Errorf("abandoned can become %s", to)
		}
	}
}

// TestPlayersOfTheFormerRecordFormat decodes a game record as Gambit wrote
// it when Players was an array of two: it reads into the slice unchanged and
// encodes back to the same JSON.
func TestPlayersOfTheFormerRecordFormat(t *testing.T) {
	const record = `{"id":"0000000a","version":3,"kind":"connect4","status":"finished",` +
		`"players":[{"id":"user:1","name":"alice"},{"id":"ai:minimax"}],"turn":1,` +
		`"settings":{"move_time":2000000000},"moves":["d","d"],"position":"x",` +
		`"result":{"winner":0,"reason":"resigned"},"created_at":"2025-03-01T12:00:00Z","updated_at":"2025-03-01T12:01:00Z"}`
	var g Game
	if err := json.Unmarshal([]byte(record), &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Players) != 2 || g.Players[0].Name != "alice" || g.Players[1].ID != AI("minimax") || g.Solo() {
		t.Fatalf("players %+v", g.Players)
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(&g)
	if err != nil || string(again) != record {
		t.Fatalf("re-encoded as\n%s\nwant\n%s (%v)", again, record, err)
	}
}

func TestOutcomeAndGiveUp(t *testing.T) {
	duel, puzzle := validGame(), validPuzzle()
	puzzle.Moves = []string{"1", "2", "3"}
	check := func(name string, g *Game, status Status, res Result, want Status, wantRes Result) {
		t.Helper()
		if status != want || res != wantRes {
			t.Errorf("%s = %s %+v, want %s %+v", name, status, res, want, wantRes)
		}
		g2 := *g
		g2.Status, g2.Result = status, &res
		if err := g2.Validate(); err != nil {
			t.Errorf("%s: the end does not validate: %v", name, err)
		}
	}
	s, r := duel.Outcome(1, 1)
	check("duel won by seat 1", duel, s, r, StatusFinished, Result{Winner: 1})
	s, r = duel.Outcome(1, 0)
	check("duel lost by seat 1", duel, s, r, StatusFinished, Result{Winner: 0})
	s, r = duel.Outcome(0, 0.5)
	check("duel drawn", duel, s, r, StatusFinished, Result{Winner: Draw})
	s, r = duel.GiveUp(0)
	check("duel resigned by seat 0", duel, s, r, StatusFinished, Result{Winner: 1, Outcome: Resigned})
	s, r = puzzle.Outcome(0, 1)
	check("puzzle solved", puzzle, s, r, StatusFinished, Result{Winner: 0, MovesUsed: 3})
	s, r = puzzle.Outcome(0, 0)
	check("puzzle stuck", puzzle, s, r, StatusAbandoned, Result{Winner: Nobody, Outcome: NoWayOn, MovesUsed: 3})
	s, r = puzzle.GiveUp(0)
	check("puzzle given up", puzzle, s, r, StatusAbandoned, Result{Winner: Nobody, Outcome: GaveUp, MovesUsed: 3})
}

// TestAbortableOnlyEarlyAndOutsideTournaments: a duel may be called off
// in its first four moves, unless it is a tournament's board.
func TestAbortableOnlyEarlyAndOutsideTournaments(t *testing.T) {
	duel := func(moves int, tournament TournamentID) *Game {
		g := &Game{Status: StatusActive, Players: []Player{{ID: User("1")}, {ID: User("2")}}}
		g.Moves = make([]string, moves)
		g.Settings.Tournament = tournament
		return g
	}
	for _, c := range []struct {
		g    *Game
		want bool
	}{
		{duel(0, ""), true},
		{duel(3, ""), true},
		{duel(4, ""), false},
		{duel(0, "t1"), false},
		{duel(3, "t1"), false},
	} {
		if got := c.g.Abortable(); got != c.want {
			t.Errorf("a duel of %d moves in tournament %q: Abortable %v, want %v", len(c.g.Moves), c.g.Settings.Tournament, got, c.want)
		}
	}
}
