package bot

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
)

// The middleware chain: what every interaction's handler needs done around
// it, composed once (New, Bot.use) instead of wired into onInteraction by
// hand, as disgo's handler.Mux.Use does. Each middleware wraps the next;
// the first one given is the outermost:
//
//	measure        counts the interaction by kind and outcome (ok, user_error, error, panic)
//	answerErrors   turns the error the handler returned into one ephemeral reply
//	recoverPanics  turns a panic into an error (errPanic), logged with its stack
//	releaseAI      lets the AI turns the handler queued start, whatever it did (seam.go)
//
// and dispatch, at the end, finds the handler of the interaction's kind.
// The game's lock and load wrap the handlers of one game (withGame,
// onGame in seam.go): they are per route, not per interaction.

// handler handles one interaction.
type handler func(ctx context.Context, ix *interaction) error

// middleware wraps a handler in what it does around it.
type middleware func(next handler) handler

// chain returns h wrapped in mws, the first the outermost.
func chain(h handler, mws ...middleware) handler {
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
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
func (b *Bot) recoverPanics(next handler) handler {
	return func(ctx context.Context, ix *interaction) (err error) {
		defer func() {
			if v := recover(); v != nil {
				b.log.Error("panic in interaction handler", "interaction", ix.ID, "kind", ix.kind, "panic", v, "stack", string(debug.Stack()))
				err = &panicked{value: v}
			}
		}()
		return next(ctx, ix)
	}
}

// answerErrors tells the user what went wrong, ephemerally: a user's
// mistake in its own words, a panic or a failure of ours with an apology
// (the failure logged). It returns the error, for measure.
func (b *Bot) answerErrors(next handler) handler {
	return func(ctx context.Context, ix *interaction) error {
		err := next(ctx, ix)
		var ue *userError
		var p *panicked
		var text string
		switch {
		case err == nil:
			return nil
		case errors.As(err, &ue):
			text = ue.text(ix.lang())
		case errors.As(err, &p):
			text = ix.lang().T("error.panic")
		default:
			b.log.Error("interaction failed", "interaction", ix.ID, "kind", ix.kind, "user", ix.user().ID, "err", err)
			text = ix.lang().T("error.internal")
		}
		if ferr := ix.fail(text); ferr != nil && p == nil {
			b.log.Warn("could not tell the user", "interaction", ix.ID, "err", ferr)
		}
		return err
	}
}

// measure counts the interaction in the metrics by its kind and outcome.
func (b *Bot) measure(next handler) handler {
	return func(ctx context.Context, ix *interaction) error {
		err := next(ctx, ix)
		m := b.cfg.Metrics
		if m == nil {
			return err
		}
		var ue *userError
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
		m.Interactions.WithLabelValues(ix.kind, outcome).Inc()
		return err
	}
}

// releaseAI lets the workers of the AI turns the handler queued start once
// it has returned, failed or panicked (seam.go), so no handler has to
// remember to.
func releaseAI(next handler) handler {
	return func(ctx context.Context, ix *interaction) error {
		defer ix.releaseAI()
		return next(ctx, ix)
	}
}
