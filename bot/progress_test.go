package bot_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/egress/ratelimit"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// TestARateLimitedThinkingEditDoesNotHoldUpTheMove: Discord answers the
// AI's "thinking…" edit with a 429 whose Retry-After the bot's clock (the
// manual clock, which the rate limits are kept on too) does not reach
// until the test moves it on. The search ends meanwhile: the move is
// committed at once, the edit waiting out the Retry-After abandoned; and
// the board's next edit, once the route may be used again, shows the
// move, not the stale "thinking…" sent after all.
func TestARateLimitedThinkingEditDoesNotHoldUpTheMove(t *testing.T) {
	t.Parallel()
	// Short in real time, so that the limiter, which sleeps the wait
	// the limits' clock gives and asks again, sees the test's clock
	// move soon; never over while that clock stands still.
	const retryAfter = 100 * time.Millisecond
	h := start(t, withClock(), withHeldSearches(), func(h *harness) { h.cfg.REST.Limits = ratelimit.NewMemory(h.clock.Now) })
	// Whatever happens, the Retry-After passes before the bot stops:
	// the stop would wait for an edit still waiting it out.
	t.Cleanup(func() { h.clock.Advance(retryAfter) })
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "adjacency"), opt("ai", "minimax"), opt("rounds", 28),
		opt("first", "opponent"), opt("movetime", 5.0))
	end := h.searchStarted()

	h.srv.InjectFault(discordtest.Fault{Method: "PATCH", Status: http.StatusTooManyRequests, RetryAfter: retryAfter})
	h.clock.Advance(h.cfg.Timers.ProgressInterval) // the "thinking…" edit is due
	limited := -1
	waitFor(t, "the thinking edit to be rate limited", func() bool {
		for i, r := range h.srv.Requests() {
			if r.Method == "PATCH" && r.Status == http.StatusTooManyRequests {
				limited = i
				return true
			}
		}
		return false
	})
	if body := string(h.srv.Requests()[limited].Body); !strings.Contains(body, "thinking") {
		t.Fatalf("the 429 answered %s, not the thinking edit", body)
	}
	end()
	h.waitGame(g.ID, "the AI's move committed while the thinking edit waits out its Retry-After", func(g *storage.Game) bool { return len(g.Moves) == 1 })

	h.clock.Advance(retryAfter)
	h.waitBoard(g.ID, "the AI's move on the board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "your move") && !strings.Contains(embedText(m), "thinking")
	})
	for _, r := range h.srv.Requests()[limited+1:] {
		if r.Method == "PATCH" && strings.Contains(string(r.Body), "thinking") {
			t.Errorf("after the 429 the bot sent the thinking edit again (%s, answered %d): the move's edit should have gone next", r.Path, r.Status)
		}
	}
}
