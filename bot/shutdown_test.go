package bot_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// TestStoppingLogsNoReconnection: closing the gateway at shutdown is no
// disconnection to recover from. Before, discordgo's Disconnect event,
// handled in a goroutine of its own, logged "gateway disconnected;
// reconnecting" after "bot stopped"; now Run waits for it, which says the
// gateway closed, before it logs that the bot stopped.
func TestStoppingLogsNoReconnection(t *testing.T) {
	t.Parallel()
	h := start(t)
	h.stop()
	logs := h.logs.String()
	closed, stopped := strings.Index(logs, "gateway closed"), strings.Index(logs, "bot stopped")
	if closed < 0 || stopped < 0 || closed > stopped {
		t.Errorf("\"gateway closed\" at %d, \"bot stopped\" at %d in the logs; want both, the gateway first", closed, stopped)
	}
	if strings.Contains(logs, "reconnecting") {
		t.Error("the logs say the gateway is reconnecting at shutdown")
	}
}

// TestShutdownIsBoundedUnderRateLimits: with Discord answering every edit
// 429 for good, a stop waits ShutdownTimeout for the work under way — here
// the AI's move being shown — and then returns; the restarted bot shows
// the move. The bound's timer is the test's (Config.Lifecycle.After), fired once the
// edit is being rate limited after the stop began: no wall clock is timed.
// Before, the stop waited for the edit for as long as the 429s lasted.
func TestShutdownIsBoundedUnderRateLimits(t *testing.T) {
	t.Parallel()
	const bound = 7 * time.Second
	asked, fire := make(chan time.Duration, 1), make(chan time.Time)
	h := start(t, withConfig(func(c *bot.Config) {
		c.Lifecycle.ShutdownTimeout = bound
		// No "thinking…" edit: the edit that meets the 429s is the
		// move's own, whose showing is the work the stop waits for.
		c.Timers.ProgressInterval = time.Hour
		c.Lifecycle.After = func(d time.Duration) <-chan time.Time {
			asked <- d
			return fire
		}
	}))
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	h.srv.InjectFault(discordtest.Fault{Method: "PATCH", Status: http.StatusTooManyRequests, RetryAfter: 50 * time.Millisecond, Times: 1 << 30})
	limited := func(from int) bool {
		for _, r := range h.srv.Requests()[from:] {
			if r.Method == "PATCH" && r.Status == http.StatusTooManyRequests {
				return true
			}
		}
		return false
	}
	if r := h.move(alice, g.ID, "5"); r.Ephemeral() {
		t.Fatalf("alice's move: %q", r.Content)
	}
	h.waitGame(g.ID, "the AI's move", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	waitFor(t, "the AI's move to be rate limited", func() bool { return limited(0) })

	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		h.stop()
	}()
	select {
	case d := <-asked:
		if d != bound {
			t.Errorf("the shutdown waits %v, want ShutdownTimeout, %v", d, bound)
		}
	case <-stopped:
		t.Fatal("the bot stopped before the edit was sent, without waiting for it")
	case <-time.After(waitTimeout()):
		t.Fatal("the stop set no bound on its wait")
	}
	// The edit is still being refused: the stop is waiting for it.
	sent := len(h.srv.Requests())
	waitFor(t, "the edit to be rate limited again during the stop", func() bool { return limited(sent) })
	select {
	case <-stopped:
		t.Fatal("the bot stopped before its bound, with the edit unsent")
	default:
	}
	close(fire)
	<-stopped
	h.waitLog("shutdown ran out of time")

	h.srv.ClearFaults()
	h.cfg.Lifecycle.After = nil
	sent = len(h.srv.Requests())
	h.run()
	waitFor(t, "the restarted bot to show the AI's move", func() bool {
		for _, r := range h.srv.Requests()[sent:] {
			if r.Method == "PATCH" && r.Status == http.StatusOK && strings.HasSuffix(r.Path, "/messages/"+g.MessageID) {
				return true
			}
		}
		return false
	})
	if board := embedText(h.board(g.ID)) + h.board(g.ID).Content; !strings.Contains(board, "Last move") {
		t.Errorf("the board after the restart: %q; want the AI's last move", board)
	}
}

// waitFor waits until cond holds, failing the test at waitTimeout.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout())
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", waitTimeout(), what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
