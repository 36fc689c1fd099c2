// Package flowtest is the store of the flows' unit tests: the real bbolt
// store (storage/bolt), in a file of the test's temporary directory, with
// the few helpers the tests share to put games into it and change them
// between a flow's steps. A flow's test meets the real store's rules —
// versions and storage.ErrConflict, storage.ErrNotFound, the status
// changes a game may make, ended games that no longer change — rather
// than a fake's idea of them. Only tests import it.
package flowtest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
)

// Store is a bbolt store opened for one test, closed when it ends.
type Store struct {
	*bolt.Store
	t testing.TB
}

// New opens an empty store for t, whose clock is now (time.Now if nil):
// the claims expire, and the games' and attempts' times are stamped, by
// it.
func New(t testing.TB, now func() time.Time) *Store {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "gambit.db"), &bolt.Options{Clock: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Error(err)
		}
	})
	return &Store{Store: st, t: t}
}

// Seed puts games into the empty store as they are — of any status, with
// their results — in one import, and the rest of fill's records
// (ratings, settings, attempts…) if fill is not nil. A game without an
// ID gets the next game ID (storage.SequenceID 1, 2, … in order), and one
// without a version version 1, both set in the caller's game.
func (s *Store) Seed(fill func(storage.Sink) error, games ...*storage.Game) {
	s.t.Helper()
	err := s.Import(context.Background(), func(sink storage.Sink) error {
		for i, g := range games {
			if g.ID == "" {
				g.ID = storage.SequenceID(uint64(i + 1))
			}
			g.Version = max(g.Version, 1)
			if err := sink.Game(g); err != nil {
				return err
			}
		}
		if fill != nil {
			return fill(sink)
		}
		return nil
	})
	if err != nil {
		s.t.Fatalf("flowtest: seed the store: %v", err)
	}
}

// Load returns game id as stored, failing the test if it is not.
func (s *Store) Load(id storage.GameID) *storage.Game {
	s.t.Helper()
	g, err := s.Game(context.Background(), id)
	if err != nil {
		s.t.Fatalf("flowtest: %v", err)
	}
	return g
}

// Change stores the change f makes to game id — another process's, or a
// member's elsewhere, between a flow's steps — under the store's rules,
// and returns the game as stored.
func (s *Store) Change(id storage.GameID, f func(*storage.Game)) *storage.Game {
	s.t.Helper()
	g := s.Load(id)
	f(g)
	if err := s.UpdateGame(context.Background(), g); err != nil {
		s.t.Fatalf("flowtest: %v", err)
	}
	return g
}
