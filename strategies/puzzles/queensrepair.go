package puzzles

import (
	"math"
	"math/bits"
)

// The repairs of N-Queens, ours and not the report's, written for millions
// of queens: flat int32 counters, no allocation in the loop and a fast
// generator. testdata/minconflicts.c, min-conflicts in plain C with the
// same generator, gives the same boards after the same nodes
// (TestMinConflictsMatchesC).

// wyrand is Wang Yi's wyrand generator: one 64-bit word of state, an
// addition and a 128-bit product per number.
type wyrand struct{ s uint64 }

// newWyrand seeds a generator from l.Seed, 0 reading as 1.
func newWyrand(l Limits) wyrand {
	seed := l.Seed
	if seed == 0 {
		seed = 1
	}
	return wyrand{seed}
}

func (w *wyrand) next() uint64 {
	w.s += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(w.s, w.s^0xe7037ed1a0b428db)
	return hi ^ lo
}

// intN returns a number in [0, n) by Lemire's multiply-shift (n ≥ 1). Its
// bias, below n/2^64, does not matter here.
func (w *wyrand) intN(n int) int {
	hi, _ := bits.Mul64(w.next(), uint64(n))
	return int(hi)
}

// minConflicts places the queens greedily, one column at a time on a row
// no queen holds yet, trying a few random free rows for one whose
// diagonals are free too; then, while some queen is attacked, it takes a
// random attacked queen and moves it to the row of its column attacked by
// the fewest queens, ties broken uniformly at random: one scan counts the
// rows attacked by the fewest, block by block, and the one drawn is found
// in its block.
func minConflicts(n int, l Limits, b *budget) ([]int, int, error) {
	if b.hold(uint64(n), minConflictsBytes) {
		return nil, 0, b.err
	}
	rnd := newWyrand(l)
	k := newCounts(n)
	scan := newRowScan(k)
	rows := make([]int32, n)
	free := make([]int32, n) // the rows no queen holds, in random order
	for i := range free {
		free[i] = int32(i)
	}
	if b.charge(uint64(n)) {
		return nil, 0, b.err
	}
	for i := n - 1; i > 0; i-- {
		j := rnd.intN(i + 1)
		free[i], free[j] = free[j], free[i]
	}
	for c := range n {
		if b.spend() {
			return nil, 0, b.err
		}
		pick, try := rnd.intN(len(free)), 0
		// A free row holds no queen: only its diagonals count.
		for ; try < 32 && k.d1[int(free[pick])+c]+k.d2[int(free[pick])-c+n] != 0; try++ {
			pick = rnd.intN(len(free))
		}
		if b.charge(uint64(try)) {
			return nil, 0, b.err
		}
		rows[c] = free[pick]
		free[pick] = free[len(free)-1]
		free = free[:len(free)-1]
		k.add(c, int(rows[c]), 1)
	}
	// attacked lists columns whose queen may be attacked; it is checked
	// when drawn.
	var attacked []int32
	if b.charge(uint64(n)) {
		return nil, 0, b.err
	}
	for c := range n {
		if k.on(c, int(rows[c])) > 3 {
			if b.hold(1, attackedEntryBytes) {
				return nil, 0, b.err
			}
			attacked = append(attacked, int32(c))
		}
	}
	for len(attacked) > 0 {
		if b.charge(1) {
			return nil, 0, b.err
		}
		i := rnd.intN(len(attacked))
		c := int(attacked[i])
		k.add(c, int(rows[c]), -1)
		if k.on(c, int(rows[c])) == 0 {
			k.add(c, int(rows[c]), 1)
			attacked[i] = attacked[len(attacked)-1]
			attacked = attacked[:len(attacked)-1]
			b.release(1, attackedEntryBytes)
			continue
		}
		// A repair scans the column's rows, then the columns for the
		// queens it attacks.
		if b.spend() || b.charge(2*uint64(n)) {
			return nil, 0, b.err
		}
		best, ties := scan.fewest(c)
		r := scan.nth(c, best, rnd.intN(ties))
		rows[c] = int32(r)
		k.add(c, r, 1)
		// The best queens it attacks now may be newly attacked.
		for c2, found := -1, int32(0); found < best; found++ {
			c2 = nextAttacker(rows, c, r, c2+1)
			if b.hold(1, attackedEntryBytes) {
				return nil, 0, b.err
			}
			attacked = append(attacked, int32(c2))
		}
	}
	return widen(rows), 0, nil
}

