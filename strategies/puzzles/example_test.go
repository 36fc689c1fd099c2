package puzzles_test

import (
	"context"
	"fmt"

	"github.com/gambitbot/gambit/engine/slidingtile"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// A sliding-tile solver finds the blank's moves from a position to the
// goal; A* with the Manhattan distance proves its answer shortest.
func ExampleTileSolver() {
	p, err := slidingtile.Parse("1,2,3,5,6,0,7,8,4")
	if err != nil {
		fmt.Println(err)
		return
	}
	astar, err := puzzles.LookupTile("astar")
	if err != nil {
		fmt.Println(err)
		return
	}
	sol, err := astar.Solve(context.Background(), p, puzzles.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(sol.Moves), "moves:", slidingtile.FormatMoves(sol.Moves), "shortest:", sol.Optimal)
	for _, m := range sol.Moves {
		p.Play(m)
	}
	fmt.Println("solved:", p.Solved())
	// Output:
	// 13 moves: LLDRRULDLURRD shortest: true
	// solved: true
}

// Min-conflicts places N queens none of which attacks another; seeded,
// a run replays. Rows count from 0, one for each column.
func ExampleQueensSolver() {
	s, err := puzzles.LookupQueens("min-conflicts")
	if err != nil {
		fmt.Println(err)
		return
	}
	sol, err := s.Solve(context.Background(), 8, puzzles.Limits{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("rows:", sol.Rows, "conflicts:", puzzles.Conflicts(sol.Rows))
	// Output:
	// rows: [4 1 7 0 3 6 2 5] conflicts: 0
}
