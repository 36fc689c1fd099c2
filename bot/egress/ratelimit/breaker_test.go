package ratelimit_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/egress/ratelimit"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/internal/redistest"
)

// askedStore is a shared store that counts what it is asked.
type askedStore struct {
	ratelimit.Store
	asked atomic.Int64
}

func (a *askedStore) Take(ctx context.Context, key ratelimit.Key, global int) (ratelimit.Decision, error) {
	a.asked.Add(1)
	return a.Store.Take(ctx, key, global)
}

func (a *askedStore) Learn(ctx context.Context, key ratelimit.Key, b ratelimit.Bucket) error {
	a.asked.Add(1)
	return a.Store.Learn(ctx, key, b)
}

func (a *askedStore) Pause(ctx context.Context, key ratelimit.Key, b ratelimit.Bucket, global bool, after time.Duration) error {
	a.asked.Add(1)
	return a.Store.Pause(ctx, key, b, global, after)
}

func (a *askedStore) Invalid(ctx context.Context) (int, error) {
	a.asked.Add(1)
	return a.Store.Invalid(ctx)
}

// discord is a stand-in for Discord's REST API that answers every
// request with status (204 if zero) and a bucket's headers, and counts
// them.
type discord struct{ answered, status atomic.Int64 }

func (d *discord) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
	d.answered.Add(1)
	status := int(d.status.Load())
	if status == 0 {
		status = http.StatusNoContent
	}
	h := http.Header{}
	h.Set("X-RateLimit-Bucket", "b")
	h.Set("X-RateLimit-Remaining", "1000")
	h.Set("X-RateLimit-Reset-After", "60")
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
}

// request sends one request through the limiter's transport and fails
// the test unless it is answered.
func request(t *testing.T, rt http.RoundTripper, method, path string) {
	t.Helper()
	if err := try(t, rt, method, path); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
}

