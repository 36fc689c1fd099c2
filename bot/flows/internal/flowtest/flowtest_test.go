package flowtest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gambitbot/gambit/bot/flows/internal/flowtest"
	"github.com/gambitbot/gambit/storage"
)

// duel is an active Connect Four game between ann and bob.
func duel() *storage.Game {
	return &storage.Game{Kind: "connect4", Status: storage.StatusActive,
		Players: []storage.Player{{ID: storage.User("ann"), Name: "ann"}, {ID: storage.User("bob"), Name: "bob"}}}
}

// TestASeededGameKeepsTheStoresRules: a seeded game gets the first ID
// and version 1; a change made through Change counts a version, and the
// flow's copy loaded before it is then stale (ErrConflict), as it is
// against the store the bot runs on.
func TestASeededGameKeepsTheStoresRules(t *testing.T) {
	s := flowtest.New(t, nil)
	g := duel()
	s.Seed(nil, g)
	if g.ID != storage.SequenceID(1) || g.Version != 1 {
		t.Fatalf("seeded as %s version %d, want %s version 1", g.ID, g.Version, storage.SequenceID(1))
	}
	stale := s.Load(g.ID)
	if now := s.Change(g.ID, func(g *storage.Game) { g.Moves = []string{"4"}; g.Turn = 1 }); now.Version != 2 {
		t.Errorf("changed to version %d, want 2", now.Version)
	}
	stale.Moves = []string{"3"}
	if err := s.UpdateGame(context.Background(), stale); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("a stale update: %v, want ErrConflict", err)
	}
	if _, err := s.Game(context.Background(), storage.SequenceID(2)); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("a game never stored: %v, want ErrNotFound", err)
	}
}

// BenchmarkAFlowTestsStore measures what a flow's test pays for its
// real store: opening it, seeding a game and one change.
func BenchmarkAFlowTestsStore(b *testing.B) {
	for b.Loop() {
		s := flowtest.New(b, nil)
		g := duel()
		s.Seed(nil, g)
		s.Change(g.ID, func(g *storage.Game) { g.Moves = []string{"4"}; g.Turn = 1 })
	}
}
