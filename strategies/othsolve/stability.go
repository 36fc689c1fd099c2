package othsolve

import "math/bits"

// Stable discs: discs that no sequence of moves can flip. The opponent's
// stable discs bound the side to move's final score from above: it ends
// with at most 64 − 2×stable (see stableDiscs).

const (
	fileA  = 0x0101010101010101
	fileH  = 0x8080808080808080
	rank1  = 0xFF
	rank8  = 0xFF << 56
	border = fileA | fileH | rank1 | rank8
	inner  = ^uint64(border)
)

var (
	// edgeStable[p][o] holds the discs of p, on an edge of eight squares
	// where the opponent has o, that no sequence of moves along that edge
	// flips. A disc on an edge can be flipped only along the edge, so
	// these discs are stable on the board as well.
	edgeStable [256][256]uint8
	// unpackA[b] puts the bits of b on the a-file, bit r on row r.
	unpackA [256]uint64
)

func init() {
	for p := range 256 {
		for o := range 256 {
			if p&o == 0 {
				edgeStable[p][o] = findEdgeStable(uint8(p), uint8(o), uint8(p))
			}
		}
	}
	for b := range 256 {
		for r := range 8 {
			if b>>r&1 == 1 {
				unpackA[b] |= 1 << (8 * r)
			}
		}
	}
}

// findEdgeStable returns the discs of stable (a subset of p's) that stay
// p's whatever is played on the empty squares of the edge, by either side
// and in any order: a placement may flip nothing along the edge, since it
// may flip in another direction.
func findEdgeStable(p, o, stable uint8) uint8 {
	stable &= p
	empty := ^(p | o)
	if stable == 0 || empty == 0 {
		return stable
	}
	for x := range 8 {
		b := uint8(1) << x
		if empty&b == 0 {
			continue
		}
		np, no := placeOnLine(p|b, o, x)
		if stable = findEdgeStable(np, no, stable); stable == 0 {
			return 0
		}
		no, np = placeOnLine(o|b, p, x)
		if stable = findEdgeStable(np, no, stable); stable == 0 {
			return 0
		}
	}
	return stable
}

// placeOnLine flips, along a line of eight squares, the discs of them
// that the disc of me just put on square x outflanks.
func placeOnLine(me, them uint8, x int) (uint8, uint8) {
	var flips uint8
	for _, step := range [2]int{1, -1} {
		var run uint8
		for y := x + step; y >= 0 && y < 8; y += step {
			b := uint8(1) << y
			if them&b != 0 {
				run |= b
				continue
			}
			if me&b != 0 {
				flips |= run
			}
			break
		}
	}
	return me | flips, them &^ flips
}

// packA gathers the a-file of x into a byte, row r into bit r.
func packA(x uint64) uint8 { return uint8(((x & fileA) * 0x0102040810204080) >> 56) }

// fullLines returns the squares whose line is full (no empty square) in
// each of the four directions: row, column and the two diagonals.
func fullLines(occ uint64) (h, v, d7, d9 uint64) {
	t := occ & (occ >> 1)
	t &= t >> 2
	t &= t >> 4
	h = (t & fileA) * 0xFF
	v = occ & bits.RotateLeft64(occ, 8)
	v &= bits.RotateLeft64(v, 16)
	v &= bits.RotateLeft64(v, 32)
	d9 = fullToBorder(occ, 9, rank8|fileH) & fullToBorder(occ, -9, rank1|fileA)
	d7 = fullToBorder(occ, 7, rank8|fileA) & fullToBorder(occ, -7, rank1|fileH)
	return
}

// fullToBorder returns the squares of occ from which every square in the
// direction of a step of k squares is in occ, up to the board's edge
// (edge: the squares with no next square in that direction).
func fullToBorder(occ uint64, k int, edge uint64) uint64 {
	f := occ & edge
	for range 7 {
		f |= occ & bits.RotateLeft64(f, -k) &^ nextWraps(k)
	}
	return f
}

// nextWraps returns the squares that a rotation by −k reaches by wrapping
// round the board, which are not the previous square in the direction k.
func nextWraps(k int) uint64 {
	switch k {
	case 9, -7:
		return fileH // the previous square of a step north-east or south-east lies west
	case -9, 7:
		return fileA
	}
	return 0
}

// stableDiscs returns the discs of p, whose opponent has o, that can
// never be flipped: those stable along their edge, those whose four lines
// are full, and, repeatedly, those that in each direction have a full
// line or a stable neighbour of their own colour.
func stableDiscs(p, o uint64) uint64 {
	stable := uint64(edgeStable[uint8(p)][uint8(o)]) |
		uint64(edgeStable[uint8(p>>56)][uint8(o>>56)])<<56 |
		unpackA[edgeStable[packA(p)][packA(o)]] |
		unpackA[edgeStable[packA(p>>7)][packA(o>>7)]]<<7
	h, v, d7, d9 := fullLines(p | o)
	central := p & inner
	stable |= central & h & v & d7 & d9
	if stable == 0 {
		return 0
	}
	for {
		old := stable
		sh := h | stable>>1 | stable<<1
		sv := v | stable>>8 | stable<<8
		s7 := d7 | stable>>7 | stable<<7
		s9 := d9 | stable>>9 | stable<<9
		stable |= sh & sv & s7 & s9 & central
		if stable == old {
			return stable
		}
	}
}
