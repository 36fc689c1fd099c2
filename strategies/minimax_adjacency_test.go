package strategies

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/strategies/adjeval"
	"github.com/gambitbot/gambit/strategies/adjsearch"
)

// TestMinimaxAdjacencyEvaluations: minimax searches Adjacency with the
// learned evaluation as seen by a search (adjeval.SearchEvaluate) unless
// told otherwise, and minimax-hand with the plug-in's hand-tuned one:
// each plays exactly as the engine with that evaluation does.
func TestMinimaxAdjacencyEvaluations(t *testing.T) {
	const nodes = 20000
	cases := []struct {
		strategy string
		eval     adjsearch.Evaluator
	}{
		{"minimax", adjsearch.EvalFunc(adjeval.SearchEvaluate)},
		{"minimax-learned", adjsearch.EvalFunc(adjeval.SearchEvaluate)},
		{"minimax-hand", adjsearch.Default},
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for range 4 {
		p := randomPosition(t, rng, "adjacency", 28, 30+rng.IntN(20)).(*adjacency.Position)
		for _, c := range cases {
			info, err := LookupFor(c.strategy, "adjacency")
			if err != nil {
				t.Fatal(err)
			}
			got, err := info.Strategy.Search(context.Background(), p, Limits{Nodes: nodes, Threads: 1})
			if err != nil {
				t.Fatalf("%s on %v: %v", c.strategy, p, err)
			}
			want, err := adjsearch.New(c.eval).Search(context.Background(), p.Board, adjsearch.Options{Nodes: nodes, Threads: 1, MaxTableMiB: DefaultHashMiB, Traps: true})
			if err != nil {
				t.Fatal(err)
			}
			if got.Move != want.Move || got.Score != want.Score || got.Depth != want.Depth || got.Nodes != want.Nodes {
				t.Errorf("%s on %v: move %v score %d depth %d nodes %d; the engine with its evaluation: %v %d %d %d",
					c.strategy, p, got.Move, got.Score, got.Depth, got.Nodes, want.Move, want.Score, want.Depth, want.Nodes)
			}
		}
	}
}
