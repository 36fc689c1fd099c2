package catalog_test

import (
	"fmt"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// Every list of games comes from the catalog: the five duels, then the
// three puzzles played alone, with their number of players and how a
// move is written.
func ExampleAll() {
	for _, g := range catalog.All() {
		fmt.Printf("%-9s %-13s %d  %s\n", g.Name, g.Title, g.Players, g.MoveHelp)
	}
	// Output:
	// adjacency Adjacency     2  a cell a1–h8
	// connect4  Connect Four  2  a column 1–7
	// tictactoe Tic-Tac-Toe   2  a cell 1–9, row by row from the top-left
	// othello   Othello       2  a square a1–h8 (rows counted from the top), or pass
	// gomoku    Gomoku        2  a point a1–o15 (columns a–o, rows counted from the bottom), such as h8
	// 8puzzle   8-Puzzle      1  a tile next to the blank (its number), or the blank's direction U, D, L or R
	// 15puzzle  15-Puzzle     1  a tile next to the blank (its number), or the blank's direction U, D, L or R
	// nqueens   N-Queens      1  a square such as c4: column c's queen goes to row 4 (or is lifted if it stands there)
}

// A game's name, in either case, finds its plug-in; its New sets up a
// start from Options (the zero value is the default setup), and Of finds
// the game of a position.
func ExampleLookup() {
	g, err := catalog.Lookup("Othello")
	if err != nil {
		fmt.Println(err)
		return
	}
	pos, err := g.New(games.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Title, "starts from", pos)
	fmt.Println("a position of", catalog.Of(pos).Name)
	_, err = catalog.Lookup("chess")
	fmt.Println(err)
	// Output:
	// Othello starts from ......../......../......../...ox.../...xo.../......../......../........ x
	// a position of othello
	// games: unknown game "chess": want one of adjacency, connect4, tictactoe, othello, gomoku, 8puzzle, 15puzzle, nqueens
}
