package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gambitbot/gambit/strategies"
	"github.com/gambitbot/gambit/strategies/analysis"
)

const analyzeUsage = `
Usage: gambit analyze --game {duels} [--position TEXT|start]
                      [--rounds N] [--first x|o] [--moves 'M1 M2 …']
                      [--strategy NAME] [--time DURATION]
                      [--depth N] [--nodes N] [--threads N] [--hash MiB] [--json]

Asks a strategy (default minimax) for its move in a position (after --moves,
if given: a game's moves as the arena's --json lists them), searching for
--time (default 1s) or until --depth plies or --nodes positions. Without
--json it prints each completed iteration to stderr and the answer to stdout;
with --json one line:
  {"move":"c3","score":…,"exact":true|false,"depth":…,"nodes":…,"nps":…,"pv":["c3",…],"ms":…}
Moves are strings in the game's notation; numbers are integers. The score is
for the side to move: Adjacency, own marks minus the opponent's at the end of
the game; Connect Four, Pons' convention when exact (if the winning stone is
move N of the game, ±(44 − N) div 2), otherwise a heuristic below 1; Tic-Tac-
Toe, +1 win, 0 draw, −1 loss. When exact is false it is the strategy's
estimate in the same unit. depth is the deepest completed iteration in plies
(for an exact solve, the plies to the end).

Examples:
  gambit analyze --game adjacency --time 5s
  gambit analyze --game adjacency --position '......oo/......oo/......../......../......../......../xx....../xx...... o 10' --json
  gambit analyze --game adjacency --rounds 8 --first o --moves 'c1 h6 a3 f8 h1 a8' --time 10s
  gambit analyze --game connect4 --position 4453 --time 2s
  gambit analyze --game tictactoe --position 'x...o.... x'
`

func runAnalyze(args []string, sio stdio) error {
	fs := newFlagSet("analyze", analyzeUsage, sio.out)
	where := addPositionFlags(fs, duelNames())
	name := fs.String("strategy", "minimax", "the strategy ('gambit strategies' lists them)")
	moveTime := fs.Duration("time", time.Second, "the time to search")
	depth := fs.Int("depth", 0, "stop after this many plies (0: no limit)")
	nodes := fs.Uint64("nodes", 0, "stop after about this many positions (0: no limit)")
	threads := fs.Int("threads", 1, "search threads")
	hash := fs.Int("hash", strategies.DefaultHashMiB, "transposition-table memory in MiB")
	asJSON := fs.Bool("json", false, "print one JSON line")
	if err := fs.parse(args); err != nil {
		return err
	}
	game, pos, err := where.resolve(fs)
	if err != nil {
		return err
	}
	info, err := lookupAI(*name, game)
	if err != nil {
		return err
	}
	if err := checkBounds(bound{"depth", *depth, 0, maxPlies, ""}, bound{"threads", *threads, 1, maxThreads, ""},
		bound{"hash", *hash, 1, maxHashMiB, "MiB"}); err != nil {
		return err
	}
	switch {
	case *moveTime <= 0:
		return usagef("--time must be positive, such as 500ms or 5s")
	case pos.Terminal():
		return usagef("the game is over in %v: there is no move to analyze", pos)
	}

	limits := strategies.Limits{Depth: *depth, Nodes: *nodes, Threads: *threads, HashMiB: *hash}
	if !*asJSON {
		limits.Progress = func(p strategies.Progress) { fmt.Fprintln(sio.err, analysis.ProgressText(pos, p)) }
	}
	ctx, cancel := context.WithTimeout(context.Background(), *moveTime)
	defer cancel()
	report, err := analysis.Analyze(ctx, info.Strategy, pos, limits)
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(sio.out).Encode(report)
	}
	_, err = fmt.Fprintln(sio.out, report.Text(info.Name))
	return err
}
