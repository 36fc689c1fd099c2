package othsolve

// entry is one position's knowledge in the transposition table: its
// discs, bounds on its exact score and the move that proved the lower
// bound. Bounds are proven facts, true in every later solve under the same
// scoring.
type entry struct {
	own, opp     uint64
	lower, upper int8
	move         uint8 // a square, or noSquare
	empties      uint8 // the search's size: deeper entries are kept
	date         uint8 // the solve that last wrote it: older ones go first
}

// noSquare is "no best move" in the table and the move lists.
const noSquare = 64

// table is a transposition table in buckets of two entries.
type table struct {
	entries []entry
	mask    uint64 // of a bucket's first index
	date    uint8
}

// entryBytes is the size of an entry.
const entryBytes = 24

func newTable(bytes int) table {
	n := 1024
	for n*2*entryBytes <= bytes {
		n *= 2
	}
	return table{entries: make([]entry, n), mask: uint64(n-1) &^ 1}
}

// hash mixes a position into an index.
func hash(own, opp uint64) uint64 {
	h := own*0x9E3779B97F4A7C15 ^ opp*0xC2B2AE3D27D4EB4F
	return h ^ h>>29
}

// probe returns a copy of the position's entry, if the table has one.
func (t *table) probe(own, opp uint64) (entry, bool) {
	i := hash(own, opp) & t.mask
	if e := t.entries[i]; e.own == own && e.opp == opp && e.date != 0 {
		return e, true
	}
	if e := t.entries[i+1]; e.own == own && e.opp == opp && e.date != 0 {
		return e, true
	}
	return entry{}, false
}

// store records that a search of the position with the window
// (alpha, beta) returned score, best being the move found best (noSquare
// if none beat alpha), adding to what the table knew of it.
func (t *table) store(own, opp uint64, alpha, beta, score, best, empties int) {
	i := hash(own, opp) & t.mask
	b := &t.entries[i]
	switch {
	case b.own == own && b.opp == opp && b.date != 0:
	case t.entries[i+1].own == own && t.entries[i+1].opp == opp && t.entries[i+1].date != 0:
		b = &t.entries[i+1]
	default:
		// A new position: replace the older, then the smaller search.
		c := &t.entries[i+1]
		if b.date == t.date && (c.date != t.date || c.empties < b.empties) {
			b = c
		}
		*b = entry{own: own, opp: opp, lower: -64, upper: 64, move: noSquare}
	}
	b.date, b.empties = t.date, uint8(empties)
	if score > alpha {
		b.lower = max(b.lower, int8(score))
		b.move = uint8(best)
	}
	if score < beta {
		b.upper = min(b.upper, int8(score))
	}
}

// newSolve starts a solve's date: entries of earlier solves are replaced
// before this one's.
func (t *table) newSolve() {
	t.date++
	if t.date == 0 {
		for i := range t.entries {
			t.entries[i].date = 0
		}
		t.date = 1
	}
}
