package strategies

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/strategies/internal/clock"
)

// TestMinimaxStopsAtTheNodeLimit: the generic search, in its heuristic
// iterations and in the Connect Four and Othello solves after them, stops
// at the first check after its node limit is used up — within
// clock.Interval nodes in the search and in the Connect Four solve, which
// is given what is left of the limit and checks in with the same time
// manager; the Othello solver looks at its budget at the first node of
// seven empties or more after clock.Interval nodes, a few thousand late at
// most — and answers with a legal move, counted in nodes rather than
// measured in time. (Adjacency's engine has the same test for its phases
// in strategies/adjsearch.)
func TestMinimaxStopsAtTheNodeLimit(t *testing.T) {
	clearPools()
	rng := rand.New(rand.NewPCG(25, 4))
	for _, c := range []struct {
		name    string
		game    string
		left    int // plies left at most
		nodes   uint64
		solving bool // the limit falls in the solve, after the iteration of depth reach
		reach   int
		slack   uint64
	}{
		{"connect4 iteration", "connect4", 42 - 10, 3_000, false, 12, clock.Interval},
		{"connect4 solve", "connect4", 42 - 6, 400_000, true, 12, clock.Interval},
		{"othello solve", "othello", 2*othelloSolveEmpties - 1, 300_000, true, 6, 8 * clock.Interval},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := randomPosition(t, rng, c.game, 0, c.left)
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
			case c.solving && res.Depth < c.reach:
				t.Fatalf("%v: stopped after depth %d, want in the solve after depth %d", p, res.Depth, c.reach)
			case !c.solving && res.Depth >= c.reach:
				t.Fatalf("%v: stopped after depth %d, want in the iterations before %d", p, res.Depth, c.reach)
			}
			t.Logf("%v: limit %d: %d nodes, depth %d", p, c.nodes, res.Nodes, res.Depth)
		})
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
