package strategies

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gambitbot/gambit/engine"
)

// TestReservationTreeBacksUpByMinimax builds a reservation tree from
// hand-made paths with hand-made leaf values and checks the backed-up
// values, the root's move, the principal variation and each leaf's
// fitness (levels its value propagates).
func TestReservationTreeBacksUpByMinimax(t *testing.T) {
	var tree gameTree
	tree.reset()
	// Leaf values are for the side to move at the leaf: after two plies,
	// the root side.
	leaf := map[string]int32{}
	for _, path := range []struct {
		name  string
		moves []engine.Move
		value int
	}{
		{"a1", []engine.Move{1, 11}, 3},
		{"a2", []engine.Move{1, 12}, 5},
		{"b1", []engine.Move{2, 21}, -1},
		{"b2", []engine.Move{2, 22}, 7},
	} {
		n := int32(0)
		for _, m := range path.moves[:len(path.moves)-1] {
			child := tree.find(n, m)
			if child < 0 {
				child = tree.add(n, m, 0)
			}
			n = child
		}
		leaf[path.name] = tree.add(n, path.moves[len(path.moves)-1], path.value)
		tree.update(leaf[path.name]) // as Genetic backs up
	}
	if len(tree.nodes) != 7 {
		t.Fatalf("%d nodes, want 7: paths share their first move", len(tree.nodes))
	}
	checkFullBackup(t, &tree)
	a, b := tree.nodes[leaf["a1"]].parent, tree.nodes[leaf["b1"]].parent
	// The opponent at a picks the leaf worst for the root side (3), at b
	// (-1); the root side picks a.
	if tree.nodes[a].value != -3 || tree.nodes[b].value != 1 || tree.nodes[0].value != 3 {
		t.Fatalf("values a %d, b %d, root %d; want -3, 1, 3", tree.nodes[a].value, tree.nodes[b].value, tree.nodes[0].value)
	}
	if got := tree.line(nil); !slices.Equal(got, []engine.Move{1, 11}) {
		t.Errorf("principal variation %v, want [1 11]", got)
	}
	for name, want := range map[string]int{"a1": 2, "a2": 0, "b1": 1, "b2": 0} {
		if got := tree.reach(leaf[name]); got != want {
			t.Errorf("fitness of %s: %d, want %d", name, got, want)
		}
	}

	// A path ending at a finished game after one ply, worth -4 for the
	// opponent to move there, becomes the root's choice.
	c := tree.add(0, 3, -4)
	tree.update(c)
	checkFullBackup(t, &tree)
	if tree.nodes[0].value != 4 || tree.nodes[tree.bestChild(0)].move != 3 {
		t.Errorf("root value %d, move %d; want 4, 3", tree.nodes[0].value, tree.nodes[tree.bestChild(0)].move)
	}
	for name, want := range map[string]int{"a1": 1, "b1": 1} {
		if got := tree.reach(leaf[name]); got != want {
			t.Errorf("after c, fitness of %s: %d, want %d", name, got, want)
		}
	}
	if got := tree.reach(c); got != 1 {
		t.Errorf("fitness of c: %d, want 1", got)
	}
}

// checkFullBackup checks that backing the whole tree up again changes
// no value: the incremental updates left it backed up.
func checkFullBackup(t *testing.T, tree *gameTree) {
	t.Helper()
	before := slices.Clone(tree.nodes)
	tree.backup()
	if !slices.Equal(before, tree.nodes) {
		t.Fatalf("incremental values %+v, full backup %+v", before, tree.nodes)
	}
}

func TestCrossoverAndDecoding(t *testing.T) {
	a, b := []uint16{1, 2, 3, 4}, []uint16{5, 6, 7, 8}
	c1, c2 := make([]uint16, 4), make([]uint16, 4)
	crossover(a, b, c1, c2, 1)
	if !slices.Equal(c1, []uint16{1, 6, 7, 8}) || !slices.Equal(c2, []uint16{5, 2, 3, 4}) {
		t.Errorf("crossover at 1: %v %v", c1, c2)
	}
	moves := []engine.Move{10, 20, 30}
	for gene, want := range map[uint16]engine.Move{0: 10, 4: 20, 65535: 10} {
		if got := decodeGene(moves, gene); got != want {
			t.Errorf("gene %d decodes to %d, want %d", gene, got, want)
		}
	}
}

// TestRouletteSpinsInProportion: the wheel draws each index with
// probability proportional to its weight.
func TestRouletteSpinsInProportion(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	weights := []float64{1, 2, 3, 4, 0.5}
	total := 10.5
	var w wheel
	w.build(weights)
	const n = 200000
	counts := make([]int, len(weights))
	for range n {
		counts[w.spin(rng)]++
	}
	for i, x := range weights {
		want := x / total
		got := float64(counts[i]) / n
		// Five standard deviations of a binomial proportion.
		if tol := 5 * math.Sqrt(want*(1-want)/n); math.Abs(got-want) > tol {
			t.Errorf("index %d: drawn %.4f of the time, want %.4f ± %.4f", i, got, want, tol)
		}
	}
}

// TestGeneticSolvesTinyEndgames: once the reservation tree holds every
// line of a small game tree, the root value is the exact minimax value and
// the move achieves it.
func TestGeneticSolvesTinyEndgames(t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 54))
	for i := range 16 {
		game := "adjacency"
		if i%2 == 1 {
			game = "tictactoe"
		}
		p := randomPosition(t, rng, game, 28, 3)
		want := bruteForce(p)
		res, err := Genetic{}.Search(context.Background(), p, Limits{Seed: uint64(i + 1), Nodes: 3000})
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != want || moveValue(p, res.Move) != want {
			t.Errorf("%v: genetic scores %d with %s worth %d, want %d", p, res.Score, p.FormatMove(res.Move), moveValue(p, res.Move), want)
		}
	}
}

// bestCooperativeLine returns the best final score for p's side to move
// when it chooses both sides' moves to the end of the game.
func bestCooperativeLine(p engine.Position, side engine.Side) int {
	if p.Terminal() {
		return p.Score(side)
	}
	best := math.MinInt
	for _, m := range p.Moves(nil) {
		p.Play(m)
		best = max(best, bestCooperativeLine(p, side))
		p.Undo()
	}
	return best
}

// TestGeneticRouletteFindsTheBestSequence: report 000's algorithm lets the
// bot choose the opponent's moves too, so on a small endgame it finds the
// best line of the whole tree for itself — not the minimax value — and
// its principal variation is that line.
func TestGeneticRouletteFindsTheBestSequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 56))
	for i := range 10 {
		p := randomPosition(t, rng, "adjacency", 28, 3)
		want := bestCooperativeLine(p, p.SideToMove())
		res, err := GeneticRoulette{}.Search(context.Background(), p, Limits{Seed: uint64(i + 1), Nodes: 5000})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range res.PV {
			p.Play(m)
		}
		final := p.Score(p.SideToMove().Other()) // three plies on, the other side moves
		for range res.PV {
			p.Undo()
		}
		if res.Score != want || final != want || len(res.PV) != 3 || res.PV[0] != res.Move {
			t.Errorf("%v: score %d, line %v ending at %d; want the best line's %d", p, res.Score, res.PV, final, want)
		}
	}
}
