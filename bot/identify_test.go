package bot_test

import (
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
)

// waitIdentifies waits until the stand-in has received n IDENTIFYs and
// every shard is up again, and returns them.
func waitIdentifies(t *testing.T, h *harness, n int) []discordtest.Identify {
	t.Helper()
	deadline := time.Now().Add(waitTimeout())
	for len(h.srv.Identifies()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %d identifies: %+v", n, h.srv.Identifies())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := h.srv.WaitShards(h.ctx()); err != nil {
		t.Fatal(err)
	}
	return h.srv.Identifies()
}

// TestReidentifyAfterInvalidSessionWaitsForTheQueue: when Discord ends a
// session (close 4009, so the resume gets INVALID SESSION), the IDENTIFY
// discordgo sends in answer waits for the shard's bucket of the identify
// queue instead of going at once — which Discord refuses within 5 s of the
// bucket's last identify.
func TestReidentifyAfterInvalidSessionWaitsForTheQueue(t *testing.T) {
	t.Parallel()
	h := start(t, withClock(), withServer(discordtest.WithShards(1, 1)), withConfig(func(c *bot.Config) {
		c.Shards.Count, c.Shards.IDs = 1, []int{0}
	}))
	if ids := waitIdentifies(t, h, 1); len(ids) != 1 || ids[0].Refused {
		t.Fatalf("identifies at start: %+v", ids)
	}
	h.srv.CloseGateway(4009) // session timed out: not resumable
	h.waitLog("waiting for the identify queue")
	h.clock.Advance(6 * time.Second)
	ids := waitIdentifies(t, h, 2)
	for _, id := range ids {
		if id.Refused {
			t.Fatalf("an identify was refused: %+v", ids)
		}
	}
	if gap := ids[1].At.Sub(ids[0].At); gap < 5*time.Second {
		t.Fatalf("identified again %v after the first, want the bucket's 5 s: %+v", gap, ids)
	}
}

// TestIdentifyWaitsForTheSessionStartLimitReset: with Discord's session
// start limit spent (session_start_limit.remaining 0 in GET /gateway/bot),
// a shard that must identify again waits for reset_after, logging why,
// instead of identifying past the limit, which resets the bot's token.
func TestIdentifyWaitsForTheSessionStartLimitReset(t *testing.T) {
	t.Parallel()
	h := start(t, withClock(), withServer(discordtest.WithRateLimits(discordtest.RateLimits{SessionStarts: 1, SessionWindow: time.Hour})))
	waitIdentifies(t, h, 1)
	h.srv.CloseGateway(4009)
	h.waitLog("session start limit is spent")
	if st := h.srv.RateLimitStats(); st.SessionStarts != 1 || st.TokenResets != 0 {
		t.Fatalf("before the reset: %d sessions started, %d token resets; want 1 and 0", st.SessionStarts, st.TokenResets)
	}
	h.clock.Advance(time.Hour)
	waitIdentifies(t, h, 2)
	if st := h.srv.RateLimitStats(); st.SessionStarts != 2 || st.TokenResets != 0 {
		t.Fatalf("after the reset: %d sessions started, %d token resets; want 2 and 0", st.SessionStarts, st.TokenResets)
	}
}
