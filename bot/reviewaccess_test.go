package bot_test

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// TestStatsOfAnotherMemberListOnlyGamesTheAskerCouldSee: /stats user:
// lists another member's recent games by the rule of reviews, so that
// carol, outside alice and bob's group DM, does not learn from alice's
// stats whom she played there and how it ended; the rating, public on
// the leaderboards, stays. Alice and bob see the game in her stats.
func TestStatsOfAnotherMemberListOnlyGamesTheAskerCouldSee(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	gdm, err := h.srv.AddGroupDM(alice, bob)
	if err != nil {
		t.Fatal(err)
	}
	playTicTacToeIn(t, h, gdm.ID, alice, bob)
	ticTacToe := func(m discordtest.Message) string {
		t.Helper()
		if len(m.Embeds) != 1 {
			t.Fatalf("/stats answered %d embeds: %q", len(m.Embeds), m.Content)
		}
		for _, f := range m.Embeds[0].Fields {
			if f.Name == "Tic-Tac-Toe" {
				return f.Value
			}
		}
		t.Fatalf("/stats has no Tic-Tac-Toe field: %+v", m.Embeds[0].Fields)
		return ""
	}
	seen := ticTacToe(h.commandIn(carol, h.srv.ChannelID(), "stats", opt("user", alice)))
	if strings.Contains(seen, "<@"+bob+">") || !strings.Contains(seen, "1–0–0 in 1 game") {
		t.Errorf("carol's /stats user:alice shows Tic-Tac-Toe %q: want alice's record without her game in the group DM", seen)
	}
	for _, asker := range []string{alice, bob} {
		if seen := ticTacToe(h.commandIn(asker, h.srv.ChannelID(), "stats", opt("user", alice))); !strings.Contains(seen, "Won against <@"+bob+">") {
			t.Errorf("a player's /stats user:alice shows Tic-Tac-Toe %q, want the win against bob", seen)
		}
	}
}

// elsewhere returns a channel named name of another server, whose members
// are members, and a channel "side" of the harness's server: the places
// where a member of the harness's channel could not see a game.
func elsewhere(t *testing.T, h *harness, name string, members ...string) (other, side discordtest.Channel) {
	t.Helper()
	g := h.srv.AddGuild("Elsewhere")
	other, err := h.srv.AddChannel(g.ID, name)
	if err != nil {
		t.Fatal(err)
	}
	if side, err = h.srv.AddChannel(h.srv.GuildID(), "side"); err != nil {
		t.Fatal(err)
	}
	for _, u := range members {
		if err := h.srv.AddMember(g.ID, u); err != nil {
			t.Fatal(err)
		}
	}
	return other, side
}
