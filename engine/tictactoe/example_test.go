package tictactoe_test

import (
	"fmt"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/tictactoe"
)

// Cells are 1–9 row by row from the top-left; the position text is the
// nine cells and the side to move.
func Example() {
	p := tictactoe.New()
	for _, cell := range []string{"5", "1", "3", "7", "4", "6", "2", "8", "9"} {
		m, err := p.ParseMove(cell)
		if err != nil || !p.Legal(m) {
			fmt.Println("not a legal move:", cell, err)
			return
		}
		p.Play(m)
	}
	fmt.Println(p, "over:", p.Terminal(), "x:", p.Result(engine.X), p.Score(engine.X))
	// Output:
	// oxxxxooox o over: true x: draw 0
}

// Parse refuses positions that no game reaches.
func ExampleParse() {
	for _, text := range []string{"x...o.... x", "xx....... x", "xxx.oo... o", "xxx.oo... x"} {
		p, err := tictactoe.Parse(text)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(p, "over:", p.Terminal())
	}
	// Output:
	// x...o.... x over: false
	// tictactoe: position "xx....... x": x to move with 2 marks against 0; want as many or one fewer
	// xxx.oo... o over: true
	// tictactoe: position "xxx.oo... x": x to move with 3 marks against 2; want as many or one fewer
}
