package othello

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"sync"

	rules "github.com/gambitbot/gambit/engine/othello"
)

// The evaluation is a pattern evaluation in the style of Logistello and
// Edax: the board is read through patterns, groups of squares such as an
// edge, and each configuration of a pattern (each square empty, own or
// the opponent's) has a weight of its own, fitted by regression on scored
// positions (internal/train/othello). A pattern is read on all eight
// turned and mirrored boards with the same weights, so that symmetric
// positions score alike; the weights change with the game's stage.

// The patterns, each as read in the board's top-left corner or top edge
// (a1 is bit 0, rows from the top); the other instances are read on the
// turned and mirrored boards.
const (
	patEdge    = iota // the top row and the two X-squares b2, g2
	patCorner3        // the 3×3 square in the corner a1
	patCorner5        // the 2×5 rectangle a1–e2
	patLine2          // the second row
	patLine3          // the third row
	patLine4          // the fourth row
	patDiag8          // the diagonal h1–a8
	patDiag7          // the diagonal g1–a7
	patDiag6          // f1–a6
	patDiag5          // e1–a5
	patDiag4          // d1–a4
	numPatterns
)

// patternSquares is the number of squares of each pattern.
var patternSquares = [numPatterns]int{10, 9, 10, 8, 8, 8, 8, 7, 6, 5, 4}

// The scalar features, after the patterns' weights: each multiplies its
// weight.
const (
	scalarBias      = iota // 1: the side to move's edge
	scalarMobility         // the moves of the side to move minus its opponent's
	scalarPotential        // empty squares next to the opponent's discs minus next to one's own
	scalarParity           // 1 when the number of empty squares is odd
	scalarDiscs            // the side to move's discs minus its opponent's
	numScalars
)

// Stages is the number of game stages with weights of their own: stage s
// holds the positions of 4+4s to 7+4s discs (the last, 60 to 63).
const Stages = 15

// Stage returns the stage of a position with empties empty squares.
func Stage(empties int) int { return min(Stages-1, max(0, (60-empties)/4)) }

// patternOffset[p] is where pattern p's weights start in a stage's weight
// vector; patternOffset[numPatterns] is where the scalars start.
// StageWeights is the number of weights of one stage: a weight per
// configuration of every pattern, then numScalars.
var patternOffset, StageWeights = offsets()

func offsets() ([numPatterns + 1]int, int) {
	var off [numPatterns + 1]int
	n := 0
	for p, squares := range patternSquares {
		off[p] = n
		n += pow3(squares)
	}
	off[numPatterns] = n
	return off, n + numScalars
}

// ternary[b] reads the bits of b as base-3 digits: a pattern's index is
// ternary[own bits] + 2·ternary[opponent's bits] (a square empty 0, own
// 1, the opponent's 2, the first square the lowest digit).
var ternary = func() (t [1 << 10]int32) {
	for b := range t {
		d := int32(1)
		for i := range 10 {
			if b>>i&1 == 1 {
				t[b] += d
			}
			d *= 3
		}
	}
	return t
}()

func pow3(n int) int {
	p := 1
	for range n {
		p *= 3
	}
	return p
}

// The masks of the diagonals as read: diagonal of length L holds the
// squares (row r, column L−1−r).
const (
	diagMask8 = 0x0102040810204080
	diagMask7 = 0x0001020408102040
	diagMask6 = 0x0000010204081020
	diagMask5 = 0x0000000102040810
	diagMask4 = 0x0000000001020408
)

var diagMasks = [5]uint64{diagMask8, diagMask7, diagMask6, diagMask5, diagMask4}

// The offsets of the patterns' weights in a stage's weight vector, as
// constants for Evaluate (TestReadsAreFolded checks them against
// patternOffset).
const (
	offEdge    = 0
	offCorner3 = offEdge + 59049
	offCorner5 = offCorner3 + 19683
	offLine2   = offCorner5 + 59049
	offLine3   = offLine2 + 6561
	offLine4   = offLine3 + 6561
	offDiag8   = offLine4 + 6561
	offDiag7   = offDiag8 + 6561
	offDiag6   = offDiag7 + 2187
	offDiag5   = offDiag6 + 729
	offDiag4   = offDiag5 + 243
	offScalars = offDiag4 + 81
)

