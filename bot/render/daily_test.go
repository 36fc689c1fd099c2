package render

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/engine/connect4"
)

// TestOverviewNamesAbortAndDraw checks that /help's overview tells, in
// both languages, the buttons a new player does not find by themselves:
// Abort early in a game and Offer draw against a person, by the labels
// the board shows.
func TestOverviewNamesAbortAndDraw(t *testing.T) {
	for _, l := range []*i18n.Localizer{en, i18n.For(i18n.Indonesian)} {
		d := Overview(l, someCommands).Embeds[0].Description
		for _, label := range []string{l.T("board.abort"), l.T("board.offer_draw")} {
			if !strings.Contains(d, "**"+label+"**") {
				t.Errorf("%s: the overview does not name **%s**:\n%s", l.Locale(), label, d)
			}
		}
	}
}

// TestPuzzleMessage draws a puzzle apart from a game: its title, the
// position's picture with a text alternative, the lines under it and the
// buttons, as a components-v2 message Discord accepts.
func TestPuzzleMessage(t *testing.T) {
	pos, err := connect4.Parse("4444")
	if err != nil {
		t.Fatal(err)
	}
	m := Puzzle(en, "connect4", pos, "daily-2026-11-24", "🧩 Daily puzzle", []string{"find the move", "streak"},
		DailyControls(en, gameOf("connect4"), pos, "g", "2026-11-24", true))
	checkDiscord(t, m)
	ids := customIDs(m.Components)
	if len(ids) != 7+2 {
		t.Errorf("the puzzle's controls %v, want its 7 moves, Hint and Give up", ids)
	}
	for _, id := range ids {
		_, move := customid.DailyMove.Match(id)
		_, hint := customid.DailyHint.Match(id)
		_, giveUp := customid.DailyGiveUp.Match(id)
		if !move && !hint && !giveUp {
			t.Errorf("control %q is no daily puzzle's", id)
		}
	}
	if len(m.Files) != 1 || m.Files[0].Name != "board-daily-2026-11-24.png" || m.Files[0].Alt == "" {
		t.Errorf("the puzzle's picture: %+v", m.Files)
	}
	if s := texts(m.Components); !strings.Contains(s, "🧩 Daily puzzle") || !strings.Contains(s, "find the move\nstreak") {
		t.Errorf("the puzzle's text: %q", s)
	}
}