// nextAttacker returns the first column from from on, other than c, whose
// queen attacks (c, r); there must be one. Not inlined, so that its loop
// keeps all it needs in registers (inlined into minConflicts it spilled to
// the stack).
//
//go:noinline
func nextAttacker(rows []int32, c, r, from int) int {
	d, s := r-c, r+c // the queen's diagonals
	for c2, r2 := range rows[from:] {
		c2 += from
		if r2 := int(r2); c2 != c && (r2 == r || r2-c2 == d || r2+c2 == s) {
			return c2
		}
	}
	panic("puzzles: min-conflicts lost a queen it counted")
}

// tieBlock is the rows of a block of a min-conflicts scan: fewest keeps
// each block's fewest attacking queens and how many rows are attacked by
// that few, so that nth reads only the block holding the row it looks for.
const tieBlock = 2048

// blockTies is a block's fewest attacking queens and the rows attacked by
// that few.
type blockTies struct{ fewest, ties int32 }

// rowScan holds the blocks of min-conflicts' scans of a column's rows.
type rowScan struct {
	k      *counts
	blocks []blockTies
}

func newRowScan(k *counts) *rowScan {
	return &rowScan{k: k, blocks: make([]blockTies, (k.n+tieBlock-1)/tieBlock)}
}

// fewest returns the fewest queens attacking a square of column c, whose
// queen is lifted, and the number of rows attacked by that few.
func (s *rowScan) fewest(c int) (best int32, ties int) {
	n := s.k.n
	row, d1, d2 := s.k.row[:n], s.k.d1[c:c+n], s.k.d2[n-c:2*n-c]
	best = math.MaxInt32
	for i := range s.blocks {
		lo, hi := i*tieBlock, min((i+1)*tieBlock, n)
		f, t := fewestIn(row[lo:hi], d1[lo:hi], d2[lo:hi])
		s.blocks[i] = blockTies{f, t}
		if f < best {
			best, ties = f, 0
		}
		if f == best {
			ties += int(t)
		}
	}
	return best, ties
}

// fewestIn returns the least of row[i]+d1[i]+d2[i] and how often it
// occurs. It keeps c, the least so far plus one, so that a row attacked
// by as few is counted by the sign of the difference, without a
// comparison; a new least, rare, is a branch the processor predicts.
func fewestIn(row, d1, d2 []int32) (int32, int32) {
	d1, d2 = d1[:len(row)], d2[:len(row)]
	c, t := int32(math.MaxInt32), int32(0)
	r := 0
	for ; r+4 <= len(row); r += 4 {
		x, y, z := row[r:r+4:r+4], d1[r:r+4:r+4], d2[r:r+4:r+4]
		c, t = fewestStep(x[0]+y[0]+z[0], c, t)
		c, t = fewestStep(x[1]+y[1]+z[1], c, t)
		c, t = fewestStep(x[2]+y[2]+z[2], c, t)
		c, t = fewestStep(x[3]+y[3]+z[3], c, t)
	}
	for ; r < len(row); r++ {
		c, t = fewestStep(row[r]+d1[r]+d2[r], c, t)
	}
	return c - 1, t
}

// fewestStep counts v, a row's attacking queens, into c, the least so far
// plus one, and t, the rows attacked by that least.
func fewestStep(v, c, t int32) (int32, int32) {
	// An if with an else and two results stays a branch (no conditional
	// moves): a new least is rare and well predicted.
	if f := v - c; f < -1 {
		c, t = v+1, 1
	} else {
		t -= f >> 31 // f is -1 when v is the least, ≥ 0 when more
	}
	return c, t
}

// nth returns the row of column c of the tie-th (from 0) square attacked
// by best queens, after fewest(c).
func (s *rowScan) nth(c int, best int32, tie int) int {
	n := s.k.n
	row, d1, d2 := s.k.row[:n], s.k.d1[c:c+n], s.k.d2[n-c:2*n-c]
	for i, bl := range s.blocks {
		if bl.fewest != best {
			continue
		}
		if tie >= int(bl.ties) {
			tie -= int(bl.ties)
			continue
		}
		lo, hi := i*tieBlock, min((i+1)*tieBlock, n)
		y, z := d1[lo:hi], d2[lo:hi]
		for r, v := range row[lo:hi] {
			eq := 0
			if v+y[r]+z[r] == best {
				eq = 1
			}
			if tie -= eq; tie < 0 {
				return lo + r
			}
		}
	}
	panic("puzzles: min-conflicts lost a row it counted")
}

// widen returns rows as ints.
func widen(rows []int32) []int {
	out := make([]int, len(rows))
	for c, r := range rows {
		out[c] = int(r)
	}
	return out
}
