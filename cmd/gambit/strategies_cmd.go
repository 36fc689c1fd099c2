package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/strategies"
)

const strategiesUsage = `
Usage: gambit strategies [--game {games}] [--json]

Lists the AI strategies: name, the games each plays, difficulty (easy,
medium, hard or perfect, weakest to strongest) and a one-line description.
--game keeps the strategies that play that game. With --json, one array:
  [{"name":"minimax","games":["adjacency",…],"description":"…","difficulty":"hard"},…]

Examples:
  gambit strategies
  gambit strategies --game connect4 --json
`

// strategyEntry is one element of strategies --json.
type strategyEntry struct {
	Name        string   `json:"name"`
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
			entries[i] = strategyEntry{Name: s.Name, Games: s.Games, Description: s.Description, Difficulty: string(s.Difficulty)}
		}
		return json.NewEncoder(sio.out).Encode(entries)
	}
	tw := tabwriter.NewWriter(sio.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tGAMES\tDIFFICULTY\tDESCRIPTION")
	for _, s := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, strings.Join(s.Games, ","), s.Difficulty, s.Description)
	}
	return tw.Flush()
}
