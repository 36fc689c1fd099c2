package ratelimit_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/egress/ratelimit"
	"github.com/gambitbot/gambit/internal/discordtest"
)

// newStores prepares stores of the kind under test on the clock now: each
// store the function returns shares its state with the others, as
// processes sharing a server do.
type newStores func(t *testing.T, now func() time.Time) func() ratelimit.Store

// kinds are the Store implementations, each run through the same
// conformance suite and the same tests through Discord's stand-in.
var kinds = map[string]newStores{
	"memory": func(t *testing.T, now func() time.Time) func() ratelimit.Store {
		// One Memory is what the limiters of one process share.
		m := ratelimit.NewMemory(now)
		return func() ratelimit.Store { return m }
	},
	"redis": func(t *testing.T, now func() time.Time) func() ratelimit.Store {
		prefix := redisPrefix(t)
		return func() ratelimit.Store {
			return ratelimit.NewRedis(redisClient(t), prefix, ratelimit.WithRedisClock(now))
		}
	},
}

// start is the manual clocks' start.
var start = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

// TestStores runs the conformance suite on every Store.
func TestStores(t *testing.T) {
	t.Parallel()
	for name, mk := range kinds {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			storeSuite(t, mk)
		})
	}
}

// keys of the suite: two routes, two channels, an interaction endpoint.
var (
	send    = ratelimit.Key{Route: "POST /channels/:id/messages", Major: "channels/1", Global: true}
	sendTo2 = ratelimit.Key{Route: "POST /channels/:id/messages", Major: "channels/2", Global: true}
	edit    = ratelimit.Key{Route: "PATCH /channels/:id/messages/:id", Major: "channels/1", Global: true}
	answer  = ratelimit.Key{Route: "POST /interactions/:id/:token/callback", Major: "interactions/9/tok", Global: false}
)

