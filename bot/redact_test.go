package bot_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// TestInteractionTokensStayOutOfTheLogs drops the connection of a request
// whose URL holds an interaction token, so that the HTTP client's error —
// which quotes the whole URL — reaches the logs: the token must not (the
// harness also checks every token the stand-in issued when the test ends).
func TestInteractionTokensStayOutOfTheLogs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		method string
		route  string
		act    func(t *testing.T, h *harness, user string) *discordtest.Interaction
		log    string // the log line that quotes the failed request
	}{
		{
			name: "the answer to a command", method: http.MethodPost, route: callbackRoute,
			act: func(t *testing.T, h *harness, user string) *discordtest.Interaction {
				ix, m := h.command(user, "help")
				if !m.Ephemeral() || !strings.Contains(m.Content, "problem on our side") {
					t.Errorf("after its answer was lost, /help got %q, want the apology", m.Content)
				}
				return ix
			},
			log: "interaction failed",
		},
		{
			name: "an edit of the board through the interaction", method: http.MethodPatch, route: originalRoute,
			act: func(t *testing.T, h *harness, user string) *discordtest.Interaction {
				ix, _ := h.command(user, "play", opt("game", "tictactoe"), opt("ai", "random"), opt("first", "opponent"))
				g := h.latestGame(user)
				h.waitBoard(g.ID, "the AI's move shown through the channel", func(m discordtest.Message) bool {
					return strings.Contains(m.Content, "<@"+user+">, your move")
				})
				if g = h.game(g.ID); len(g.Moves) != 1 || g.Status != storage.StatusActive {
					t.Errorf("game after the AI's move: moves %v, status %s", g.Moves, g.Status)
				}
				return ix
			},
			log: "edit board through the interaction failed",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// No "thinking…" edit: on a loaded machine one would go first
			// through the interaction, meet the dropped connection and,
			// cancelled once the move is played, log nothing.
			h := start(t, withConfig(func(c *bot.Config) { c.Timers.ProgressInterval = time.Hour }))
			alice := h.srv.AddUser("alice").ID
			h.srv.InjectFault(discordtest.Fault{Method: tc.method, Route: tc.route, Drop: true})
			ix := tc.act(t, h, alice)
			h.waitLog(tc.log)
			logs := h.logs.String()
			if strings.Contains(logs, ix.Token) {
				t.Errorf("the token of interaction %s appears in the logs", ix.ID)
			}
			if !strings.Contains(logs, "[redacted]") {
				t.Error("no log line shows a redacted URL: the dropped request was not logged")
			}
		})
	}
}
