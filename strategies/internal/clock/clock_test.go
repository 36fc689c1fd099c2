package clock

import (
	"context"
	"testing"
	"time"
)

// deadlineCtx has a deadline that only the Manager's clock sees pass.
type deadlineCtx struct {
	context.Context
	at time.Time
}

func (c deadlineCtx) Deadline() (time.Time, bool) { return c.at, true }

// TestTickChecksInOnceAnIntervalHasPassed: a Counter checks in on the
// Interval-th tick since its last check-in, and a node cap stops the
// search at that check-in, not before.
func TestTickChecksInOnceAnIntervalHasPassed(t *testing.T) {
	m := New(context.Background(), 2*Interval, nil)
	c := Counter{M: m}
	for range 2*Interval - 1 {
		c.Tick()
	}
	if m.Stopped() || m.Nodes() != Interval || c.Pending() != Interval-1 {
		t.Fatalf("after %d ticks: stopped %v, %d checked in, %d pending; want running, %d, %d", 2*Interval-1, m.Stopped(), m.Nodes(), c.Pending(), Interval, Interval-1)
	}
	c.Tick()
	if !m.Stopped() || m.Nodes() != 2*Interval {
		t.Fatalf("after %d ticks: stopped %v, %d nodes; want stopped at %d", 2*Interval, m.Stopped(), m.Nodes(), 2*Interval)
	}
}

// TestCountedNodesAreCheckedAtTheNextTick: nodes counted without ticks (a
// solver's) make the next tick check in, since the interval has passed
// since the last check-in.
func TestCountedNodesAreCheckedAtTheNextTick(t *testing.T) {
	m := New(context.Background(), 5000, nil)
	c := Counter{M: m}
	c.Count(5000)
	if m.Stopped() {
		t.Fatal("stopped before any check-in")
	}
	c.Tick()
	if !m.Stopped() || m.Nodes() != 5001 {
		t.Fatalf("stopped %v after %d nodes; want stopped after 5001", m.Stopped(), m.Nodes())
	}
}

// TestDeadlineIsReadFromTheClock: the deadline stops the search at the
// first check-in at which the clock, told the nodes so far, has reached
// it; Elapsed reads the same clock.
func TestDeadlineIsReadFromTheClock(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func(nodes uint64) time.Time { return t0.Add(time.Duration(nodes) * time.Millisecond) }
	m := New(deadlineCtx{context.Background(), t0.Add(3 * Interval * time.Millisecond)}, 0, now)
	c := Counter{M: m}
	ticks := 0
	for !m.Stopped() && ticks < 10*Interval {
		c.Tick()
		ticks++
	}
	if ticks != 3*Interval {
		t.Fatalf("stopped after %d ticks; want %d", ticks, 3*Interval)
	}
	if got := m.Elapsed(); got != 3*Interval*time.Millisecond {
		t.Fatalf("Elapsed %v; want %v", got, 3*Interval*time.Millisecond)
	}
	// The context itself never reports the deadline here, as a real one
	// does not until its timer fires: Err still names the deadline.
	if err := m.Err(); err != context.DeadlineExceeded {
		t.Fatalf("Err after the clock reached the deadline: %v; want context.DeadlineExceeded", err)
	}
}

// TestErrIsNilForANodeCap: a search stopped by its node cap has no
// context error, so its caller can tell the cap from the deadline.
func TestErrIsNilForANodeCap(t *testing.T) {
	m := New(context.Background(), Interval, nil)
	c := Counter{M: m}
	for !m.Stopped() {
		c.Tick()
	}
	if err := m.Err(); err != nil {
		t.Fatalf("Err after the node cap: %v; want nil", err)
	}
}

// TestCancellationStops: a cancelled context stops the search at the
// next check-in; Flush adds the last nodes without deciding.
func TestCancellationStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	m := New(ctx, 0, nil)
	c := Counter{M: m}
	c.Count(10)
	c.Flush()
	if m.Stopped() || m.Nodes() != 10 || c.Total() != 10 {
		t.Fatalf("after Flush: stopped %v, %d nodes, total %d; want running, 10, 10", m.Stopped(), m.Nodes(), c.Total())
	}
	cancel()
	if !c.CheckIn() || !m.Stopped() {
		t.Fatal("a check-in after cancellation did not stop")
	}
	if err := m.Err(); err != context.Canceled {
		t.Fatalf("Err after cancellation: %v; want context.Canceled", err)
	}
}
