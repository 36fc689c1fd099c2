package bot_test

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// TestQueensPickerNamesItsSquares plays N-Queens on the stand-in with the
// two-click picker Adjacency has: a column under the board, then a row
// on the picker only the player sees, which marks the row of the
// column's queen (clicking it lifts the queen). The menu under the
// columns says what it holds, the safe squares, never "menu 1".
func TestQueensPickerNamesItsSquares(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	g, board := newPuzzle(t, h, alice, opt("game", "nqueens"), opt("n", 8))
	for _, c := range controls(board) {
		if _, ok := customid.Pick.Match(c.CustomID); ok && c.Placeholder != "Safe squares: choose one" {
			t.Errorf("a menu reads %q, want what it holds: the safe squares", c.Placeholder)
		}
	}
	for _, file := range []string{"a", "h"} {
		if _, ok := find(board, customid.File, map[string]string{"file": file}); !ok {
			t.Fatalf("no button for column %s under the board: %+v", file, board.Components)
		}
	}
	for _, want := range []string{"💡", "🪄", "📊", "🏳️"} {
		found := false
		for _, c := range controls(board) {
			found = found || c.Emoji != nil && c.Emoji.Name == want
		}
		if !found {
			t.Errorf("the board lost its %s button beside the columns", want)
		}
	}

	_, played := pickCell(t, h, alice, g.ID, "c4")
	if !strings.Contains(played.Content, "c4") {
		t.Fatalf("the second click answered %q", played.Content)
	}
	g = h.waitGame(g.ID, "c4 to be played", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	if g.Position != "0,0,4,0,0,0,0,0" {
		t.Fatalf("after c4 the position is %s", g.Position)
	}

	// The picker of column c marks the queen's row; clicking it lifts it.
	picker, _ := pickCell(t, h, alice, g.ID, "c4")
	var label string
	for _, c := range controls(picker) {
		if ps, ok := customid.Cell.Match(c.CustomID); ok && ps["cell"] == "c4" {
			label = c.Label
		}
	}
	if label != "4 · 👑" || !strings.Contains(picker.Content, "Column **c**") {
		t.Errorf("column c's picker reads %q with c4 labelled %q, want the queen's row marked", picker.Content, label)
	}
	g = h.waitGame(g.ID, "c4 to be lifted", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	if g.Position != "0,0,0,0,0,0,0,0" {
		t.Errorf("clicking the queen's row left %s, want it lifted", g.Position)
	}
}

// pickerSquares counts the squares a board's column buttons offer
// through their pickers, clicked as user.
func pickerSquares(t *testing.T, h *harness, user string, board discordtest.Message) int {
	t.Helper()
	n := 0
	for _, c := range controls(board) {
		if _, ok := customid.File.Match(c.CustomID); !ok || c.Disabled {
			continue
		}
		picker := h.click(user, board.ID, c.CustomID)
		for _, p := range controls(picker) {
			if _, ok := customid.Cell.Match(p.CustomID); ok && !p.Disabled {
				n++
			}
		}
	}
	return n
}
