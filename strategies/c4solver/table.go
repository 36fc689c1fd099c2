package c4solver

import "math/bits"

// table is a transposition table of one-word entries. An entry holds the
// position's full 49-bit key, a lower and an upper bound on its exact
// score and the best move found (the one that proved the lower bound), so
// a position searched first with one null window and later with another
// keeps what both proved. Every bound is a proven fact about the position,
// not about a search, so entries stay valid across solves and never need
// clearing.
//
// A one-way table (the near table) replaces an entry whenever another key
// lands on its slot. A two-way table (the large table) holds a bucket of
// two entries in one cache line: the first keeps the position of fewest
// moves played (the largest subtree, the most work to redo) the bucket has
// seen, the second takes the rest, always replaced. Without the first, the
// entries near the root of a long solve were overwritten by the millions of
// positions below them and their subtrees searched again.
//
// Both tables start small and grow: a table uses only its first n
// entries, from startEntries (128 KiB, which stays in the processor's
// nearest caches) or a little less, and doubles n, moving every entry to
// its new slot or bucket, once it has stored n/2 new keys since it last
// grew, until it uses all its memory. A small solve on emptied tables
// then stays in the cache instead of paying a miss to memory at nearly
// every node, and a large one spends less than a thousandth of its time
// on the moves. Emptying clears only the entries used since the last
// emptying.
//
// Entry layout: bits 0–48 key; 49–54 lower bound + 32 (0: none); 55–60
// 31 − upper bound (0: none); 61–63 best column + 1 (0: none). The zero
// entry therefore carries no information, whatever its key.
type table struct {
	entries []uint64
	twoWay  bool
	n       int // the entries in use: a prefix of entries
	used    int // the most entries in use since the last clear
	fresh   int // the new keys stored since n last changed
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

	minEntries   = 1 << 10
	startEntries = 1 << 14
	maxEntries   = 1<<32 - 2 // index scaling multiplies by the count in 32 bits
)

// newTable returns an empty table of about bytes (an even number of
// entries), its memory advised to huge pages where the system has them and
// left untouched (see New).
func newTable(bytes int, twoWay bool) table {
	t := table{entries: make([]uint64, min(max(bytes/16, minEntries/2), maxEntries/2)*2), twoWay: twoWay}
	adviseHugePages(t.entries)
	t.start()
	return t
}

// index maps key to a slot: a multiplicative hash scaled to the table's
// size (Lemire's range reduction), so that any size works. In a two-way
// table it is the bucket's first slot.
func (t *table) index(key uint64) uint64 {
	h := (key * 0x9e3779b97f4a7c15) >> 32
	if t.twoWay {
		return h * uint64(t.n/2) >> 32 * 2
	}
	return h * uint64(t.n) >> 32
}

// get returns the bounds and best move (column, or −1) stored for key,
// or noLower, noUpper, −1.
func (t *table) get(key uint64) (lower, upper, move int) {
	i := t.index(key)
	if e := t.entries[i]; e&keyMask == key {
		return decode(e)
	}
	if t.twoWay {
		if e := t.entries[i+1]; e&keyMask == key {
			return decode(e)
		}
	}
	return noLower, noUpper, -1
}

func decode(e uint64) (lower, upper, move int) {
	return int(e>>lowerShift&boundMask) + noLower, noUpper - int(e>>upperShift&boundMask), int(e>>moveShift) - 1
}

// put records that the score of key, a position after ply moves, lies in
// [lower, upper] (noLower, noUpper for a missing side) and that move (−1:
// unknown) reaches the lower bound, tightening what the table already
// knows of key.
func (t *table) put(key uint64, ply, lower, upper, move int) {
	i := t.index(key)
	slot := i
	switch e0 := t.entries[i]; {
	case e0&keyMask == key:
	case !t.twoWay:
	case t.entries[i+1]&keyMask == key:
		slot = i + 1
	case e0 == 0 || ply <= plies(e0&keyMask):
		t.entries[i+1] = e0 // the first slot's entry is now the second's
		t.entries[i] = 0
	default:
		slot = i + 1
	}
	e := t.entries[slot]
	if e&keyMask == key {
		l, u, m := decode(e)
		if l > lower {
			lower, move = l, m
		}
		upper = min(upper, u)
		if move < 0 {
			move = m
		}
	}
	t.entries[slot] = key | uint64(lower-noLower)<<lowerShift | uint64(noUpper-upper)<<upperShift | uint64(move+1)<<moveShift
	if e&keyMask != key {
		if t.fresh++; t.fresh >= t.n/2 && t.n < len(t.entries) {
			t.grow()
		}
	}
}

// grow doubles the entries the table uses. The index of a key in twice
// the slots or buckets is twice its old index or one more, so they are
// split in place from the last down, every slot of the doubled range
// written.
func (t *table) grow() {
	w := t.ways()
	buckets := t.n / w
	t.n *= 2
	t.used = max(t.used, t.n)
	t.fresh = 0
	for b := buckets - 1; b >= 0; b-- {
		var out [4]uint64 // the buckets 2b and 2b+1
		var filled [2]int
		for _, e := range t.entries[b*w : (b+1)*w] {
			if e == 0 {
				continue
			}
			half := int(t.index(e&keyMask)-uint64(2*b*w)) / w // 0 or 1
			out[half*w+filled[half]] = e
			filled[half]++
		}
		copy(t.entries[2*b*w:2*(b+1)*w], out[:2*w])
	}
}

// ways returns the entries of a bucket: 2 in a two-way table, else 1.
func (t *table) ways() int {
	if t.twoWay {
		return 2
	}
	return 1
}

// plies returns the number of stones of the position of key: in each
// column, key holds the stones' count of ones plus the player to move's
// stones, so key+1 has its highest bit at the column's height, which
// columnHeight holds for each of the 127 values a column can take.
func plies(key uint64) int {
	const c = 1<<colBits - 1
	return int(columnHeight[key&c]) + int(columnHeight[key>>colBits&c]) + int(columnHeight[key>>(2*colBits)&c]) +
		int(columnHeight[key>>(3*colBits)&c]) + int(columnHeight[key>>(4*colBits)&c]) +
		int(columnHeight[key>>(5*colBits)&c]) + int(columnHeight[key>>(6*colBits)&c])
}

// columnHeight maps a column of a key to the column's stones.
var columnHeight = func() (h [1 << colBits]uint8) {
	for v := range h {
		h[v] = uint8(bits.Len(uint(v)+1) - 1)
	}
	return h
}()

// clear empties the table, which then starts small again.
func (t *table) clear() {
	clear(t.entries[:t.used])
	t.start()
}

// start makes the empty table use its first startEntries entries, or a
// little less.
func (t *table) start() {
	t.n = len(t.entries)
	for t.n > startEntries && t.n%(2*t.ways()) == 0 {
		t.n /= 2 // doubling from here reaches len(entries) exactly
	}
	t.used, t.fresh = t.n, 0
}
