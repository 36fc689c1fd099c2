package games_test

import (
	"fmt"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// A game is found by its name in the catalog; its plug-in starts it,
// reads and plays moves, and describes the board for a renderer: the text
// drawing below, the bot's emoji grid and its picture all come from the
// same board model, Look.Board.
func Example() {
	game, err := catalog.Lookup("connect4")
	if err != nil {
		fmt.Println(err)
		return
	}
	pos, err := game.Start(games.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s (%s): %s\n", game.Title, game.Name, game.Summary)
	fmt.Println("moves are", game.MoveHelp)
	var last games.Change
	for _, text := range []string{"4", "4", "3"} {
		m, err := pos.ParseMove(text)
		if err != nil || !pos.Legal(m) {
			fmt.Println("not a legal move:", text, err)
			return
		}
		last = game.Play(pos, m)
	}
	fmt.Println("last move:", game.Look.Describe(last))
	fmt.Print(game.Look.Board(pos, &last).Text())
	// Output:
	// Connect Four (connect4): drop discs into 7 columns; four in a row across, up or diagonally wins
	// moves are a column 1–7
	// last move: dropped into column **3**
	// . . . . . . .
	// . . . . . . .
	// . . . . . . .
	// . . . . . . .
	// . . . o . . .
	// . . x x . . .
	// 1 2 3 4 5 6 7
}

// A game's setup options are checked against what it takes: Adjacency has
// rounds, Connect Four none. A capture shows in the last move's Change.
func ExampleGame_Start() {
	adjacency, _ := catalog.Lookup("adjacency")
	connect4, _ := catalog.Lookup("connect4")
	if _, err := connect4.Start(games.Options{Rounds: 4}); err != nil {
		fmt.Println(err)
	}
	pos, err := adjacency.Start(games.Options{Rounds: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, text := range []string{"c3", "d3", "e3"} {
		m, _ := pos.ParseMove(text)
		c := adjacency.Play(pos, m)
		fmt.Println(c.Move, "changed", c.Changed)
	}
	fmt.Print(adjacency.Look.Board(pos, nil).Text())
	x, unit := adjacency.Look.Tally(pos, pos.SideToMove())
	fmt.Println(pos.SideToMove(), "has", x, unit+"s;", adjacency.Look.Progress(pos, games.Options{Rounds: 4}).English)
	// Output:
	// games: connect4: invalid setup: it has no rounds
	// c3 changed []
	// d3 changed [c3]
	// e3 changed [d3]
	// 8  . . . . . . o o  8
	// 7  . . . . . . o o  7
	// 6  . . . . . . . .  6
	// 5  . . . . . . . .  5
	// 4  . . . . . . . .  4
	// 3  . . o x x . . .  3
	// 2  x x . . . . . .  2
	// 1  x x . . . . . .  1
	//    a b c d e f g h
	// o has 5 marks; 3 of 4 rounds left
}

// Empty cells show their labels: Tic-Tac-Toe's cell numbers, a sliding
// puzzle's tiles.
func ExampleBoard_Text() {
	for _, name := range []string{"tictactoe", "15puzzle"} {
		game, _ := catalog.Lookup(name)
		pos, _ := game.Start(games.Options{})
		fmt.Printf("%s:\n%s", game.Title, game.Look.Board(pos, nil).Text())
	}
	// Output:
	// Tic-Tac-Toe:
	// 1 2 3
	// 4 5 6
	// 7 8 9
	// 15-Puzzle:
	//  5  1  3  4
	//  9  2  7  8
	// 13  6 10 12
	// 15 14 11  .
}