// try sends one request through the limiter's transport and returns its
// error.
func try(t *testing.T, rt http.RoundTripper, method, path string) error {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, "https://discord.com/api/v10"+path, strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// The paths of an interaction's callback and of a channel's messages.
const (
	callbackPath = "/interactions/1234567890/aW50ZXJhY3Rpb24tdG9rZW4/callback"
	messagesPath = "/channels/111/messages"
)

// An interaction's first answer never waits on Redis, even a Redis that
// hangs (stopped with SIGSTOP, its connection open): the callback is
// outside Discord's global limit and its bucket is the interaction's own,
// which only the process answering it uses, so the limiter keeps it in
// this process without asking the shared store at all.
func TestInteractionCallbacksNeverWaitOnAStoppedRedis(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	store := &askedStore{Store: ratelimit.NewRedis(srv.Client(), "gambit:ratelimit:test:")}
	var logs syncBuffer
	l := ratelimit.New(ratelimit.Config{Store: store, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	d := &discord{}
	rt := l.Transport(d)
	srv.Stop()
	for range 3 {
		request(t, rt, http.MethodPost, callbackPath)
	}
	if n := d.answered.Load(); n != 3 {
		t.Errorf("Discord answered %d callbacks, want 3", n)
	}
	if n := store.asked.Load(); n != 0 {
		t.Errorf("the shared store was asked %d times for 3 interaction callbacks, want never; logs:\n%s", n, logs.String())
	}
}

// breakerObserver counts what the limiter tells of its breaker.
type breakerObserver struct {
	opened, closed, fallbacks atomic.Int64
}

func (o *breakerObserver) Waited(time.Duration) {}
func (o *breakerObserver) TooMany(string)       {}
func (o *breakerObserver) Invalid(int)          {}
func (o *breakerObserver) Fallback()            { o.fallbacks.Add(1) }
func (o *breakerObserver) Breaker(open bool) {
	if open {
		o.opened.Add(1)
	} else {
		o.closed.Add(1)
	}
}

// stoppedTimeout is the tests' wait for a stopped Redis. What they show
// does not depend on it — a stopped Redis costs one wait, once, not one
// per request — and it is long enough that a loaded machine never makes a
// running Redis look stopped.
const stoppedTimeout = 500 * time.Millisecond

// Redis stopped (SIGSTOP: it hangs, its connections open), killed and
// started again, under a limiter on the manual clock: every request is
// sent all along. The first request under a stopped Redis waits for it
// (StoreTimeout), then the limiter opens its breaker, logs it once and
// keeps the limits on its own: the requests after it do not ask Redis at
// all, and neither do the interaction callbacks ever. Once each probe
// interval one request asks it again — still stopped, killed: the breaker
// stays open, nothing more is logged — and once Redis runs again the
// probe closes the breaker, which is logged once, and the requests after
// it share the limits through Redis again.
func TestAStoppedKilledAndRestartedRedis(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	const prefix = "gambit:ratelimit:test:"
	store := &askedStore{Store: ratelimit.NewRedis(srv.Client(), prefix)}
	clock := discordtest.NewManualClock(start)
	var logs syncBuffer
	obs := &breakerObserver{}
	l := ratelimit.New(ratelimit.Config{
		Store: store, Global: 1000, Logger: slog.New(slog.NewTextHandler(&logs, nil)), Observer: obs,
		StoreTimeout: stoppedTimeout, ProbeInterval: time.Second, Now: clock.Now,
	})
	d := &discord{}
	rt := l.Transport(d)
	sent := int64(0)
	send := func(path string) {
		t.Helper()
		request(t, rt, http.MethodPost, path)
		if sent++; d.answered.Load() != sent {
			t.Fatalf("%d requests sent, %d answered", sent, d.answered.Load())
		}
	}
	// asks sends a message and checks how many questions it put to Redis.
	asks := func(what string, want int64) {
		t.Helper()
		before := store.asked.Load()
		send(messagesPath)
		if n := store.asked.Load() - before; n != want {
			t.Errorf("%s: a message asked Redis %d times, want %d; logs:\n%s", what, n, want, logs.String())
		}
	}
	logged := func(what string, fails, answers int) {
		t.Helper()
		f := strings.Count(logs.String(), "the shared store fails")
		a := strings.Count(logs.String(), "the shared store answers again")
		if f != fails || a != answers {
			t.Errorf("%s: logged the failing store %d times and its return %d times, want %d and %d; logs:\n%s", what, f, a, fails, answers, logs.String())
		}
	}
	callback := func(what string) {
		t.Helper()
		before := store.asked.Load()
		send(callbackPath)
		if n := store.asked.Load() - before; n != 0 {
			t.Errorf("%s: an interaction callback asked Redis %d times, want never", what, n)
		}
	}

	asks("Redis running", 2) // its place, then what the answer said of its bucket
	callback("Redis running")
	logged("Redis running", 0, 0)

	srv.Stop()
	asks("the first request after Redis stopped", 1) // its place, in vain
	logged("Redis stopped", 1, 0)
	if obs.opened.Load() != 1 {
		t.Errorf("the observer was told the breaker opened %d times, want 1", obs.opened.Load())
	}
	for range 3 {
		asks("Redis stopped, the breaker open", 0)
		callback("Redis stopped")
	}
	clock.Advance(time.Second)
	asks("Redis stopped, the probe", 1)
	asks("Redis stopped, after the probe", 0)

	srv.Kill()
	clock.Advance(time.Second)
	asks("Redis killed, the probe", 1)
	asks("Redis killed, after the probe", 0)
	callback("Redis killed")
	logged("Redis stopped and killed", 1, 0)

	srv.Restart()
	asks("Redis started again, before the probe interval", 0)
	clock.Advance(time.Second)
	asks("Redis started again, the probe", 2)
	logged("Redis started again", 1, 1)
	asks("Redis started again, after the probe", 2)
	callback("Redis started again")
	if obs.opened.Load() != 1 || obs.closed.Load() != 1 {
		t.Errorf("the observer was told the breaker opened %d and closed %d times, want 1 and 1", obs.opened.Load(), obs.closed.Load())
	}
	if obs.fallbacks.Load() == 0 {
		t.Error("the observer was told of no fallback")
	}
	// The restarted server holds the limits again (its data was lost).
	if n, err := srv.Client().ZCard(t.Context(), prefix+"global").Result(); err != nil || n != 2 {
		t.Errorf("the restarted Redis holds %d places of the global limit (%v), want the 2 requests since", n, err)
	}
}

// An interaction callback is refused with every other request once too
// many invalid requests were counted in the shared store, though its own
// limits are the process's: the count the shared store last gave decides.
func TestACallbackIsRefusedWithTheOthers(t *testing.T) {
	t.Parallel()
	store := &askedStore{Store: ratelimit.NewMemory(nil)}
	l := ratelimit.New(ratelimit.Config{Store: store, RefuseInvalid: 1, Logger: slog.New(slog.DiscardHandler)})
	d := &discord{}
	rt := l.Transport(d)
	d.status.Store(http.StatusForbidden)
	request(t, rt, http.MethodPost, messagesPath) // a 403, counted
	d.status.Store(0)
	if err := try(t, rt, http.MethodPost, messagesPath); !errors.Is(err, ratelimit.ErrTooManyInvalid) {
		t.Fatalf("a message after an invalid request with RefuseInvalid 1: %v, want ErrTooManyInvalid", err)
	}
	before := store.asked.Load()
	if err := try(t, rt, http.MethodPost, callbackPath); !errors.Is(err, ratelimit.ErrTooManyInvalid) {
		t.Errorf("a callback after an invalid request with RefuseInvalid 1: %v, want ErrTooManyInvalid", err)
	}
	if n := store.asked.Load() - before; n != 0 {
		t.Errorf("the refused callback asked the shared store %d times", n)
	}
	if n := d.answered.Load(); n != 1 {
		t.Errorf("Discord saw %d requests, want the invalid one", n)
	}
}
