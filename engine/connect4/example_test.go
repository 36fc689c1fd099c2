package connect4_test

import (
	"fmt"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
)

// A position is the line of columns played from the empty board, as in
// Pascal Pons' test positions. A win scores (44 − N) div 2 for the winner,
// N being the number of the winning stone.
func Example() {
	p, err := connect4.Parse("4455")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, "ply", p.Ply(), p.SideToMove(), "to move")
	for _, col := range []string{"3", "3", "6"} {
		m, err := p.ParseMove(col)
		if err != nil || !p.Legal(m) {
			fmt.Println("not a legal move:", col, err)
			return
		}
		p.Play(m)
	}
	fmt.Println(p, "over:", p.Terminal(), "x:", p.Result(engine.X), p.Score(engine.X), "o:", p.Score(engine.O))
	// Output:
	// 4455 ply 4 x to move
	// 4455336 over: true x: win 18 o: -18
}

// Parse names the first move it cannot play.
func ExampleParse() {
	for _, text := range []string{connect4.StartText, "4444444", "1212121", "12121212", "48"} {
		p, err := connect4.Parse(text)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%q: %d moves\n", p.String(), len(p.Moves(nil)))
	}
	// Output:
	// "start": 7 moves
	// connect4: position "4444444": move 7: column 4 is full
	// "1212121": 0 moves
	// connect4: position "12121212": move 8 comes after the game was won at move 7
	// connect4: position "48": move 2 is '8', want a column 1–7
}
