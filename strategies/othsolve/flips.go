package othsolve

import "math/bits"

// rays[x] are the squares from square x to the board's edge in each of
// the eight directions, x itself left out: first the four towards higher
// cells (east, south-west, south, south-east), then the four towards lower
// ones.
var rays [64][8]uint64

// neighbours[x] are the squares next to square x.
var neighbours [64]uint64

func init() {
	dirs := [8][2]int{{0, 1}, {1, -1}, {1, 0}, {1, 1}, {0, -1}, {-1, 1}, {-1, 0}, {-1, -1}}
	for x := range 64 {
		for d, dir := range dirs {
			r, c := x/8+dir[0], x%8+dir[1]
			if r >= 0 && r < 8 && c >= 0 && c < 8 {
				neighbours[x] |= 1 << (8*r + c)
			}
			for ; r >= 0 && r < 8 && c >= 0 && c < 8; r, c = r+dir[0], c+dir[1] {
				rays[x][d] |= 1 << (8*r + c)
			}
		}
	}
}

// flips returns the discs of opp that a disc of own on the empty square x
// flips (none: the move is not legal). Along each ray, the discs flipped
// are the opponent's up to the first square that is not, if that square
// holds a disc of own.
func flips(own, opp uint64, x int) uint64 {
	if opp&neighbours[x] == 0 {
		return 0
	}
	r := &rays[x]
	return up(own, opp, r[0]) | up(own, opp, r[1]) | up(own, opp, r[2]) | up(own, opp, r[3]) |
		down(own, opp, r[4]) | down(own, opp, r[5]) | down(own, opp, r[6]) | down(own, opp, r[7])
}

// up returns the flips along a ray towards higher cells: its first square
// that is not the opponent's is its lowest. With no branch: m is one less
// than that square's bit if it holds a disc of own, and all ones (its top
// bit set, which clears the result) if it does not.
func up(own, opp, ray uint64) uint64 {
	o := ray &^ opp
	m := o&-o&own - 1
	return ray & m &^ -(m >> 63)
}

// down returns the flips along a ray towards lower cells: its first square
// that is not the opponent's is its highest. With no branch: the squares
// of the ray above that one, if it holds a disc of own, are those at or
// above twice its bit (none when it does not: the mask is then 0).
func down(own, opp, ray uint64) uint64 {
	o := ray &^ opp
	first := uint64(1) << 63 >> bits.LeadingZeros64(o|1) & ray
	return ray & -(first & own << 1)
}
