package main

import (
	"context"
	"errors"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/strategies/c4solver"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

const solveUsage = `
Usage: gambit solve --game {solve-exact} [--weak] [--time D] < positions
       gambit solve --game {solve-tiles} --position P [--algorithm NAME] [--compare] [--nodes N] [--time D] [--memory MiB] [--json]
       gambit solve --game {solve-queens} --n N [--algorithm NAME] [--seed S] [--nodes N] [--time D] [--memory MiB] [--json]

Sliding-tile puzzles: P is the tiles row by row, separated by commas, 0 the
blank, e.g. 1,2,3,5,6,0,7,8,4; the goal is 1…8 (1…15) with the blank last.
P start is the puzzle's standard start: 7,2,4,5,0,6,8,3,1 (Russell and
Norvig's 8-puzzle, 20 moves) or 5,1,3,4,9,2,7,8,13,6,10,12,15,14,11,0 (a
15-puzzle 22 moves from the goal).
It prints the solution as the blank's moves (U, D, L, R: the direction the
blank goes, as report 003 writes them) and as the tiles slid, its length,
the nodes expanded, the time and whether the solution is proved shortest.
Algorithms: {tile-solvers}; the default is astar on the
8-puzzle and idastar-pdb on the 15-puzzle. --compare runs every algorithm
with a node cap (--nodes, 1,000,000 unless given) and prints a table:
algorithm, length, nodes, ms and optimal? — "proved" for an optimal
search that finished, "yes" or "no" against the best proved length, "?"
when none finished. Without --compare no node cap applies unless --nodes
gives one. Every search stops at its memory budget, --memory MiB (default
512, at most 1,048,576): the states it holds, counted entry by entry.

N-Queens: places N queens (N from 4 to 100,000,000; 2 and 3 have no
solution) with one of {queens-solvers}
(default min-conflicts) and prints the solution — each column's row from
the bottom, 1…N, and the board up to N = 12 — with the nodes, restarts and
time; the solution is checked conflict-free. A board that takes more than
--memory (min-conflicts: 36 bytes a queen) is refused before it is made.

Connect Four: solves positions exactly, one a line from standard input: a
position (the columns played, or start) and optionally its expected score —
the format of Pascal Pons' benchmark sets (engine/connect4/testdata).

For each position it prints one line to standard output:
  <moves> <score> <nodes> <microseconds>
the exact score for the player to move (0 a draw; if the winning stone is
move N of the game, (44 − N) div 2 when the player to move wins, its negation
when it loses), the positions searched and the time taken. With --weak the
score is only its sign: 1 a win, 0 a draw, −1 a loss, compared by sign.

The solver keeps its 64 MiB transposition table from one line to the next,
so a position's nodes and time depend on the lines before it. A summary goes
to standard error: positions, mismatches with the expected scores, mean
microseconds and mean nodes. An early position can take minutes: every 10
seconds standard error says which is still being solved, and --time gives
up on a position after that long (reported on standard error, not counted
in the summary). Exit status: 1 if any score differs from the expected one
or a position was given up, 2 for a malformed line (named by its number) or
bad options.

Examples:
  gambit solve --game 8puzzle --position 1,2,3,5,6,0,7,8,4 --compare
  gambit solve --game 15puzzle --position 0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1
  gambit solve --game nqueens --n 1000000 --algorithm min-conflicts
  echo 4453 | gambit solve --game connect4
  gambit solve --game connect4 < engine/connect4/testdata/Test_L2_R1
  gambit solve --game connect4 --weak < engine/connect4/testdata/Test_L1_R1
`

func runSolve(args []string, sio stdio) error {
	stdout, stderr := sio.out, sio.err
	fs := newFlagSet("solve", solveUsageText(), stdout)
	listed := func(way games.Solving) string { return strings.Join(solvable(way), ", ") }
	exact, tiles, queens := listed(games.SolveExact), listed(games.SolveTiles), listed(games.SolveQueens)
	gameName := fs.String("game", "", "the game: "+joinWords(solvable(), "or")+" (required)")
	weak := fs.Bool("weak", false, "only win, draw or loss: print 1, 0 or -1 and compare signs")
	var po puzzleOptions
	fs.StringVar(&po.position, "position", "", tiles+": the tiles row by row, comma-separated, 0 the blank")
	fs.StringVar(&po.algorithm, "algorithm", "", "puzzles: the solver's name")
	fs.BoolVar(&po.compare, "compare", false, tiles+": run every algorithm and print a table")
	fs.Uint64Var(&po.nodes, "nodes", 0, "puzzles: the node cap (0: none, or 1,000,000 with --compare)")
	fs.DurationVar(&po.time, "time", 0, "the time limit of each search, or of each "+exact+" position (0: none)")
	fs.BoolVar(&po.json, "json", false, "puzzles: print JSON")
	fs.IntVar(&po.n, "n", 0, queens+": the number of queens")
	fs.Uint64Var(&po.seed, "seed", 0, queens+": the seed of the randomised solvers (0: 1)")
	fs.IntVar(&po.memory, "memory", puzzles.DefaultMemory>>20, "puzzles: the memory budget of each search in MiB")
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := checkBounds(bound{"memory", po.memory, 1, maxMemoryMiB, "MiB"}); err != nil {
		return err
	}
	po.nGiven = fs.set()["n"]
	if *gameName == "" {
		return usagef("--game is required: %s", joinWords(solvable(), "or"))
	}
	game, err := catalog.Lookup(*gameName)
	if err != nil {
		return usageError{err}
	}
	switch game.Solve {
	case games.SolveTiles, games.SolveQueens:
		// The budget counts what the solver holds; the collector is asked
		// to keep the garbage of its grown maps and slices within it too.
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(po.memory)<<20 + gcSlack))
	}
	switch game.Solve {
	case games.SolveTiles:
		return solveTiles(game, po, stdout, stderr)
	case games.SolveQueens:
		return solveQueens(game, po, stdout)
	case games.SolveExact:
		return solveExact(*weak, po.time, sio)
	}
	return usagef("solve knows %s, not %s", joinWords(solvable(), "and"), game.Name)
}

// solveExact solves the positions of standard input exactly, one a line,
// with the Connect Four solver (games.SolveExact).
func solveExact(weak bool, limit time.Duration, sio stdio) error {
	solver := c4solver.New(c4solver.DefaultTableBytes)
	suite := c4solver.Suite{Solve: solver.Solve, Weak: weak, Time: limit, Log: sio.err, StillEvery: solveProgressEvery}
	if weak {
		suite.Solve = solver.SolveWeak
	}
	err := suite.Run(context.Background(), sio.in, sio.out)
	if lineErr := (*c4solver.SuiteLineError)(nil); errors.As(err, &lineErr) {
		return usageError{err}
	}
	return err
}

// solveProgressEvery is how often solve says on standard error that a
// Connect Four position is still being solved: an early position can take
// minutes.
var solveProgressEvery = 10 * time.Second

// solvable returns the names of the games solve solves in one of the ways
// given, or in any way (games.Game.Solve), in the catalog's order.
func solvable(ways ...games.Solving) []string {
	var names []string
	for _, g := range catalog.All() {
		if g.Solve != games.NoSolve && (len(ways) == 0 || slices.Contains(ways, g.Solve)) {
			names = append(names, g.Name)
		}
	}
	return names
}
