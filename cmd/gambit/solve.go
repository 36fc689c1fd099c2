package main

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/strategies/c4solver"
)

const solveUsage = `
Usage: gambit solve --game connect4 [--weak] < positions

Solves Connect Four positions exactly, one a line from standard input: a
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
microseconds and mean nodes. Exit status: 1 if any score differs from the
expected one, 2 for a malformed line (named by its number) or bad options.

Example:
  echo 4453 | gambit solve --game connect4
  gambit solve --game connect4 < engine/connect4/testdata/Test_L2_R1
  gambit solve --game connect4 --weak < engine/connect4/testdata/Test_L1_R1
`

func runSolve(args []string, sio stdio) error {
	stdout, stderr := sio.out, sio.err
	fs := newFlagSet("solve", solveUsage, stdout)
	gameName := fs.String("game", "", "the game: connect4, the only one solve knows (required)")
	weak := fs.Bool("weak", false, "only win, draw or loss: print 1, 0 or -1 and compare signs")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *gameName == "" {
		return usagef("--game is required: connect4")
	}
	game, err := catalog.Lookup(*gameName)
	if err != nil {
		return usageError{err}
	}
	if game.Name != "connect4" {
		return usagef("solve knows connect4 only, not %s", game.Name)
	}

	solver := c4solver.New(c4solver.DefaultTableBytes)
	solve := solver.Solve
	if *weak {
		solve = solver.SolveWeak
	}
	var positions, mismatches, nodes uint64
	var spent time.Duration
	in := bufio.NewScanner(sio.in)
	for line := 1; in.Scan(); line++ {
		fields := strings.Fields(in.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) > 2 {
			return usagef("line %d: %d fields; want a position and optionally its score", line, len(fields))
		}
		p, err := connect4.Parse(fields[0])
		if err != nil {
			return usagef("line %d: %v", line, err)
		}
		want, hasWant := 0, len(fields) == 2
		if hasWant {
			if want, err = strconv.Atoi(fields[1]); err != nil {
				return usagef("line %d: expected score %q is not an integer", line, fields[1])
			}
			if *weak {
				want = max(-1, min(want, 1))
			}
		}
		start := time.Now()
		r, err := solve(context.Background(), p)
		elapsed := time.Since(start)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		positions++
		nodes += r.Nodes
		spent += elapsed
		if _, err := fmt.Fprintf(stdout, "%s %d %d %d\n", fields[0], r.Score, r.Nodes, elapsed.Microseconds()); err != nil {
			return err
		}
		if hasWant && r.Score != want {
			mismatches++
			fmt.Fprintf(stderr, "line %d: %s scores %d, expected %d\n", line, fields[0], r.Score, want)
		}
	}
	if err := in.Err(); err != nil {
		return fmt.Errorf("reading standard input: %w", err)
	}
	var meanMicros, meanNodes float64
	if positions > 0 {
		meanMicros = float64(spent.Microseconds()) / float64(positions)
		meanNodes = float64(nodes) / float64(positions)
	}
	fmt.Fprintf(stderr, "%d positions, %d mismatches, mean %.1f µs, mean %.0f nodes\n", positions, mismatches, meanMicros, meanNodes)
	if mismatches > 0 {
		return fmt.Errorf("%d of %d scores differ from the expected ones", mismatches, positions)
	}
	return nil
}