// index is the index of a pattern's configuration from the bits of its
// squares that own and the opponent hold.
func index(own, opp uint64) int { return int(ternary[own&1023] + 2*ternary[opp&1023]) }

// patternBits gathers the squares of pattern p from bitboard x into the
// low bits, in the pattern's square order.
func patternBits(p int, x uint64) uint64 {
	switch p {
	case patEdge:
		return edgeBits(x)
	case patCorner3:
		return corner3Bits(x)
	case patCorner5:
		return corner5Bits(x)
	case patLine2, patLine3, patLine4:
		return x >> (8 * (p - patLine2 + 1)) & 0xff
	default:
		return diagBits(x, diagMasks[p-patDiag8])
	}
}

func edgeBits(x uint64) uint64    { return x&0xff | x>>1&0x100 | x>>5&0x200 }
func corner3Bits(x uint64) uint64 { return x&7 | x>>5&0x38 | x>>10&0x1c0 }
func corner5Bits(x uint64) uint64 { return x&31 | x>>3&0x3e0 }

// diagBits gathers the squares of a diagonal (mask) into the low bits by
// column: one square per column, a multiplication moves each to the top
// row without carries.
func diagBits(x, mask uint64) uint64 { return (x & mask) * 0x0101010101010101 >> 56 }

// symmetric returns the eight turned and mirrored boards of x: the
// identity, upside down, mirrored, turned half a turn, and those four
// transposed (rows read as columns).
func symmetric(x uint64) [8]uint64 {
	v := bits.ReverseBytes64(x)
	r := bits.Reverse64(x)
	h := bits.ReverseBytes64(r)
	return [8]uint64{x, v, h, r, transpose(x), transpose(v), transpose(h), transpose(r)}
}

// transpose mirrors x in the diagonal a1–h8: square (r, c) to (c, r).
func transpose(x uint64) uint64 {
	const k1, k2, k4 = 0x5500550055005500, 0x3333000033330000, 0x0f0f0f0f00000000
	t := k4 & (x ^ x<<28)
	x ^= t ^ t>>28
	t = k2 & (x ^ x<<14)
	x ^= t ^ t>>14
	t = k1 & (x ^ x<<7)
	x ^= t ^ t>>7
	return x
}

// Features are what the evaluation reads of a position: the indices of
// every pattern's weights as read on each of the eight symmetric boards,
// offsets into a stage's weight vector, and the scalar features.
type Features struct {
	// Stage is the position's stage.
	Stage int
	// Patterns are the indices of the weights of each pattern read on
	// each symmetric board, counted each time (a pattern symmetric in
	// itself, such as an edge, is read twice on one square set).
	Patterns [numPatterns * 8]int32
	// Scalars are the scalar features.
	Scalars [numScalars]int32
}

// Read returns the features of the position where the side to move has
// own and its opponent opp.
func Read(own, opp uint64) Features {
	var f Features
	empty := ^(own | opp)
	f.Stage = Stage(bits.OnesCount64(empty))
	so, sp := symmetric(own), symmetric(opp)
	for p := range numPatterns {
		base := int32(patternOffset[p])
		for s := range 8 {
			f.Patterns[8*p+s] = base + ternary[patternBits(p, so[s])] + 2*ternary[patternBits(p, sp[s])]
		}
	}
	f.Scalars = scalars(own, opp, empty)
	return f
}

// scalars returns the scalar features.
func scalars(own, opp, empty uint64) [numScalars]int32 {
	var s [numScalars]int32
	s[scalarBias] = 1
	s[scalarMobility] = int32(bits.OnesCount64(rules.LegalMoves(own, opp)) - bits.OnesCount64(rules.LegalMoves(opp, own)))
	s[scalarPotential] = int32(bits.OnesCount64(neighbours(opp)&empty) - bits.OnesCount64(neighbours(own)&empty))
	s[scalarParity] = int32(bits.OnesCount64(empty) & 1)
	s[scalarDiscs] = int32(bits.OnesCount64(own) - bits.OnesCount64(opp))
	return s
}

// MaxWeight bounds every weight: a pattern read on up to four symmetric
// boards that cover the same squares is looked up once, with the sum of
// their weights, which must fit the 16 bits of a folded weight.
const MaxWeight = 8191

