package c4solver_test

import (
	"context"
	"fmt"

	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/strategies/c4solver"
)

// Solve gives a position's exact score for the player to move, in Pascal
// Pons' convention, and a move that achieves it; MoveScores scores every
// legal move (here columns 6 and 7). The position is the first of Pons'
// set Test_L3_R1, scored −1 there.
func Example() {
	p, err := connect4.Parse("2252576253462244111563365343671351441")
	if err != nil {
		fmt.Println(err)
		return
	}
	s := c4solver.New(1 << 20)
	r, err := s.Solve(context.Background(), p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("score", r.Score, "best move", p.FormatMove(r.BestMove))
	scores, err := s.MoveScores(context.Background(), p)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ms := range scores {
		fmt.Print(p.FormatMove(ms.Move), ":", ms.Score, " ")
	}
	fmt.Println()
	// Output:
	// score -1 best move 6
	// 6:-1 7:-2
}
