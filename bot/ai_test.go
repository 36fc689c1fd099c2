package bot_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// playAI starts a game against an AI as user and returns it once its board
// is saved.
func playAI(t testing.TB, h *harness, user string, opts ...discordtest.Option) (*storage.Game, discordtest.Message) {
	t.Helper()
	_, m := h.command(user, "play", opts...)
	if m.Ephemeral() {
		t.Fatalf("/play refused: %s", m.Content)
	}
	g := h.waitGame(h.latestGame(user).ID, "the board to be saved", func(g *storage.Game) bool { return g.MessageID != "" })
	return g, m
}

func TestAITurnsPendingAtShutdownAreAnsweredAfterRestart(t *testing.T) {
	t.Parallel()
	h := start(t, withConfig(func(c *bot.Config) { c.SearchThreads = 1 }))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	// The AI moves first in both games; with one search thread the second
	// waits in the queue and says so.
	first, _ := playAI(t, h, alice, opt("game", "connect4"), opt("ai", "minimax"), opt("first", "opponent"), opt("movetime", 1.0))
	second, m := playAI(t, h, bob, opt("game", "tictactoe"), opt("ai", "minimax"), opt("first", "opponent"))
	if !strings.Contains(embedText(m), "queued (#1)") {
		t.Errorf("the second AI turn should show its queue place; board says %q", embedText(m))
	}
	h.stop()
	if g := h.game(first.ID); len(g.Moves) != 1 {
		t.Errorf("the running search should finish and commit at shutdown; game has moves %v", g.Moves)
	}
	if g := h.game(second.ID); len(g.Moves) != 0 || !g.AwaitingAI() {
		t.Fatalf("the queued AI turn should stay parked in storage; game is %+v", g)
	}
	h.run()
	g := h.waitGame(second.ID, "the resumed AI move", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	h.waitBoard(g.ID, "the AI's move on the board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+bob+">, your move")
	})
	// The boards posted before the restart still take moves.
	h.waitBoard(first.ID, "alice's turn on the old board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+alice+">, your move")
	})
	if r := h.move(alice, first.ID, "1"); r.Ephemeral() {
		t.Fatalf("a move on a board from before the restart: %q", r.Content)
	}
	h.waitGame(first.ID, "the AI's answer after the restart", func(g *storage.Game) bool { return len(g.Moves) == 3 })
}

func TestAIMoveAfterTheTokenExpiredEditsThroughTheChannel(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	h.move(alice, g.ID, "5")
	h.waitGame(g.ID, "the AI's reply", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	board := h.waitBoard(g.ID, "the AI's reply on the board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "your move")
	})
	// Fifteen minutes later the clicking interaction's token is dead: the
	// AI's answer to the next move must reach the board another way.
	h.clock.Advance(16 * time.Minute)
	g = h.game(g.ID)
	cell := ""
	for _, c := range []string{"1", "2", "3", "4", "6", "7", "8", "9"} {
		if _, _, ok := moveControl(board, c); ok {
			cell = c
			break
		}
	}
	if _, r := h.command(alice, "move", opt("cell", cell)); !r.Ephemeral() || !strings.Contains(r.Content, "You played") {
		t.Fatalf("/move %s: %q", cell, r.Content)
	}
	h.waitGame(g.ID, "the AI's second reply", func(g *storage.Game) bool { return len(g.Moves) == 4 || !g.Status.Open() })
	var viaChannel bool
	for _, r := range h.srv.Requests() {
		if r.Method == http.MethodPatch && r.Route == "/channels/{channel_id}/messages/{message_id}" && r.Status == http.StatusOK {
			viaChannel = true
		}
	}
	if !viaChannel {
		t.Error("no board edit went through the channel message endpoint")
	}
}

func TestADeletedBoardIsPostedAgain(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	g, m := playAI(t, h, alice, opt("game", "connect4"), opt("ai", "random"))
	if err := h.srv.DeleteMessage(m.ID); err != nil {
		t.Fatal(err)
	}
	if _, r := h.command(alice, "move", opt("cell", "4")); !r.Ephemeral() || !strings.Contains(r.Content, "You played 4") {
		t.Fatalf("/move: %q", r.Content)
	}
	g = h.waitGame(g.ID, "a new board message", func(g *storage.Game) bool { return g.MessageID != m.ID && len(g.Moves) == 2 })
	h.waitBoard(g.ID, "the AI's move on the new board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "your move")
	})
}

func TestGamesSurviveRateLimitsAndAGatewayDrop(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	h.srv.InjectFault(discordtest.Fault{
		Method: http.MethodPost, Route: "/interactions/{interaction_id}/{interaction_token}/callback",
		Status: http.StatusTooManyRequests, RetryAfter: 100 * time.Millisecond, Times: 2,
	})
	if m := h.move(alice, g.ID, "5"); m.Ephemeral() {
		t.Fatalf("move after rate limits: %q", m.Content)
	}
	if n := h.srv.CloseGateway(4000); n == 0 {
		t.Fatal("no gateway connection to drop")
	}
	if m := h.move(bob, g.ID, "1"); m.Ephemeral() {
		t.Fatalf("move after the gateway drop: %q", m.Content)
	}
	if g = h.game(g.ID); strings.Join(g.Moves, "") != "51" {
		t.Errorf("moves %v, want [5 1] applied once each", g.Moves)
	}
}

func TestARestartRefreshesABoardLeftBehindByACrash(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	h.stop()
	// A crash after the commit of alice's move and before its reply: the
	// store has the move, the board does not.
	g.Moves = append(g.Moves, "5")
	g.Position = "....x.... o"
	g.Turn = 1
	g.Deadline = time.Now().Add(time.Hour)
	if err := h.store.UpdateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	h.run()
	board := h.waitBoard(g.ID, "the board to show the stored move", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+bob+">, your move")
	})
	if _, _, ok := moveControl(board, "5"); ok {
		t.Error("the refreshed board still offers the taken cell 5")
	}
	if r := h.move(bob, g.ID, "1"); r.Ephemeral() {
		t.Fatalf("bob's move on the refreshed board: %q", r.Content)
	}
}

// TestThinkingShowsTimeWithoutANewDepth: a search that reports no depth
// (or none: the depth reported before the last edit) still shows on the board that it is
// alive, once per progress interval of the bot's clock. The clock moves
// on a second at a time until the board says so: the search may start
// after the first step.
func TestThinkingShowsTimeWithoutANewDepth(t *testing.T) {
	t.Parallel()
	h := start(t, withClock(), withConfig(func(c *bot.Config) { c.ProgressInterval = 2 * time.Second }))
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "annealing"), opt("first", "opponent"), opt("movetime", 5.0))
	deadline := time.Now().Add(waitTimeout)
	for {
		text := embedText(h.board(g.ID))
		if strings.Contains(text, "is thinking… (") {
			if !regexp.MustCompile(`is thinking… \((depth [0-9]+ · )?[0-9]+s\)`).MatchString(text) {
				t.Errorf("the board shows %q, want the time so far", text)
			}
			break
		}
		if len(h.game(g.ID).Moves) > 0 || time.Now().After(deadline) {
			t.Fatalf("the search never showed its time; the board shows %q", text)
		}
		h.clock.Advance(time.Second)
		time.Sleep(20 * time.Millisecond)
	}
}
