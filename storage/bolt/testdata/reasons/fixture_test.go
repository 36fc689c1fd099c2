package bolt_test

// This file writes storage/bolt/testdata/reasons.db with the code of commit
// 0fb770a, the last to store a game's end as free text (Result.Reason). It
// is kept in testdata/reasons/ for the record; see testdata/README.md for
// how to run it again.

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
)

func TestWriteReasonsFixture(t *testing.T) {
	out := os.Getenv("GAMBIT_FIXTURE_OUT")
	if out == "" {
		t.Skip("set GAMBIT_FIXTURE_OUT to the file to write")
	}
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { now = now.Add(time.Minute); return now }
	s, err := bolt.Open(out, &bolt.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	duel := func(reason string, status storage.Status, winner int) {
		g := &storage.Game{Kind: "connect4", Status: storage.StatusActive,
			Players: []storage.Player{{ID: storage.User("alice"), Name: "alice"}, {ID: storage.User("bob"), Name: "bob"}},
			Moves:   []string{"4", "4"}, Position: "6/6/6/6/5o/5x x"}
		if err := s.CreateGame(ctx, g, storage.Limits{}); err != nil {
			t.Fatal(err)
		}
		g.Status = status
		if _, err := s.FinishGame(ctx, g, storage.Result{Winner: winner, Reason: reason}); err != nil {
			t.Fatal(err)
		}
	}
	puzzle := func(reason string, status storage.Status, winner int) {
		g := &storage.Game{Kind: "tiles", Status: storage.StatusActive,
			Players: []storage.Player{{ID: storage.User("carol"), Name: "carol"}},
			Start:   "123456708", Position: "123456780", Moves: []string{"8"}}
		if err := s.CreateGame(ctx, g, storage.Limits{}); err != nil {
			t.Fatal(err)
		}
		g.Status = status
		if _, err := s.FinishGame(ctx, g, storage.Result{Winner: winner, Reason: reason, MovesUsed: 1}); err != nil {
			t.Fatal(err)
		}
	}
	// Games 1 to 4: duels won on the board, drawn, resigned and lost on time.
	duel("", storage.StatusFinished, 0)
	duel("", storage.StatusFinished, storage.Draw)
	duel("resigned", storage.StatusFinished, 1)
	duel("timeout", storage.StatusForfeited, 0)
	// Games 5 to 8: puzzles solved, given up, stuck and solved by Gambit.
	puzzle("", storage.StatusFinished, 0)
	puzzle("gave up", storage.StatusAbandoned, storage.Nobody)
	puzzle("no way on", storage.StatusAbandoned, storage.Nobody)
	puzzle("solved by Gambit", storage.StatusAbandoned, storage.Nobody)
}
