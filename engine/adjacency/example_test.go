package adjacency_test

import (
	"fmt"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
)

// A move puts a mark on an empty cell and turns the opponent's marks
// orthogonally next to it; after 2R plies the side with more marks wins.
func Example() {
	p, err := adjacency.New(2, engine.X)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	for _, cell := range []string{"f7", "c1", "e7", "f8"} {
		m, err := p.ParseMove(cell)
		if err != nil || !p.Legal(m) {
			fmt.Println("not a legal move:", cell, err)
			return
		}
		fmt.Println(p.SideToMove(), "plays", cell, "capturing", p.Captures(m))
		p.Play(m)
	}
	fmt.Println(p)
	fmt.Println("over:", p.Terminal(), "x has", p.Count(engine.X), "and o", p.Count(engine.O), "marks: x's", p.Result(engine.X))
	// Output:
	// ......oo/......oo/......../......../......../......../xx....../xx...... x 4
	// x plays f7 capturing 1
	// o plays c1 capturing 1
	// x plays e7 capturing 0
	// o plays f8 capturing 1
	// .....ooo/....xoxo/......../......../......../......../xx....../xoo..... x 0
	// over: true x has 5 and o 7 marks: x's loss
}

// ParseBoard names what is wrong with a position text.
func ExampleParseBoard() {
	for _, text := range []string{
		adjacency.StartText,
		"......oo/......oo/......../......../......../......../xx....../xx...... x 99",
		"......oo/......oo/......../......../......../......../xx....../xx..?... x 56",
	} {
		b, err := adjacency.ParseBoard(text)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(b.SideToMove(), "to move,", b.PliesLeft(), "plies left,", len(b.Moves(nil)), "moves")
	}
	// Output:
	// x to move, 56 plies left, 56 moves
	// adjacency: position "......oo/......oo/......../......../......../......../xx....../xx...... x 99": 99 plies left but only 56 empty cells
	// adjacency: position "......oo/......oo/......../......../......../......../xx....../xx..?... x 56": cell e1 holds '?', want x, o or '.'
}
