package c4solver

// table is a transposition table: a fixed array of one-word entries,
// always replaced on a different key. An entry holds the position's full
// 49-bit key, a lower and an upper bound on its exact score and the best
// move found (the one that proved the lower bound), so a position searched
// first with one null window and later with another keeps what both
// proved. Every bound is a proven fact about the position, not about a
// search, so entries stay valid across solves and never need clearing.
//
// Entry layout: bits 0–48 key; 49–54 lower bound + 32 (0: none); 55–60
// 31 − upper bound (0: none); 61–63 best column + 1 (0: none). The zero
// entry therefore carries no information, whatever its key.
type table struct {
	entries []uint64
}

const (
	keyBits    = width * colBits
	keyMask    = 1<<keyBits - 1
	lowerShift = keyBits
	upperShift = keyBits + 6
	moveShift  = keyBits + 12
	boundMask  = 1<<6 - 1

	// noLower and noUpper are the bounds of an entry without them: below
	// and above every score.
	noLower = -32
	noUpper = 31

	minEntries = 1 << 10
	maxEntries = 1<<32 - 1 // index scaling multiplies by the count in 32 bits
)

// newTable returns an empty table of about bytes, its memory advised to
// huge pages where the system has them and left untouched (see New).
func newTable(bytes int) table {
	t := table{entries: make([]uint64, min(max(bytes/8, minEntries), maxEntries))}
	adviseHugePages(t.entries)
	return t
}

// index maps key to a slot: a multiplicative hash scaled to the table's
// size (Lemire's range reduction), so that any size works.
func (t *table) index(key uint64) uint64 {
	h := (key * 0x9e3779b97f4a7c15) >> 32
	return h * uint64(len(t.entries)) >> 32
}

// get returns the bounds and best move (column, or −1) stored for key,
// or noLower, noUpper, −1.
func (t *table) get(key uint64) (lower, upper, move int) {
	e := t.entries[t.index(key)]
	if e&keyMask != key {
		return noLower, noUpper, -1
	}
	return decode(e)
}

func decode(e uint64) (lower, upper, move int) {
	return int(e>>lowerShift&boundMask) + noLower, noUpper - int(e>>upperShift&boundMask), int(e>>moveShift) - 1
}

// put records that key's score lies in [lower, upper] (noLower, noUpper
// for a missing side) and that move (−1: unknown) reaches the lower bound,
// tightening what the slot already knows of key.
func (t *table) put(key uint64, lower, upper, move int) {
	i := t.index(key)
	if e := t.entries[i]; e&keyMask == key {
		l, u, m := decode(e)
		if l > lower {
			lower, move = l, m
		}
		upper = min(upper, u)
		if move < 0 {
			move = m
		}
	}
	t.entries[i] = key | uint64(lower-noLower)<<lowerShift | uint64(noUpper-upper)<<upperShift | uint64(move+1)<<moveShift
}

func (t *table) clear() { clear(t.entries) }