// storeSuite is what every Store must do.
func storeSuite(t *testing.T, kind newStores) {
	ctx := context.Background()
	take := func(t *testing.T, s ratelimit.Store, k ratelimit.Key, global int) ratelimit.Decision {
		t.Helper()
		d, err := s.Take(ctx, k, global)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	wantWait := func(t *testing.T, what string, d ratelimit.Decision, want time.Duration) {
		t.Helper()
		if d.Wait != want {
			t.Errorf("%s: wait %v, want %v", what, d.Wait, want)
		}
	}
	t.Run("global limit over a sliding second", func(t *testing.T) {
		t.Parallel()
		clock := discordtest.NewManualClock(start)
		mk := kind(t, clock.Now)
		a, b := mk(), mk()
		for i := range 3 {
			wantWait(t, "a request within the limit", take(t, []ratelimit.Store{a, b}[i%2], send, 4), 0)
		}
		clock.Advance(400 * time.Millisecond)
		wantWait(t, "the 4th request", take(t, b, sendTo2, 4), 0)
		wantWait(t, "the 5th request in the second", take(t, a, edit, 4), 600*time.Millisecond)
		wantWait(t, "an interaction callback", take(t, a, answer, 4), 0)
		clock.Advance(599 * time.Millisecond)
		wantWait(t, "a millisecond before the first leaves the window", take(t, b, send, 4), time.Millisecond)
		clock.Advance(time.Millisecond)
		for range 3 {
			wantWait(t, "a request once the first three left the window", take(t, a, send, 4), 0)
		}
		wantWait(t, "one more than the limit", take(t, a, send, 4), 400*time.Millisecond)
	})
	t.Run("bucket learnt from the headers", func(t *testing.T) {
		t.Parallel()
		clock := discordtest.NewManualClock(start)
		mk := kind(t, clock.Now)
		a, b := mk(), mk()
		if err := a.Learn(ctx, send, ratelimit.Bucket{ID: "abc", Remaining: 2, ResetAfter: 5 * time.Second}); err != nil {
			t.Fatal(err)
		}
		wantWait(t, "the first of two left", take(t, b, send, 50), 0)
		wantWait(t, "the second of two left", take(t, a, send, 50), 0)
		wantWait(t, "none left", take(t, b, send, 50), 5*time.Second)
		wantWait(t, "another channel's bucket", take(t, b, sendTo2, 50), 0)
		wantWait(t, "another route", take(t, b, edit, 50), 0)
		// A later response that says more are left does not undo the
		// places taken since it was sent.
		if err := b.Learn(ctx, send, ratelimit.Bucket{ID: "abc", Remaining: 1, ResetAfter: 4 * time.Second}); err != nil {
			t.Fatal(err)
		}
		wantWait(t, "none left, whatever a stale answer says", take(t, a, send, 50), 5*time.Second)
		// A route Discord maps to the same bucket shares it.
		if err := b.Learn(ctx, edit, ratelimit.Bucket{ID: "abc", Remaining: 1, ResetAfter: 4 * time.Second}); err != nil {
			t.Fatal(err)
		}
		wantWait(t, "a route of the same bucket", take(t, a, edit, 50), 5*time.Second)
		clock.Advance(5 * time.Second)
		wantWait(t, "a new window", take(t, a, send, 50), 0)
		wantWait(t, "a new window, unknown until answered", take(t, b, send, 50), 0)
	})
	t.Run("route 429", func(t *testing.T) {
		t.Parallel()
		clock := discordtest.NewManualClock(start)
		mk := kind(t, clock.Now)
		a, b := mk(), mk()
		if err := a.Pause(ctx, send, ratelimit.Bucket{}, false, 2500*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		wantWait(t, "the route held back", take(t, b, send, 50), 2500*time.Millisecond)
		wantWait(t, "the route in another channel", take(t, b, sendTo2, 50), 0)
		wantWait(t, "another route", take(t, b, edit, 50), 0)
		clock.Advance(2500 * time.Millisecond)
		wantWait(t, "the route after the wait", take(t, b, send, 50), 0)
	})
	t.Run("global 429", func(t *testing.T) {
		t.Parallel()
		clock := discordtest.NewManualClock(start)
		mk := kind(t, clock.Now)
		a, b := mk(), mk()
		if err := a.Pause(ctx, send, ratelimit.Bucket{}, true, time.Second); err != nil {
			t.Fatal(err)
		}
		if err := b.Pause(ctx, edit, ratelimit.Bucket{}, true, 300*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		wantWait(t, "every route held back, the longest pause", take(t, b, sendTo2, 50), time.Second)
		wantWait(t, "an interaction callback", take(t, b, answer, 50), 0)
		clock.Advance(time.Second)
		wantWait(t, "after the pause", take(t, a, edit, 50), 0)
	})
	t.Run("invalid requests in a sliding window", func(t *testing.T) {
		t.Parallel()
		clock := discordtest.NewManualClock(start)
		mk := kind(t, clock.Now)
		a, b := mk(), mk()
		for i, s := range []ratelimit.Store{a, b, a} {
			n, err := s.Invalid(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n != i+1 {
				t.Errorf("invalid request %d counted %d", i+1, n)
			}
			clock.Advance(time.Minute)
		}
		if d := take(t, b, answer, 50); d.Invalid != 3 {
			t.Errorf("Take counts %d invalid requests, want 3", d.Invalid)
		}
		clock.Advance(ratelimit.InvalidWindow - 3*time.Minute)
		if d := take(t, b, send, 50); d.Invalid != 2 {
			t.Errorf("10 minutes after the first, Take counts %d invalid requests, want 2", d.Invalid)
		}
	})
	t.Run("one place each for requests at once", func(t *testing.T) {
		t.Parallel()
		clock := discordtest.NewManualClock(start)
		const limit, n = 10, 30
		mk := kind(t, clock.Now)
		stores := []ratelimit.Store{mk(), mk(), mk()}
		var wg sync.WaitGroup
		var mu sync.Mutex
		went := 0
		for i := range n {
			wg.Go(func() {
				d, err := stores[i%len(stores)].Take(ctx, send, limit)
				if err != nil {
					t.Error(err)
					return
				}
				if d.Wait == 0 {
					mu.Lock()
					went++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if went != limit {
			t.Errorf("%d requests at once on a limit of %d: %d went", n, limit, went)
		}
	})
}
