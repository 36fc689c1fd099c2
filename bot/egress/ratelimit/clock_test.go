package ratelimit_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// testClock is the stand-in's manual clock with the timers the limiter
// waits on: the test moves it once every request still under way waits
// on it, so no wait is ever timed by the machine.
type testClock struct {
	*discordtest.ManualClock
	mu      sync.Mutex
	timers  []timer
	changed chan struct{} // a timer was set or a request finished
	// onAfter, if not nil, is called by After, before it returns.
	onAfter func()
}

type timer struct {
	at time.Time
	ch chan time.Time
}

func newTestClock() *testClock {
	return &testClock{ManualClock: discordtest.NewManualClock(start), changed: make(chan struct{}, 1)}
}

// After implements ratelimit.Clock.
func (c *testClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.mu.Lock()
	c.timers = append(c.timers, timer{at: c.Now().Add(d), ch: ch})
	hook := c.onAfter
	c.mu.Unlock()
	if hook != nil {
		hook()
	}
	c.poke()
	return ch
}

// poke tells drive that something changed.
func (c *testClock) poke() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

// waiting returns the number of timers set and the earliest's time.
func (c *testClock) waiting() (int, time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.timers) == 0 {
		return 0, time.Time{}
	}
	return len(c.timers), slices.MinFunc(c.timers, func(a, b timer) int { return a.at.Compare(b.at) }).at
}

// advanceTo moves the clock to at and fires the timers due.
func (c *testClock) advanceTo(at time.Time) {
	if d := at.Sub(c.Now()); d > 0 {
		c.Advance(d)
	}
	now := c.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timers = slices.DeleteFunc(c.timers, func(t timer) bool {
		if t.at.After(now) {
			return false
		}
		t.ch <- now
		return true
	})
}

// drive runs n requests, each a call of do(i) in a goroutine of its own,
// and moves the clock to the end of the earliest wait whenever every
// request not finished waits on the clock, until all have finished. It
// returns their errors.
func (c *testClock) drive(t *testing.T, n int, do func(i int) error) []error {
	t.Helper()
	errs := make([]error, n)
	var mu sync.Mutex
	finished := 0
	for i := range n {
		go func() {
			err := do(i)
			mu.Lock()
			errs[i] = err
			finished++
			mu.Unlock()
			c.poke()
		}()
	}
	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	for {
		mu.Lock()
		f := finished
		mu.Unlock()
		if f == n {
			return errs
		}
		if w, next := c.waiting(); f+w == n {
			c.advanceTo(next)
			continue
		}
		select {
		case <-c.changed:
		case <-ctx.Done():
			w, _ := c.waiting()
			t.Fatalf("hang guard: %d of %d requests finished, %d wait on the clock", f, n, w)
		}
	}
}
