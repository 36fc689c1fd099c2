// Package clock is the time manager of Gambit's alpha-beta searches: one
// Manager a search, shared by its threads, decides when the search stops
// — its context's deadline or cancellation, or a node cap — and counts
// its nodes; each thread counts its own nodes in a Counter and checks in
// with the Manager once Interval nodes have passed since it last did.
//
// The rule is "since the last check-in", not "at multiples of the
// interval", so that a phase that counts nodes without ticking (a solver
// called from a search adds its nodes at once) cannot skip a check. A
// search overshoots its node cap or deadline by at most Interval nodes a
// thread, plus the leaves of the node it is at.
package clock

import (
	"context"
	"sync/atomic"
	"time"
)

// Interval is the number of nodes a thread searches between two
// check-ins: tens of microseconds to a few milliseconds of work.
const Interval = 1024

// Manager is the stop decision and node count of one search. Its zero
// value is not ready: call Start (or New). A Manager must not be copied
// once started; embed it in the search's shared state and hand threads a
// pointer.
type Manager struct {
	ctx      context.Context
	deadline time.Time
	maxNodes uint64
	now      func(nodes uint64) time.Time
	started  time.Time
	stop     atomic.Bool
	nodes    atomic.Uint64
}

// New returns a started Manager (see Start).
func New(ctx context.Context, maxNodes uint64, now func(nodes uint64) time.Time) *Manager {
	m := new(Manager)
	m.Start(ctx, maxNodes, now)
	return m
}

// Start readies m for a search under ctx (its deadline and cancellation)
// and a cap of maxNodes nodes (0: none). now, if not nil, replaces
// time.Now: it is told the nodes searched so far, so that a test can move
// time with the search's work instead of the machine's speed.
func (m *Manager) Start(ctx context.Context, maxNodes uint64, now func(nodes uint64) time.Time) {
	m.ctx, m.maxNodes, m.now = ctx, maxNodes, now
	m.deadline, _ = ctx.Deadline()
	m.stop.Store(false)
	m.nodes.Store(0)
	m.started = m.Now()
}

// Now is the search's clock: time.Now, or the test clock given to Start.
func (m *Manager) Now() time.Time {
	if m.now != nil {
		return m.now(m.nodes.Load())
	}
	return time.Now()
}

// Started is the time the search started.
func (m *Manager) Started() time.Time { return m.started }

// Elapsed is the time since the search started.
func (m *Manager) Elapsed() time.Duration { return m.Now().Sub(m.started) }

// Deadline is the context's deadline; zero without one.
func (m *Manager) Deadline() time.Time { return m.deadline }

// MaxNodes is the node cap; 0 means none.
func (m *Manager) MaxNodes() uint64 { return m.maxNodes }

// Context is the search's context.
func (m *Manager) Context() context.Context { return m.ctx }

// Stopped reports whether the search must stop.
func (m *Manager) Stopped() bool { return m.stop.Load() }

// Err is why the search must stop, as far as its context goes: the
// context's error, or context.DeadlineExceeded once the clock has reached
// the deadline even if the context's own timer has not fired yet (it
// fires on another goroutine, a little later on a busy machine); nil if
// the context allows the search to go on, so a stopped search with a nil
// Err was stopped by its node cap or by Stop.
func (m *Manager) Err() error {
	if err := m.ctx.Err(); err != nil {
		return err
	}
	if !m.deadline.IsZero() && !m.Now().Before(m.deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

// Stop tells every thread to stop.
func (m *Manager) Stop() { m.stop.Store(true) }

// Nodes is the nodes the threads have checked in so far.
func (m *Manager) Nodes() uint64 { return m.nodes.Load() }

// Add adds n nodes to the total without deciding anything: a thread's
// last nodes when it ends.
func (m *Manager) Add(n uint64) { m.nodes.Add(n) }

// CheckIn adds n nodes to the total and decides whether to stop: node
// cap, deadline or cancellation. It reports whether the search must stop.
func (m *Manager) CheckIn(n uint64) bool {
	total := m.nodes.Add(n)
	switch {
	case m.maxNodes > 0 && total >= m.maxNodes, m.Err() != nil:
		m.stop.Store(true)
	}
	return m.stop.Load()
}

// Counter is one thread's nodes since its last check-in with M. It is
// not safe for concurrent use: each thread has its own.
type Counter struct {
	// M is the search's Manager.
	M *Manager
	n uint64
}

// Tick counts a node and checks in once Interval nodes have passed since
// the last check-in. It reports whether that check-in decided to stop
// (false between check-ins, whatever the Manager decided before). It is
// inlined at every node of the searches: the check-in stays a call.
func (c *Counter) Tick() bool {
	c.n++
	if c.n >= Interval {
		return c.checkIn()
	}
	return false
}

// checkIn is CheckIn kept out of line, so that Tick inlines.
//
//go:noinline
func (c *Counter) checkIn() bool { return c.CheckIn() }

// Count adds n nodes searched elsewhere (a solver's) without checking in.
func (c *Counter) Count(n uint64) { c.n += n }

// CheckIn adds the pending nodes to the total and decides whether to
// stop, reporting whether the search must.
func (c *Counter) CheckIn() bool {
	n := c.n
	c.n = 0
	return c.M.CheckIn(n)
}

// Pending is the nodes counted since the last check-in.
func (c *Counter) Pending() uint64 { return c.n }

// Total is the search's nodes so far, this thread's pending ones
// included.
func (c *Counter) Total() uint64 { return c.M.Nodes() + c.n }

// Flush adds the pending nodes to the total without deciding anything:
// the thread's last call.
func (c *Counter) Flush() {
	c.M.Add(c.n)
	c.n = 0
}
