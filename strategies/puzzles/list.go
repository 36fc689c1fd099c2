package puzzles

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// SolverEntry is a puzzle solver as gambit strategies lists it.
type SolverEntry struct {
	Name        string   `json:"name"`
	Games       []string `json:"games"`
	Description string   `json:"description"`
	// Optimal reports whether a sliding-tile solver proves its solutions
	// shortest; false for the N-Queens solvers, where it does not apply.
	Optimal bool `json:"optimal"`
	// tiles reports a sliding-tile solver, to which Optimal applies.
	tiles bool
}

// SolverEntries returns the solvers of each puzzle of gambit solve, by the
// puzzle's name (games/catalog): the sliding-tile solvers for the games
// solved as sliding tiles, the N-Queens ones for N-Queens
// (games.Game.Solve).
func SolverEntries() map[string][]SolverEntry {
	out := map[string][]SolverEntry{}
	for _, way := range []games.Solving{games.SolveTiles, games.SolveQueens} {
		list := solverEntries(way)
		for _, name := range list[0].Games {
			out[name] = list
		}
	}
	return out
}

// Solvers returns every puzzle solver once, the sliding-tile ones first.
func Solvers() []SolverEntry {
	return append(solverEntries(games.SolveTiles), solverEntries(games.SolveQueens)...)
}

// solverEntries returns the solvers of one way of solving, each with the
// names of the games solved that way.
func solverEntries(way games.Solving) []SolverEntry {
	var names []string
	for _, g := range catalog.All() {
		if g.Solve == way {
			names = append(names, g.Name)
		}
	}
	var out []SolverEntry
	switch way {
	case games.SolveTiles:
		for _, s := range TileSolvers() {
			out = append(out, SolverEntry{Name: s.Name, Games: names, Description: s.Description, Optimal: s.Optimal, tiles: true})
		}
	case games.SolveQueens:
		for _, s := range QueensSolvers() {
			out = append(out, SolverEntry{Name: s.Name, Games: names, Description: s.Description})
		}
	}
	return out
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
		if !s.tiles {
			optimal = "—"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, strings.Join(s.Games, ","), optimal, s.Description)
	}
	return tw.Flush()
}
