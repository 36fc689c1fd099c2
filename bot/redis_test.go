package bot_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/egress/ratelimit"
	"github.com/gambitbot/gambit/bot/ops"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/internal/redistest"
	"github.com/gambitbot/gambit/storage"
)

// withRedisLimits makes the bot share Discord's rate limits through the
// Redis server srv, waiting timeout for it (0: the default).
func withRedisLimits(srv *redistest.Server, timeout time.Duration) option {
	return withConfig(func(c *bot.Config) {
		c.REST.Limits = ratelimit.NewRedis(srv.Client(), "gambit:ratelimit:test:")
		c.REST.LimitsTimeout = timeout
	})
}

// The bot shares Discord's rate limits through a Redis server that is
// stopped (SIGSTOP: it hangs, connections open), then killed, then started
// again but frozen at once (as a Redis still loading its data, or one the
// machine is too loaded to let answer in time), then let go, while two
// members play tic-tac-toe: every move is answered all along, the bot logs
// once that it keeps the limits on its own and once that Redis answers
// again, and the metrics show the breaker open, then closed.
func TestMovesAreAnsweredWhileRedisIsStoppedKilledAndRestarted(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	metrics := ops.NewMetrics()
	// The wait for Redis is long enough that a loaded machine never makes
	// a running Redis look stopped; it is waited once, not per move.
	h := start(t, withClock(), withRedisLimits(srv, 500*time.Millisecond), withConfig(func(c *bot.Config) { c.Metrics = metrics }))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	players := []string{alice, bob}
	cells := []string{"1", "5", "9", "2", "8", "7", "3", "6", "4"}
	var g *storage.Game
	played := 0
	play := func(what string, n int) {
		t.Helper()
		for range n {
			if m := h.move(players[played%2], g.ID, cells[played]); m.Ephemeral() {
				t.Fatalf("%s: move %s refused: %s", what, cells[played], m.Content)
			}
			played++
		}
	}
	logged := func(text string) int { return strings.Count(h.logs.String(), text) }

	// A challenge's board is saved with its message's ID, which the bot
	// asks Discord for after its answer: a request under the shared
	// limits, while the answers (the callbacks) are under the process's
	// own.
	srv.Stop()
	g = challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	play("Redis stopped", 3)
	if _, m := h.command(alice, "help"); m.Content == "" && len(m.Embeds) == 0 {
		t.Errorf("/help with Redis stopped answered nothing")
	}
	h.waitLog("the shared store fails")
	if v := testutil.ToFloat64(metrics.REST.LimitsOpen); v != 1 {
		t.Errorf("gambit_discord_rest_limits_breaker_open = %v with Redis stopped, want 1", v)
	}

	srv.Kill()
	h.clock.Advance(time.Second)
	play("Redis killed", 2)

	// The bot asks the store again a second after its last try, with the
	// first request under the shared limits then: here a challenge's, whose
	// board is saved only once that request is done, so each challenge
	// below is one try, decided by the time it returns.
	srv.Restart()
	srv.Stop()
	h.clock.Advance(time.Second)
	g, played = challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe")), 0
	play("Redis started again, frozen", 1)
	if n := logged("the shared store answers again"); n != 0 {
		t.Fatalf("the store's return logged %d times while it was frozen", n)
	}
	srv.Continue()
	// A try can miss its wait on a loaded machine too (a new connection,
	// the scripts loaded again): the bot then keeps the limits on its own
	// for another second, and the test challenges again a second later,
	// until a try finds the store answering.
	tries := 0
	for logged("the shared store answers again") == 0 {
		tries++
		h.clock.Advance(time.Second)
		g, played = challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe")), 0
	}
	t.Logf("the store answered again at try %d", tries)
	play("Redis started again", 2)
	if n := logged("the shared store fails"); n != 1 {
		t.Errorf("the failing store logged %d times, want once", n)
	}
	if n := logged("the shared store answers again"); n != 1 {
		t.Errorf("the store's return logged %d times, want once", n)
	}
	if v := testutil.ToFloat64(metrics.REST.LimitsOpen); v != 0 {
		t.Errorf("gambit_discord_rest_limits_breaker_open = %v with Redis back, want 0", v)
	}
	if v := testutil.ToFloat64(metrics.REST.LimitsFallbacks); v == 0 {
		t.Error("gambit_discord_rest_limits_fallbacks_total = 0, want the requests on the process's own limits")
	}
}

// BenchmarkLoadFirstResponseRedis measures the first responses of the bot
// sharing Discord's rate limits through Redis, the Redis running and
// stopped (SIGSTOP for the whole run, its connections open) with the
// default wait for it (GAMBIT_REDIS_TIMEOUT): each iteration, a click in
// each of 20 two-player Adjacency games, spread over a second, and 5 new
// challenges at its start, whose boards' message IDs the bot asks Discord
// for (a request under the shared limits). The 50th and 99th percentiles
// of the times to the first response are custom metrics; with Redis
// stopped the bot must log its fallback once:
//
//	go test -run '^$' -bench 'LoadFirstResponseRedis' -benchtime 10x ./bot/
func BenchmarkLoadFirstResponseRedis(b *testing.B) {
	for _, stopped := range []bool{false, true} {
		name := "running"
		if stopped {
			name = "stopped"
		}
		b.Run(name, func(b *testing.B) {
			const games, challenges = 20, 5
			srv := redistest.Start(b)
			h := start(b, withoutChecks(), withRedisLimits(srv, 0))
			users := make([]string, 2*games)
			for i := range users {
				users[i] = h.srv.AddUser(fmt.Sprintf("player%d", i)).ID
			}
			ids := make([]storage.GameID, games)
			for i := range ids {
				ids[i] = challengeAndAcceptQuiet(h, users[2*i], users[2*i+1])
			}
			if stopped {
				srv.Stop()
			}
			var lat latencies
			var wg sync.WaitGroup
			b.ResetTimer()
			for round := 0; b.Loop(); round++ {
				for i := range challenges {
					alice := h.srv.AddUser(fmt.Sprintf("challenger%d-%d", round, i)).ID
					bob := h.srv.AddUser(fmt.Sprintf("challenged%d-%d", round, i)).ID
					wg.Go(func() {
						t0 := time.Now()
						ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: alice, Name: "play", Options: []discordtest.Option{
							opt("game", "adjacency"), opt("opponent", bob),
						}})
						if err != nil {
							b.Error(err)
							return
						}
						if _, err := ix.Response(h.ctx()); err != nil {
							b.Error(err)
							return
						}
						lat.record(time.Since(t0))
					})
				}
				clickEveryGame(b, h, &wg, round, users, ids, &lat)
				wg.Wait()
			}
			b.StopTimer()
			lat.report(b)
			if n := strings.Count(h.logs.String(), "the shared store fails"); stopped && n != 1 {
				b.Errorf("the bot logged its fallback on its own limits %d times, want once", n)
			}
		})
	}
}
