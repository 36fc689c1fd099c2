package nqueens_test

import (
	"fmt"

	"github.com/gambitbot/gambit/engine/nqueens"
)

// A position is each column's queen's row, counted from 1 at the bottom,
// 0 for a column without one; a move names a square.
func Example() {
	p, err := nqueens.Parse("2,4,1,0")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, "placed", p.Placed(), "solved:", p.Solved())
	m, err := p.ParseMove("d3")
	if err != nil {
		fmt.Println(err)
		return
	}
	p.Play(m)
	fmt.Println(p, "conflicts", p.Conflicts(), "solved:", p.Solved())
	// Output:
	// 2,4,1,0 placed 3 solved: false
	// 2,4,1,3 conflicts 0 solved: true
}
