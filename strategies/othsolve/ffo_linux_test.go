package othsolve

import (
	"context"
	"flag"
	"math/bits"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine/othello"
)

var (
	ffoFrom    = flag.Int("ffo-from", 0, "TestFFOSuite: solve the FFO problems from this number (40–59); 0 skips the test")
	ffoTo      = flag.Int("ffo-to", 59, "TestFFOSuite: the last FFO problem to solve")
	ffoTimeout = flag.Duration("ffo-timeout", 120*time.Second, "TestFFOSuite: give up a problem after this long (wall clock)")
	ffoMiB     = flag.Int("ffo-mib", 256, "TestFFOSuite: the transposition table in MiB")
	ffoNodes   = flag.Uint64("ffo-nodes", 0, "TestFFOSuite: give up a problem after this many nodes (0: no budget)")
)

// threadCPU returns the CPU time (user and system) of the calling thread.
func threadCPU(tb testing.TB) time.Duration {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestFFOSuite solves the FFO endgame problems -ffo-from to -ffo-to, each
// with an emptied table on one locked thread, and reports for each its
// nodes, the thread's CPU time, and whether the score and the move are
// right. A wrong answer or a problem given up (-ffo-timeout, -ffo-nodes)
// fails the test; the times are reported, not checked. Run it as
//
//	nice -n 10 go test ./strategies/othsolve -run FFOSuite -ffo-from 40 -v
func TestFFOSuite(t *testing.T) {
	if *ffoFrom == 0 {
		t.Skip("give -ffo-from to solve the FFO problems")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var totalCPU time.Duration
	for _, p := range loadFFO(t) {
		if p.number < *ffoFrom || p.number > *ffoTo {
			continue
		}
		s := NewScoring(*ffoMiB<<20, EmptiesToWinner)
		ctx, cancel := context.WithTimeout(context.Background(), *ffoTimeout)
		start := threadCPU(t)
		r, err := s.Solve(ctx, p.own, p.opp, *ffoNodes)
		cpu := threadCPU(t) - start
		cancel()
		totalCPU += cpu
		empties := bits.OnesCount64(^(p.own | p.opp))
		if err != nil {
			t.Errorf("#%d (%d empties): not solved: %v (%.2f s CPU)", p.number, empties, err, cpu.Seconds())
			continue
		}
		scoreOK, moveOK := r.Score == p.score, slices.Contains(p.best, r.Move)
		t.Logf("#%d %d empties: move %s score %+d (score right %v, move right %v) nodes %d, %.3f s CPU, %.1f M nodes/s",
			p.number, empties, othello.CellName(r.Move), r.Score, scoreOK, moveOK, r.Nodes, cpu.Seconds(), float64(r.Nodes)/cpu.Seconds()/1e6)
		if !scoreOK || !moveOK {
			t.Errorf("#%d: move %s score %d, want %d with one of %v", p.number, othello.CellName(r.Move), r.Score, p.score, p.best)
		}
	}
	t.Logf("total %.2f s CPU", totalCPU.Seconds())
}
