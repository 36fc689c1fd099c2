package adjeval

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"

	"github.com/gambitbot/gambit/engine/adjacency"
)

const (
	// StageWidth is the plies left covered by one stage: a position with
	// L plies left (1 ≤ L) is of stage (L−1)/StageWidth, and each stage
	// has its own weights.
	StageWidth = 4
	// NumStages is the number of stages: 56 plies, the longest game.
	NumStages = 2 * adjacency.MaxRounds / StageWidth
	// WeightScale is the number of weight units in one mark: a weight w
	// adds w/WeightScale marks per unit of its feature.
	WeightScale = 4096

	magic   = "GAMBITEV"
	version = 1
)

// Weights are the weights of every stage, in 1/WeightScale of a mark per
// unit of the feature.
type Weights [NumStages][NumFeatures]int32

// Stage returns the stage of a position with left plies left (left ≥ 1).
func Stage(left int) int { return min((left-1)/StageWidth, NumStages-1) }

// Evaluate is w's estimate of the final mark difference of b for the side
// to move, in Units (sixteenths of a mark): Σ weight × feature of b's
// stage. A finished position gets its exact mark difference.
func (w *Weights) Evaluate(b adjacency.Board) int {
	if b.PliesLeft() == 0 {
		return Unit * b.Score(b.SideToMove())
	}
	return w.evaluate(Stage(b.PliesLeft()), Extract(b))
}

// evaluate is the weighted sum of f with stage's weights, in Units.
func (w *Weights) evaluate(stage int, f Features) int {
	return int(w.weighted(stage, f) / (WeightScale / Unit))
}

// weighted is Σ weight × feature of stage, in weight units.
func (w *Weights) weighted(stage int, f Features) int64 {
	sum := int64(0)
	for i, v := range f {
		sum += int64(w[stage][i]) * int64(v)
	}
	return sum
}

// Grain is the step of SearchEvaluate, in Units: half a mark.
const Grain = Unit / 2

// SearchEvaluate is the evaluation a search should see: w's estimate of
// b without its tempo — the bias and parity terms, which depend only on
// the plies left — rounded to a multiple of Grain, in Units. A finished
// position gets its exact mark difference, as with Evaluate.
//
// Both changes leave a fixed-depth search's choice alone where every leaf
// has the same plies left, and make alpha-beta far cheaper (measured in
// docs/ai.md, "The learned evaluation"): with the tempo, a
// leaf's value swings by up to 4.4 marks from one ply to the next, so
// reduced searches (whose leaves are a ply nearer) and table entries of
// another depth mislead the search; and at the full 1/16 mark precision
// null-window searches fail high on differences that the estimate cannot
// tell apart.
func (w *Weights) SearchEvaluate(b adjacency.Board) int {
	left := b.PliesLeft()
	if left == 0 {
		return Unit * b.Score(b.SideToMove())
	}
	f := Extract(b)
	f[FBias], f[FParity] = 0, 0
	return roundTo(w.weighted(Stage(left), f), WeightScale/Unit*Grain) * Grain
}

// roundTo is v/step rounded to the nearest integer, halves away from
// zero, so that the rounding is the same for both sides.
func roundTo(v, step int64) int {
	if v < 0 {
		return -int((-v + step/2) / step)
	}
	return int((v + step/2) / step)
}

// The embedded weights; see docs/ai.md, "`gambit train`", for the run
// and its time. Regenerate them after changing the features or the training.
//
//go:generate go run ../../cmd/gambit train --out weights.bin --seed 1 --games 1500
//go:embed weights.bin
var embedded []byte

// defaultWeights are the embedded weights, parsed once; the tests check
// that they parse.
var defaultWeights = func() *Weights {
	w, err := Parse(embedded)
	if err != nil {
		panic(err) // TestEmbeddedWeights fails first
	}
	return w
}()

// Default returns the embedded weights: the ones `gambit train` wrote to
// strategies/adjeval/weights.bin.
func Default() *Weights { w := *defaultWeights; return &w }

