package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gambitbot/gambit/engine/slidingtile"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/internal/terminal"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// puzzleOptions are solve's options for the puzzles.
type puzzleOptions struct {
	position, algorithm string
	compare, json       bool
	nodes, seed         uint64
	time                time.Duration
	n                   int
	nGiven              bool
	// memory is each search's memory budget in MiB.
	memory int
}

// limits are the solvers' limits the options give.
func (po puzzleOptions) limits() puzzles.Limits {
	return puzzles.Limits{Nodes: po.nodes, Seed: po.seed, Memory: uint64(po.memory) << 20}
}

// gcSlack is what solve's memory limit for the collector adds to the
// solvers' budget: the pattern databases (32 MiB) and the runtime's own.
const gcSlack = 64 << 20

// compareNodes is --compare's node cap when --nodes does not give one.
const compareNodes = 1_000_000

// solveUsageText is solve's usage with the solvers' names filled in.
func solveUsageText() string {
	var tiles, queens []string
	for _, s := range puzzles.TileSolvers() {
		tiles = append(tiles, s.Name)
	}
	for _, s := range puzzles.QueensSolvers() {
		queens = append(queens, s.Name)
	}
	return strings.NewReplacer(
		"{tile-solvers}", strings.Join(tiles, ", "), "{queens-solvers}", strings.Join(queens, ", "),
		"{solve-exact}", strings.Join(solvable(games.SolveExact), "|"),
		"{solve-tiles}", strings.Join(solvable(games.SolveTiles), "|"),
		"{solve-queens}", strings.Join(solvable(games.SolveQueens), "|"),
	).Replace(solveUsage)
}

// solveTiles solves the sliding-tile position of the options
// (games.SolveTiles).
func solveTiles(gm *games.Game, po puzzleOptions, out, stderr io.Writer) error {
	if po.position == "" {
		return usagef("--position is required for %s: the tiles row by row, e.g. 1,2,3,5,6,0,7,8,4, or start", gm.Name)
	}
	pos, err := gm.Position(po.position, games.Options{}) // "start" is the puzzle's standard start
	if err != nil {
		return usageError{err}
	}
	p := pos.(*slidingtile.Position)
	var list []puzzles.TileSolver
	switch {
	case po.compare && po.algorithm != "":
		return usagef("--compare runs every algorithm: drop --algorithm")
	case po.compare:
		list = puzzles.TileSolvers()
		if po.nodes == 0 {
			po.nodes = compareNodes
		}
	default:
		name := po.algorithm
		if name == "" {
			name = map[int]string{3: "astar", 4: "idastar-pdb"}[p.Size()]
		}
		s, err := puzzles.LookupTile(name)
		if err != nil {
			return usageError{err}
		}
		list = []puzzles.TileSolver{s}
	}
	for _, s := range list {
		switch {
		case s.Name == "idastar-pdb":
			// Built once per process, outside the search's time.
			d := puzzles.DefaultPDB(p.Size())
			fmt.Fprintf(stderr, "pattern database %v: %d bytes, built in %.1f ms (not counted below)\n", d.Patterns(), d.Bytes(), float64(d.Built.Microseconds())/1000)
		case s.Name == "idastar-pdb78" && p.Size() == 4 && (!po.compare || puzzles.PDB78Ready(4)):
			// Loaded or built once, outside the search's time; --compare
			// leaves it out unless it is in memory, as the bot does.
			if err := preparePDB78(po, stderr); err != nil {
				return err
			}
		}
	}
	var runs []puzzles.Run
	if po.compare {
		// Each algorithm with its own --nodes, --memory and --time, as
		// the bot's Compare algorithms gives each its own budget.
		runs, err = puzzles.Compare(context.Background(), p, puzzles.Budget{Limits: po.limits(), Time: po.time})
		if err != nil {
			return err
		}
	} else {
		runs = []puzzles.Run{runTile(list[0], p, po)}
		puzzles.MarkOptimal(runs, -1)
	}
	reports := make([]puzzles.TileReport, len(runs))
	for i, r := range runs {
		reports[i] = puzzles.NewTileReport(r, p)
	}
	return puzzles.WriteTileReports(out, reports, po.compare, po.json)
}

