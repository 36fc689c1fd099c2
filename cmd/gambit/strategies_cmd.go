package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/strategies"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

const strategiesUsage = `
Usage: gambit strategies [--game {games}|8puzzle|15puzzle|nqueens] [--json]

Lists the AI strategies: name, the games each plays, difficulty (easy,
medium, hard or perfect, weakest to strongest) and a one-line description,
then the puzzle solvers of gambit solve. --game keeps the strategies that
play that game; a puzzle (8puzzle, 15puzzle, nqueens) lists its solvers.
With --json, one array:
  [{"name":"minimax","games":["adjacency",…],"description":"…","difficulty":"hard"},…]
and for a puzzle:
  [{"name":"astar","games":["8puzzle","15puzzle"],"description":"…","optimal":true},…]

Examples:
  gambit strategies
  gambit strategies --game connect4 --json
`

// strategyEntry is one element of strategies --json.
type strategyEntry struct {
	Name        string   `json:"name"`
	DisplayName string   `json:"display_name"`
	Blurb       string   `json:"blurb"`
	Games       []string `json:"games"`
	Description string   `json:"description"`
	Difficulty  string   `json:"difficulty"`
}

func runStrategies(args []string, sio stdio) error {
	fs := newFlagSet("strategies", strategiesUsage, sio.out)
	gameName := fs.String("game", "", "list only the strategies that play this game")
	asJSON := fs.Bool("json", false, "print a JSON array")
	if err := fs.parse(args); err != nil {
		return err
	}
	if solvers, ok := puzzleSolvers()[*gameName]; ok {
		if *asJSON {
			return json.NewEncoder(sio.out).Encode(solvers)
		}
		return printSolvers(sio.out, solvers)
	}
	list := strategies.All()
	if *gameName != "" {
		game, err := catalog.Lookup(*gameName)
		if err != nil {
			return usageError{err}
		}
		list = strategies.ForGame(game.Name)
	}
	if *asJSON {
		entries := make([]strategyEntry, len(list))
		for i, s := range list {
			entries[i] = strategyEntry{Name: s.Name, DisplayName: s.DisplayName, Blurb: s.Blurb, Games: s.Games, Description: s.Description, Difficulty: string(s.Difficulty)}
		}
		return json.NewEncoder(sio.out).Encode(entries)
	}
	tw := tabwriter.NewWriter(sio.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tGAMES\tDIFFICULTY\tSHOWN AS\tFOR PLAYERS\tDESCRIPTION")
	for _, s := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, strings.Join(s.Games, ","), s.Difficulty, s.DisplayName, s.Blurb, s.Description)
	}
	if err := tw.Flush(); err != nil || *gameName != "" {
		return err
	}
	fmt.Fprintln(sio.out, "\nPuzzle solvers (gambit solve):")
	all := puzzleSolvers()
	return printSolvers(sio.out, slices.Concat(all["8puzzle"], all["nqueens"]))
}

// solverEntry is one puzzle solver in strategies --game <puzzle> --json.
type solverEntry struct {
	Name        string   `json:"name"`
	Games       []string `json:"games"`
	Description string   `json:"description"`
	Optimal     bool     `json:"optimal"`
}

// puzzleSolvers returns the solvers of each puzzle.
func puzzleSolvers() map[string][]solverEntry {
	var tiles, queens []solverEntry
	for _, s := range puzzles.TileSolvers() {
		tiles = append(tiles, solverEntry{s.Name, []string{"8puzzle", "15puzzle"}, s.Description, s.Optimal})
	}
	for _, s := range puzzles.QueensSolvers() {
		queens = append(queens, solverEntry{Name: s.Name, Games: []string{"nqueens"}, Description: s.Description})
	}
	return map[string][]solverEntry{"8puzzle": tiles, "15puzzle": tiles, "nqueens": queens}
}

func printSolvers(out io.Writer, list []solverEntry) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tGAMES\tOPTIMAL\tDESCRIPTION")
	for _, s := range list {
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
