package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/ops"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// challengeAndAccept has alice challenge bob to a game and bob accept it.
func challengeAndAccept(t *testing.T, h *harness, alice, bob string, kind storage.Kind, extra ...discordtest.Option) *storage.Game {
	t.Helper()
	_, m := h.command(alice, "play", append([]discordtest.Option{opt("game", string(kind)), opt("opponent", bob)}, extra...)...)
	if m.Ephemeral() || !strings.Contains(m.Content, "<@"+bob+">") {
		t.Fatalf("challenge message %q should be public and mention bob", m.Content)
	}
	g := h.waitGame(h.latestGame(alice).ID, "the board message to be saved", func(g *storage.Game) bool { return g.MessageID != "" })
	if g.Status != storage.StatusPending || g.MessageID != m.ID {
		t.Fatalf("challenge stored as %+v, want pending on message %s", g, m.ID)
	}
	accept, ok := find(m, customid.Accept, nil)
	if !ok {
		t.Fatalf("no Accept button on %+v", m.Components)
	}
	if r := h.click(alice, m.ID, accept); !r.Ephemeral() {
		t.Fatalf("the challenger could accept their own challenge: %+v", r)
	}
	board := h.click(bob, m.ID, accept)
	if board.ID != m.ID || board.Ephemeral() {
		t.Fatalf("accepting should turn the challenge into the board, got %+v", board)
	}
	return h.waitGame(g.ID, "the game to start", func(g *storage.Game) bool { return g.Status == storage.StatusActive })
}

func TestTicTacToeBetweenTwoUsersEndsInADraw(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	players := []string{alice, bob} // alice challenged and, by default, moves first
	for i, cell := range []string{"1", "5", "9", "2", "8", "7", "3", "6", "4"} {
		m := h.move(players[i%2], g.ID, cell)
		if m.Ephemeral() {
			t.Fatalf("move %d (%s): rejected: %s", i+1, cell, m.Content)
		}
	}
	g = h.game(g.ID)
	if g.Status != storage.StatusFinished || g.Result == nil || g.Result.Winner != storage.Draw {
		t.Fatalf("after nine moves the game is %s with %+v, want a finished draw", g.Status, g.Result)
	}
	board := h.board(g.ID)
	if _, ok := find(board, customid.Rematch, nil); !ok {
		t.Errorf("the finished board has no Rematch button: %+v", board.Components)
	}
	if _, _, ok := moveControl(board, "1"); ok {
		t.Error("the finished board still offers moves")
	}
	for _, p := range []string{alice, bob} {
		rv, err := h.store.Rank(context.Background(), storage.Global(storage.Kind("tictactoe")), storage.User(p), 0)
		if err != nil || rv.Player.Rating.Draws != 1 {
			t.Errorf("rating of %s after the draw: %+v, %v", p, rv, err)
		}
	}
}

func TestConnectFourBetweenTwoUsersWithTheAcceptFlow(t *testing.T) {
	t.Parallel()
	h := start(t, withClock()) // Discord's 3 seconds on the manual clock, not the loaded machine's
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("connect4"), opt("first", "opponent"))
	if g.Turn != 1 {
		t.Fatalf("first:opponent should let bob move first, turn is seat %d", g.Turn)
	}
	// Bob stacks column 4 while alice plays elsewhere: bob wins on his fourth stone.
	for i, step := range []struct{ user, col string }{
		{bob, "4"}, {alice, "1"}, {bob, "4"}, {alice, "2"}, {bob, "4"}, {alice, "1"}, {bob, "4"},
	} {
		if m := h.move(step.user, g.ID, step.col); m.Ephemeral() {
			t.Fatalf("move %d (column %s): rejected: %s", i+1, step.col, m.Content)
		}
	}
	g = h.game(g.ID)
	if g.Status != storage.StatusFinished || g.Result == nil || g.Players[g.Result.Winner].ID != storage.User(bob) {
		t.Fatalf("game ended as %s %+v, want bob to win", g.Status, g.Result)
	}
	if got := strings.Join(g.Moves, ""); got != "4142414" {
		t.Errorf("moves stored %q, want 4142414", got)
	}
}

