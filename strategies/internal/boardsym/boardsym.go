// Package boardsym lists the symmetries of the 8×8 board, for the tests
// that check an evaluation treats every rotation and reflection alike, as
// the rules of Adjacency do, and for the canonical orientation of the
// Adjacency opening book's positions (strategies/adjsearch).
package boardsym

import "math/bits"

// Symmetries maps the name of each rotation and reflection of the board
// but the identity to the function that sends a cell's file and rank
// (0–7 each) to those of its image.
var Symmetries = map[string]func(file, rank int) (int, int){
	"rotate 90":  func(f, r int) (int, int) { return r, 7 - f },
	"rotate 180": func(f, r int) (int, int) { return 7 - f, 7 - r },
	"rotate 270": func(f, r int) (int, int) { return 7 - r, f },
	"mirror":     func(f, r int) (int, int) { return 7 - f, r },
	"flip":       func(f, r int) (int, int) { return f, 7 - r },
	"transpose":  func(f, r int) (int, int) { return r, f },
	"anti":       func(f, r int) (int, int) { return 7 - r, 7 - f },
}

// Cells returns the image under sym of the set of cells b, cell file +
// 8·rank being bit file + 8·rank.
func Cells(b uint64, sym func(file, rank int) (int, int)) uint64 {
	out := uint64(0)
	for ; b != 0; b &= b - 1 {
		c := bits.TrailingZeros64(b)
		f, r := sym(c%8, c/8)
		out |= 1 << (8*r + f)
	}
	return out
}
