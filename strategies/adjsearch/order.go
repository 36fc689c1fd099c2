package adjsearch

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/gambitbot/gambit/engine/adjacency"
)

// moveList holds one node's moves for the heuristic search, ordered as
// they are taken: the hash move, the two killers, then by the marks they
// capture (report 001's h(s)), then by how few empty neighbours the new
// mark has (it is harder to take back), then by the history heuristic.
// The order keys are worked out for all cells at once on bitboards, and
// the first moves are selected lazily since a cut-off often comes first;
// a node that gets past them sorts the rest at once.
type moveList struct {
	moves    [adjacency.Cells]int64 // order key << 8 | cell
	captures [adjacency.Cells]uint8 // by cell
	n, i     int
}

// lazyPicks is how many moves a list selects one by one before sorting.
const lazyPicks = 3

// generate fills the list with the moves of the unfinished b.
func (l *moveList) generate(b adjacency.Board, hint int, killers [2]int, history *[256]int32) {
	_, other := b.Marks()
	empty := empties(b)
	caps := adjacency.CaptureSets(other)
	exposure := adjacency.CaptureSets(empty)
	l.n, l.i = 0, 0
	for k := 4; k >= 0; k-- {
		for e := range exposure {
			for cur := caps[k] & exposure[e] & empty; cur != 0; cur &= cur - 1 {
				c := bits.TrailingZeros64(cur)
				key := int32(5*k+4-e)<<20 + history[c]
				switch c {
				case hint:
					key = 1 << 30
				case killers[0]:
					key = 1 << 29
				case killers[1]:
					key = 1<<29 - 1
				}
				l.moves[l.n] = int64(key)<<8 | int64(c)
				l.captures[c] = uint8(k)
				l.n++
			}
		}
	}
}

// next returns the best-keyed move not yet taken.
func (l *moveList) next() (int, bool) {
	if l.i >= l.n {
		return noCell, false
	}
	if l.i == lazyPicks {
		rest := l.moves[l.i:l.n]
		slices.SortFunc(rest, func(a, b int64) int { return cmp.Compare(b, a) })
	}
	if l.i < lazyPicks {
		best := l.i
		for j := l.i + 1; j < l.n; j++ {
			if l.moves[j] > l.moves[best] {
				best = j
			}
		}
		l.moves[l.i], l.moves[best] = l.moves[best], l.moves[l.i]
	}
	m := int(uint8(l.moves[l.i]))
	l.i++
	return m, true
}
