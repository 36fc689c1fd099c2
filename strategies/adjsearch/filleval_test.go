package adjsearch

import (
	"math/bits"
	"math/rand/v2"
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
		if got := FillFeaturesOf(e); got != want {
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
			if got, want := FillFeaturesOf(s), FillFeaturesOf(e); got != want {
				t.Fatalf("%s of %016x: features %v, want %v", name, e, got, want)
			}
			if got, want := fillEval(s), fillEval(e); got != want {
				t.Fatalf("%s of %016x: leaf %d, want %d", name, e, got, want)
			}
		}
	}
}

// TestEmbeddedFillWeights: fillweights.go was fitted on the current
// feature set and fills every stage a search meets. (internal/filltrain
// checks that the file is what its generator writes.)
func TestEmbeddedFillWeights(t *testing.T) {
	if fillWeightsSet != FillFeatureSet() {
		t.Fatalf("fillweights.go was fitted on feature set %08x, the features are %08x: run go generate ./strategies/adjsearch", fillWeightsSet, FillFeatureSet())
	}
	for n := 2; n < FillStages-1; n++ {
		if fillWeights.Weights[n] == ([NumFillFeatures]int32{}) {
			t.Fatalf("stage %d has no weights", n)
		}
	}
}
