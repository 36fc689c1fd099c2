package bot_test

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// TestVersusCapsSurviveARestart: a server running two showcases still
// runs two after the bot restarts on its bbolt file, which drops the
// claims on opening — the count is the store's open games, not claims —
// so a third is refused.
func TestVersusCapsSurviveARestart(t *testing.T) {
	t.Parallel()
	h := start(t, withHeldSearches())
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	game := []discordtest.Option{opt("game", "connect4"), opt("first", "minimax"), opt("second", "mcts")}
	first, _ := versus(t, h, alice, game...)
	h.searchStarted()
	second, _ := versus(t, h, bob, game...)
	h.searchStarted()

	h.restartOnReopenedStore() // which drops the file's claims
	for _, id := range []storage.GameID{first.ID, second.ID} {
		if g := h.game(id); !g.Status.Open() {
			t.Fatalf("showcase %s is %s after the restart: the test no longer has two under way", g.ID, g.Status)
		}
	}
	if got := versusRefused(t, h, carol, game...); !strings.Contains(got, "already runs 2") {
		t.Errorf("a third showcase after the restart: %q, want the server's cap", got)
	}
}

// TestPlayCountsTheShowcasesYouStarted: a member whose open games and
// showcases reach their cap cannot /play one more game, against an AI
// or a member: a showcase counts in the one cap check every new game
// meets.
func TestPlayCountsTheShowcasesYouStarted(t *testing.T) {
	t.Parallel()
	h := start(t, withHeldSearches(), withConfig(func(c *bot.Config) { c.Games.MaxPerUser = 2 }))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	if _, m := h.command(alice, "play", opt("game", "tictactoe"), opt("ai", "random"), opt("first", "me")); m.Ephemeral() {
		t.Fatalf("alice's first /play: %q", m.Content)
	}
	versus(t, h, alice, opt("game", "connect4"), opt("first", "minimax"), opt("second", "mcts"))
	h.searchStarted()
	for _, opts := range [][]discordtest.Option{
		{opt("game", "tictactoe"), opt("ai", "random")},
		{opt("game", "tictactoe"), opt("opponent", bob)},
	} {
		_, m := h.command(alice, "play", opts...)
		if !m.Ephemeral() || !strings.Contains(m.Content, "You have 2 games") {
			t.Errorf("/play %v at the cap with a showcase: %q (ephemeral %v), want the cap's refusal", opts, m.Content, m.Ephemeral())
		}
	}
}
