package bot_test

import (
	"testing"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// A session like the playground's — two members play tic-tac-toe and
// Connect Four, and one plays Adjacency against the AI — stays within
// Discord's rate limits, the global one and the channel messages'
// buckets: not one 429 of any scope, and no invalid request (401, 403,
// 429) counting toward a ban.
func TestAPlaygroundSessionMeetsNoRateLimit(t *testing.T) {
	t.Parallel()
	limits := discordtest.DiscordRateLimits()
	limits.Routes = discordtest.DiscordRouteLimits()
	h := start(t, withServer(discordtest.WithRateLimits(limits)))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID

	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	players := []string{alice, bob}
	for i, cell := range []string{"1", "5", "9", "2", "8", "7", "3", "6", "4"} {
		if m := h.move(players[i%2], g.ID, cell); m.Ephemeral() {
			t.Fatalf("tic-tac-toe move %s refused: %s", cell, m.Content)
		}
	}
	g = challengeAndAccept(t, h, alice, bob, storage.Kind("connect4"))
	for i, col := range []string{"4", "1", "4", "2", "4", "1", "4"} {
		if m := h.move(players[i%2], g.ID, col); m.Ephemeral() {
			t.Fatalf("Connect Four move in column %s refused: %s", col, m.Content)
		}
	}
	_, m := h.command(alice, "play", opt("game", "adjacency"), opt("ai", "greedy"), opt("rounds", 3))
	if m.Ephemeral() {
		t.Fatalf("/play against the AI was refused: %s", m.Content)
	}
	g = h.waitGame(h.latestGame(alice).ID, "the board to be saved", func(g *storage.Game) bool { return g.MessageID != "" })
	if g = playAdjacencyAgainstAI(t, h, alice, g); g.Status != storage.StatusFinished {
		t.Fatalf("the game against the AI ended %s", g.Status)
	}

	st := h.srv.RateLimitStats()
	t.Logf("requests by route: %v", st.Requests)
	if len(st.TooManyRequests) != 0 || st.Invalid != 0 || st.Bans != 0 {
		t.Errorf("429s by scope %v, %d invalid requests, %d bans; want none", st.TooManyRequests, st.Invalid, st.Bans)
	}
	if st.Requests["POST /interactions/{interaction_id}/{interaction_token}/callback"] == 0 {
		t.Errorf("no interaction callback counted: %v", st.Requests)
	}
}