// preparePDB78 loads the 15-puzzle's 7-8 pattern database from its file,
// or builds it on first use — minutes of CPU and 288 MB — saying so
// first, with where it will be kept, and showing the build's progress on
// stderr (a bar on a terminal).
func preparePDB78(po puzzleOptions, stderr io.Writer) error {
	path, exists, err := puzzles.PDB78File()
	if err != nil {
		return err
	}
	limits := po.limits()
	if exists {
		fmt.Fprintf(stderr, "idastar-pdb78: loading its 7-8 pattern database (%d MB) from %s\n", puzzles.PDB78Bytes/1_000_000, path)
	} else {
		fmt.Fprintf(stderr, "idastar-pdb78: building its 7-8 pattern database on first use: %d MB in memory and on disk, "+
			"about 5 minutes of CPU on one core (less on several); kept in %s for later runs (GAMBIT_PDB_DIR moves it)\n",
			puzzles.PDB78Bytes/1_000_000, path)
		limits.Progress = terminal.Progress(stderr, "building the 7-8 pattern database", "placements")
	}
	d, err := puzzles.PDB78(4, limits)
	if err != nil {
		return fmt.Errorf("solve: idastar-pdb78's pattern database: %w", err)
	}
	how := "built"
	if d.Loaded {
		how = "loaded"
	}
	fmt.Fprintf(stderr, "pattern database %v: %d bytes, %s in %.1f s (not counted below)\n", d.Patterns(), d.Bytes(), how, d.Built.Seconds())
	return nil
}

// runTile runs one solver on p within the options' limits.
func runTile(s puzzles.TileSolver, p *slidingtile.Position, po puzzleOptions) puzzles.Run {
	ctx, cancel := context.WithCancel(context.Background())
	if po.time > 0 {
		ctx, cancel = context.WithTimeout(context.Background(), po.time)
	}
	defer cancel()
	return puzzles.RunTileWithin(ctx, s, p, po.limits())
}

// solveQueens places the options' N queens (games.SolveQueens).
func solveQueens(gm *games.Game, po puzzleOptions, out io.Writer) error {
	switch {
	case !po.nGiven:
		return usagef("--n is required for %s: the number of queens, 4 to %s", gm.Name, thousands(maxQueens))
	case po.n == 2 || po.n == 3:
		return usagef("--n %d: %d queens cannot be placed without two attacking each other; must be 4 to %s", po.n, po.n, thousands(maxQueens))
	}
	if err := checkBounds(bound{"n", po.n, 4, maxQueens, ""}); err != nil {
		return err
	}
	name := po.algorithm
	if name == "" {
		name = "min-conflicts"
	}
	s, err := puzzles.LookupQueens(name)
	if err != nil {
		return usageError{err}
	}
	ctx, cancel := context.WithCancel(context.Background())
	if po.time > 0 {
		ctx, cancel = context.WithTimeout(context.Background(), po.time)
	}
	defer cancel()
	start := time.Now()
	sol, err := s.Solve(ctx, po.n, po.limits())
	elapsed := time.Since(start)
	switch {
	case errors.Is(err, puzzles.ErrMemory) && sol.Nodes == 0:
		return fmt.Errorf("%s gave up: %s queens take more than the memory budget of %d MiB (--memory)", s.Name, thousands(po.n), po.memory)
	case errors.Is(err, puzzles.ErrMemory):
		return fmt.Errorf("%s gave up: memory budget of %d MiB reached after %d nodes (--memory)", s.Name, po.memory, sol.Nodes)
	}
	if err != nil {
		return fmt.Errorf("%w (%d nodes, %.1f ms)", err, sol.Nodes, float64(elapsed.Microseconds())/1000)
	}
	r := puzzles.NewQueensReport(s.Name, po.n, sol, elapsed)
	if r.Conflicts != 0 {
		return fmt.Errorf("%s placed %d queens with %d attacking pairs", s.Name, po.n, r.Conflicts)
	}
	if po.json {
		return json.NewEncoder(out).Encode(r)
	}
	return r.WriteText(out)
}
