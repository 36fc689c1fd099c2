package slidingtile_test

import (
	"fmt"

	"github.com/gambitbot/gambit/engine/slidingtile"
)

// A position is the tiles row by row, 0 the blank. A move is written as
// the blank's direction, and read as that or as the number of the tile
// that slides into the blank.
func Example() {
	p, err := slidingtile.Parse("1,2,3,4,5,6,7,0,8")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, "Manhattan distance", p.Manhattan())
	m, err := p.ParseMove("8")
	if err != nil {
		fmt.Println(err)
		return
	}
	p.Play(m)
	fmt.Println("tile 8 slides: the blank moves", p.FormatMove(m), "and the puzzle is solved:", p.Solved())
	_, err = slidingtile.Parse("2,1,3,4,5,6,7,8,0")
	fmt.Println(err)
	// Output:
	// 1,2,3,4,5,6,7,0,8 Manhattan distance 1
	// tile 8 slides: the blank moves R and the puzzle is solved: true
	// slidingtile: position "2,1,3,4,5,6,7,8,0" is unsolvable: it has 1 inversions (tile pairs in the wrong order, read row by row), an odd number, and every slide keeps that number's parity, which is even at the goal; swapping two tiles makes it solvable
}
