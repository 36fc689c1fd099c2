package bot

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/ops"
)

// TestAPanicInAHandlerIsRecoveredAnsweredAndCounted runs a handler that
// panics, one that fails and one that returns a user's mistake through the
// bot's chain: each is answered once, ephemerally, in the right words, and
// counted with its outcome.
func TestAPanicInAHandlerIsRecoveredAnsweredAndCounted(t *testing.T) {
	const pattern customid.Pattern = "v1/test-end/{end}"
	for _, tc := range []struct {
		end, outcome, answer string
	}{
		{"panic", "panic", "something broke on our side"},
		{"error", "error", "problem on our side"},
		{"usererror", "user_error", "This game is over."},
	} {
		t.Run(tc.end, func(t *testing.T) {
			u := newUnit(t)
			metrics := ops.NewMetrics()
			u.b.cfg.Metrics = metrics
			u.b.assemble() // the middleware chain takes the metrics when the routes are made
			u.b.intake.mux.Component(pattern, func(_ context.Context, ix *component) error {
				switch ix.Params["end"] {
				case "panic":
					panic("a handler broke")
				case "error":
					return errors.New("something of ours broke")
				}
				return mux.Err("error.game_over")
			})
			u.click("alice", "board", pattern.Build(tc.end))

			resp := u.rec.only(t)
			if !strings.Contains(resp.Data.Content, tc.answer) {
				t.Errorf("answer %q, want it to say %q", resp.Data.Content, tc.answer)
			}
			kind := "component:" + string(pattern)
			if n := testutil.ToFloat64(metrics.Interactions.Handled.WithLabelValues(kind, tc.outcome)); n != 1 {
				t.Errorf("counted %v interactions %s/%s, want 1", n, kind, tc.outcome)
			}
		})
	}
}
