package adjsearch

import (
	"context"
	"hash/crc32"
	"math/bits"
	"strings"

	"github.com/gambitbot/gambit/engine/adjacency"
)

// The learned leaf of a game that fills the board: an estimate of W(E),
// the value of the set game on the empty cells E (fill.go), linear in a
// few counts of E worked out on bitboards, with weights per number of
// empty cells (each set of n cells lies n moves from the end, and one more
// empty cell changes who plays last). The weights are fitted by
// internal/filltrain, a tool outside the package the bot runs, and
// embedded as fillweights.go, which
// `go generate ./strategies/adjsearch` writes (about two minutes on one
// core; docs/ai.md, "The set-game evaluation", has its figures).
//
//go:generate go run ./internal/fillgen -seed 1 -games 1000

// The features of a set of empty cells E. A live cell (one in or next to
// E) goes, at the end, to whoever plays the last empty cell in or next to
// it; its count is how many there are. A move's gain is the live cells it
// settles (those of count 1 in or next to it).
const (
	// FillBias is 1.
	FillBias = iota
	// FillEmpty1 … FillEmpty5 count the empty cells of count 1 to 5.
	FillEmpty1
	FillEmpty2
	FillEmpty3
	FillEmpty4
	FillEmpty5
	// FillFilled1 … FillFilled4 count the filled live cells of count 1
	// to 4.
	FillFilled1
	FillFilled2
	FillFilled3
	FillFilled4
	// FillGain1 … FillGain3 count the moves that settle at least 1, 2
	// and 3 cells.
	FillGain1
	FillGain2
	FillGain3
	// FillMaxGain is the most cells one move settles.
	FillMaxGain
	// NumFillFeatures is the number of features.
	NumFillFeatures
)

var fillFeatureNames = [NumFillFeatures]string{
	"bias", "empty1", "empty2", "empty3", "empty4", "empty5",
	"filled1", "filled2", "filled3", "filled4", "gain1", "gain2", "gain3", "maxgain",
}

// FillFeatureSet identifies the feature set: the CRC-32 of the feature
// names in order. The generated weights record the set they were fitted
// on, and a test compares.
func FillFeatureSet() uint32 {
	return crc32.ChecksumIEEE([]byte(strings.Join(fillFeatureNames[:], ",")))
}

// FillFeatures are the features of a set of empty cells.
type FillFeatures [NumFillFeatures]int32

// FillFeaturesOf returns the features of the set of empty cells e, counted
// on bitboards with two bit-sliced adders.
func FillFeaturesOf(e uint64) FillFeatures {
	var f FillFeatures
	f[FillBias] = 1
	near := adjacency.CaptureSets(e) // by empty orthogonal neighbours
	for k := range 5 {
		f[FillEmpty1+k] = int32(bits.OnesCount64(near[k] & e))
	}
	for k := 1; k < 5; k++ {
		f[FillFilled1+k-1] = int32(bits.OnesCount64(near[k] &^ e))
	}
	gain := gainSets(e) // gain[g]: the empty cells of gain g
	atLeast := uint64(0)
	for g := 5; g >= 1; g-- {
		atLeast |= gain[g]
		if g <= 3 {
			f[FillGain1+g-1] = int32(bits.OnesCount64(atLeast))
		}
		if atLeast != 0 && f[FillMaxGain] == 0 {
			f[FillMaxGain] = int32(g)
		}
	}
	return f
}

// FillStages is the number of stages: a set of n empty cells (2 ≤ n ≤
// 56, the most a game fills) has the weights of stage n; stages 0 and 1
// are unused (a set of one cell is valued exactly).
const FillStages = 2*adjacency.MaxRounds + 1

// FillWeightScale is the number of weight units in one mark.
const FillWeightScale = 4096

// FillWeights are the weights of every stage, in 1/FillWeightScale of a
// mark per unit of the feature, and the stage's tempo: the mean of its
// weighted sums over the training sets, in the same units.
type FillWeights struct {
	Weights [FillStages][NumFillFeatures]int32
	Tempo   [FillStages]int32
}

// fillGrain is the step of the leaf value, in Units: one mark. (A
// null-window search at the full 1/16-mark precision fails high on
// differences the estimate cannot tell apart; half and quarter marks cost
// two plies of depth from the opening.)
const fillGrain = Unit

// Estimate is w's estimate of W(e) for the set of empty cells e, in
// marks; a set of at most one cell gets its exact value.
func (w *FillWeights) Estimate(e uint64) float64 {
	n := bits.OnesCount64(e)
	if n <= 1 {
		return float64(bits.OnesCount64(live(e)))
	}
	return float64(w.Weighted(min(n, FillStages-1), FillFeaturesOf(e))) / FillWeightScale
}

// Eval is the leaf value a search should see of the non-empty set of
// empty cells e, in Units: Estimate without the stage's tempo, rounded to
// a multiple of fillGrain. A set of one cell gets its exact value.
//
// The tempo — what the player to move can expect from a set of n cells on
// average, which swings with the parity of n — is the same for every leaf
// of a search of fixed depth (each move removes one cell), so it leaves
// the choice of move alone; without it, reduced searches (whose leaves
// are a cell larger) and table entries of another depth do not mislead
// the search by the swing.
func (w *FillWeights) Eval(e uint64) int {
	n := bits.OnesCount64(e)
	if n <= 1 {
		return bits.OnesCount64(live(e)) * Unit
	}
	stage := min(n, FillStages-1)
	return roundTo(w.Weighted(stage, FillFeaturesOf(e))-int64(w.Tempo[stage]), FillWeightScale/Unit*fillGrain) * fillGrain
}

// EmbeddedFillWeights returns a copy of the weights the search uses
// (fillweights.go), for the generator's check that the file is its own.
func EmbeddedFillWeights() FillWeights { return fillWeights }

// FillSolver solves sets of empty cells exactly, one at a time, with a
// table of its own kept from one set to the next: the exact labels of the
// set-game evaluation's training.
type FillSolver struct{ t *thread }

// NewFillSolver returns a solver with a table of about tableBytes that
// stops once ctx is done.
func NewFillSolver(ctx context.Context, tableBytes int) *FillSolver {
	return &FillSolver{newThread(solverRun(ctx, New(nil), newTable(tableBytes), true))}
}

// Value is W(e), the exact value in marks of the non-empty set of empty
// cells e for the player to move; after ctx is done it is meaningless.
func (s *FillSolver) Value(e uint64) int {
	return s.t.fillNode(e, fillKey(e), -infinity, infinity)
}

// Weighted is Σ weight × feature of stage, in weight units.
func (w *FillWeights) Weighted(stage int, f FillFeatures) int64 {
	sum := int64(0)
	for i, v := range f {
		sum += int64(w.Weights[stage][i]) * int64(v)
	}
	return sum
}

// roundTo is v/step rounded to the nearest integer, halves away from
// zero, so that the rounding is the same for both signs.
func roundTo(v, step int64) int {
	if v < 0 {
		return -int((-v + step/2) / step)
	}
	return int((v + step/2) / step)
}
