package train

import (
	"context"
	"testing"

	handeval "github.com/gambitbot/gambit/games/adjacency"
	"github.com/gambitbot/gambit/strategies/adjeval"
)

// Throwaway: held-out exact positions of the embedded run; MSE, MSE after
// the best affine rescaling, and pairwise order agreement.
func TestZZMeasure(t *testing.T) {
	cfg := DefaultConfig
	cfg.Seed, cfg.Games = 1, 1500
	byStage := selfPlay(cfg)
	w := adjeval.Default()
	for st := 0; st < 3; st++ {
		var y, l, h []float64
		for i := range byStage[st] {
			s := &byStage[st][i]
			if !s.heldOut {
				continue
			}
			if err := label(context.Background(), cfg, w, s); err != nil {
				t.Fatal(err)
			}
			if !s.exact {
				continue
			}
			y = append(y, s.label)
			l = append(l, float64(w.Evaluate(s.board))/16)
			h = append(h, float64(handeval.Evaluate(s.board))/16)
		}
		t.Logf("stage %d: n=%d learned mse %.2f affine %.2f agree %.3f | hand mse %.2f affine %.2f agree %.3f",
			st, len(y), mse(l, y), affine(l, y), agree(l, y), mse(h, y), affine(h, y), agree(h, y))
	}
}

func mse(p, y []float64) float64 {
	s := 0.0
	for i := range p {
		d := p[i] - y[i]
		s += d * d
	}
	return s / float64(len(p))
}

func affine(p, y []float64) float64 {
	n := float64(len(p))
	var sp, sy, spp, spy float64
	for i := range p {
		sp += p[i]
		sy += y[i]
		spp += p[i] * p[i]
		spy += p[i] * y[i]
	}
	a := (n*spy - sp*sy) / (n*spp - sp*sp)
	b := (sy - a*sp) / n
	q := make([]float64, len(p))
	for i := range p {
		q[i] = a*p[i] + b
	}
	return mse(q, y)
}

// agree: of the pairs with different labels, the share the evaluation
// orders the same way (ties count half).
func agree(p, y []float64) float64 {
	var ok, all float64
	for i := range p {
		for j := i + 1; j < len(p); j++ {
			if y[i] == y[j] {
				continue
			}
			all++
			d := (p[i] - p[j]) * (y[i] - y[j])
			switch {
			case d > 0:
				ok++
			case d == 0:
				ok += 0.5
			}
		}
	}
	return ok / all
}
