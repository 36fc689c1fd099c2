package gomsearch

// bound says what a stored score is.
type bound uint8

const (
	bUpper bound = 1 + iota // failed low: the value is at most the score
	bLower                  // failed high: at least the score
	bExact
)

// slot is a transposition-table entry: 16 bytes.
type slot struct {
	key   uint64
	score int32
	move  int16
	depth int8
	gen   uint8 // the search that wrote it; the bound in the top bits
}

// hit is what a probe finds.
type hit struct {
	score int32
	move  int16
	depth int8
	bound bound
}

// table is the transposition table, one slot a position (always
// replaced), of the current search only: a slot of an earlier search
// (another gen) reads as empty, so that every search starts afresh
// without clearing.
type table struct {
	slots []slot
	mask  uint64
}

// newTable returns a table of at most mib MiB (at least 1).
func newTable(mib int) table {
	n := uint64(1)
	for n*2*16 <= uint64(max(mib, 1))<<20 {
		n *= 2
	}
	return table{slots: make([]slot, n), mask: n - 1}
}

func (t *table) clear() { clear(t.slots) }

// probe returns the slot of key written by search gen.
func (t *table) probe(key uint64, gen uint8) (hit, bool) {
	s := &t.slots[key&t.mask]
	if s.key != key || s.gen&63 != gen&63 {
		return hit{}, false
	}
	return hit{score: s.score, move: s.move, depth: s.depth, bound: bound(s.gen >> 6)}, true
}

// store records a search's result at ply plies from the root: a proven
// score is kept as the distance from this position.
func (t *table) store(key uint64, gen uint8, move int, score int32, depth int, b bound, ply int) {
	s := &t.slots[key&t.mask]
	*s = slot{key: key, score: toTT(score, ply), move: int16(move), depth: int8(min(depth, 127)), gen: gen&63 | uint8(b)<<6}
}

// toTT and fromTT turn a proven score between distances from the root
// and from the position.
func toTT(score int32, ply int) int32 {
	switch {
	case score >= Win-maxPly:
		return score + int32(ply)
	case score <= -(Win - maxPly):
		return score - int32(ply)
	}
	return score
}

func fromTT(score int32, ply int) int32 {
	switch {
	case score >= Win-maxPly:
		return score - int32(ply)
	case score <= -(Win - maxPly):
		return score + int32(ply)
	}
	return score
}