// Weights are the evaluation's weights in Units, folded for speed: each
// pattern is looked up once per square set its eight symmetric reads
// cover, with the sum of their weights.
type Weights struct {
	folded [Stages][]int16
}

// NewWeights returns the weights of stages, StageWeights each, in Units,
// each within ±MaxWeight.
func NewWeights(stages [Stages][]int16) (*Weights, error) {
	w := &Weights{}
	for s, v := range stages {
		if err := w.SetStage(s, v); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// SetStage replaces the weights of stage s by v, StageWeights in Units
// within ±MaxWeight: the trainer fits one stage at a time.
func (w *Weights) SetStage(s int, v []int16) error {
	if len(v) != StageWeights {
		return fmt.Errorf("othello: stage %d has %d weights, want %d", s, len(v), StageWeights)
	}
	for i, x := range v {
		if x < -MaxWeight || x > MaxWeight {
			return fmt.Errorf("othello: stage %d: weight %d is %d, beyond ±%d", s, i, x, MaxWeight)
		}
	}
	w.folded[s] = fold(v)
	return nil
}

// Evaluate returns the evaluation, in Units, of the position where the
// side to move has own and its opponent opp: the sum of its weights,
// clamped within the final scores.
func (w *Weights) Evaluate(own, opp uint64) int {
	empty := ^(own | opp)
	v := w.folded[Stage(bits.OnesCount64(empty))]
	so, sp := symmetric(own), symmetric(opp)
	// One read per entry of readsOf (TestReadsAreFolded).
	score := 0
	score += int(v[offEdge+index(edgeBits(so[0]), edgeBits(sp[0]))]) +
		int(v[offEdge+index(edgeBits(so[1]), edgeBits(sp[1]))]) +
		int(v[offEdge+index(edgeBits(so[4]), edgeBits(sp[4]))]) +
		int(v[offEdge+index(edgeBits(so[6]), edgeBits(sp[6]))])
	score += int(v[offCorner3+index(corner3Bits(so[0]), corner3Bits(sp[0]))]) +
		int(v[offCorner3+index(corner3Bits(so[1]), corner3Bits(sp[1]))]) +
		int(v[offCorner3+index(corner3Bits(so[2]), corner3Bits(sp[2]))]) +
		int(v[offCorner3+index(corner3Bits(so[3]), corner3Bits(sp[3]))])
	score += int(v[offCorner5+index(corner5Bits(so[0]), corner5Bits(sp[0]))]) +
		int(v[offCorner5+index(corner5Bits(so[1]), corner5Bits(sp[1]))]) +
		int(v[offCorner5+index(corner5Bits(so[2]), corner5Bits(sp[2]))]) +
		int(v[offCorner5+index(corner5Bits(so[3]), corner5Bits(sp[3]))]) +
		int(v[offCorner5+index(corner5Bits(so[4]), corner5Bits(sp[4]))]) +
		int(v[offCorner5+index(corner5Bits(so[5]), corner5Bits(sp[5]))]) +
		int(v[offCorner5+index(corner5Bits(so[6]), corner5Bits(sp[6]))]) +
		int(v[offCorner5+index(corner5Bits(so[7]), corner5Bits(sp[7]))])
	score += int(v[offLine2+index(so[0]>>8&0xff, sp[0]>>8&0xff)]) +
		int(v[offLine2+index(so[1]>>8&0xff, sp[1]>>8&0xff)]) +
		int(v[offLine2+index(so[4]>>8&0xff, sp[4]>>8&0xff)]) +
		int(v[offLine2+index(so[6]>>8&0xff, sp[6]>>8&0xff)])
	score += int(v[offLine3+index(so[0]>>16&0xff, sp[0]>>16&0xff)]) +
		int(v[offLine3+index(so[1]>>16&0xff, sp[1]>>16&0xff)]) +
		int(v[offLine3+index(so[4]>>16&0xff, sp[4]>>16&0xff)]) +
		int(v[offLine3+index(so[6]>>16&0xff, sp[6]>>16&0xff)])
	score += int(v[offLine4+index(so[0]>>24&0xff, sp[0]>>24&0xff)]) +
		int(v[offLine4+index(so[1]>>24&0xff, sp[1]>>24&0xff)]) +
		int(v[offLine4+index(so[4]>>24&0xff, sp[4]>>24&0xff)]) +
		int(v[offLine4+index(so[6]>>24&0xff, sp[6]>>24&0xff)])
	score += int(v[offDiag8+index(diagBits(so[0], diagMask8), diagBits(sp[0], diagMask8))]) +
		int(v[offDiag8+index(diagBits(so[1], diagMask8), diagBits(sp[1], diagMask8))])
	score += int(v[offDiag7+index(diagBits(so[0], diagMask7), diagBits(sp[0], diagMask7))]) +
		int(v[offDiag7+index(diagBits(so[1], diagMask7), diagBits(sp[1], diagMask7))]) +
		int(v[offDiag7+index(diagBits(so[2], diagMask7), diagBits(sp[2], diagMask7))]) +
		int(v[offDiag7+index(diagBits(so[3], diagMask7), diagBits(sp[3], diagMask7))])
	score += int(v[offDiag6+index(diagBits(so[0], diagMask6), diagBits(sp[0], diagMask6))]) +
		int(v[offDiag6+index(diagBits(so[1], diagMask6), diagBits(sp[1], diagMask6))]) +
		int(v[offDiag6+index(diagBits(so[2], diagMask6), diagBits(sp[2], diagMask6))]) +
		int(v[offDiag6+index(diagBits(so[3], diagMask6), diagBits(sp[3], diagMask6))])
	score += int(v[offDiag5+index(diagBits(so[0], diagMask5), diagBits(sp[0], diagMask5))]) +
		int(v[offDiag5+index(diagBits(so[1], diagMask5), diagBits(sp[1], diagMask5))]) +
		int(v[offDiag5+index(diagBits(so[2], diagMask5), diagBits(sp[2], diagMask5))]) +
		int(v[offDiag5+index(diagBits(so[3], diagMask5), diagBits(sp[3], diagMask5))])
	score += int(v[offDiag4+index(diagBits(so[0], diagMask4), diagBits(sp[0], diagMask4))]) +
		int(v[offDiag4+index(diagBits(so[1], diagMask4), diagBits(sp[1], diagMask4))]) +
		int(v[offDiag4+index(diagBits(so[2], diagMask4), diagBits(sp[2], diagMask4))]) +
		int(v[offDiag4+index(diagBits(so[3], diagMask4), diagBits(sp[3], diagMask4))])
	for i, x := range scalars(own, opp, empty) {
		score += int(v[offScalars+i]) * int(x)
	}
	return max(-64*Unit+1, min(64*Unit-1, score))
}

// readsOf are the pattern reads of the folded evaluation: for each
// pattern, the symmetric boards to read it on, one per square set that
// its eight symmetric reads cover. stabilisers are, for each pattern,
// the symmetries whose read covers the same squares as the identity's.
var readsOf, stabilisers = foldedReads()

// foldedReads returns readsOf and stabilisers.
func foldedReads() ([numPatterns][]int, [numPatterns][]int) {
	var out [numPatterns][]int
	var stab [numPatterns][]int
	for p := range numPatterns {
		// The squares pattern p reads on the symmetric board s, as squares
		// of the original board: a board of one square tells.
		covers := func(s int) uint64 {
			var set uint64
			for c := range 64 {
				if patternBits(p, symmetric(1 << c)[s]) != 0 {
					set |= 1 << c
				}
			}
			return set
		}
		var seen []uint64
		for s := range 8 {
			c := covers(s)
			if c == covers(0) {
				stab[p] = append(stab[p], s)
			}
			if !slices.Contains(seen, c) {
				seen = append(seen, c)
				out[p] = append(out[p], s)
			}
		}
	}
	return out, stab
}

// foldMaps are, for each pattern, the index of each configuration read
// on the board turned by each of its stabilisers: the weights fold
// adds. Made once, on the first fold.
var foldMaps = sync.OnceValue(func() [numPatterns][][]int32 {
	var maps [numPatterns][][]int32
	for p := range numPatterns {
		var square [10]uint64 // the square of each digit, as a bit
		for c := range 64 {
			if b := patternBits(p, 1<<c); b != 0 {
				square[bits.TrailingZeros64(b)] = 1 << c
			}
		}
		n := pow3(patternSquares[p])
		for _, s := range stabilisers[p] {
			m := make([]int32, n)
			for idx := range n {
				var own, opp uint64
				for i, x := 0, idx; i < patternSquares[p]; i, x = i+1, x/3 {
					switch x % 3 {
					case 1:
						own |= square[i]
					case 2:
						opp |= square[i]
					}
				}
				m[idx] = ternary[patternBits(p, symmetric(own)[s])] + 2*ternary[patternBits(p, symmetric(opp)[s])]
			}
			maps[p] = append(maps[p], m)
		}
	}
	return maps
})

// fold returns a stage's weights folded: the weight of a configuration of
// a pattern is the sum of the weights of its reads on the symmetric
// boards that cover the same squares, so that the sum over reads equals
// the sum over all eight symmetric reads. (A symmetric board whose read
// covers the same squares as another's is that board turned by a
// stabiliser of the pattern's squares.)
func fold(v []int16) []int16 {
	out := make([]int16, len(v))
	maps := foldMaps()
	for p := range numPatterns {
		base := patternOffset[p]
		for idx := range pow3(patternSquares[p]) {
			sum := 0
			for _, m := range maps[p] {
				sum += int(v[base+int(m[idx])])
			}
			out[base+idx] = int16(sum)
		}
	}
	copy(out[patternOffset[numPatterns]:], v[patternOffset[numPatterns]:])
	return out
}

// The weights file: "OTHW", the format version, Stages and StageWeights
// as uvarints, then each stage's weights as zigzag varints, the whole
// gzipped.
const weightsMagic = "OTHW\x01"

// EncodeWeights encodes the weights of stages in the weights file's
// format.
func EncodeWeights(stages [Stages][]int16) ([]byte, error) {
	var raw []byte
	raw = append(raw, weightsMagic...)
	raw = binary.AppendUvarint(raw, Stages)
	raw = binary.AppendUvarint(raw, uint64(StageWeights))
	for _, v := range stages {
		for _, x := range v {
			raw = binary.AppendVarint(raw, int64(x))
		}
	}
	var buf bytes.Buffer
	z, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, fmt.Errorf("othello: encode weights: %w", err)
	}
	if _, err := z.Write(raw); err != nil {
		return nil, fmt.Errorf("othello: encode weights: %w", err)
	}
	if err := z.Close(); err != nil {
		return nil, fmt.Errorf("othello: encode weights: %w", err)
	}
	return buf.Bytes(), nil
}

// ParseWeights decodes a weights file; its stages and patterns must be
// this evaluation's.
func ParseWeights(data []byte) (*Weights, error) {
	z, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("othello: weights: %w", err)
	}
	raw, err := io.ReadAll(z)
	if err != nil {
		return nil, fmt.Errorf("othello: weights: %w", err)
	}
	if !bytes.HasPrefix(raw, []byte(weightsMagic)) {
		return nil, errors.New("othello: weights: not a weights file of this version")
	}
	raw = raw[len(weightsMagic):]
	uvarint := func() (uint64, error) {
		x, n := binary.Uvarint(raw)
		if n <= 0 {
			return 0, errors.New("cut short")
		}
		raw = raw[n:]
		return x, nil
	}
	stages, err1 := uvarint()
	n, err2 := uvarint()
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("othello: weights: header: %w", err)
	}
	if stages != Stages || n != uint64(StageWeights) {
		return nil, fmt.Errorf("othello: weights: %d stages of %d weights, want %d of %d", stages, n, Stages, StageWeights)
	}
	var v [Stages][]int16
	for s := range v {
		v[s] = make([]int16, StageWeights)
		for i := range v[s] {
			x, k := binary.Varint(raw)
			if k <= 0 {
				return nil, fmt.Errorf("othello: weights: stage %d: cut short", s)
			}
			raw = raw[k:]
			v[s][i] = int16(x)
		}
	}
	if len(raw) != 0 {
		return nil, fmt.Errorf("othello: weights: %d bytes after the weights", len(raw))
	}
	return NewWeights(v)
}
