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
	Difficulty  string   `json:"difficulty"`
}

// Entries lists the strategies of list as entries.
func Entries(list []Info) []Entry {
	out := make([]Entry, len(list))
	for i, s := range list {
		out[i] = Entry{Name: s.Name, DisplayName: s.DisplayName, Blurb: s.Blurb, Games: s.Games, Description: s.Description, Difficulty: string(s.Difficulty)}
	}
	return out
}

// WriteTable writes the strategies of list as a table for people: name,
// games, difficulty, the name and line players see, and the description.
func WriteTable(w io.Writer, list []Info) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tGAMES\tDIFFICULTY\tSHOWN AS\tFOR PLAYERS\tDESCRIPTION")
	for _, s := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, strings.Join(s.Games, ","), s.Difficulty, s.DisplayName, s.Blurb, s.Description)
	}
	return tw.Flush()
}
