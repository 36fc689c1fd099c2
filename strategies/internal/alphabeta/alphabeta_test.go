package alphabeta

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/gambitbot/gambit/strategies/internal/clock"
)

func TestReduction(t *testing.T) {
	for _, c := range []struct{ depth, i, want int }{
		{2, 10, 0}, {10, 2, 0}, {3, 3, 1}, {8, 4, 4}, {8, 40, 6}, {30, 30, 8},
	} {
		if got := Reduction(c.depth, c.i); got != c.want {
			t.Errorf("Reduction(%d, %d) = %d, want %d", c.depth, c.i, got, c.want)
		}
	}
}

// TestThreadsStopTheHelpersWhenMainReturns: every helper runs, each
// with its own index, and the search is stopped once main returns, so
// that helpers waiting for the stop end.
func TestThreadsStopTheHelpersWhenMainReturns(t *testing.T) {
	m := clock.New(context.Background(), 0, nil)
	var seen [4]atomic.Bool
	Threads(m, 4, func() {}, func(i int) {
		seen[i].Store(true)
		for !m.Stopped() {
			runtime.Gosched()
		}
	})
	for i := 1; i < 4; i++ {
		if !seen[i].Load() {
			t.Errorf("helper %d did not run", i)
		}
	}
	if !m.Stopped() {
		t.Error("the search was not stopped")
	}
}
