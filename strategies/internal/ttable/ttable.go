// Package ttable is the transposition table of Gambit's alpha-beta
// searches: the generic search (strategies) and the Adjacency engine
// (strategies/adjsearch) both keep their bounds in a Table.
//
// A slot is two words: the position's 64-bit key XORed with data, and
// data. Both are read and written atomically, and a slot torn by two
// threads writing at once fails the XOR check and reads as empty, so the
// threads of a search share the table without locks (Hyatt and Mann's
// lockless hashing). The key is the whole 64-bit Zobrist key: an exact
// solve trusts what it finds.
//
// Two tables are not Tables, because their entries are not these: the
// Connect Four solver's (strategies/c4solver) is one word a slot holding
// the position's whole 49-bit key and both a lower and an upper bound,
// for a single-threaded null-window solver that tightens both; report
// 001's replica (strategies/seed001.go) keeps that report's table, bug
// included, on purpose.
package ttable

import "sync/atomic"

// Bound says what a stored score is.
type Bound uint8

// The bounds; data is never 0 for a used slot, as the bound is never 0.
const (
	Upper Bound = 1 // the search failed low: the value is at most the score
	Lower Bound = 2 // it failed high: at least the score
	Exact Bound = 3
)

// Settles reports whether a stored score with this bound answers a
// search of the window (alpha, beta): an exact score, or a bound beyond
// the window.
func (b Bound) Settles(score, alpha, beta int) bool {
	return b == Exact || b == Lower && score >= beta || b == Upper && score <= alpha
}

type entry struct {
	check atomic.Uint64 // key ^ data
	data  atomic.Uint64
}

// bucket is four slots, one 64-byte cache line.
type bucket [4]entry

// BucketBytes is the size of a bucket.
const BucketBytes = 64

// data layout, low to high bits: move 16, score 16 (signed), depth 8,
// bound 2, solved 1, generation 6.
const (
	scoreShift = 16
	depthShift = 32
	boundShift = 40
	solvedBit  = 1 << 42
	genShift   = 43
	genMask    = 63
)

// Hit is what a probe found.
type Hit struct {
	// Move is the best move stored, or the table's Policy.NoMove.
	Move  uint16
	Score int
	Depth int
	Bound Bound
	// Solved: the score was searched to the end of the game without
	// reductions, a fact about the position that any search may use.
	Solved bool
}

// Policy is what differs between the searches' use of a table.
type Policy struct {
	// NoMove is the search's "no move": stored with it, a slot keeps the
	// best move it knew for the same position.
	NoMove uint16
	// AgePenalty is what a slot's depth loses for each search generation
	// of age when a store picks the slot to replace.
	AgePenalty int
	// KeepSolved: an estimate (a store that is not solved) does not
	// replace what a solve found for the same position.
	KeepSolved bool
}

// Table is a fixed-size transposition table shared by a search's
// threads. Its size is a power of two of buckets. Scores are stored as
// bounds or exact values as they were found. Replacement keeps, in order,
// the slot of the same position, an empty one, or the one whose depth
// minus the age penalty per search generation of age is least.
type Table struct {
	buckets []bucket
	mask    uint64
	gen     uint64
	policy  Policy
}

// New returns a table of the largest power of two of buckets within
// size bytes (at least one).
func New(size int, p Policy) *Table {
	n := uint64(1)
	for (n*2)*BucketBytes <= uint64(size) {
		n *= 2
	}
	return &Table{buckets: make([]bucket, n), mask: n - 1, policy: p}
}

// Bytes is the table's size.
func (t *Table) Bytes() int { return len(t.buckets) * BucketBytes }

// Clear empties the table.
func (t *Table) Clear() { clear(t.buckets) }

// Age starts a new search generation: older entries give way first.
func (t *Table) Age() { t.gen = (t.gen + 1) & genMask }

// Probe returns what the table holds for key.
func (t *Table) Probe(key uint64) (Hit, bool) {
	b := &t.buckets[key&t.mask]
	for i := range b {
		data := b[i].data.Load()
		if data != 0 && b[i].check.Load()^data == key {
			return Hit{
				Move:   uint16(data),
				Score:  int(int16(data >> scoreShift)),
				Depth:  int(uint8(data >> depthShift)),
				Bound:  Bound(data>>boundShift) & 3,
				Solved: data&solvedBit != 0,
			}, true
		}
	}
	return Hit{}, false
}

// Store records that key's score, searched depth plies deep (negative
// depths count as 0), is score with bound b, and move the best move (the
// Policy's NoMove if none stood out); solved says the search went to the
// end of the game without reductions. Scores must fit 16 bits.
func (t *Table) Store(key uint64, move uint16, score, depth int, b Bound, solved bool) {
	bk := &t.buckets[key&t.mask]
	victim, worst := 0, int(^uint(0)>>1)
	for i := range bk {
		data := bk[i].data.Load()
		if data == 0 {
			victim = i
			break
		}
		if bk[i].check.Load()^data == key {
			if t.policy.KeepSolved && data&solvedBit != 0 && !solved {
				return // what a solve found outweighs an estimate
			}
			if move == t.policy.NoMove {
				move = uint16(data) // keep the known best move
			}
			victim = i
			break
		}
		age := int((t.gen - data>>genShift) & genMask)
		if prio := int(uint8(data>>depthShift)) - t.policy.AgePenalty*age; prio < worst {
			victim, worst = i, prio
		}
	}
	data := uint64(move) | uint64(uint16(int16(score)))<<scoreShift |
		uint64(uint8(max(depth, 0)))<<depthShift | uint64(b)<<boundShift | t.gen<<genShift
	if solved {
		data |= solvedBit
	}
	bk[victim].data.Store(data)
	bk[victim].check.Store(key ^ data)
}

// Generation is the current search generation, 0 to 63.
func (t *Table) Generation() int { return int(t.gen) }
