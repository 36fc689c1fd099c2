package strategies

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Entry is a strategy as gambit strategies --json lists it.
type Entry struct {
	Name        string   `json:"name"`
	DisplayName string   `json:"display_name"`
	Blurb       string   `json:"blurb"`
	Games       []string `json:"games"`
	Description string   `json:"description"`
	// Difficulty is its label in each game it plays (Info.DifficultyIn).
	Difficulty map[string]Difficulty `json:"difficulty"`
}

// Entries lists the strategies of list as entries.
func Entries(list []Info) []Entry {
	out := make([]Entry, len(list))
	for i, s := range list {
		d := map[string]Difficulty{}
		for _, g := range s.Games {
			d[g] = s.DifficultyIn(g)
		}
		out[i] = Entry{Name: s.Name, DisplayName: s.DisplayName, Blurb: s.Blurb, Games: s.Games, Description: s.Description, Difficulty: d}
	}
	return out
}

// difficulties writes a strategy's labels for a table: the one label
// where every game it plays agrees, otherwise each game's
// ("othello hard, gomoku medium").
func difficulties(s Info) string {
	var each []string
	same := true
	for _, g := range s.Games {
		d := s.DifficultyIn(g)
		each = append(each, g+" "+string(d))
		same = same && d == s.DifficultyIn(s.Games[0])
	}
	if same && len(s.Games) > 0 {
		return string(s.DifficultyIn(s.Games[0]))
	}
	return strings.Join(each, ", ")
}

// WriteTable writes the strategies of list as a table for people: name,
// games, difficulty (in game, or in each game it plays where game is ""),
// the name and line players see, and the description.
func WriteTable(w io.Writer, list []Info, game string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tGAMES\tDIFFICULTY\tSHOWN AS\tFOR PLAYERS\tDESCRIPTION")
	for _, s := range list {
		d := difficulties(s)
		if game != "" {
			d = string(s.DifficultyIn(game))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, strings.Join(s.Games, ","), d, s.DisplayName, s.Blurb, s.Description)
	}
	return tw.Flush()
}
