package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/ops"
)

// The middleware chain: what every interaction's handler needs done around
// it, given once to the Mux (New, mux.Mux.Use) instead of wired into
// onInteraction by hand, as disgo's handler.Mux.Use does. Each middleware
// wraps the next; the first one given is the outermost:
//
//	measure        counts the interaction by kind and outcome (ok, user_error, error, panic)
//	PostResults    posts the results of the daily puzzle attempts the handler ended, once
//	               it was answered (bot/flows/daily)
//	answerErrors   turns the error the handler returned into one ephemeral reply
//	recoverPanics  turns a panic into an error (panicked), logged with its stack
//	releaseAI      keeps the game seam's state of the interaction and lets the AI turns
//	               the handler queued start, whatever it did (seam.go)
//	markPrivate    notes a channel reached only through interactions (reach.go)
//
// and the Mux's dispatch, at the end, finds the handler of the
// interaction's kind. The game's lock and load wrap the handlers of one
// game (the game routes' group, withGame, onGame in seam.go): they are per
// route, not per interaction.

// chain is what the middleware needs of the bot: the log, the metrics (nil
// for none) and the reach of boards (markPrivate).
type chain struct {
	log     *slog.Logger
	metrics *ops.Metrics
	reach   *reach
}

// panicked is the error a recovered panic becomes.
type panicked struct {
	value any
}

func (p *panicked) Error() string {
	return fmt.Sprintf("bot: panic in an interaction handler: %v", p.value)
}

// recoverPanics turns a panic of the handler into a *panicked error, after
// logging it with its stack.
func (c chain) recoverPanics(next mux.Handler) mux.Handler {
	return func(ctx context.Context, ix *interaction) (err error) {
		defer func() {
			if v := recover(); v != nil {
				c.log.Error("panic in interaction handler", "interaction", ix.ID, "kind", ix.Kind, "panic", v, "stack", string(debug.Stack()))
				err = &panicked{value: v}
			}
		}()
		return next(ctx, ix)
	}
}

// answerErrors tells the user what went wrong, ephemerally: a user's
// mistake in its own words, a panic or a failure of ours with an apology
// (the failure logged). It returns the error, for measure.
func (c chain) answerErrors(next mux.Handler) mux.Handler {
	return func(ctx context.Context, ix *interaction) error {
		err := next(ctx, ix)
		var ue *mux.UserError
		var p *panicked
		var text string
		switch {
		case err == nil:
			return nil
		case errors.As(err, &ue):
			text = ue.Text(ix.Lang())
		case errors.As(err, &p):
			text = ix.Lang().T("error.panic")
		default:
			c.log.Error("interaction failed", "interaction", ix.ID, "kind", ix.Kind, "user", ix.Caller().ID, "err", err)
			text = ix.Lang().T("error.internal")
		}
		if ferr := ix.Fail(text); ferr != nil && p == nil {
			c.log.Warn("could not tell the user", "interaction", ix.ID, "err", ferr)
		}
		return err
	}
}

// measure counts the interaction in the metrics by its kind and outcome.
func (c chain) measure(next mux.Handler) mux.Handler {
	return func(ctx context.Context, ix *interaction) error {
		err := next(ctx, ix)
		m := c.metrics
		if m == nil {
			return err
		}
		var ue *mux.UserError
		var p *panicked
		outcome := "ok"
		switch {
		case err == nil:
		case errors.As(err, &p):
			outcome = "panic"
		case errors.As(err, &ue):
			outcome = "user_error"
		default:
			outcome = "error"
		}
		m.Interactions.Handled.WithLabelValues(ix.Kind, outcome).Inc()
		return err
	}
}

// markPrivate notes the channel of an interaction from someone as one the
// bot reaches only through interactions, when it is (reach.go).
func (c chain) markPrivate(next mux.Handler) mux.Handler {
	return func(ctx context.Context, ix *interaction) error {
		if ix.Caller() != nil && ix.InteractionOnly() {
			c.reach.markPrivate(ix.ChannelID)
		}
		return next(ctx, ix)
	}
}
