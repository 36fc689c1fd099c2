package puzzles

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
)

// TileReport is a sliding-tile solver's run as gambit solve prints it:
// a line of the text output or an element of the JSON.
type TileReport struct {
	Algorithm string `json:"algorithm"`
	Solved    bool   `json:"solved"`
	// Moves are the blank's moves as letters; Tiles the tiles slid.
	Moves  string  `json:"moves"`
	Tiles  []int   `json:"tiles"`
	Length int     `json:"length"`
	Nodes  uint64  `json:"nodes"`
	Millis float64 `json:"ms"`
	// Optimal is Run.Optimal: "proved", "yes", "no" or "?".
	Optimal string `json:"optimal"`
	// Error says in a word or two why it found no solution.
	Error string `json:"error,omitempty"`
}

// NewTileReport reports run, a solver's run on p: its moves as letters
// and as the tiles slid, its error as a word.
func NewTileReport(run Run, p *slidingtile.Position) TileReport {
	r := TileReport{Algorithm: run.Algorithm, Nodes: run.Nodes, Millis: millis(run.Elapsed), Tiles: []int{}, Optimal: run.Optimal}
	var memory *MemoryError
	switch err := run.Err; {
	case errors.Is(err, ErrLimit):
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

// WriteTileReports writes reports: as JSON (one object, or a list when
// compare), as a table of the algorithms compared, or one run's lines. A
// single run that found no solution is an error saying why.
func WriteTileReports(w io.Writer, reports []TileReport, compare, asJSON bool) error {
	if asJSON {
		if compare {
			return json.NewEncoder(w).Encode(reports)
		}
		return json.NewEncoder(w).Encode(reports[0])
	}
	if compare {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "algorithm\tlength\tnodes\tms\toptimal?\t")
		for _, r := range reports {
			length := strconv.Itoa(r.Length)
			if !r.Solved {
				length = "—"
				r.Optimal = r.Error
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f\t%s\t\n", r.Algorithm, length, r.Nodes, r.Millis, r.Optimal)
		}
		return tw.Flush()
	}
	r := reports[0]
	if !r.Solved {
		return fmt.Errorf("%s gave up: %s after %d nodes", r.Algorithm, r.Error, r.Nodes)
	}
	tiles := make([]string, len(r.Tiles))
	for i, t := range r.Tiles {
		tiles[i] = strconv.Itoa(t)
	}
	optimal := map[string]string{"proved": "yes (proved)", "?": "not proved"}[r.Optimal]
	_, err := fmt.Fprintf(w, "algorithm: %s\nmoves (the blank's): %s\ntiles slid: %s\nlength: %d\nnodes: %d\ntime: %.1f ms\noptimal: %s\n",
		r.Algorithm, r.Moves, strings.Join(tiles, " "), r.Length, r.Nodes, r.Millis, optimal)
	return err
}

// QueensReport is an N-Queens solve as gambit solve prints it.
type QueensReport struct {
	Algorithm string `json:"algorithm"`
	N         int    `json:"n"`
	// Rows are the queens' rows column by column, 1 to N from the bottom.
	Rows      []int   `json:"rows"`
	Nodes     uint64  `json:"nodes"`
	Restarts  int     `json:"restarts"`
	Millis    float64 `json:"ms"`
	Conflicts int     `json:"conflicts"`
}

// NewQueensReport reports the solution sol that solver found for n queens
// in elapsed.
func NewQueensReport(solver string, n int, sol QueensSolution, elapsed time.Duration) QueensReport {
	r := QueensReport{Algorithm: solver, N: n, Rows: make([]int, len(sol.Rows)), Nodes: sol.Nodes, Restarts: sol.Restarts,
		Millis: millis(elapsed), Conflicts: Conflicts(sol.Rows)}
	for c, row := range sol.Rows {
		r.Rows[c] = row + 1 // from the bottom, 1…N
	}
	return r
}

// PrintRowsUpTo is the largest N whose rows WriteText lists.
const PrintRowsUpTo = 1000

// printBoardUpTo is the largest N whose board WriteText draws.
const printBoardUpTo = 12

// WriteText writes the report for people: the board up to 12 queens, the
// rows up to PrintRowsUpTo, and the search's counts.
func (r QueensReport) WriteText(w io.Writer) error {
	if r.N <= printBoardUpTo {
		for row := r.N; row >= 1; row-- {
			var b strings.Builder
			fmt.Fprintf(&b, "%2d ", row)
			for c := range r.N {
				if r.Rows[c] == row {
					b.WriteString(" Q")
				} else {
					b.WriteString(" .")
				}
			}
			fmt.Fprintln(w, b.String())
		}
		var b strings.Builder
		b.WriteString("   ")
		for c := range r.N {
			fmt.Fprintf(&b, " %c", 'a'+c)
		}
		fmt.Fprintln(w, b.String())
	}
	rows := "not printed above N = " + strconv.Itoa(PrintRowsUpTo) + " (--json prints it)"
	if r.N <= PrintRowsUpTo {
		parts := make([]string, r.N)
		for c, row := range r.Rows {
			parts[c] = strconv.Itoa(row)
		}
		rows = strings.Join(parts, ",")
	}
	_, err := fmt.Fprintf(w, "algorithm: %s\nqueens: %d, no two attacking\nrows (column by column, from the bottom): %s\nnodes: %d\nrestarts: %d\ntime: %.1f ms\n",
		r.Algorithm, r.N, rows, r.Nodes, r.Restarts, r.Millis)
	return err
}

// millis is d in milliseconds, to the microsecond.
func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
