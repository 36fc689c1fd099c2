package ratelimit

import (
	"context"
	"sync"
	"time"
)

// Discord's windows, from its "Rate Limits" page
// (https://discord.com/developers/docs/topics/rate-limits).
const (
	// Window is the window of the global limit: requests per second.
	Window = time.Second
	// InvalidWindow is the window in which Discord counts invalid
	// requests (401, 403, 429) toward a ban: 10,000 in 10 minutes.
	InvalidWindow = 10 * time.Minute
)

// Key names a request's route to a Store, in hashes that carry no token
// (the limiter makes them, see route).
type Key struct {
	// Route is the route's method and path template without its top-level
	// resource ("PATCH /channels/:id/messages/:id"), hashed: the routes
	// Discord maps to one bucket.
	Route string
	// Major is the route's top-level resource (a channel, a guild, a
	// webhook and its token, an interaction and its token), hashed:
	// Discord counts a bucket for each.
	Major string
	// Global says the request counts toward the global limit; the
	// interaction endpoints do not.
	Global bool
}

// Decision is a Store's answer to Take.
type Decision struct {
	// Wait is how long to wait before asking again; zero means the request
	// may go, and its place is taken.
	Wait time.Duration
	// Invalid is the number of invalid requests in the last InvalidWindow.
	Invalid int
}

// Bucket is what a response's X-RateLimit headers say of its route's
// bucket.
type Bucket struct {
	// ID is X-RateLimit-Bucket, hashed with the route's top-level
	// resource by the store; empty for a 429 without one, whose route is
	// then its bucket.
	ID string
	// Remaining is X-RateLimit-Remaining: the requests left in the
	// window.
	Remaining int
	// ResetAfter is X-RateLimit-Reset-After: when the window ends.
	ResetAfter time.Duration
}

// Store keeps the limiter's state: one shared by every process of a
// deployment makes them one client to Discord. Every method is atomic:
// processes may call it at once. Times are the store's: a Store reads
// its own clock, so that processes whose clocks differ agree.
type Store interface {
	// Take asks for one request on key's route: it waits for a global
	// pause (a global 429; when key.Global), for the route's bucket when it has no request
	// left in its window, and for a place in the global limit of global
	// requests in the last Window (when key.Global; global ≤ 0 means no
	// limit and no pause). If none holds it
	// back it takes the places — one request from the bucket, one from
	// the global limit — and answers a zero Wait.
	Take(ctx context.Context, key Key, global int) (Decision, error)
	// Learn records what a response's headers say of key's bucket: the
	// route maps to b.ID, and the bucket of key's top-level resource has
	// b.Remaining requests until b.ResetAfter.
	Learn(ctx context.Context, key Key, b Bucket) error
	// Pause holds back the requests of key's bucket (b.ID; the route
	// itself when empty) for after — a route's 429 — or, when global,
	// every request: a global 429.
	Pause(ctx context.Context, key Key, b Bucket, global bool, after time.Duration) error
	// Invalid counts one invalid request and returns the number within
	// the last InvalidWindow.
	Invalid(ctx context.Context) (int, error)
}

// Memory is a Store for one process: the default, and what a deployment
// of one process (on bbolt) needs. It is safe for concurrent use.
type Memory struct {
	now func() time.Time

	mu      sync.Mutex
	paused  time.Time            // a global 429 holds every request until then
	routes  map[string]string    // route → bucket ID
	buckets map[string]*memState // bucket ID and top-level resource → its window
	global  []time.Time          // the global requests of the last Window, oldest first
	invalid []time.Time          // the invalid requests of the last InvalidWindow, oldest first
}

// memState is a bucket's window.
type memState struct {
	remaining int
	reset     time.Time
}

// maxBuckets is how many buckets' windows Memory keeps before it drops
// those that ended: one per channel, guild and interaction met.
const maxBuckets = 10000

// NewMemory returns an empty in-memory store on the clock now (nil means
// time.Now).
func NewMemory(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{now: now, routes: map[string]string{}, buckets: map[string]*memState{}}
}

// Take implements Store.
func (m *Memory) Take(_ context.Context, key Key, global int) (Decision, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	g := key.Global && global > 0
	if g && now.Before(m.paused) {
		return Decision{Wait: m.paused.Sub(now)}, nil
	}
	st := m.bucket(key, m.routes[key.Route], now)
	if st != nil && st.remaining <= 0 {
		return Decision{Wait: st.reset.Sub(now)}, nil
	}
	if g {
		m.global = trim(m.global, now.Add(-Window))
		if len(m.global) >= global {
			return Decision{Wait: m.global[0].Add(Window).Sub(now)}, nil
		}
		m.global = append(m.global, now)
	}
	if st != nil {
		st.remaining--
	}
	m.invalid = trim(m.invalid, now.Add(-InvalidWindow))
	return Decision{Invalid: len(m.invalid)}, nil
}

// bucket returns the window of key's top-level resource in bucket id, nil
// if none is known or it ended. The caller holds m.mu.
func (m *Memory) bucket(key Key, id string, now time.Time) *memState {
	if id == "" {
		return nil
	}
	st := m.buckets[id+" "+key.Major]
	if st == nil || !now.Before(st.reset) {
		return nil
	}
	return st
}

// set records that the window of key's top-level resource in bucket id
// has remaining requests until reset, keeping what it knew if it knew
// less was left or a later reset. The caller holds m.mu.
func (m *Memory) set(key Key, id string, remaining int, reset, now time.Time) {
	if len(m.buckets) >= maxBuckets {
		for k, st := range m.buckets {
			if !now.Before(st.reset) {
				delete(m.buckets, k)
			}
		}
	}
	if st := m.bucket(key, id, now); st != nil {
		st.remaining = min(st.remaining, remaining)
		if reset.After(st.reset) {
			st.reset = reset
		}
		return
	}
	m.buckets[id+" "+key.Major] = &memState{remaining: remaining, reset: reset}
}

// Learn implements Store.
func (m *Memory) Learn(_ context.Context, key Key, b Bucket) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.routes[key.Route] = b.ID
	m.set(key, b.ID, b.Remaining, now.Add(b.ResetAfter), now)
	return nil
}

// Pause implements Store.
func (m *Memory) Pause(_ context.Context, key Key, b Bucket, global bool, after time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	until := now.Add(after)
	if global {
		if until.After(m.paused) {
			m.paused = until
		}
		return nil
	}
	id := b.ID
	if id == "" {
		id = m.routes[key.Route]
	}
	if id == "" {
		id = key.Route
	}
	m.routes[key.Route] = id
	m.set(key, id, 0, until, now)
	return nil
}

// Invalid implements Store.
func (m *Memory) Invalid(context.Context) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.invalid = append(trim(m.invalid, now.Add(-InvalidWindow)), now)
	return len(m.invalid), nil
}

// trim drops the times of log not after since.
func trim(log []time.Time, since time.Time) []time.Time {
	cut := 0
	for cut < len(log) && !log[cut].After(since) {
		cut++
	}
	return log[cut:]
}
