package bot_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// overlong is free text as long as a Discord message may be, with quotes
// (which %q doubles) and a two-byte letter. Discord's client keeps typed
// options within their max_length, but a modified client can send this,
// and the stand-in passes it on as Discord's API would.
var overlong = string([]rune(strings.Repeat(`é"x`, 667))[:2000])

// TestOverlongTextOptionsGetAClearRefusal sends every free-text option at
// 2,000 characters: each command is refused with a short private message
// that Discord accepts (the harness checks every body against the OpenAPI
// schema, which caps content at 2,000 characters), never with the apology
// for an error of ours nor with no answer at all; typed into an option
// that autocompletes, the text gets no choices and no error.
func TestOverlongTextOptionsGetAClearRefusal(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	// alice is to move in a game here, so that /move reads her cell.
	g, _ := playAI(t, h, alice, opt("game", "connect4"), opt("ai", "random"))
	for _, tc := range []struct {
		command string
		opts    []discordtest.Option
		want    string
	}{
		{"play", []discordtest.Option{opt("game", "tictactoe"), opt("ai", overlong)}, "There is no AI called"},
		{"move", []discordtest.Option{opt("cell", overlong)}, "is not a legal move"},
		{"move", []discordtest.Option{opt("cell", "4"), opt("game", overlong)}, "You have no game"},
		{"settings", []discordtest.Option{opt("games", overlong)}, "Unknown game"},
	} {
		_, m := h.command(alice, tc.command, tc.opts...)
		if !m.Ephemeral() || !strings.Contains(m.Content, tc.want) {
			t.Errorf("/%s with a 2,000-character option answered %q (ephemeral %v), want a private %q",
				tc.command, m.Content, m.Ephemeral(), tc.want)
		}
		if n := utf8.RuneCountInString(m.Content); n > 300 {
			t.Errorf("/%s: the refusal is %d characters long: it echoes the whole option", tc.command, n)
		}
	}
	for _, tc := range []struct {
		command string
		opts    []discordtest.Option
	}{
		{"play", []discordtest.Option{opt("game", "tictactoe"), focused("ai", overlong)}},
		{"move", []discordtest.Option{focused("cell", overlong)}},
		{"move", []discordtest.Option{opt("cell", "4"), focused("game", overlong)}},
	} {
		if c := askChoices(t, h, alice, "", tc.command, tc.opts...); len(c) != 0 {
			t.Errorf("/%s: 2,000 typed characters got choices %v", tc.command, c)
		}
	}
	if g = h.game(g.ID); len(g.Moves) != 0 {
		t.Errorf("the refused commands played %v", g.Moves)
	}
	if strings.Contains(h.logs.String(), "interaction failed") {
		t.Error("a command with an overlong option failed on our side")
	}
}
