package gomoku_test

import (
	"fmt"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/gomoku"
)

// Black moves first on an empty board; points are written as in renju
// notation, rows counted from the bottom, and five in a row wins.
func Example() {
	p, err := gomoku.New(9)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"e5", "d4", "e6", "d5", "e4", "d6", "e3", "d7", "e7"} {
		m, err := p.ParseMove(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		p.Play(m)
	}
	fmt.Println(p)
	last, _ := p.Last()
	from, to, _ := p.Line(last)
	fmt.Println("x:", p.Result(engine.X), "on", gomoku.CellName(from)+"–"+gomoku.CellName(to))
	// Output:
	// ........./........./...ox..../...ox..../...ox..../...ox..../....x..../........./......... o
	// x: win on e3–e7
}
