package bot_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// TestReviewOnlyOfGamesTheMemberCouldSee asks for the reviews of games
// carol could not see — in a group DM she is not in, in a private channel
// of a server she is not in, in another channel of her own server — by
// /review game: and by a forged Review button: each is refused with the
// words an unknown game gets, so that the answer does not tell the game
// exists, and no game is analysed. In the game's channel she may review
// it, and a player may review their game wherever they ask.
func TestReviewOnlyOfGamesTheMemberCouldSee(t *testing.T) {
	t.Parallel()
	gate := newReviewGate()
	h := start(t, withReviewGate(t, gate))
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	gdm, err := h.srv.AddGroupDM(alice, bob)
	if err != nil {
		t.Fatal(err)
	}
	private, side := elsewhere(t, h, "private", alice, bob)
	hidden := map[string]*storage.Game{
		"a group DM carol is not in":                    playTicTacToeIn(t, h, gdm.ID, alice, bob),
		"a private channel of a server carol is not in": playTicTacToeIn(t, h, private.ID, alice, bob),
		"another channel of carol's server":             playTicTacToeIn(t, h, side.ID, alice, bob),
	}
	const unknownID = "zzzzzzzz"
	unknown := h.commandIn(carol, h.srv.ChannelID(), "review", opt("game", unknownID))
	if !unknown.Ephemeral() || !strings.Contains(unknown.Content, unknownID) {
		t.Fatalf("/review of an unknown game: %+v", unknown)
	}
	// Were a hidden game analysed, its review would be shown (and the
	// test fail on it) rather than held.
	for range 2 * len(hidden) {
		gate.release <- struct{}{}
	}
	for where, g := range hidden {
		want := strings.ReplaceAll(unknown.Content, unknownID, string(g.ID))
		m := h.commandIn(carol, h.srv.ChannelID(), "review", opt("game", string(g.ID)))
		if !m.Ephemeral() || len(m.Embeds) != 0 || m.Content != want {
			t.Errorf("carol's /review of the game in %s: %q (ephemeral %v, %d embeds); want %q, as for an unknown game",
				where, m.Content, m.Ephemeral(), len(m.Embeds), want)
		}
		forged := customid.Review.Build(string(g.ID))
		m = h.clickSeen(carol, tampered(unknown, discordgo.ButtonComponent, forged), forged)
		if !m.Ephemeral() || len(m.Embeds) != 0 || m.Content != want {
			t.Errorf("carol's forged Review of the game in %s: %q (ephemeral %v, %d embeds); want %q",
				where, m.Content, m.Ephemeral(), len(m.Embeds), want)
		}
	}
	if n := gate.count.Load(); n != 0 {
		t.Fatalf("%d games analysed for reviews carol may not see, want none", n)
	}
	reviewShown(t, h.commandIn(carol, side.ID, "review", opt("game", string(hidden["another channel of carol's server"].ID))))
	reviewShown(t, h.commandIn(alice, h.srv.ChannelID(), "review", opt("game", string(hidden["a group DM carol is not in"].ID))))
}

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
