package puzzles

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// SolverEntry is a puzzle solver as gambit strategies lists it.
type SolverEntry struct {
	Name        string   `json:"name"`
	Games       []string `json:"games"`
	Description string   `json:"description"`
	// Optimal reports whether a sliding-tile solver proves its solutions
	// shortest; false for the N-Queens solvers, where it does not apply.
	Optimal bool `json:"optimal"`
}

// SolverEntries returns the solvers of each puzzle of gambit solve, by the
// puzzle's name: 8puzzle, 15puzzle and nqueens.
func SolverEntries() map[string][]SolverEntry {
	var tiles, queens []SolverEntry
	for _, s := range TileSolvers() {
		tiles = append(tiles, SolverEntry{s.Name, []string{"8puzzle", "15puzzle"}, s.Description, s.Optimal})
	}
	for _, s := range QueensSolvers() {
		queens = append(queens, SolverEntry{Name: s.Name, Games: []string{"nqueens"}, Description: s.Description})
	}
	return map[string][]SolverEntry{"8puzzle": tiles, "15puzzle": tiles, "nqueens": queens}
}

// WriteSolverTable writes solvers as a table for people: name, games,
// whether its solutions are proved shortest, and the description.
func WriteSolverTable(w io.Writer, solvers []SolverEntry) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tGAMES\tOPTIMAL\tDESCRIPTION")
	for _, s := range solvers {
		optimal := "no"
		if s.Optimal {
			optimal = "yes"
		}
		if s.Games[0] == "nqueens" {
			optimal = "—"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, strings.Join(s.Games, ","), optimal, s.Description)
	}
	return tw.Flush()
}
