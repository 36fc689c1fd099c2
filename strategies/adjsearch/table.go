package adjsearch

import "sync/atomic"

// bound says what a stored score is.
type bound uint8

const (
	boundUpper bound = 1 // the search failed low: the value is at most score
	boundLower bound = 2 // it failed high: at least score
	boundExact bound = 3
)

// settles reports whether a stored score with this bound answers a
// search of the window (alpha, beta): an exact score, or a bound beyond
// the window.
func (bd bound) settles(score, alpha, beta int) bool {
	return bd == boundExact || bd == boundLower && score >= beta || bd == boundUpper && score <= alpha
}

// outcome is what a fail-soft search of the window (alpha, beta) whose
// best move best scored score stores: the move — none when no move beat
// alpha, as none stood out — and the bound.
func outcome(best, score, alpha, beta int) (int, bound) {
	switch {
	case score <= alpha:
		return noCell, boundUpper
	case score >= beta:
		return best, boundLower
	}
	return best, boundExact
}

// noCell is "no move" in the table and the move lists.
const noCell = 0xff

// entry is one slot: the position's key XORed with data, and data. Both
// words are read and written atomically, and a slot torn by two threads
// writing at once fails the XOR check and reads as empty, so the threads
// of a search share the table without locks (Hyatt and Mann's lockless
// hashing). The key is the whole 64-bit Zobrist key: an exact solve
// trusts what it finds.
type entry struct {
	check atomic.Uint64 // key ^ data
	data  atomic.Uint64
}

// bucket is four slots, one 64-byte cache line.
type bucket [4]entry

// data layout, low to high bits: move 8 (a cell, noCell for none),
// score 16 (signed), depth 8, bound 2, solved 1, generation 6; data is
// never 0 for a used slot, as the bound is never 0.
const (
	scoreShift = 8
	depthShift = 24
	boundShift = 32
	solvedBit  = 1 << 34
	genShift   = 35
	genMask    = 63
)

// hit is what a probe found.
type hit struct {
	move  int // a cell, or noCell
	score int
	depth int
	bound bound
	// solved: the score was searched to the end of the game without
	// reductions, a fact about the position that any search may use.
	solved bool
}

// table is the engine's transposition table. Its size is a power of two
// of buckets; replacement keeps, in order, the slot of the same position,
// an empty one, or the one whose depth minus 4 per search generation of
// age is least.
type table struct {
	buckets []bucket
	mask    uint64
	gen     uint64
}

// bucketBytes is the size of a bucket.
const bucketBytes = 64

// newTable returns a table of the largest power of two of buckets within
// size bytes (at least one).
func newTable(size int) *table {
	n := uint64(1)
	for (n*2)*bucketBytes <= uint64(size) {
		n *= 2
	}
	return &table{buckets: make([]bucket, n), mask: n - 1}
}

// bytes is the table's size.
func (t *table) bytes() int { return len(t.buckets) * bucketBytes }

// clear empties the table.
func (t *table) clear() { clear(t.buckets) }

// age starts a new search generation: older entries give way first.
func (t *table) age() { t.gen = (t.gen + 1) & genMask }

func (t *table) probe(key uint64) (hit, bool) {
	b := &t.buckets[key&t.mask]
	for i := range b {
		data := b[i].data.Load()
		if data != 0 && b[i].check.Load()^data == key {
			return hit{
				move:   int(uint8(data)),
				score:  int(int16(data >> scoreShift)),
				depth:  int(uint8(data >> depthShift)),
				bound:  bound(data>>boundShift) & 3,
				solved: data&solvedBit != 0,
			}, true
		}
	}
	return hit{}, false
}

func (t *table) store(key uint64, move, score, depth int, bd bound, solved bool) {
	b := &t.buckets[key&t.mask]
	victim, worst := 0, int(^uint(0)>>1)
	for i := range b {
		data := b[i].data.Load()
		if data == 0 {
			victim = i
			break
		}
		if b[i].check.Load()^data == key {
			if data&solvedBit != 0 && !solved {
				return // what a solve found outweighs an estimate
			}
			if move == noCell {
				move = int(uint8(data)) // keep the known best move
			}
			victim = i
			break
		}
		age := int((t.gen - data>>genShift) & genMask)
		if prio := int(uint8(data>>depthShift)) - 4*age; prio < worst {
			victim, worst = i, prio
		}
	}
	data := uint64(uint8(move)) | uint64(uint16(int16(score)))<<scoreShift |
		uint64(uint8(max(depth, 0)))<<depthShift | uint64(bd)<<boundShift | t.gen<<genShift
	if solved {
		data |= solvedBit
	}
	b[victim].data.Store(data)
	b[victim].check.Store(key ^ data)
}
