package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gambitbot/gambit/engine/slidingtile"
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
	return strings.NewReplacer("{tile-solvers}", strings.Join(tiles, ", "), "{queens-solvers}", strings.Join(queens, ", ")).Replace(solveUsage)
}

// tileRun is one solver's run: a line of the text output or an element
// of the JSON.
type tileRun struct {
	Algorithm string  `json:"algorithm"`
	Solved    bool    `json:"solved"`
	Moves     string  `json:"moves"`
	Tiles     []int   `json:"tiles"`
	Length    int     `json:"length"`
	Nodes     uint64  `json:"nodes"`
	Millis    float64 `json:"ms"`
	// Optimal is "proved", "yes", "no" or "?" (see the usage).
	Optimal string `json:"optimal"`
	Error   string `json:"error,omitempty"`
}

func solveTiles(game string, po puzzleOptions, out, stderr io.Writer) error {
	if po.position == "" {
		return usagef("--position is required for %s: the tiles row by row, e.g. 1,2,3,5,6,0,7,8,4", game)
	}
	p, err := slidingtile.Parse(po.position)
	if err != nil {
		return usageError{err}
	}
	if want := map[string]int{"8puzzle": 3, "15puzzle": 4}[game]; p.Size() != want {
		return usagef("%s wants %d numbers; --position has %d", game, want*want, p.Size()*p.Size())
	}
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
		if s.Name == "idastar-pdb" {
			// Built once per process, outside the search's time.
			d := puzzles.DefaultPDB(p.Size())
			fmt.Fprintf(stderr, "pattern database %v: %d bytes, built in %.1f ms (not counted below)\n", d.Patterns(), d.Bytes(), float64(d.Built.Microseconds())/1000)
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
	shown := make([]tileRun, len(runs))
	for i, r := range runs {
		shown[i] = tileRunOf(r, p)
	}
	return printTiles(shown, po, out)
}

// printTiles prints the runs: as JSON, a table (--compare) or one run.
func printTiles(runs []tileRun, po puzzleOptions, out io.Writer) error {
	if po.json {
		if po.compare {
			return json.NewEncoder(out).Encode(runs)
		}
		return json.NewEncoder(out).Encode(runs[0])
	}
	if po.compare {
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "algorithm\tlength\tnodes\tms\toptimal?\t")
		for _, r := range runs {
			length := strconv.Itoa(r.Length)
			if !r.Solved {
				length = "—"
				r.Optimal = r.Error
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f\t%s\t\n", r.Algorithm, length, r.Nodes, r.Millis, r.Optimal)
		}
		return tw.Flush()
	}
	r := runs[0]
	if !r.Solved {
		return fmt.Errorf("%s gave up: %s after %d nodes", r.Algorithm, r.Error, r.Nodes)
	}
	tiles := make([]string, len(r.Tiles))
	for i, t := range r.Tiles {
		tiles[i] = strconv.Itoa(t)
	}
	optimal := map[string]string{"proved": "yes (proved)", "?": "not proved"}[r.Optimal]
	_, err := fmt.Fprintf(out, "algorithm: %s\nmoves (the blank's): %s\ntiles slid: %s\nlength: %d\nnodes: %d\ntime: %.1f ms\noptimal: %s\n",
		r.Algorithm, r.Moves, strings.Join(tiles, " "), r.Length, r.Nodes, r.Millis, optimal)
	return err
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

// tileRunOf is the output of a run on p: its moves as letters and as the
// tiles slid, its error as a word.
func tileRunOf(run puzzles.Run, p *slidingtile.Position) tileRun {
	r := tileRun{Algorithm: run.Algorithm, Nodes: run.Nodes, Millis: float64(run.Elapsed.Microseconds()) / 1000, Tiles: []int{}, Optimal: run.Optimal}
	var memory *puzzles.MemoryError
	switch err := run.Err; {
	case errors.Is(err, puzzles.ErrLimit):
		r.Error = "node limit"
		if strings.Contains(err.Error(), "within") {
			r.Error = "depth limit"
		}
		return r
	case errors.Is(err, context.DeadlineExceeded):
		r.Error = "time limit"
		return r
	case errors.As(err, &memory):
		r.Error = memory.Error()
		return r
	case err != nil:
		r.Error = err.Error()
		return r
	}
	r.Solved, r.Length, r.Moves = true, run.Length, slidingtile.FormatMoves(run.Moves)
	q := p.Clone().(*slidingtile.Position)
	for _, m := range run.Moves {
		to, _ := q.Target(m)
		r.Tiles = append(r.Tiles, q.Tile(to))
		q.Play(m)
	}
	return r
}

// queensRun is the output of an N-Queens solve.
type queensRun struct {
	Algorithm string  `json:"algorithm"`
	N         int     `json:"n"`
	Rows      []int   `json:"rows"`
	Nodes     uint64  `json:"nodes"`
	Restarts  int     `json:"restarts"`
	Millis    float64 `json:"ms"`
	Conflicts int     `json:"conflicts"`
}

// printRowsUpTo is the largest N whose solution the text output prints.
const printRowsUpTo = 1000

func solveQueens(po puzzleOptions, out io.Writer) error {
	switch {
	case !po.nGiven:
		return usagef("--n is required for nqueens: the number of queens, 4 to %s", thousands(maxQueens))
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
	r := queensRun{Algorithm: s.Name, N: po.n, Rows: sol.Rows, Nodes: sol.Nodes, Restarts: sol.Restarts,
		Millis: float64(elapsed.Microseconds()) / 1000, Conflicts: puzzles.Conflicts(sol.Rows)}
	for c := range r.Rows {
		r.Rows[c]++ // from the bottom, 1…N
	}
	if r.Conflicts != 0 {
		return fmt.Errorf("%s placed %d queens with %d attacking pairs", s.Name, po.n, r.Conflicts)
	}
	if po.json {
		return json.NewEncoder(out).Encode(r)
	}
	if po.n <= 12 {
		for row := po.n; row >= 1; row-- {
			var b strings.Builder
			fmt.Fprintf(&b, "%2d ", row)
			for c := range po.n {
				if r.Rows[c] == row {
					b.WriteString(" Q")
				} else {
					b.WriteString(" .")
				}
			}
			fmt.Fprintln(out, b.String())
		}
		var b strings.Builder
		b.WriteString("   ")
		for c := range po.n {
			fmt.Fprintf(&b, " %c", 'a'+c)
		}
		fmt.Fprintln(out, b.String())
	}
	rows := "not printed above N = " + strconv.Itoa(printRowsUpTo) + " (--json prints it)"
	if po.n <= printRowsUpTo {
		parts := make([]string, po.n)
		for c, row := range r.Rows {
			parts[c] = strconv.Itoa(row)
		}
		rows = strings.Join(parts, ",")
	}
	_, err = fmt.Fprintf(out, "algorithm: %s\nqueens: %d, no two attacking\nrows (column by column, from the bottom): %s\nnodes: %d\nrestarts: %d\ntime: %.1f ms\n",
		s.Name, po.n, rows, r.Nodes, r.Restarts, r.Millis)
	return err
}
