package discordtest

import (
	"context"
	"testing"
	"time"
)

// DeadlineMargin is what [UntilTestDeadline] leaves of the test binary's
// time (go test -timeout) for a test that gives up to say why: its
// failure, the logs of its processes, a screenshot.
const DeadlineMargin = 30 * time.Second

// UntilTestDeadline returns parent ended DeadlineMargin before the test
// binary's deadline (or a quarter of the time left, if that is less), and
// its cancel function. It bounds the waits of a test on the system clock
// that only run out when something is broken — a process that never
// starts, an answer that never comes — so that a loaded machine makes
// such a test slower, never failing. Without a deadline (-timeout 0, or a
// benchmark) the context is parent's, cancellable.
func UntilTestDeadline(tb testing.TB, parent context.Context) (context.Context, context.CancelFunc) {
	tb.Helper()
	t, ok := tb.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return context.WithCancel(parent)
	}
	d, ok := t.Deadline()
	if !ok {
		return context.WithCancel(parent)
	}
	return context.WithDeadline(parent, d.Add(-min(DeadlineMargin, time.Until(d)/4)))
}

// AnswerUntilTestDeadline is [WithAnswerDeadline] until tb's deadline
// ([UntilTestDeadline]): for a test on the system clock that is not about
// Discord's 3 seconds (those run on a [ManualClock]) and drives a bot
// whose first answer a loaded machine may delay past them. Without a
// deadline the server waits a day.
func AnswerUntilTestDeadline(tb testing.TB) ServerOption {
	tb.Helper()
	ctx, cancel := UntilTestDeadline(tb, context.Background())
	defer cancel()
	if d, ok := ctx.Deadline(); ok {
		return WithAnswerDeadline(time.Until(d))
	}
	return WithAnswerDeadline(24 * time.Hour)
}
