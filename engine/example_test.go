package engine_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/engine/tictactoe"
)

// Every game plays through engine.Position: moves are read and written in
// the game's notation, and the position says when the game is over and
// how it ended for each side. Here x drops four discs in the first column
// of Connect Four while o answers in the second.
func Example() {
	var pos engine.Position = connect4.New()
	var legal []string
	for _, m := range pos.Moves(nil) {
		legal = append(legal, pos.FormatMove(m))
	}
	fmt.Println("legal at the start:", strings.Join(legal, " "))
	for _, text := range []string{"1", "2", "1", "2", "1", "2", "1"} {
		m, err := pos.ParseMove(text)
		if err != nil || !pos.Legal(m) {
			fmt.Println("not a legal move:", text, err)
			return
		}
		pos.Play(m)
	}
	fmt.Println("position:", pos)
	fmt.Println("over:", pos.Terminal(), "x:", pos.Result(engine.X), "o:", pos.Result(engine.O))
	pos.Undo()
	fmt.Println("after undo:", pos, "over:", pos.Terminal(), "to move:", pos.SideToMove())
	// Output:
	// legal at the start: 1 2 3 4 5 6 7
	// position: 1212121
	// over: true x: win o: loss
	// after undo: 121212 over: false to move: x
}

// Perft counts the lines of play to a depth: the check that a game's move
// generator is right, against counts published or found by another
// program. Tic-Tac-Toe has 9 first moves, 72 two-move lines and 255,168
// games in all (a game ends at a line of three or a full board).
func ExamplePerft() {
	for _, depth := range []int{1, 2, 9} {
		fmt.Println(depth, engine.Perft(tictactoe.New(), depth, nil))
	}
	// Output:
	// 1 9
	// 2 72
	// 9 255168
}

// ReadMove reads a move as a player types it: a move the position cannot
// take is a *MoveError naming it whole, with the game's reason and the
// legal moves.
func ExampleReadMove() {
	var pos engine.Position = connect4.New()
	for range 6 {
		m, _ := engine.ReadMove(pos, "1")
		pos.Play(m)
	}
	for _, text := range []string{"1", "8", "2"} {
		m, err := engine.ReadMove(pos, text)
		var bad *engine.MoveError
		if errors.As(err, &bad) {
			fmt.Printf("%s: %v; legal: %s\n", text, err, strings.Join(bad.Legal, " "))
			continue
		}
		fmt.Println(text, "is column", pos.FormatMove(m))
	}
	// Output:
	// 1: connect4: move 1: the column is full; legal: 2 3 4 5 6 7
	// 8: connect4: move "8": want a column 1–7; legal: 2 3 4 5 6 7
	// 2 is column 2
}
