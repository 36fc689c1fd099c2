package othello_test

import (
	"fmt"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/othello"
)

// A game starts with Black (x) to move; moves are squares, rows counted
// from the top, and a line of them is read as the community writes it.
func Example() {
	p := othello.New()
	fmt.Println(p)
	if err := p.PlayLine("f5d6c3d3c4"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	var moves []string
	for _, m := range p.Moves(nil) {
		moves = append(moves, p.FormatMove(m))
	}
	fmt.Println(p.SideToMove(), "to move:", moves)
	fmt.Println("discs:", p.Count(engine.X), "x,", p.Count(engine.O), "o; score for x", p.Score(engine.X))
	// Output:
	// ......../......../......../...ox.../...xo.../......../......../........ x
	// ......../......../..xo..../..xxx.../...oxx../...o..../......../........ o
	// o to move: [b3 f3 f4 b5 g5 g6]
	// discs: 6 x, 3 o; score for x 3
}

// A side without a square that flips something passes, and only then.
func ExamplePosition_ParseMove() {
	p, err := othello.Parse("..xxxx.o/o.xxxxxo/ooxxxxxo/oooooxx./ooxoxxx./oooxxxx./ooxxxx../o.xxxx.. x")
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = p.ParseMove("b1")
	fmt.Println(err)
	m, err := p.ParseMove("pass")
	fmt.Println(p.FormatMove(m), err, m == othello.Pass)
	p.Play(m)
	fmt.Println(p.SideToMove(), "to move")
	// Output:
	// othello: move "b1": x has no move and must pass
	// pass <nil> true
	// o to move
}

// The shortest game: nine moves and White is wiped out. The score counts
// the discs on the board.
func ExampleParse() {
	p, err := othello.Parse("f5d6c5f4e3f6g5e6e7")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Terminal(), p.Result(engine.X), p.Score(engine.X))
	// Output:
	// true win 13
}

// Perft counts the lines of play, a pass counted as a move: the published
// 1, 4, 12, 56, 244, 1396, 8200, …
func ExamplePosition_Perft() {
	p := othello.New()
	for depth := range 7 {
		fmt.Print(p.Perft(depth), " ")
	}
	fmt.Println(engine.Perft(p, 6, nil))
	// Output:
	// 1 4 12 56 244 1396 8200 8200
}
