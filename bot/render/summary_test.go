package render

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
)

// TestBoardSummariesNameTheCells checks the one line that describes a
// board's picture for screen readers, the text the picture stands for
// where the emoji grid is hidden: it names the cells as players do in
// every game, and fits a picture's description in both languages.
func TestBoardSummariesNameTheCells(t *testing.T) {
	cases := []struct {
		game, position string
		want           []string
	}{
		{"connect4", "4453", []string{"🔴 2 on column 4 row 1, column 5 row 1", "🟡 2 on column 4 row 2, column 3 row 1"}},
		{"tictactoe", "x...o.... x", []string{"1", "5"}},
		{"8puzzle", "1,2,3,4,5,6,7,0,8", []string{"rows from the top: 1 2 3 / 4 5 6 / 7 · 8"}},
		{"nqueens", "1,2,0,4", []string{"👑 3 on a1, b2, d4", "attacking each other: a1, b2"}},
		{"adjacency", "start", []string{"a1, a2, b1, b2", "g7, g8, h7, h8"}},
	}
	for _, c := range cases {
		gm, err := catalog.Lookup(c.game)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := gm.Position(c.position, games.Options{})
		if err != nil {
			t.Fatalf("%s %s: %v", c.game, c.position, err)
		}
		s := boardSummary(en, gm, gm.Look.Board(pos, nil))
		for _, w := range c.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s %s: the summary %q lacks %q", c.game, c.position, s, w)
			}
		}
	}
	// Every game, full boards too, in both languages, as a picture's description.
	for _, gm := range catalog.All() {
		pos, moves := play(t, storage.Kind(gm.Name), 28, rand.New(rand.NewPCG(3, 4)), 60)
		g := newGame(storage.Kind(gm.Name), storage.StatusActive, alice, bob)
		seat(g, pos, moves, 0)
		for _, loc := range i18n.Locales() {
			pic := boardPicture(i18n.For(loc), gm, gm.Look.Board(pos, lastChange(g)), Ply(g))
			if pic == nil || pic.Alt == "" || units(pic.Alt) > maxAlt || strings.Contains(pic.Alt, "{{") {
				t.Errorf("%s in %s: the picture's description is %v", gm.Name, loc, pic)
			}
		}
	}
}
