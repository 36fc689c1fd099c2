package strategies

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/strategies/c4solver"
)

// TestMinimaxStopsAtTheNodeLimit: the generic search, in its heuristic
// iterations and in the Connect Four solve after them, stops at the first
// check after its node limit is used up — within nodeCheckMask+1 nodes in
// the search, the solver's own interval in the solve — and answers with a
// legal move, counted in nodes rather than measured in time. (Adjacency's
// engine has the same test for its phases in strategies/adjsearch.)
func TestMinimaxStopsAtTheNodeLimit(t *testing.T) {
	clearPools()
	rng := rand.New(rand.NewPCG(25, 4))
	for _, c := range []struct {
		name    string
		stones  int
		nodes   uint64
		solving bool // the limit falls in the solve, after the depth-12 iteration
		slack   uint64
	}{
		{"connect4 iteration", 10, 3_000, false, nodeCheckMask + 1},
		{"connect4 solve", 6, 400_000, true, 4096 + nodeCheckMask + 1}, // c4solver looks every 4,096 nodes
	} {
		t.Run(c.name, func(t *testing.T) {
			p := randomPosition(t, rng, "connect4", 0, 42-c.stones)
			res, err := Minimax{}.Search(context.Background(), p, Limits{Nodes: c.nodes, HashMiB: 16})
			if err != nil {
				t.Fatal(err)
			}
			if !legal(p, res.Move) {
				t.Fatalf("%v: illegal move %v", p, res.Move)
			}
			if res.Nodes < c.nodes || res.Nodes > c.nodes+c.slack {
				t.Fatalf("%v: limit %d nodes: searched %d (depth %d, exact %v), want at most %d more", p, c.nodes, res.Nodes, res.Depth, res.Exact, c.slack)
			}
			switch {
			case res.Exact:
				t.Fatalf("%v: solved in %d nodes: the limit came too late to test", p, res.Nodes)
			case c.solving && res.Depth < 12:
				t.Fatalf("%v: stopped after depth %d, want in the solve after depth 12", p, res.Depth)
			case !c.solving && res.Depth >= 12:
				t.Fatalf("%v: stopped after depth %d, want in the iterations before 12", p, res.Depth)
			}
			t.Logf("%v: limit %d: %d nodes, depth %d", p, c.nodes, res.Nodes, res.Depth)
		})
	}
}

// TestConnectFourMoveDoesNotWaitForANewSolver: making a solver touches
// its whole table, and the first Connect Four move of a process answered
// 350 ms after its 20 ms limit on a busy machine. A move with a deadline
// that finds no solver ready keeps its heuristic answer and has one made
// in the background, which the next move uses. Here the maker is held
// until the search has answered: a search that waited for it would never
// answer.
func TestConnectFourMoveDoesNotWaitForANewSolver(t *testing.T) {
	clearPools()
	defer clearPools()
	const mib = 16
	release := make(chan struct{})
	newSolver := c4solvers.make
	c4solvers.make = func(mib int) *c4solver.Solver { <-release; return newSolver(mib) }
	defer func() { c4solvers.make = newSolver }()
	p := randomPosition(t, rand.New(rand.NewPCG(25, 5)), "connect4", 0, 16)
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour) // a deadline that does not come
	defer cancel()
	res, err := Minimax{}.Search(ctx, p, Limits{HashMiB: mib})
	if err != nil || !legal(p, res.Move) || res.Exact || res.Depth < 12 {
		t.Fatalf("%v without a solver: %+v, %v; want the heuristic answer of depth 12 or more", p, res, err)
	}
	close(release)
	for { // until the solver made in the background is in the pool
		c4building.Lock()
		busy := c4building.mib[mib]
		c4building.Unlock()
		if !busy {
			break
		}
		runtime.Gosched()
	}
	res, err = Minimax{}.Search(ctx, p, Limits{HashMiB: mib})
	if err != nil || !legal(p, res.Move) || !res.Exact {
		t.Fatalf("%v with the solver made: %+v, %v; want an exact answer", p, res, err)
	}
}

func legal(p engine.Position, m engine.Move) bool {
	for _, l := range p.Moves(nil) {
		if l == m {
			return true
		}
	}
	return false
}
