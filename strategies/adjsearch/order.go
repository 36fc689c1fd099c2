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
// the first moves are selected lazily since a cut-off often comes first
// (the very first found by generate as it keys the cells, with no pass
// of its own); a node that gets past them sorts the rest at once.
type moveList struct {
	moves    [adjacency.Cells]int64 // order key << 8 | cell
	captures [adjacency.Cells]uint8 // by cell
	n, i     int
	first    int // where the best-keyed move is, found by generate
}

// lazyPicks is how many moves a list selects one by one before sorting.
const lazyPicks = 3

// generate fills the list with the moves of the unfinished b: every
// empty cell, keyed by its capture and exposure class and its history
// score, then the killers' and the hint's keys raised above them all.
func (l *moveList) generate(b adjacency.Board, hint int, killers [2]int, history *[256]int32) {
	_, other := b.Marks()
	empty := empties(b)
	caps := adjacency.CaptureSets(other)
	exposure := adjacency.CaptureSets(empty)
	var at [adjacency.Cells]uint8 // each listed cell's place in the list
	n, first, best := 0, 0, int64(-1)
	for k := 4; k >= 0; k-- {
		for e := range exposure {
			class := int32(5*k+4-e) << 20
			for cur := caps[k] & exposure[e] & empty; cur != 0; cur &= cur - 1 {
				c := bits.TrailingZeros64(cur) & (adjacency.Cells - 1)
				key := int64(class+history[c])<<8 | int64(c)
				if key > best {
					first, best = n, key
				}
				l.moves[n&(adjacency.Cells-1)] = key
				l.captures[c] = uint8(k)
				at[c] = uint8(n)
				n++
			}
		}
	}
	l.n, l.i = n, 0
	// The hint before the killers, as a hint that is a killer is the hint.
	for _, f := range [...]struct {
		c   int
		key int32
	}{{killers[1], 1<<29 - 1}, {killers[0], 1 << 29}, {hint, 1 << 30}} {
		if f.c < adjacency.Cells && empty&(1<<f.c) != 0 {
			l.moves[at[f.c]] = int64(f.key)<<8 | int64(f.c)
			first = int(at[f.c])
		}
	}
	l.first = first
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
	if l.i == 0 {
		l.moves[0], l.moves[l.first] = l.moves[l.first], l.moves[0]
	} else if l.i < lazyPicks {
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
