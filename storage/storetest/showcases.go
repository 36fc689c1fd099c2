package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/gambitbot/gambit/storage"
)

// showcase returns a new showcase of place g1 started by member: two AIs
// playing connect4.
func showcase(member string) *storage.Game {
	g := UserVsAI("connect4", member)
	g.Players[0] = storage.Player{ID: storage.AI("mcts")}
	g.Settings.StartedBy = storage.User(member)
	return g
}

// testShowcasesCountAndReopen: a showcase is listed under its starter
// and its place, also after the store is reopened; it counts against
// its starter's cap of open games in CreateGame — a showcase and a game
// against the cap alike; it leaves both lists, and forgets its starter,
// when it closes; and a deletion of its starter's data removes it.
func testShowcasesCountAndReopen(t *testing.T, o Opener) {
	s, _ := openTest(t, o)
	ctx := context.Background()
	listed := func(key storage.PlayerID) []storage.GameID {
		t.Helper()
		games, err := s.ActiveGames(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		return IDs(games)
	}
	first := MustCreate(t, s, showcase("ann"))
	s.Admin = s.reopen()
	if got := listed(storage.ShowcasesOf(storage.User("ann"))); len(got) != 1 || got[0] != first.ID {
		t.Errorf("ann's showcases after reopening: %v, want %s", got, first.ID)
	}
	if got := listed(storage.ShowcasesIn("g1")); len(got) != 1 || got[0] != first.ID {
		t.Errorf("g1's showcases after reopening: %v, want %s", got, first.ID)
	}
	if got := listed(storage.User("ann")); len(got) != 0 {
		t.Errorf("ann's own games list the showcase: %v", got)
	}

	limits := storage.Limits{MaxOpen: 2}
	if err := s.CreateGame(ctx, UserVsAI("tictactoe", "ann"), limits); err != nil {
		t.Fatalf("ann's game beside one showcase, cap 2: %v", err)
	}
	var le *storage.LimitError
	if err := s.CreateGame(ctx, UserVsAI("tictactoe", "ann"), limits); !errors.As(err, &le) || le.Count != 2 {
		t.Errorf("ann's third game (a showcase and a game open, cap 2): %v, want the cap at 2", err)
	}
	if err := s.CreateGame(ctx, showcase("ann"), limits); !errors.As(err, &le) || le.Player != storage.User("ann") {
		t.Errorf("ann's second showcase at her cap: %v, want the cap", err)
	}

	g, err := s.Game(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	g.Status = storage.StatusCancelled
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if g, _ = s.Game(ctx, first.ID); g.Settings.StartedBy != "" {
		t.Errorf("the stopped showcase keeps its starter %q", g.Settings.StartedBy)
	}
	if got := listed(storage.ShowcasesIn("g1")); len(got) != 0 {
		t.Errorf("g1 lists the stopped showcase: %v", got)
	}

	second := MustCreate(t, s, showcase("bob"))
	rep, err := s.DeleteUser(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Removed) != 1 || rep.Removed[0].ID != second.ID {
		t.Errorf("deleting bob removed %v, want his showcase %s", IDs(rep.Removed), second.ID)
	}
	if got := listed(storage.ShowcasesIn("g1")); len(got) != 0 {
		t.Errorf("g1 lists the showcase of a deleted member: %v", got)
	}
}
