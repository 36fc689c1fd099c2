package strategies_test

import (
	"context"
	"fmt"
	"time"

	"github.com/gambitbot/gambit/engine/tictactoe"
	"github.com/gambitbot/gambit/strategies"
)

// A strategy is looked up by its name for a game and asked for a move; its
// context's deadline is its time. Minimax searches Tic-Tac-Toe to the end,
// so its answer does not depend on the machine's speed: here x (cells 1
// and 2 taken, o on 4 and 5) wins at once by taking cell 3, and its score
// says so exactly.
func Example() {
	info, err := strategies.LookupFor("minimax", "tictactoe")
	if err != nil {
		fmt.Println(err)
		return
	}
	pos, err := tictactoe.Parse("xx.oo.... x")
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := info.Strategy.Search(ctx, pos, strategies.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s (%s) plays %s: score %d, exact %v\n", info.Name, info.DifficultyIn("tictactoe"), pos.FormatMove(res.Move), res.Score, res.Exact)
	// Output:
	// minimax (perfect) plays 3: score 1, exact true
}
