package render

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games/catalog"
)

// TestLegendNamesTheSides: a game's help legend names each side's mark as
// the game names its sides — Black and White in Othello and Gomoku, Red
// and Yellow in Connect Four, not X and O, which those games never show.
func TestLegendNamesTheSides(t *testing.T) {
	for _, tc := range []struct {
		game, en, id string
	}{
		{"othello", "⚫ Black · ⚪ White", "⚫ Hitam · ⚪ Putih"},
		{"gomoku", "⚫ Black · ⚪ White", "⚫ Hitam · ⚪ Putih"},
		{"connect4", "Red · ", "Merah · "},
		{"tictactoe", " X · ", " X · "},
	} {
		gm, err := catalog.Lookup(tc.game)
		if err != nil {
			t.Fatal(err)
		}
		for loc, want := range map[string]string{i18n.English: tc.en, i18n.Indonesian: tc.id} {
			if got := legend(i18n.For(loc), gm); !strings.Contains(got, want) || strings.Contains(got, gm.Look.Mark[engine.O]+" O ") && tc.game != "tictactoe" {
				t.Errorf("%s, %s: legend %q, want %q", tc.game, loc, got, want)
			}
		}
	}
}
