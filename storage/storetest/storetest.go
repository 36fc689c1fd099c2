// Package storetest is the conformance suite of storage.Store: the
// behaviour every implementation must have, run by storage/bolt's and
// storage/postgres's tests against real databases through Run.
//
// A test belongs here when it checks what a Store does through its
// methods; tests of one implementation's internals (damaged bbolt pages,
// index keys, migrations of a file format) stay with that implementation.
package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// AIRatings is the calibration every store under the suite is opened with
// (its implementation's AIRatings option): minimax is rated MinimaxRating
// in every game; no other strategy has a figure.
func AIRatings(_ storage.Kind, strategy string) (float64, bool) {
	return MinimaxRating, strategy == "minimax"
}

// MinimaxRating is minimax's fixed rating under AIRatings.
const MinimaxRating = 1700

// Opener opens a new, empty store for one test, with AIRatings, with now as its clock.
// reopen closes that store and opens the same data again, as a restarted
// process would.
type Opener func(t testing.TB, now func() time.Time) (s storage.Admin, reopen func() storage.Admin)

// Rewriter replaces the stored record of game id in s, a store an Opener
// made, by record, the JSON of a game — as a disk fault, a hand edit or an
// older version of Gambit would — and returns a function that puts the
// record back as it was.
type Rewriter func(t testing.TB, s storage.Admin, id storage.GameID, record []byte) (restore func())

// Run runs the suite against the stores open makes, each test in parallel
// on a store of its own; at the end of each test the store must pass its
// Check. The tests of damaged and old records write them with rewrite.
func Run(t *testing.T, open Opener, rewrite Rewriter) {
	for _, tc := range suite {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, open)
		})
	}
	t.Run("CorruptOpenGameIsSkipped", func(t *testing.T) {
		t.Parallel()
		testCorruptOpenGameIsSkipped(t, open, rewrite)
	})
	t.Run("OldReasonsRead", func(t *testing.T) {
		t.Parallel()
		testOldReasonsRead(t, open, rewrite)
	})
	runTournaments(t, open)
}

// Clock is a settable time source for deadline tests: the stores' own
// tests use it as the process's or the database's clock.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock that reads t until it is advanced.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// store is the store of one test, which reopen may replace.
type store struct {
	storage.Admin
	reopen func() storage.Admin
}

// openTest opens a store with a fake clock and closes it, checking its
// invariants, at the end of the test.
func openTest(t *testing.T, o Opener) (*store, *Clock) {
	t.Helper()
	clk := NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	s := &store{}
	s.Admin, s.reopen = o(t, clk.Now)
	t.Cleanup(func() {
		if problems, err := s.Check(context.Background()); err != nil || len(problems) > 0 {
			t.Errorf("Check at end of test: %v %q", err, problems)
		}
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s, clk
}

// ratingCount counts the ratings in every ladder.
func ratingCount(t *testing.T, s *store) int {
	t.Helper()
	st, err := s.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.Ratings
}
