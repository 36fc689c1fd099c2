package train

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/strategies/adjeval"
)

// tiny is a training run of a few seconds.
func tiny(seed uint64) Config {
	c := DefaultConfig
	c.Seed, c.Games, c.ExactPlies, c.ExactNodes, c.HoldOut = seed, 40, 6, 20_000, 4
	return c
}

func trainBytes(t *testing.T, cfg Config) []byte {
	t.Helper()
	w, rep, err := Train(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Stages) != adjeval.NumStages || rep.Positions == 0 {
		t.Fatalf("report: %d stages, %d positions", len(rep.Stages), rep.Positions)
	}
	data, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestTrainIsReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("trains three times")
	}
	a, b := trainBytes(t, tiny(7)), trainBytes(t, tiny(7))
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with the same seed and options wrote different weights")
	}
	if c := trainBytes(t, tiny(8)); bytes.Equal(a, c) {
		t.Fatal("another seed wrote the same weights: the seed is not used")
	}
	if _, err := adjeval.Parse(a); err != nil {
		t.Fatalf("the weights written do not parse: %v", err)
	}
}

func TestTrainedStageZeroBeatsMaterial(t *testing.T) {
	// Stage 0's labels are exact, so its fit must predict exact values
	// better than the mark difference alone on the held-out positions.
	// Under -race -short from 24 games, not 40 (4 s of CPU under -race,
	// 9 s with 40; at 20 stage 0 has too few positions to fit).
	cfg := tiny(3)
	cfg.ExactPlies = 0 // stage 0 is exact anyway
	if racetest.Short(t, "24 self-play games, not 40") {
		cfg.Games = 24
	}
	w, rep, err := Train(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Stages[0]
	if s.Exact != s.Train+s.HeldOut || s.HeldOut == 0 {
		t.Fatalf("stage 0: %d exact of %d+%d positions", s.Exact, s.Train, s.HeldOut)
	}
	if w[0][adjeval.FMaterial] <= 0 {
		t.Errorf("stage 0 weighs material %d: want positive", w[0][adjeval.FMaterial])
	}
	// The held-out error of "final difference = current difference".
	samples := selfPlay(cfg)[0]
	material := 0.0
	n := 0
	for i := range samples {
		if !samples[i].heldOut {
			continue
		}
		if err := label(context.Background(), cfg, w, &samples[i]); err != nil {
			t.Fatal(err)
		}
		d := float64(samples[i].f[adjeval.FMaterial]) - samples[i].label
		material += d * d
		n++
	}
	if material /= float64(n); s.Learned >= material {
		t.Errorf("stage 0 held-out MSE %.2f, material alone %.2f: want lower", s.Learned, material)
	}
}

func TestLabelsOfShortPositionsAreExact(t *testing.T) {
	// With 3 plies left the label search reaches the end: its value is
	// the game's, which a plain minimax over every line confirms.
	rng := rand.New(rand.NewPCG(5, 6))
	var w adjeval.Weights
	for range 20 {
		b, _ := adjacency.NewBoard(2, 0)
		for b.PliesLeft() > 3 {
			b = b.After(b.Moves(nil)[rng.IntN(len(b.Moves(nil)))])
		}
		s := sample{board: b, f: adjeval.Extract(b)}
		if err := label(context.Background(), tiny(1), &w, &s); err != nil {
			t.Fatal(err)
		}
		if want := float64(plainMinimax(b)); s.label != want || !s.exact {
			t.Fatalf("%v: label %v (exact %v), want %v", b, s.label, s.exact, want)
		}
	}
}

func TestExactLabelsAgreeWithPlainMinimax(t *testing.T) {
	// With 6 plies left on a board of 6 empty cells, the exact solver
	// labels the position; a plain minimax over the 720 lines checks it.
	rng := rand.New(rand.NewPCG(7, 8))
	cfg := tiny(1)
	var w adjeval.Weights
	for range 10 {
		b, _ := adjacency.NewBoard(adjacency.MaxRounds, 0)
		for b.PliesLeft() > 6 {
			b = b.After(b.Moves(nil)[rng.IntN(len(b.Moves(nil)))])
		}
		s := sample{board: b, f: adjeval.Extract(b)}
		if err := label(context.Background(), cfg, &w, &s); err != nil {
			t.Fatal(err)
		}
		if want := float64(plainMinimax(b)); s.label != want || !s.exact {
			t.Fatalf("%v: label %v (exact %v), want %v", b, s.label, s.exact, want)
		}
	}
}

func plainMinimax(b adjacency.Board) int {
	if b.Terminal() {
		return b.Score(b.SideToMove())
	}
	best := math.MinInt
	for _, m := range b.Moves(nil) {
		best = max(best, -plainMinimax(b.After(m)))
	}
	return best
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []Config{{Games: 0}, {Games: 1, Explore: 2}, {Games: 1, Ridge: -1}, {Games: 1, Opening: -1}} {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v: valid, want an error", c)
		}
	}
	if _, _, err := Train(context.Background(), Config{}); err == nil {
		t.Error("Train of no games: no error")
	}
}
