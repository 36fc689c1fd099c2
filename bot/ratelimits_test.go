package bot_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/egress/ratelimit"
	"github.com/gambitbot/gambit/bot/ops"
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

// countingLimits is a store of the rate limits that counts what the bot
// asks of it.
type countingLimits struct {
	ratelimit.Store
	takes, pauses, invalids atomic.Int64
}

func (c *countingLimits) Take(ctx context.Context, key ratelimit.Key, global int) (ratelimit.Decision, error) {
	c.takes.Add(1)
	return c.Store.Take(ctx, key, global)
}

func (c *countingLimits) Pause(ctx context.Context, key ratelimit.Key, b ratelimit.Bucket, global bool, after time.Duration) error {
	c.pauses.Add(1)
	return c.Store.Pause(ctx, key, b, global, after)
}

func (c *countingLimits) Invalid(ctx context.Context) (int, error) {
	c.invalids.Add(1)
	return c.Store.Invalid(ctx)
}

// The bot's REST requests go through the store of the rate limits it is
// given (Config.REST.Limits, which processes share): every request but the
// interaction callbacks asks it for its place, and a 429 is recorded
// there and waited out by the limiter (the challenge is saved, the
// stand-in sees the 429 once). An interaction callback's limits are its
// own, kept in the process: its 429 is waited out there (the command is
// answered), though counted as an invalid request in the store. Both
// 429s are counted in the metrics.
func TestTheBotsRequestsGoThroughTheSharedLimits(t *testing.T) {
	t.Parallel()
	limits := &countingLimits{Store: ratelimit.NewMemory(nil)}
	metrics := ops.NewMetrics()
	// An hour for the store's answer: a loaded machine must not make it
	// look failed, and the limiter keep the limits on its own.
	h := start(t, withConfig(func(c *bot.Config) { c.REST.Limits, c.REST.LimitsTimeout, c.Metrics = limits, time.Hour, metrics }))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	const callback = "/interactions/{interaction_id}/{interaction_token}/callback"
	h.srv.InjectFault(discordtest.Fault{
		Method: http.MethodPost, Route: callback,
		Status: http.StatusTooManyRequests, RetryAfter: 10 * time.Millisecond,
	})
	if _, m := h.command(alice, "help"); !m.Ephemeral() {
		t.Fatalf("/help answered %q", m.Content)
	}
	if n := limits.pauses.Load(); n != 0 {
		t.Errorf("the store recorded %d pauses for a callback's 429, want none", n)
	}
	if n := limits.invalids.Load(); n != 1 {
		t.Errorf("the store counted %d invalid requests, want the callback's 429", n)
	}
	h.srv.InjectFault(discordtest.Fault{
		Method: http.MethodGet, Route: "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
		Status: http.StatusTooManyRequests, RetryAfter: 10 * time.Millisecond,
	})
	challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	shared := int64(0)
	for _, r := range h.srv.Requests() {
		if r.Route != callback {
			shared++
		}
	}
	if n := limits.takes.Load(); n < shared {
		t.Errorf("the store was asked %d times for %d requests but the callbacks", n, shared)
	}
	if n := limits.pauses.Load(); n != 1 {
		t.Errorf("the store recorded %d pauses, want the 429's", n)
	}
	if n := testutil.ToFloat64(metrics.REST.TooMany.WithLabelValues("user")); n != 2 {
		t.Errorf("gambit_discord_rest_429_total{scope=\"user\"} = %v, want 2", n)
	}
	if n := testutil.ToFloat64(metrics.REST.Invalid); n != 2 {
		t.Errorf("gambit_discord_rest_invalid_requests = %v, want 2", n)
	}
}
