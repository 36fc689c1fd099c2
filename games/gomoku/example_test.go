package gomoku_test

import (
	"fmt"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/gomoku"
)

// A game through its plug-in: start it, play a move, say what it did as
// the bot records it, and ask the evaluation about the threat it makes.
func Example() {
	g := gomoku.Game
	pos, err := g.Start(games.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var c games.Change
	for _, name := range []string{"h8", "a1", "h9", "a2", "h10"} {
		m, err := pos.ParseMove(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		c = g.Play(pos, m)
	}
	fmt.Println(g.Look.Describe(c))
	fmt.Println(g.Look.Progress(pos, games.Options{}).English)
	// White to move faces an open three (h8–h10): blocking one end leaves
	// a four, not yet a loss, so the estimate is below a win's Unit.
	v := g.AI.Evaluate(pos)
	fmt.Println(v < 0, -v < gomoku.Unit)
	// Output:
	// played **h10**
	// Empty points: 220
	// true true
}
