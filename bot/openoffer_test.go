package bot_test

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/storage"
)

// TestOpenChallengeFromPlayAndTheMemberMenu: /play open:true and the
// member menu's second select post a challenge anyone here may accept,
// as /challenge without a member does; /play refuses open with an
// opponent or an AI.
func TestOpenChallengeFromPlayAndTheMemberMenu(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	if _, r := h.command(alice, "play", opt("game", "tictactoe"), opt("open", true), opt("ai", "random")); !strings.Contains(r.Content, "leave out opponent and ai") {
		t.Errorf("/play open with an AI: %q", r.Content)
	}
	_, m := h.command(alice, "play", opt("game", "tictactoe"), opt("open", true))
	take, ok := find(m, customid.Take, nil)
	if m.Ephemeral() || !ok || !strings.Contains(m.Content, "challenges anyone here to **Tic-Tac-Toe**") {
		t.Fatalf("/play open:true answered %q, %+v; want a public open challenge", m.Content, controls(m))
	}
	g := h.waitGame(h.latestGame(alice).ID, "the challenge's board", func(g *storage.Game) bool { return g.MessageID != "" })
	h.click(carol, m.ID, take)
	h.waitGame(g.ID, "carol's take", func(g *storage.Game) bool {
		return g.Status == storage.StatusActive && g.Seat(storage.User(carol)) >= 0
	})

	ix, err := h.srv.SendUserCommand(alice, h.srv.ChannelID(), "Challenge to a game", bob)
	if err != nil {
		t.Fatal(err)
	}
	picker, err := ix.Reply(h.ctx())
	if err != nil {
		t.Fatal(err)
	}
	pick, ok := find(picker, customid.ChallengePick, map[string]string{"user": "anyone"})
	if !ok {
		t.Fatalf("the member menu offers no open challenge: %+v", controls(picker))
	}
	m = h.click(alice, picker.ID, pick, "connect4")
	if _, ok := find(m, customid.Take, nil); m.Ephemeral() || !ok || !strings.Contains(m.Content, "challenges anyone here to **Connect Four**") {
		t.Fatalf("the menu's open challenge answered %q, %+v", m.Content, controls(m))
	}
	if g := h.latestGame(alice); g.Kind != "connect4" || !g.OpenChallenge() {
		t.Fatalf("the menu's challenge stored as %+v, want an open one", g)
	}
}
