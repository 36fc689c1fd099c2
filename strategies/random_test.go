package strategies

import (
	"context"
	"testing"

	"github.com/gambitbot/gambit/engine/tictactoe"
)

// TestRandomIsUniform: over seeds 1–9000 the nine first moves of
// tic-tac-toe come up equally often (chi-square, 8 degrees of freedom,
// below 26.12: p > 0.001), and a seed always gives the same move.
func TestRandomIsUniform(t *testing.T) {
	p := tictactoe.New()
	const draws = 9000
	var counts [tictactoe.Cells]int
	for seed := range uint64(draws) {
		res, err := Random{}.Search(context.Background(), p, Limits{Seed: seed + 1})
		if err != nil || !p.Legal(res.Move) {
			t.Fatalf("seed %d: %v, %v", seed+1, res.Move, err)
		}
		counts[res.Move]++
	}
	expected := float64(draws) / tictactoe.Cells
	chi2 := 0.0
	for _, n := range counts {
		chi2 += (float64(n) - expected) * (float64(n) - expected) / expected
	}
	if chi2 > 26.12 {
		t.Errorf("counts %v: chi-square %.1f", counts, chi2)
	}
	a, _ := Random{}.Search(context.Background(), p, Limits{Seed: 42})
	b, _ := Random{}.Search(context.Background(), p, Limits{Seed: 42})
	if a.Move != b.Move {
		t.Errorf("seed 42 gave %v and %v", a.Move, b.Move)
	}
}
