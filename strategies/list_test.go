package strategies

import (
	"bytes"
	"strings"
	"testing"
)

// TestListing: the table and the JSON entries carry every strategy with
// its games, difficulty and the texts players see.
func TestListing(t *testing.T) {
	list := []Info{{Name: "x1", Games: []string{"a", "b"}, DisplayName: "Ex One", Blurb: "plays x", Description: "the first", Difficulty: Easy}}
	e := Entries(list)
	if len(e) != 1 || e[0].Name != "x1" || e[0].DisplayName != "Ex One" || e[0].Blurb != "plays x" || e[0].Difficulty != "easy" || strings.Join(e[0].Games, ",") != "a,b" || e[0].Description != "the first" {
		t.Errorf("Entries = %+v", e)
	}
	var out bytes.Buffer
	if err := WriteTable(&out, list); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "NAME GAMES DIFFICULTY SHOWN AS FOR PLAYERS DESCRIPTION" ||
		strings.Join(strings.Fields(lines[1]), " ") != "x1 a,b easy Ex One plays x the first" {
		t.Errorf("table:\n%s", out.String())
	}
}
