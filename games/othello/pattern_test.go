package othello

import (
	"math/rand/v2"
	"slices"
	"testing"

	rules "github.com/gambitbot/gambit/engine/othello"
)

// randomBoards returns the boards (side to move's discs, opponent's) of n
// positions of random games.
func randomBoards(rng *rand.Rand, n int) [][2]uint64 {
	var out [][2]uint64
	for len(out) < n {
		p := rules.New()
		for k := rng.IntN(60); k > 0 && !p.Terminal(); k-- {
			moves := p.Moves(nil)
			p.Play(moves[rng.IntN(len(moves))])
		}
		me := p.SideToMove()
		out = append(out, [2]uint64{p.Bitboard(me), p.Bitboard(me.Other())})
	}
	return out
}

// TestFoldedWeightsSumEveryRead checks the folded evaluation against its
// definition with random weights: the sum, over every pattern read on
// each of the eight symmetric boards (Read), of its weight, plus the
// scalars'; and that the eight symmetric boards evaluate alike.
func TestFoldedWeightsSumEveryRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var stages [Stages][]int16
	for s := range stages {
		stages[s] = make([]int16, StageWeights)
		for i := range stages[s] {
			stages[s][i] = int16(rng.IntN(9) - 4)
		}
	}
	w, err := NewWeights(stages)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range randomBoards(rng, 300) {
		f := Read(b[0], b[1])
		want := 0
		for _, i := range f.Patterns {
			want += int(stages[f.Stage][i])
		}
		for i, x := range f.Scalars {
			want += int(stages[f.Stage][patternOffset[numPatterns]+i]) * int(x)
		}
		got := w.Evaluate(b[0], b[1])
		if got != want {
			t.Fatalf("%x %x: folded %d, every read %d", b[0], b[1], got, want)
		}
		so, sp := symmetric(b[0]), symmetric(b[1])
		for s := range 8 {
			if v := w.Evaluate(so[s], sp[s]); v != want {
				t.Fatalf("%x %x: symmetric board %d evaluates %d, want %d", b[0], b[1], s, v, want)
			}
		}
	}
}

// TestReadSwapsSides checks the features from the other side: each
// pattern read has the squares' owners swapped, and mobility, potential
// mobility and the disc difference change sign.
func TestReadSwapsSides(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, b := range randomBoards(rng, 100) {
		f, g := Read(b[0], b[1]), Read(b[1], b[0])
		for i, idx := range f.Patterns {
			p := i / 8
			x, y := int(idx)-patternOffset[p], int(g.Patterns[i])-patternOffset[p]
			for range patternSquares[p] {
				if d, e := x%3, y%3; d != [3]int{0, 2, 1}[e] {
					t.Fatalf("%x %x: pattern %d read %d: %d and swapped %d", b[0], b[1], p, i%8, x, y)
				}
				x, y = x/3, y/3
			}
		}
		if f.Scalars[scalarMobility] != -g.Scalars[scalarMobility] || f.Scalars[scalarPotential] != -g.Scalars[scalarPotential] || f.Scalars[scalarDiscs] != -g.Scalars[scalarDiscs] {
			t.Fatalf("%x %x: scalars %v, swapped %v", b[0], b[1], f.Scalars, g.Scalars)
		}
	}
}

// TestEmbeddedWeights decodes the embedded weights: every stage's
// weights, as many as the patterns and scalars have, and they encode
// back to the same file.
func TestEmbeddedWeights(t *testing.T) {
	w, err := ParseWeights(weightsFile)
	if err != nil {
		t.Fatal(err)
	}
	for s, v := range w.folded {
		if len(v) != StageWeights {
			t.Errorf("stage %d: %d weights, want %d", s, len(v), StageWeights)
		}
	}
	if n := patternOffset[numPatterns]; n != 2*59049+19683+3*6561+6561+2187+729+243+81 {
		t.Errorf("%d pattern weights a stage", n)
	}
	if _, err := ParseWeights(weightsFile[:len(weightsFile)/2]); err == nil {
		t.Error("half the weights file decoded")
	}
}

// TestReadsAreFolded checks the reads and offsets Evaluate spells out
// against those worked out from the patterns' squares.
func TestReadsAreFolded(t *testing.T) {
	want := [numPatterns][]int{{0, 1, 4, 6}, {0, 1, 2, 3}, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 4, 6}, {0, 1, 4, 6}, {0, 1, 4, 6}, {0, 1}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}}
	for p := range numPatterns {
		if !slices.Equal(readsOf[p], want[p]) {
			t.Errorf("pattern %d: read on boards %v, Evaluate reads %v", p, readsOf[p], want[p])
		}
	}
	offsets := []int{offEdge, offCorner3, offCorner5, offLine2, offLine3, offLine4, offDiag8, offDiag7, offDiag6, offDiag5, offDiag4, offScalars}
	if !slices.Equal(offsets, patternOffset[:]) {
		t.Errorf("offsets %v, want %v", offsets, patternOffset)
	}
	for d, length := range []int{8, 7, 6, 5, 4} {
		var m uint64
		for r := range length {
			m |= 1 << (8*r + length - 1 - r)
		}
		if diagMasks[d] != m {
			t.Errorf("diagonal of %d: mask %x, want %x", length, diagMasks[d], m)
		}
	}
}

// TestNoLeanTowardsTheSideToMove checks the embedded weights for the lean
// that training on searches of one depth taught them (docs/ai.md,
// "Othello's evaluation"): over the start and positions of random
// openings, searches of successive depths, whose leaves alternate the
// side to move, agree on average within three discs (the embedded
// weights: about 1.2; the weights with the lean swung by 16–18 discs
// from one depth to the next).
func TestNoLeanTowardsTheSideToMove(t *testing.T) {
	var negamax func(own, opp uint64, depth int) int
	negamax = func(own, opp uint64, depth int) int {
		moves := rules.LegalMoves(own, opp)
		if depth == 0 || moves == 0 {
			return Evaluate(own, opp)
		}
		best := -64 * Unit
		for ; moves != 0; moves &= moves - 1 {
			bit := moves & -moves
			f := rules.Flips(own, opp, bit)
			best = max(best, -negamax(opp&^f, own|f|bit, depth-1))
		}
		return best
	}
	rng := rand.New(rand.NewPCG(11, 12))
	const positions = 20
	var swing [4]int // the sum over positions of depth d+1's score minus depth d's
	for i := range positions {
		p := rules.New()
		for n := i; n > 0; n-- {
			moves := p.Moves(nil)
			p.Play(moves[rng.IntN(len(moves))])
		}
		me := p.SideToMove()
		own, opp := p.Bitboard(me), p.Bitboard(me.Other())
		prev := negamax(own, opp, 1)
		for depth := 2; depth <= 4; depth++ {
			v := negamax(own, opp, depth)
			swing[depth-1] += v - prev
			prev = v
		}
	}
	for d := 1; d < 4; d++ {
		if mean := float64(swing[d]) / positions / Unit; mean > 3 || mean < -3 {
			t.Errorf("depth %d scores %.1f discs above depth %d on average", d+1, mean, d)
		}
	}
}
