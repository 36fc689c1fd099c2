package adjsearch

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/strategies/internal/clock"
)

// deadlineCtx has a deadline that only the search's clock sees pass: its
// Done never closes, so the test's clock alone decides when time is up.
type deadlineCtx struct {
	context.Context
	at time.Time
}

func (c deadlineCtx) Deadline() (time.Time, bool) { return c.at, true }

// overshootPosition: 10 plies left over 50 empty cells. With a second to
// move the search completed depth 9 and then solved the last 10 plies for
// 120 million nodes without looking at the clock (2.5 s on a quiet
// machine).
const overshootPosition = "....ooxo/....ooox/.......x/......../......../x......./xx....../xx...... x 10"

// stopCase is a search cut after a number of nodes, and the phase the cut
// must fall in.
type stopCase struct {
	name    string
	board   adjacency.Board
	threads int
	after   uint64 // the clock passes the deadline once this many nodes are searched
	// solving: the cut falls in the exact solve, after a heuristic
	// iteration of at least minDepth; otherwise in a heuristic iteration
	// (depth+1 < plies left). Not checked with helper threads.
	solving  bool
	minDepth int
}

func stopCases(t *testing.T) []stopCase {
	overshoot, err := adjacency.ParseBoard(overshootPosition)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(25, 1))
	return []stopCase{
		{name: "board iteration", board: overshoot, threads: 1, after: 100_000},
		{name: "board solve after depth 9", board: overshoot, threads: 1, after: 500_000, solving: true, minDepth: 9},
		{name: "board solve, two threads", board: overshoot, threads: 2, after: 500_000},
		{name: "set-game iteration", board: randomBoard(t, rng, 28, 40), threads: 1, after: 200_000},
		{name: "set-game solve", board: endgames(t, 20)[0], threads: 1, after: 700_000, solving: true, minDepth: minSolveDepth},
		{name: "short game iteration", board: randomBoard(t, rng, 12, 20), threads: 1, after: 50_000},
	}
}

// TestSearchStopsAtTheFirstCheckAfterTheDeadline: in every phase — the
// heuristic iterations on boards and in the set game, the exact solve on
// boards and in the set game, with helper threads — a search whose clock
// passes the deadline after a given number of nodes stops at the next
// check-in, within clock.Interval nodes a thread, and answers with a legal
// move: the time limit is counted in nodes here, not measured. The board
// solve after depth 9 of overshootPosition is the case that took 2.5 s
// at 1 s a move.
func TestSearchStopsAtTheFirstCheckAfterTheDeadline(t *testing.T) {
	for _, c := range stopCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			e := New(nil)
			e.clock = func(nodes uint64) time.Time {
				if nodes >= c.after {
					return t0.Add(time.Hour)
				}
				return t0
			}
			ctx := deadlineCtx{context.Background(), t0.Add(time.Second)}
			res, err := e.Search(ctx, c.board, Options{Threads: c.threads, MaxTableMiB: 4})
			checkStop(t, c, res, err)
		})
	}
}

// TestSearchStopsAtTheFirstCheckAfterTheNodeCap: the same cuts by the
// node cap (Options.Nodes), without deadline. Under -race -short only the
// search with helper threads is cut (3.5 s of CPU under -race for all):
// the searches on one thread reach the same check-ins as in the deadline
// test above.
func TestSearchStopsAtTheFirstCheckAfterTheNodeCap(t *testing.T) {
	sample := racetest.Short(t, "the search with helper threads only")
	for _, c := range stopCases(t) {
		t.Run(c.name, func(t *testing.T) {
			if sample && c.threads == 1 {
				t.SkipNow()
			}
			res, err := New(nil).Search(context.Background(), c.board, Options{Threads: c.threads, Nodes: c.after, MaxTableMiB: 4})
			if c.solving {
				// Without a deadline the search may solve sooner; the cut
				// still falls in the solve.
				c.minDepth = 1
			}
			checkStop(t, c, res, err)
		})
	}
}

func checkStop(t *testing.T, c stopCase, res Result, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if !c.board.Legal(res.Move) {
		t.Fatalf("%v: illegal move %v", c.board, res.Move)
	}
	// Each thread searches at most clock.Interval nodes between check-ins,
	// and once told to stop at most the leaves of the node it is at (a
	// node looks at the stop flag after each child, a leaf does not).
	if limit := c.after + uint64(c.threads)*(clock.Interval+adjacency.Cells); res.Nodes < c.after || res.Nodes > limit {
		t.Fatalf("%v: cut after %d nodes: searched %d, want %d to %d (depth %d, exact %v)", c.board, c.after, res.Nodes, c.after, limit, res.Depth, res.Exact)
	}
	left := c.board.PliesLeft()
	switch {
	case res.Exact:
		t.Fatalf("%v: solved in %d nodes: the cut came too late to test", c.board, res.Nodes)
	case c.threads > 1:
	case c.solving && res.Depth < c.minDepth:
		t.Fatalf("%v: cut after depth %d, want the solve after depth %d or more", c.board, res.Depth, c.minDepth)
	case !c.solving && res.Depth+1 >= left:
		t.Fatalf("%v: cut after depth %d of %d plies left: in the solve, want a heuristic iteration", c.board, res.Depth, left)
	}
	t.Logf("cut after %d nodes: %d searched, depth %d, move %v", c.after, res.Nodes, res.Depth, c.board.FormatMove(res.Move))
}

// TestAStoppedSolveUnwindsAtOnce: a thread of the exact solvers (on
// boards and in the set game) told to stop in the middle of a solve
// returns without searching the rest of the moves on its path, because
// every solver node looks at the stop flag after each child. Here the
// thread's own check-in stops it, at a sweep of node counts; in a search
// with helper threads another thread's check-in does, wherever this one
// is. A solver node used to go on through its remaining moves, each a
// node of its own: 138 nodes after the stop on overshootPosition, and
// the two-thread node-cap case above went over its bound.
func TestAStoppedSolveUnwindsAtOnce(t *testing.T) {
	overshoot, err := adjacency.ParseBoard(overshootPosition)
	if err != nil {
		t.Fatal(err)
	}
	// unwindNodes: a stopped solver node near the end counts itself
	// again in shallow, which ticks too.
	const unwindNodes = 1
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	e := New(nil)
	for _, c := range []struct {
		name  string
		board adjacency.Board
	}{{"board", overshoot}, {"set game", endgames(t, 20)[0]}} {
		t.Run(c.name, func(t *testing.T) {
			for cut := uint64(5_000); cut < 50_000; cut += 4_999 {
				stoppedAt := uint64(0) // the nodes when the clock passed the deadline
				r := &run{e: e, tt: newTable(1 << 20), fill: fills(c.board)}
				r.clock.Start(deadlineCtx{context.Background(), t0.Add(time.Second)}, 0, func(nodes uint64) time.Time {
					if nodes < cut {
						return t0
					}
					if stoppedAt == 0 {
						stoppedAt = nodes
					}
					return t0.Add(time.Hour)
				})
				th := newThread(r)
				if _, _, complete := th.solve(c.board, hashOf(c.board), noCell, 0); complete {
					t.Fatalf("%v: solved within %d nodes: the cut comes too late to test", c.board, cut)
				}
				th.count.Flush()
				if after := r.clock.Nodes() - stoppedAt; after > unwindNodes {
					t.Fatalf("%v: stopped after %d nodes, then searched %d more; want at most %d", c.board, stoppedAt, after, unwindNodes)
				}
			}
		})
	}
}
