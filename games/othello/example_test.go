package othello_test

import (
	"fmt"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/othello"
)

// A game through its plug-in: start it, play a move, and say what the
// move did, as the bot records it for the board.
func Example() {
	g := othello.Game
	pos, err := g.Start(games.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := pos.ParseMove("f5")
	if err != nil {
		fmt.Println(err)
		return
	}
	c := g.Play(pos, m)
	fmt.Println(g.Look.Describe(c))
	fmt.Println(g.Look.Progress(pos, games.Options{}).English)
	n, unit := g.Look.Tally(pos, pos.SideToMove().Other())
	fmt.Println(n, unit+"s for black")
	// Output:
	// played **f5**, flipping e5
	// Empty squares: 59
	// 4 discs for black
}
