package bot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/storage"
)

// TestChallengesToAMemberDoNotUseUpTheirCap: the cap on open games counts
// a member's games in progress and the challenges they sent; a challenge
// to them counts once they accept it. Before, five members challenging
// bob left him refused "You have 5 games and challenges open, the most
// Gambit allows" with a cap of 3, and he could accept all five.
func TestChallengesToAMemberDoNotUseUpTheirCap(t *testing.T) {
	t.Parallel()
	h := start(t, withConfig(func(c *bot.Config) { c.Games.MaxPerUser = 3 }))
	bob := h.srv.AddUser("bob").ID
	var accepts []string // the challenge messages and their Accept buttons, in pairs
	for i := range 5 {
		from := h.srv.AddUser(fmt.Sprintf("member%d", i)).ID
		_, m := h.command(from, "play", opt("game", "tictactoe"), opt("opponent", bob))
		if m.Ephemeral() {
			t.Fatalf("challenge %d to bob: %q", i, m.Content)
		}
		h.waitGame(h.latestGame(from).ID, "the challenge's board", func(g *storage.Game) bool { return g.MessageID != "" })
		accept, ok := find(m, customid.Accept, nil)
		if !ok {
			t.Fatalf("challenge %d has no Accept button", i)
		}
		accepts = append(accepts, m.ID, accept)
	}
	if _, m := h.command(bob, "play", opt("game", "tictactoe"), opt("ai", "random")); m.Ephemeral() {
		t.Fatalf("bob, challenged five times with a cap of 3, may not play: %q", m.Content)
	}
	// One game in progress: two accepts reach the cap, the third is refused.
	for i := range 2 {
		if r := h.click(bob, accepts[2*i], accepts[2*i+1]); r.Ephemeral() {
			t.Fatalf("accept %d within the cap: %q", i, r.Content)
		}
	}
	const atCap = "You have 3 games and challenges open, the most Gambit allows"
	if r := h.click(bob, accepts[4], accepts[5]); !r.Ephemeral() || !strings.Contains(r.Content, atCap) {
		t.Errorf("a third accept at the cap: %q, want a refusal starting %q", r.Content, atCap)
	}
	if _, m := h.command(bob, "play", opt("game", "tictactoe"), opt("ai", "random")); !m.Ephemeral() || !strings.Contains(m.Content, atCap) {
		t.Errorf("/play at the cap: %q, want a refusal starting %q", m.Content, atCap)
	}
	open, err := h.store.ActiveGames(t.Context(), storage.User(bob))
	if err != nil {
		t.Fatal(err)
	}
	active := 0
	for _, g := range open {
		if g.Status == storage.StatusActive {
			active++
		}
	}
	if active != 3 || len(open) != 6 {
		t.Errorf("bob has %d active games of %d open, want 3 of 6 (three challenges still waiting)", active, len(open))
	}
}
