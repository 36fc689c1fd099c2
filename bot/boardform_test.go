package bot_test

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// shownText is the text a board message shows: its text displays.
func shownText(m discordtest.Message) string {
	var b strings.Builder
	for _, c := range components(m) {
		b.WriteString(c.Content + "\n")
	}
	return b.String()
}

// altText is the description of a board's picture, "" without one.
func altText(m discordtest.Message) string {
	for _, c := range components(m) {
		for _, it := range c.Items {
			return it.Description
		}
	}
	return ""
}

// boardForm says which forms a board message shows: "picture", "emoji"
// or "both" (the emoji grid of N-Queens has its dark squares 🟫).
func boardForm(t *testing.T, m discordtest.Message) storage.BoardForm {
	t.Helper()
	pic, grid := len(m.Attachments) > 0, strings.Contains(shownText(m), "🟫")
	switch {
	case pic && grid:
		return storage.BoardBoth
	case pic:
		boardPicture(t, m)
		return storage.BoardPicture
	case grid:
		return storage.BoardEmoji
	}
	t.Fatalf("board %s shows neither a picture nor a grid: %s", m.ID, shownText(m))
	return ""
}

// TestBoardFormPerServerAndPerMember checks the form of boards: the
// picture alone by default, described for screen readers (the queens
// that attack each other too); the emoji grid once the server's admins
// choose it; a member's own choice (/board) over the server's for the
// boards of their games, which survives a restart; and "server" giving
// the choice back.
func TestBoardFormPerServerAndPerMember(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	ga, _ := newPuzzle(t, h, alice, opt("game", "nqueens"), opt("n", 5))
	gb, _ := newPuzzle(t, h, bob, opt("game", "nqueens"), opt("n", 5))
	h.move(alice, ga.ID, "a1")
	h.move(alice, ga.ID, "b2")
	board := h.board(ga.ID)
	if f := boardForm(t, board); f != storage.BoardPicture {
		t.Fatalf("a new server's board shows %s, want the picture alone", f)
	}
	if alt := altText(board); !strings.Contains(alt, "a1, b2") || !strings.Contains(alt, "attacking each other: a1, b2") || !strings.Contains(alt, "last move on b2") {
		t.Errorf("the picture's text alternative is %q, want the queens, the last move and the queens attacking each other", alt)
	}

	// The server's choice.
	if _, m := h.command(alice, "settings", opt("board", "emoji")); !strings.Contains(embedText(m), "the emoji grid") {
		t.Fatalf("/settings board:emoji answered %q %q", m.Content, embedText(m))
	}
	if s, err := h.store.GuildSettings(h.ctx(), h.srv.GuildID()); err != nil || s.Board != storage.BoardEmoji {
		t.Fatalf("the server's settings are %+v (%v), want the emoji grid", s, err)
	}
	h.move(alice, ga.ID, "c5")
	if f := boardForm(t, h.board(ga.ID)); f != storage.BoardEmoji {
		t.Fatalf("after /settings board:emoji the board shows %s", f)
	}

	// A member's own choice, for the boards of their games only.
	if _, m := h.command(bob, "board", opt("form", "both")); !m.Ephemeral() || !strings.Contains(m.Content, "the picture and the emoji grid") {
		t.Fatalf("/board form:both answered %q", m.Content)
	}
	h.move(bob, gb.ID, "a1")
	if f := boardForm(t, h.board(gb.ID)); f != storage.BoardBoth {
		t.Errorf("bob's board after /board form:both shows %s", f)
	}
	h.move(alice, ga.ID, "d2")
	if f := boardForm(t, h.board(ga.ID)); f != storage.BoardEmoji {
		t.Errorf("alice's board after bob's /board shows %s, want the server's emoji grid", f)
	}

	// Both choices survive a restart.
	h.stop()
	h.run()
	h.move(bob, gb.ID, "b3")
	if f := boardForm(t, h.board(gb.ID)); f != storage.BoardBoth {
		t.Errorf("bob's board after a restart shows %s", f)
	}
	h.move(alice, ga.ID, "e4")
	if f := boardForm(t, h.board(ga.ID)); f != storage.BoardEmoji {
		t.Errorf("alice's board after a restart shows %s", f)
	}

	// "server" gives the choice back.
	if _, m := h.command(bob, "board", opt("form", "server")); !strings.Contains(m.Content, "as each server chose") {
		t.Fatalf("/board form:server answered %q", m.Content)
	}
	h.move(bob, gb.ID, "c5")
	if f := boardForm(t, h.board(gb.ID)); f != storage.BoardEmoji {
		t.Errorf("bob's board after /board form:server shows %s, want the server's emoji grid", f)
	}
}
