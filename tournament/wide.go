package tournament

import "math/bits"

// wide is an unsigned integer of a fixed number of 64-bit words, least
// significant first. The Dutch system's edge weights are such numbers:
// each criterion of the rules owns a field of bits, and the more
// important a criterion the higher its field, so that comparing two
// weights compares the criteria in the rules' order. A round of 60
// players needs a few hundred bits.
type wide []uint64

// set copies b into a (of the same length).
func (a wide) set(b wide) { copy(a, b) }

// zero sets a to 0.
func (a wide) zero() { clear(a) }

// isZero reports whether a is 0.
func (a wide) isZero() bool {
	for _, w := range a {
		if w != 0 {
			return false
		}
	}
	return true
}

// cmp returns -1, 0 or 1 as a is less than, equal to or greater than b.
func (a wide) cmp(b wide) int {
	for i := len(a) - 1; i >= 0; i-- {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// add sets a to a+b.
func (a wide) add(b wide) {
	var c uint64
	for i := range a {
		a[i], c = bits.Add64(a[i], b[i], c)
	}
}

// sub sets a to a-b (b must not exceed a).
func (a wide) sub(b wide) {
	var c uint64
	for i := range a {
		a[i], c = bits.Sub64(a[i], b[i], c)
	}
}

// addUint sets a to a+x.
func (a wide) addUint(x uint64) {
	c := x
	for i := range a {
		if c == 0 {
			return
		}
		a[i], c = bits.Add64(a[i], c, 0)
	}
}

// subUint sets a to a-x (x must not exceed a).
func (a wide) subUint(x uint64) {
	c := x
	for i := range a {
		if c == 0 {
			return
		}
		a[i], c = bits.Sub64(a[i], c, 0)
	}
}

// addBit sets a to a + 2^k.
func (a wide) addBit(k uint) {
	i := int(k / 64)
	c := uint64(1) << (k % 64)
	for ; i < len(a) && c != 0; i++ {
		a[i], c = bits.Add64(a[i], c, 0)
	}
}

// shl shifts a left by k bits, in place; bits shifted out of the top
// word are lost.
func (a wide) shl(k uint) {
	words, r := int(k/64), k%64
	for i := len(a) - 1; i >= 0; i-- {
		var v uint64
		if j := i - words; j >= 0 {
			v = a[j] << r
			if r > 0 && j > 0 {
				v |= a[j-1] >> (64 - r)
			}
		}
		a[i] = v
	}
}

// shr1 halves a, in place.
func (a wide) shr1() {
	for i := range a {
		a[i] >>= 1
		if i+1 < len(a) {
			a[i] |= a[i+1] << 63
		}
	}
}

// wideArena holds n wide numbers of one width in one allocation.
type wideArena struct {
	words int
	data  []uint64
}

func newWideArena(n, words int) wideArena {
	return wideArena{words: words, data: make([]uint64, n*words)}
}

// at returns the i-th number of the arena.
func (w wideArena) at(i int) wide {
	return wide(w.data[i*w.words : (i+1)*w.words : (i+1)*w.words])
}