func TestAdjacencyAgainstAnAIIsPlayedToTheEnd(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	_, m := h.command(alice, "play", opt("game", "adjacency"), opt("ai", "greedy"), opt("rounds", 3))
	if m.Ephemeral() {
		t.Fatalf("/play was refused: %s", m.Content)
	}
	g := h.waitGame(h.latestGame(alice).ID, "the board to be saved", func(g *storage.Game) bool { return g.MessageID != "" })
	if g.Players[1].ID != storage.AI("greedy") || g.Settings.Rounds != 3 {
		t.Fatalf("game stored as %+v", g)
	}
	g = playAdjacencyAgainstAI(t, h, alice, g)
	if g.Status != storage.StatusFinished || len(g.Moves) != 6 {
		t.Fatalf("game ended as %s after %d moves, want finished after 6", g.Status, len(g.Moves))
	}
	rv, err := h.store.Rank(context.Background(), storage.Global(storage.Kind("adjacency")), storage.AI("greedy"), 0)
	if err != nil || rv.Player.Rating.Games != 1 {
		t.Errorf("the AI's rating after one game: %+v, %v", rv, err)
	}
}

// playAdjacencyAgainstAI has user play the first empty cell of an
// Adjacency game against the AI, and waits for each of the AI's replies,
// until the game is over; it returns the game as it ended.
func playAdjacencyAgainstAI(t *testing.T, h *harness, user string, g *storage.Game) *storage.Game {
	t.Helper()
	for g.Status == storage.StatusActive {
		pos := g.Position
		cell := firstEmptyCell(t, pos)
		reply := h.move(user, g.ID, cell)
		if reply.Ephemeral() {
			t.Fatalf("move %s refused: %s", cell, reply.Content)
		}
		n := len(g.Moves) + 2
		g = h.waitGame(g.ID, "the AI's reply", func(g *storage.Game) bool {
			return len(g.Moves) >= n || g.Status != storage.StatusActive
		})
		if g.Status == storage.StatusActive {
			h.waitBoard(g.ID, "the AI's move on the board", func(m discordtest.Message) bool {
				_, _, ok := moveControl(m, firstEmptyCell(t, g.Position))
				return ok
			})
		}
	}
	return g
}

// firstEmptyCell returns the first empty cell of an Adjacency position text
// in a1, b1, … order.
func firstEmptyCell(t *testing.T, text string) string {
	t.Helper()
	ranks := strings.Split(strings.Fields(text)[0], "/")
	for r := 7; r >= 0; r-- {
		for f, c := range ranks[r] {
			if c == '.' {
				return string(rune('a'+f)) + string(rune('1'+7-r))
			}
		}
	}
	t.Fatalf("no empty cell in %q", text)
	return ""
}

func TestMetricsCountGamesAndInteractions(t *testing.T) {
	t.Parallel()
	metrics := ops.NewMetrics()
	h := start(t, withConfig(func(c *bot.Config) { c.Metrics, c.Timers.CountInterval = metrics, 20*time.Millisecond }))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	h.command(alice, "play", opt("game", "connect4"), opt("opponent", bob))
	playAI(t, h, bob, opt("game", "tictactoe"), opt("ai", "random"))
	// Handlers count an interaction when they return, just after the
	// reply, and the gauges follow within a count interval: wait for both.
	plays := metrics.Interactions.Handled.WithLabelValues("command:/play", "ok")
	deadline := time.Now().Add(waitTimeout())
	for testutil.ToFloat64(metrics.Games.ChallengesPending) != 1 || testutil.ToFloat64(metrics.Games.Active) != 1 ||
		testutil.ToFloat64(plays) != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("gauges: %v pending, %v active, %v /play ok; want 1, 1 and 2", testutil.ToFloat64(metrics.Games.ChallengesPending),
				testutil.ToFloat64(metrics.Games.Active), testutil.ToFloat64(plays))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := testutil.CollectAndCount(metrics.Interactions.FirstResponse); n == 0 {
		t.Error("no first-response latency observed")
	}
}
