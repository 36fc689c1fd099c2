package strategies

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/internal/racetest"
)

// localAdjacency parses an Adjacency position text or fails the test.
func localAdjacency(t *testing.T, text string) *adjacency.Position {
	t.Helper()
	p, err := adjacency.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGreedyTakesMostCaptures(t *testing.T) {
	// d4 flips c4, e4 and d5; no other cell flips more than two.
	p := localAdjacency(t, "......oo/......oo/......../...o..../..o.o.../......../xx....../xx...... x 20")
	for seed := range uint64(10) {
		res, err := Greedy{}.Search(context.Background(), p, Limits{Seed: seed + 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.FormatMove(res.Move); got != "d4" {
			t.Fatalf("seed %d: greedy plays %s, want d4", seed+1, got)
		}
	}
}

func TestGreedyBreaksTiesRandomlyButReproducibly(t *testing.T) {
	// d4, d6, c5 and e5 each flip two marks; nothing flips more.
	p := localAdjacency(t, "......oo/......oo/..o.o.../......../..o.o.../......../xx....../xx...... x 20")
	seen := map[string]int{}
	for seed := range uint64(64) {
		limits := Limits{Seed: seed + 1}
		a, err := Greedy{}.Search(context.Background(), p, limits)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Greedy{}.Search(context.Background(), p, limits)
		if a.Move != b.Move {
			t.Fatalf("seed %d: %s then %s", seed+1, p.FormatMove(a.Move), p.FormatMove(b.Move))
		}
		seen[p.FormatMove(a.Move)]++
	}
	for _, want := range []string{"d4", "d6", "c5", "e5"} {
		if seen[want] < 6 { // about 16 expected of 64
			t.Errorf("tied move %s chosen %d times of 64: %v", want, seen[want], seen)
		}
	}
	if len(seen) != 4 {
		t.Errorf("moves chosen %v, want only d4, d6, c5, e5", seen)
	}
}

// planTraps returns Adjacency endgames of four plies (two own moves)
// where greedy's move is worse than the best, with greedy's value and the
// best value by brute force.
func planTraps(t *testing.T, n int) (traps []engine.Position, greedyValue, bestValue []int) {
	rng := rand.New(rand.NewPCG(31, 32))
	for len(traps) < n {
		p := randomPosition(t, rng, "adjacency", 28, 4)
		best := bruteForce(p)
		g, err := Greedy{}.Search(context.Background(), p, Limits{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if v := moveValue(p, g.Move); v < best {
			traps, greedyValue, bestValue = append(traps, p), append(greedyValue, v), append(bestValue, best)
		}
	}
	return traps, greedyValue, bestValue
}

// moveValue is the exact value of playing m in p, for p's side to move.
func moveValue(p engine.Position, m engine.Move) int {
	p.Play(m)
	defer p.Undo()
	return -bruteForce(p)
}

// TestLocalSearchesBeatGreedyWhereAPlanMatters: on endgames where the
// greedy move loses marks, every local search does at least as well as
// greedy, and better on most of them.
func TestLocalSearchesBeatGreedyWhereAPlanMatters(t *testing.T) {
	traps, greedyValue, bestValue := planTraps(t, 10)
	for _, name := range []string{"hill-steepest", "hill-sideways", "hill-stochastic", "annealing", "beam"} {
		info, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		better := 0
		for i, p := range traps {
			res, err := info.Strategy.Search(context.Background(), p, Limits{Seed: 3, Nodes: 20000})
			if err != nil {
				t.Fatal(err)
			}
			v := moveValue(p, res.Move)
			if v < greedyValue[i] {
				t.Errorf("%s on %v: move %s worth %d, greedy's %d (best %d)", name, p, p.FormatMove(res.Move), v, greedyValue[i], bestValue[i])
			}
			if v > greedyValue[i] {
				better++
			}
		}
		if better < len(traps)/2 {
			t.Errorf("%s beat greedy on %d of %d traps", name, better, len(traps))
		}
	}
}

// TestSteepestEndsOnALocalMaximum: a steepest-ascent or sideways climb
// from the greedy plan never loses value and ends where no neighbour is
// strictly better.
func TestSteepestEndsOnALocalMaximum(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for range 8 {
		p := randomPosition(t, rng, "adjacency", 28, 30)
		for _, variant := range []Variant{Steepest, Sideways} {
			r, err := newRun(context.Background(), p, Limits{Seed: 5}, "test")
			if err != nil {
				t.Fatal(err)
			}
			c := &climber{run: r, variant: variant, size: planMoves}
			c.cur.n = c.size
			for i := range c.cur.moves {
				c.cur.moves[i] = engine.NoMove
			}
			c.playout(&c.cur, false)
			start := c.cur.value
			for c.step() {
				if c.cur.value < start {
					t.Fatalf("%v: variant %d fell from %d to %d", p, variant, start, c.cur.value)
				}
			}
			if r.stopped {
				t.Fatalf("%v: node budget ran out", p)
			}
			if c.scan(false) && c.pick.value > c.cur.value {
				t.Fatalf("%v: variant %d stopped at %d with a neighbour worth %d", p, variant, c.cur.value, c.pick.value)
			}
		}
	}
}

// TestAnnealAccept: better and equal plans are always taken, worse ones
// with probability e^(ΔE/T), so never once T is near zero.
func TestAnnealAccept(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	const n = 100000
	for _, c := range []struct {
		delta int
		temp  float64
	}{{16, 1}, {0, 1}, {-16, 16}, {-8, 16}, {-32, 8}, {-1, 1e-9}} {
		accepted := 0
		for range n {
			if annealAccept(c.delta, c.temp, rng.Float64()) {
				accepted++
			}
		}
		want := min(1, math.Exp(float64(c.delta)/c.temp))
		if got := float64(accepted) / n; math.Abs(got-want) > 0.01 {
			t.Errorf("ΔE %d, T %g: accepted %.4f, want %.4f", c.delta, c.temp, got, want)
		}
	}
}

// TestBeamChoosesTheStrongestReplies: at the opponent's levels every
// state keeps its best reply before any state keeps a second one; at the
// bot's levels the best children of all states are kept.
func TestBeamChoosesTheStrongestReplies(t *testing.T) {
	cands := []beamCandidate{ // values for the side to move after the move
		{parent: 1, move: 10, value: 5}, {parent: 1, move: 11, value: -9}, {parent: 1, move: 12, value: -7},
		{parent: 2, move: 20, value: 3}, {parent: 2, move: 21, value: 4},
	}
	b := &beamSearch{}
	b.cands = slices.Clone(cands)
	b.choose(3, true)
	if got := []engine.Move{b.cands[0].move, b.cands[1].move, b.cands[2].move}; !slices.Equal(got, []engine.Move{11, 20, 12}) {
		t.Errorf("replies kept %v, want [11 20 12]", got)
	}
	b.cands = slices.Clone(cands)
	b.choose(3, false)
	if got := []engine.Move{b.cands[0].move, b.cands[1].move, b.cands[2].move}; !slices.Equal(got, []engine.Move{11, 12, 20}) {
		t.Errorf("bot moves kept %v, want [11 12 20]", got)
	}
}

// TestBeamIsMinimaxOnSmallTrees: when the widest beam holds the whole
// tree, the backed-up value is the exact minimax value, the opponent's
// levels included.
func TestBeamIsMinimaxOnSmallTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	for i := range 20 {
		game, left := "adjacency", 3
		if i%2 == 1 {
			game, left = "tictactoe", 4
		}
		p := randomPosition(t, rng, game, 28, left)
		want := bruteForce(p)
		res, err := Beam{}.Search(context.Background(), p, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != want || moveValue(p, res.Move) != want {
			t.Errorf("%v: beam scores %d with %s worth %d, want %d", p, res.Score, p.FormatMove(res.Move), moveValue(p, res.Move), want)
		}
	}
}

// TestNodeLimitedSearchesReplay: with a seed and a node cap, every local
// and genetic strategy gives the same answer twice and keeps near the cap.
// Under -race -short each plays its first game only.
func TestNodeLimitedSearchesReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	firstOnly := racetest.Short(t, "each strategy's first game only")
	for _, info := range slices.Concat(localStrategies, geneticStrategies) {
		gameNames := info.Games
		if firstOnly {
			gameNames = gameNames[:1]
		}
		for _, game := range gameNames {
			p := randomPosition(t, rng, game, 28, 40)
			limits := Limits{Seed: 9, Nodes: 5000}
			a, err := info.Strategy.Search(context.Background(), p, limits)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := info.Strategy.Search(context.Background(), p, limits)
			if a.Move != b.Move || a.Score != b.Score || a.Nodes != b.Nodes || !slices.Equal(a.PV, b.PV) {
				t.Errorf("%s %v: %+v then %+v", info.Name, p, a, b)
			}
			if a.Nodes > limits.Nodes+engine.MaxMoves*2*planMoves || len(a.PV) == 0 || a.PV[0] != a.Move {
				t.Errorf("%s %v: %d nodes, pv %v, move %v", info.Name, p, a.Nodes, a.PV, a.Move)
			}
		}
	}
}
