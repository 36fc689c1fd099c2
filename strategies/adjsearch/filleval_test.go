package adjsearch

import (
	"bytes"
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/strategies/internal/boardsym"
)

// randomEmpties returns a random set of n empty cells.
func randomEmpties(rng *rand.Rand, n int) uint64 {
	e := uint64(0)
	for bits.OnesCount64(e) < n {
		e |= 1 << rng.IntN(adjacency.Cells)
	}
	return e
}

// TestFillFeaturesCountCellByCell: the bit-sliced features equal the same
// counts taken cell by cell, a move's gain being the live cells it takes
// out of the live set.
func TestFillFeaturesCountCellByCell(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 28))
	for range 300 {
		e := randomEmpties(rng, 1+rng.IntN(56))
		var want FillFeatures
		want[FillBias] = 1
		for c := range adjacency.Cells {
			k := bits.OnesCount64(closedCells[c] & e)
			switch {
			case e&(1<<c) != 0:
				want[FillEmpty1+k-1]++
			case k > 0:
				want[FillFilled1+k-1]++
			}
			if e&(1<<c) == 0 {
				continue
			}
			gain := bits.OnesCount64(live(e)) - bits.OnesCount64(live(e&^(1<<c)))
			for g := 1; g <= min(gain, 3); g++ {
				want[FillGain1+g-1]++
			}
			want[FillMaxGain] = max(want[FillMaxGain], int32(gain))
		}
		if got := fillFeatures(e); got != want {
			t.Fatalf("%016x: features %v, want %v", e, got, want)
		}
	}
}

// TestFillEvalIsSymmetric: W is the same for every rotation and
// reflection of the empty cells, and so must be the features and the
// leaf value.
func TestFillEvalIsSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 28))
	for range 300 {
		e := randomEmpties(rng, 1+rng.IntN(56))
		for name, sym := range boardsym.Symmetries {
			s := boardsym.Cells(e, sym)
			if got, want := fillFeatures(s), fillFeatures(e); got != want {
				t.Fatalf("%s of %016x: features %v, want %v", name, e, got, want)
			}
			if got, want := fillEval(s), fillEval(e); got != want {
				t.Fatalf("%s of %016x: leaf %d, want %d", name, e, got, want)
			}
		}
	}
}

// TestFillLabelSearchIsExactToTheEnd: the training's label search, deep
// enough to reach the last cell, is the solver's exact value whatever the
// weights at its (unreached) leaves.
func TestFillLabelSearchIsExactToTheEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 28))
	r := solverRun(context.Background(), New(nil), newTable(1<<20), true)
	solver := newThread(r)
	w := fillWeights
	for range 40 {
		e := randomEmpties(rng, 2+rng.IntN(7))
		want := solver.fillNode(e, fillKey(e), -infinity, infinity) * Unit
		if got := w.search(e, bits.OnesCount64(e)-1, -infinity, infinity); got != want {
			t.Fatalf("%016x: label search %d, solver %d", e, got, want)
		}
	}
}

// smallFill is a training run of a few seconds: exact labels up to 12
// empty cells, searched ones above.
func smallFill(seed uint64) FillTrainConfig {
	c := DefaultFillTrainConfig
	c.Seed, c.Games, c.ExactMax, c.HoldOut, c.TableMiB = seed, 100, 12, 5, 8
	return c
}

func trainFillSource(t *testing.T, cfg FillTrainConfig) ([]byte, []FillStageReport) {
	t.Helper()
	w, rep, err := TrainFill(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep) != FillStages-2 {
		t.Fatalf("%d stages reported, want %d", len(rep), FillStages-2)
	}
	src, err := w.GoSource("test")
	if err != nil {
		t.Fatal(err)
	}
	return src, rep
}

// TestTrainFillBeatsTheNeutralLeaf: on the held-out sets with exact
// labels, the fitted estimate errs less than the neutral leaf and than
// the stage's tempo alone (so the features other than the bias add
// knowledge).
func TestTrainFillBeatsTheNeutralLeaf(t *testing.T) {
	if testing.Short() {
		t.Skip("trains")
	}
	_, rep := trainFillSource(t, smallFill(3))
	var learned, tempo, neutral float64
	fitted := 0
	for _, s := range rep {
		if !s.Exact || s.Copied {
			continue
		}
		if s.HeldOut == 0 {
			t.Fatalf("stage %d: none held out", s.Empty)
		}
		fitted++
		learned += s.Learned
		tempo += s.Tempo
		neutral += s.Neutral
	}
	if fitted < 8 {
		t.Fatalf("%d exact stages fitted, want at least 8", fitted)
	}
	t.Logf("exact stages, summed held-out MSE: learned %.2f, tempo %.2f, neutral %.2f", learned, tempo, neutral)
	if learned >= tempo || tempo >= neutral {
		t.Fatalf("summed held-out MSE of the exact stages: learned %.2f, tempo alone %.2f, neutral %.2f: want them in that order", learned, tempo, neutral)
	}
}

// TestTrainFillIsReproducible: the same configuration writes the same
// file; another seed another.
func TestTrainFillIsReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("trains three times")
	}
	cfg := smallFill(7)
	a, _ := trainFillSource(t, cfg)
	b, _ := trainFillSource(t, cfg)
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with the same seed and options wrote different weights")
	}
	cfg.Seed++
	if c, _ := trainFillSource(t, cfg); bytes.Equal(a, c) {
		t.Fatal("another seed wrote the same weights: the seed is not used")
	}
}

// TestEmbeddedFillWeights: fillweights.go is what the generator writes
// for the weights it holds (no hand edit), was fitted on the current
// feature set, and fills every stage a search meets.
func TestEmbeddedFillWeights(t *testing.T) {
	if fillWeightsSet != fillFeatureSet() {
		t.Fatalf("fillweights.go was fitted on feature set %08x, the features are %08x: run go generate ./strategies/adjsearch", fillWeightsSet, fillFeatureSet())
	}
	file, err := os.ReadFile("fillweights.go")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(file, []byte("\n"))
	command, ok := strings.CutPrefix(string(first), "// Code generated by ")
	command, ok2 := strings.CutSuffix(command, "; DO NOT EDIT.")
	if !ok || !ok2 {
		t.Fatalf("fillweights.go starts %q: not generated", first)
	}
	src, err := fillWeights.GoSource(command)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, file) {
		t.Fatal("fillweights.go differs from what the generator writes for its weights: edited by hand?")
	}
	for n := 2; n < FillStages-1; n++ {
		if fillWeights.Weights[n] == ([NumFillFeatures]int32{}) {
			t.Fatalf("stage %d has no weights", n)
		}
	}
}

func TestFillTrainConfigValidate(t *testing.T) {
	ok := smallFill(1)
	if err := ok.Validate(); err != nil {
		t.Fatalf("%+v: %v", ok, err)
	}
	bad := []func(*FillTrainConfig){
		func(c *FillTrainConfig) { c.Games = 0 },
		func(c *FillTrainConfig) { c.Opening = -1 },
		func(c *FillTrainConfig) { c.LabelDepth = 0 },
		func(c *FillTrainConfig) { c.Explore = 1.5 },
		func(c *FillTrainConfig) { c.Ridge = -1 },
	}
	for i, f := range bad {
		c := ok
		f(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("case %d, %+v: valid, want an error", i, c)
		}
		if _, _, err := TrainFill(context.Background(), c); err == nil {
			t.Errorf("case %d: TrainFill trained", i)
		}
	}
}

func TestTrainFillStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := TrainFill(ctx, smallFill(1)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled training: error %v, want context.Canceled", err)
	}
}
