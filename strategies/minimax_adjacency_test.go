package strategies

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gambitbot/gambit/engine"
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
			want, err := adjsearch.New(c.eval).Search(context.Background(), p.Board, adjsearch.Options{Nodes: nodes, Threads: 1, MaxTableMiB: DefaultHashMiB, Traps: true, Book: true})
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

// TestMinimaxPlaysTheBook: from the first mover's positions after a first
// pair of moves of a 28-round game, minimax under a node cap below the
// book's search plays the book's move without searching; limited by depth
// (the benchmark's fixed-depth opponents) it searches.
func TestMinimaxPlaysTheBook(t *testing.T) {
	info, err := LookupFor("minimax", "adjacency")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(38, 3))
	for range 6 {
		p, err := adjacency.New(28, engine.X)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			moves := p.Moves(nil)
			p.Play(moves[rng.IntN(len(moves))])
		}
		want, en, ok := adjsearch.EmbeddedBook().Lookup(p.Board)
		if !ok {
			t.Fatalf("%v: not in the book", p)
		}
		got, err := info.Strategy.Search(context.Background(), p, Limits{Nodes: min(en.Nodes-1, 100000), Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got.Move != want || got.Nodes != 0 {
			t.Fatalf("%v: minimax played %v after %d nodes, want the book's %v at once", p, got.Move, got.Nodes, want)
		}
		fixed, err := info.Strategy.Search(context.Background(), p, Limits{Depth: 3, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		if fixed.Nodes == 0 {
			t.Fatalf("%v: minimax to depth 3 answered from the book", p)
		}
	}
}
