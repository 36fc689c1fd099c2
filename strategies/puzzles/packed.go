package puzzles

import (
	"log/slog"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// packedTable is one pattern's table of a PackedPDB: an entry for each
// placement of the pattern's tiles on distinct cells, indexed by its
// compact rank, 4 bits an entry. The k tiles on n cells have n!/(n−k)!
// placements: 518,918,400 for 8 tiles of the 15-puzzle, 259 MB.
//
// An entry holds (d − m)/2, where d is the fewest moves of the pattern's
// tiles that bring them home (the blank abstracted away, as in PDB) and
// m is their Manhattan distance: each move takes one tile one cell, so d
// and m have the same parity and d ≥ m. The value is capped at 14 (15
// marks an entry not yet reached while the table builds), which keeps
// the bound admissible. A search adds the Manhattan distance it keeps up
// to date move by move.
type packedTable struct {
	cells int   // cells of the board
	tiles []int // the pattern's tiles, by slot
	// mult[s] is the weight of slot s's digit in the rank: the product of
	// cells−j for j from s+1 to k−1.
	mult [16]uint32
	// recip[s] is 2^64/mult[s] rounded up, to divide 32-bit numbers by
	// mult[s] with a multiplication (Lemire, Kaser & Kurz 2019); 0 for
	// the last slot, whose mult is 1.
	recip   [16]uint64
	entries uint32
	words   []uint32 // 8 entries a word, the first lowest
}

// unreached marks an entry the breadth-first search has not reached;
// maxPacked is the largest value stored.
const (
	unreached = 15
	maxPacked = 14
)

func newPackedTable(size int, tiles []int) *packedTable {
	t := &packedTable{cells: size * size, tiles: tiles, entries: 1}
	for s := len(tiles) - 1; s >= 0; s-- {
		t.mult[s] = t.entries
		if s < len(tiles)-1 {
			t.recip[s] = ^uint64(0)/uint64(t.entries) + 1
		}
		t.entries *= uint32(t.cells - s)
	}
	return t
}

// get returns entry i.
func (t *packedTable) get(i uint32) int { return int(t.words[i>>3]>>(4*(i&7))) & 15 }

// rank returns the compact rank of the placement c (slot → cell): the
// mixed-radix number whose digit for slot s is c[s] less the earlier
// slots' cells below it.
func (t *packedTable) rank(c []uint8) uint32 {
	var used uint32
	var r uint32
	for s, cell := range c {
		r += (uint32(cell) - uint32(bits.OnesCount32(used&(1<<cell-1)))) * t.mult[s]
		used |= 1 << cell
	}
	return r
}

// unrank sets c (slot → cell) and slotAt (cell → slot, which must hold
// −1 on the cells c does not take) to the placement of rank r, and
// returns the cells taken.
func (t *packedTable) unrank(r uint32, c []uint8, slotAt *[16]int8) (used uint32) {
	for s := range t.tiles {
		digit := uint64(r) // the last slot's
		if s < len(t.tiles)-1 {
			digit, _ = bits.Mul64(t.recip[s], uint64(r))
			r -= uint32(digit) * t.mult[s]
		}
		cell := nthFree(used, int(digit))
		c[s], slotAt[cell] = uint8(cell), int8(s)
		used |= 1 << cell
	}
	return used
}

// nthFree returns the n-th cell (from 0) not in used.
func nthFree(used uint32, n int) int {
	free := ^used
	if low := bits.OnesCount8(uint8(free)); n >= low {
		n -= low
		free >>= 8
		return 8 + int(selectByte[uint8(free)][n])
	}
	return int(selectByte[uint8(free)][n])
}

// selectByte[b][n] is the place of the n-th set bit of b.
var selectByte = func() (t [256][8]uint8) {
	for b := range 256 {
		n := 0
		for i := range 8 {
			if b&(1<<i) != 0 {
				t[b][n] = uint8(i)
				n++
			}
		}
	}
	return t
}()

// shift returns the rank r of a placement with slot s's tile moved from
// cell x to the free cell y. used are the placement's cells and slotAt
// its slot on each of them. Only the digits of s and of later slots on
// cells between x and y change: none but s's when the move is sideways.
func (t *packedTable) shift(r uint32, s, x, y int, used uint32, slotAt *[16]int8) uint32 {
	lo, hi := min(x, y), max(x, y)
	between := used & (1<<hi - 1) &^ (2<<lo - 1)
	dir := int64(1)
	if y < x {
		dir = -1
	}
	delta := int64(y-x) * int64(t.mult[s])
	for between != 0 {
		j := int(slotAt[bits.TrailingZeros32(between)])
		between &= between - 1
		if j < s {
			delta -= dir * int64(t.mult[s])
		} else {
			delta += dir * int64(t.mult[j])
		}
	}
	return uint32(int64(r) + delta)
}

// build fills the table by a breadth-first search from the pattern's goal
// placement, level by level: a bit set marks the placements of the
// level, and the workers (one a CPU) take its words in chunks. A worker
// writes an entry with an atomic AND that only clears bits, so two
// workers reaching one placement at once write the same value safely.
// After each level it calls reached with the placements reached so far
// (the goal's included; a placement two workers reach at once may count
// twice, so the count is capped at the table's entries), and returns the
// last count.
func (t *packedTable) build(size int, reached func(n int)) int {
	t.words = make([]uint32, (t.entries+7)/8)
	for i := range t.words {
		t.words[i] = 0xFFFFFFFF
	}
	goal := make([]uint8, len(t.tiles))
	for s, tile := range t.tiles {
		goal[s] = uint8(tile - 1)
	}
	g := t.rank(goal)
	t.words[g>>3] &^= unreached << (4 * (g & 7))
	cur := make([]uint64, (t.entries+63)/64)
	next := make([]uint64, len(cur))
	cur[g>>6] |= 1 << (g & 63)
	total := 1
	for level := 0; ; level++ {
		start := time.Now()
		n := t.level(size, level, cur, next)
		slog.Debug("puzzles: pattern database level", "tiles", t.tiles, "moves", level+1, "placements", n, "took", time.Since(start))
		total = min(total+int(n), int(t.entries))
		reached(total)
		if n == 0 {
			return total
		}
		cur, next = next, cur
		clear(next)
	}
}

// level expands the placements marked in cur, all at the given number of
// moves from the goal, and marks in next those one move further that no
// level has reached, writing their entries. It returns how many it
// marked (a placement two workers reach at once counts twice).
func (t *packedTable) level(size, level int, cur, next []uint64) int64 {
	const chunk = 1 << 12
	var taken, found atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			n := int64(0)
			c := make([]uint8, len(t.tiles))
			var slotAt [16]int8
			for i := range slotAt {
				slotAt[i] = -1
			}
			for {
				lo := int(taken.Add(chunk)) - chunk
				if lo >= len(cur) {
					break
				}
				for w := lo; w < min(lo+chunk, len(cur)); w++ {
					for word := cur[w]; word != 0; word &= word - 1 {
						i := uint32(w*64 + bits.TrailingZeros64(word))
						n += t.expand(size, i, level, c, &slotAt, next)
					}
				}
			}
			found.Add(n)
		})
	}
	wg.Wait()
	return found.Load()
}

// expand writes and marks in next the placements one move from placement
// i (at the given level) that no level has reached, and returns how many.
// c and slotAt are the worker's scratch; slotAt is left all −1.
func (t *packedTable) expand(size int, i uint32, level int, c []uint8, slotAt *[16]int8, next []uint64) int64 {
	used := t.unrank(i, c, slotAt)
	md := 0
	for s, tile := range t.tiles {
		md += manhattan[size][tile][c[s]]
	}
	n := int64(0)
	for s, tile := range t.tiles {
		x := int(c[s])
		for _, st := range neighbours[size][x] {
			if used&(1<<st.to) != 0 {
				continue
			}
			j := t.shift(i, s, x, st.to, used, slotAt)
			word := &t.words[j>>3]
			shift := 4 * (j & 7)
			if atomic.LoadUint32(word)>>shift&15 != unreached {
				continue
			}
			v := uint32(min((level+1-(md-manhattan[size][tile][x]+manhattan[size][tile][st.to]))/2, maxPacked))
			atomic.AndUint32(word, ^((unreached ^ v) << shift))
			atomic.OrUint64(&next[j>>6], 1<<(j&63))
			n++
		}
	}
	for _, cell := range c {
		slotAt[cell] = -1
	}
	return n
}
