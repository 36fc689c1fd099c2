package strategies

import (
	"bytes"
	"strings"
	"testing"
)

// TestListing: the table and the JSON entries carry every strategy with
// its games, its difficulty in each and the texts players see.
func TestListing(t *testing.T) {
	seed, err := Lookup("seed003-minimax")
	if err != nil {
		t.Fatal(err)
	}
	random, err := Lookup("random")
	if err != nil {
		t.Fatal(err)
	}
	e := Entries([]Info{seed, random})
	if len(e) != 2 || e[0].Name != seed.Name || e[0].DisplayName != seed.DisplayName || e[0].Blurb != seed.Blurb ||
		strings.Join(e[0].Games, ",") != "tictactoe" || e[0].Description != seed.Description ||
		len(e[0].Difficulty) != 1 || e[0].Difficulty["tictactoe"] != Perfect {
		t.Errorf("Entries = %+v", e)
	}
	if len(e) == 2 && (len(e[1].Difficulty) != len(random.Games) || e[1].Difficulty["connect4"] != Easy) {
		t.Errorf("random's difficulties %v, want easy in each of its %d games", e[1].Difficulty, len(random.Games))
	}
	for _, tc := range []struct {
		info       Info
		game, want string
	}{
		{seed, "", "perfect"}, // one game: its label
		{seed, "tictactoe", "perfect"},
		{random, "", "easy"}, // the weakest everywhere: one word
		{random, "othello", "easy"},
	} {
		var out bytes.Buffer
		if err := WriteTable(&out, []Info{tc.info}, tc.game); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		want := strings.Join(strings.Fields(strings.Join([]string{tc.info.Name, strings.Join(tc.info.Games, ","), tc.want, tc.info.DisplayName, tc.info.Blurb, tc.info.Description}, " ")), " ")
		if len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "NAME GAMES DIFFICULTY SHOWN AS FOR PLAYERS DESCRIPTION" ||
			strings.Join(strings.Fields(lines[1]), " ") != want {
			t.Errorf("%s, game %q: table:\n%s\nwant the line %q", tc.info.Name, tc.game, out.String(), want)
		}
	}
	// A strategy whose games label it differently lists each game's.
	for _, i := range All() {
		if difficulties(i) == string(i.DifficultyIn(i.Games[0])) {
			continue
		}
		for _, g := range i.Games {
			if !strings.Contains(difficulties(i), g+" "+string(i.DifficultyIn(g))) {
				t.Errorf("%s: %q does not say %s %s", i.Name, difficulties(i), g, i.DifficultyIn(g))
			}
		}
	}
}
