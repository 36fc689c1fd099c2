package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Defaults of the breaker's Config fields.
const (
	// DefaultStoreTimeout is how long the limiter waits for the shared
	// store's answer before it keeps the limits on its own: a Redis
	// server on the same network answers in about a millisecond.
	DefaultStoreTimeout = 50 * time.Millisecond
	// DefaultProbeInterval is how long the limiter keeps the limits on its
	// own, once the shared store failed, before it asks the store again
	// with one request.
	DefaultProbeInterval = time.Second
)

// breaker is the circuit breaker in front of the shared store. Closed, it
// lets every operation ask the store, each for at most the store timeout.
// The first failure (an error or no answer in time) opens it: then every
// operation is answered by the process's own store at once, and once
// every probe interval one operation — the probe, never two at a time —
// asks the shared store again; its answer closes the breaker. It logs
// once when it opens and once when it closes, and tells the observer.
//
// It is written here rather than taken from a library (sony/gobreaker):
// the limiter needs its clock to be the tests' (a manual one, so that
// when the probe goes is the test's decision, not the machine's speed's),
// a one-failure trip and exactly one probe, which are a few lines, and
// the timeout of each call, which gobreaker does not do anyway.
type breaker struct {
	timeout, every time.Duration
	now            func() time.Time
	log            *slog.Logger
	obs            Observer

	mu        sync.Mutex
	open      bool
	probing   bool      // a probe is under way
	next      time.Time // while open: when the next operation probes
	since     time.Time // when it opened
	fallbacks int       // operations answered locally since it opened
}

// allow reports whether an operation may ask the shared store, and
// whether it is the probe of an open breaker. An operation not allowed
// is a fallback.
func (b *breaker) allow() (ask, probe bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case !b.open:
		return true, false
	case !b.probing && !b.now().Before(b.next):
		b.probing = true
		return true, true
	}
	b.fellBack()
	return false, false
}

// done records the outcome of an operation allow let ask the store: err
// is the store's error, nil when it answered.
func (b *breaker) done(probe bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if probe {
		b.probing = false
	}
	now := b.now()
	switch {
	case err == nil && probe:
		b.open = false
		b.log.Info("Discord rate limits: the shared store answers again; this process shares the limits again",
			"down_for", now.Sub(b.since).Round(time.Millisecond), "requests_on_own_limits", b.fallbacks)
		if b.obs != nil {
			b.obs.Breaker(false)
		}
	case err != nil && !b.open:
		b.open, b.since, b.next, b.fallbacks = true, now, now.Add(b.every), 0
		b.log.Error("Discord rate limits: the shared store fails; this process keeps the limits on its own until it answers",
			"err", err, "timeout", b.timeout, "probe_every", b.every)
		if b.obs != nil {
			b.obs.Breaker(true)
		}
	case err != nil && probe:
		b.next = now.Add(b.every)
	}
	if err != nil {
		b.fellBack()
	}
}

// abandon records that a probe ended without an answer either way (its
// request's context ended): the next operation probes.
func (b *breaker) abandon(probe bool) {
	if !probe {
		return
	}
	b.mu.Lock()
	b.probing = false
	b.mu.Unlock()
}

// fellBack counts an operation answered by the local store. The caller
// holds b.mu.
func (b *breaker) fellBack() {
	b.fallbacks++
	if b.obs != nil {
		b.obs.Fallback()
	}
}

// within calls f with a context that ends after d, and returns its answer
// or, if it has none by then, an error without waiting for it: a store
// that ignores its context (a Redis client without
// ContextTimeoutEnabled) holds up nobody but f's goroutine.
func within[T any](ctx context.Context, d time.Duration, f func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f(ctx)
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, fmt.Errorf("no answer within %v: %w", d, ctx.Err())
	}
}