// Evaluate is the learned evaluation of b for the side to move, in Units,
// with the embedded weights: an estimate of the final mark difference
// times 16, positive when the side to move is ahead. It is a pure function
// of the position.
func Evaluate(b adjacency.Board) int { return defaultWeights.Evaluate(b) }

// SearchEvaluate is Weights.SearchEvaluate with the embedded weights: the
// evaluation minimax searches with.
func SearchEvaluate(b adjacency.Board) int { return defaultWeights.SearchEvaluate(b) }

// featureSet identifies the feature set in a weights file's header: the
// CRC-32 of the feature names in order.
func featureSet() uint32 { return crc32.ChecksumIEEE([]byte(strings.Join(featureNames[:], ","))) }

// header is the start of a weights file; a CRC-32 of everything before it
// ends the file.
type header struct {
	Magic                     [8]byte
	Version                   uint16
	Stages, StageWidth, Feats uint16
	FeatureSet                uint32
}

// ErrBadWeights reports a weights file that is damaged or of another
// version, stage layout or feature set.
var ErrBadWeights = errors.New("not a weights file of this version")

// MarshalBinary returns the weights file: a header (magic "GAMBITEV",
// version, stages, stage width, number of features and a checksum of
// their names), the weights as little-endian int32 stage by stage, and a
// CRC-32 of all that.
func (w *Weights) MarshalBinary() ([]byte, error) {
	var buf bytes.Buffer
	h := header{Version: version, Stages: NumStages, StageWidth: StageWidth, Feats: NumFeatures, FeatureSet: featureSet()}
	copy(h.Magic[:], magic)
	if err := binary.Write(&buf, binary.LittleEndian, h); err != nil {
		return nil, fmt.Errorf("adjeval: write weights header: %w", err)
	}
	if err := binary.Write(&buf, binary.LittleEndian, w); err != nil {
		return nil, fmt.Errorf("adjeval: write weights: %w", err)
	}
	return binary.LittleEndian.AppendUint32(buf.Bytes(), crc32.ChecksumIEEE(buf.Bytes())), nil
}

// Parse reads a weights file written by MarshalBinary. It refuses a file
// of the wrong size, a failed checksum, or another version, stage layout
// or feature set, wrapping ErrBadWeights with what is wrong.
func Parse(data []byte) (*Weights, error) {
	var h header
	var w Weights
	want := binary.Size(h) + binary.Size(&w) + 4
	if len(data) != want {
		return nil, fmt.Errorf("adjeval: weights file of %d bytes, want %d: %w", len(data), want, ErrBadWeights)
	}
	body, sum := data[:want-4], binary.LittleEndian.Uint32(data[want-4:])
	if got := crc32.ChecksumIEEE(body); got != sum {
		return nil, fmt.Errorf("adjeval: weights file checksum %08x, want %08x (damaged): %w", got, sum, ErrBadWeights)
	}
	r := bytes.NewReader(body)
	if err := binary.Read(r, binary.LittleEndian, &h); err != nil {
		return nil, fmt.Errorf("adjeval: read weights header: %w", err)
	}
	switch {
	case string(h.Magic[:]) != magic:
		return nil, fmt.Errorf("adjeval: weights file starts %q, want %q: %w", h.Magic[:], magic, ErrBadWeights)
	case h.Version != version:
		return nil, fmt.Errorf("adjeval: weights file version %d, want %d: %w", h.Version, version, ErrBadWeights)
	case h.Stages != NumStages || h.StageWidth != StageWidth || h.Feats != NumFeatures || h.FeatureSet != featureSet():
		return nil, fmt.Errorf("adjeval: weights file of %d stages of %d plies and %d features (set %08x), want %d of %d and %d (set %08x): %w",
			h.Stages, h.StageWidth, h.Feats, h.FeatureSet, NumStages, StageWidth, NumFeatures, featureSet(), ErrBadWeights)
	}
	if err := binary.Read(r, binary.LittleEndian, &w); err != nil {
		return nil, fmt.Errorf("adjeval: read weights: %w", err)
	}
	return &w, nil
}
