package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/storage"
)

// testOldReasonsRead: a result's outcome is stored as the free text
// Gambit kept before outcomes were typed ("reason"), so a record of an
// ended game holding an old reason loads as its outcome; "solved", which
// tests once stored for a solved puzzle, loads as ByRules; an unknown
// reason does not load: the store reports the record corrupt (naming the
// text) and keeps it as it was.
func testOldReasonsRead(t *testing.T, o Opener, rewrite Rewriter) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	for _, tc := range []struct {
		reason string
		solo   bool
		status storage.Status
		res    storage.Result
		want   storage.Outcome
	}{
		{"", false, storage.StatusFinished, storage.Result{Winner: storage.Draw}, storage.ByRules},
		{"resigned", false, storage.StatusFinished, storage.Result{Winner: 1}, storage.Resigned},
		{"timeout", false, storage.StatusForfeited, storage.Result{Winner: 0}, storage.TimedOut},
		{"", true, storage.StatusFinished, storage.Result{Winner: 0, MovesUsed: 1}, storage.ByRules},
		{"solved", true, storage.StatusFinished, storage.Result{Winner: 0, MovesUsed: 1}, storage.ByRules},
		{"gave up", true, storage.StatusAbandoned, storage.Result{Winner: storage.Nobody, MovesUsed: 1}, storage.GaveUp},
		{"no way on", true, storage.StatusAbandoned, storage.Result{Winner: storage.Nobody, MovesUsed: 1}, storage.NoWayOn},
		{"solved by Gambit", true, storage.StatusAbandoned, storage.Result{Winner: storage.Nobody, MovesUsed: 1}, storage.SolvedByGambit},
	} {
		g := UserVsUser(storage.Kind("connect4"), "alice", "bob")
		if tc.solo {
			g = Puzzle(storage.Kind("tictactoe"), "alice")
		}
		MustCreate(t, s, g)
		g.Status = tc.status
		if _, err := s.FinishGame(ctx, g, tc.res); err != nil {
			t.Fatalf("%q: %v", tc.reason, err)
		}
		rewrite(t, s.Admin, g.ID, withReason(t, g, tc.reason))
		got, err := s.Game(ctx, g.ID)
		if err != nil {
			t.Fatalf("a record with reason %q: %v", tc.reason, err)
		}
		if got.Result.Outcome != tc.want || got.Result.Winner != tc.res.Winner {
			t.Errorf("a record with reason %q loaded as %+v, want outcome %s", tc.reason, *got.Result, tc.want)
		}
	}

	g := MustCreate(t, s, UserVsUser(storage.Kind("connect4"), "carol", "dave"))
	g.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: 0}); err != nil {
		t.Fatal(err)
	}
	restore := rewrite(t, s.Admin, g.ID, withReason(t, g, "four in a row"))
	_, err := s.Game(ctx, g.ID)
	if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), `unknown outcome "four in a row"`) {
		t.Errorf("a record with an unknown reason loaded with error %v; want ErrCorrupt naming the reason", err)
	}
	restore()
	if got, err := s.Game(ctx, g.ID); err != nil || got.Result.Outcome != storage.ByRules {
		t.Errorf("the record put back: %v, %v", got, err)
	}
}

// withReason returns g's record with its result's reason set to reason,
// as a version of Gambit that stored free text would have written it.
func withReason(t testing.TB, g *storage.Game, reason string) []byte {
	t.Helper()
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	res := rec["result"].(map[string]any)
	delete(res, "reason")
	if reason != "" {
		res["reason"] = reason
	}
	if data, err = json.Marshal(rec); err != nil {
		t.Fatal(err)
	}
	return data
}
