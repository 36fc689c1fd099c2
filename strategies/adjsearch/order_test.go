package adjsearch

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gambitbot/gambit/engine/adjacency"
)

// TestMoveListOrder checks the board move list against its contract on
// random positions: every empty cell once, the hint first and the
// killers next where they are empty cells, and each move the best-keyed
// of those not yet taken (the first, found by generate, included), so
// that the keys come out strictly falling.
func TestMoveListOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 39))
	for range 500 {
		rounds := 8 + rng.IntN(adjacency.MaxRounds-7)
		b := randomBoard(t, rng, rounds, 1+rng.IntN(2*rounds))
		empty := empties(b)
		pick := func() int { // no cell, any cell, or an empty one
			switch rng.IntN(3) {
			case 0:
				return noCell
			case 1:
				return rng.IntN(adjacency.Cells)
			}
			cells := []int{}
			for c := range adjacency.Cells {
				if empty&(1<<c) != 0 {
					cells = append(cells, c)
				}
			}
			return cells[rng.IntN(len(cells))]
		}
		hint, killers := pick(), [2]int{pick(), pick()}
		var history [256]int32
		for c := range history {
			history[c] = rng.Int32N(1 << 20)
		}
		var l moveList
		l.generate(b, hint, killers, &history)
		var got []int
		for m, ok := l.next(); ok; m, ok = l.next() {
			got = append(got, m)
		}
		var want []int // the hint and the killers first, where they apply
		for _, c := range []int{hint, killers[0], killers[1]} {
			if c < adjacency.Cells && empty&(1<<c) != 0 && !slices.Contains(want, c) {
				want = append(want, c)
			}
		}
		if len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
			t.Fatalf("%v, hint %d, killers %v: moves %v, want them to start %v", b, hint, killers, got, want)
		}
		var seen uint64
		for _, c := range got {
			seen |= 1 << c
		}
		if len(got) != bits.OnesCount64(empty) || seen != empty {
			t.Fatalf("%v: moves %v, want each empty cell (%016x) once", b, got, empty)
		}
		for i := 1; i < l.n; i++ {
			if l.moves[i] >= l.moves[i-1] {
				t.Fatalf("%v, hint %d, killers %v: key %x taken after %x", b, hint, killers, l.moves[i], l.moves[i-1])
			}
		}
	}
}
