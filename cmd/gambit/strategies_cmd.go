package main

import (
	"encoding/json"
	"fmt"

	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/strategies"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

const strategiesUsage = `
Usage: gambit strategies [--game {games}] [--json]

Lists the AI strategies: name, the games each plays, its difficulty in
each (easy, medium, hard or perfect, from the game's measured ratings:
its weakest AIs are easy, its strongest hard) and a one-line description,
then the puzzle solvers of gambit solve. --game keeps the strategies that
play that game; a puzzle (8puzzle, 15puzzle, nqueens) lists its solvers.
With --json, one array:
  [{"name":"minimax","games":["adjacency",…],"description":"…","difficulty":{"adjacency":"hard",…}},…]
and for a puzzle:
  [{"name":"astar","games":["8puzzle","15puzzle"],"description":"…","optimal":true},…]

Examples:
  gambit strategies
  gambit strategies --game connect4 --json
`

func runStrategies(args []string, sio stdio) error {
	fs := newFlagSet("strategies", strategiesUsage, sio.out)
	gameName := fs.String("game", "", "list only the strategies that play this game")
	asJSON := fs.Bool("json", false, "print a JSON array")
	if err := fs.parse(args); err != nil {
		return err
	}
	if solvers, ok := puzzles.SolverEntries()[*gameName]; ok {
		if *asJSON {
			return json.NewEncoder(sio.out).Encode(solvers)
		}
		return puzzles.WriteSolverTable(sio.out, solvers)
	}
	list, game := strategies.All(), ""
	if *gameName != "" {
		g, err := catalog.Lookup(*gameName)
		if err != nil {
			return usageError{err}
		}
		list, game = strategies.ForGame(g.Name), g.Name
	}
	if *asJSON {
		return json.NewEncoder(sio.out).Encode(strategies.Entries(list))
	}
	if err := strategies.WriteTable(sio.out, list, game); err != nil || *gameName != "" {
		return err
	}
	fmt.Fprintln(sio.out, "\nPuzzle solvers (gambit solve):")
	return puzzles.WriteSolverTable(sio.out, puzzles.Solvers())
}
