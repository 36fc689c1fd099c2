package bot_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// chanQueue is an AI queue that hands the turns to the test.
type chanQueue chan bot.AITurn

func (q chanQueue) EnqueueAI(_ context.Context, turns ...bot.AITurn) error {
	for _, t := range turns {
		q <- t
	}
	return nil
}

func (q chanQueue) ForgetAI(context.Context, string) error { return nil }

// queuedOpening starts a bot whose AI turns go to a queue the test
// holds, has alice play Tic-Tac-Toe against the Deep thinker, who opens,
// and returns the bot, alice, the game and its opening turn, queued.
func queuedOpening(t *testing.T) (*harness, string, *storage.Game, bot.AITurn) {
	t.Helper()
	q := make(chanQueue, 16)
	h := start(t, withConfig(func(c *bot.Config) { c.AI.Queue = q }))
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "minimax"), opt("first", "opponent"))
	select {
	case turn := <-q:
		return h, alice, g, turn
	case <-time.After(waitTimeout()):
		t.Fatal("no AI turn queued")
		return nil, "", nil, bot.AITurn{}
	}
}

// worker returns a bot that only plays queued turns, over REST, on h's
// store and stand-in, logging into h's logs.
func worker(t *testing.T, h *harness) *bot.Bot {
	t.Helper()
	w, err := bot.New(bot.Config{Token: h.srv.Token(), REST: bot.RESTConfig{APIURL: h.srv.URL()}, Logger: slog.New(slog.NewTextHandler(h.logs, nil))}, h.store)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.PrepareWorker(); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestAITurnsGoToTheQueueAndAWorkerPlaysThem: with an AI queue the bot
// that got the click queues the AI's turn, with the interaction that
// shows the board, instead of searching it; a worker — another bot that
// only plays queued turns, over REST — plays it, commits it once and
// shows it on that board.
func TestAITurnsGoToTheQueueAndAWorkerPlaysThem(t *testing.T) {
	h, alice, g, turn := queuedOpening(t)
	if turn.Game != g.ID || turn.Ply != 0 || turn.Owner != string(storage.User(alice)) || turn.Token == "" || turn.Message != g.MessageID || turn.MoveTime <= 0 {
		t.Errorf("queued game %s ply %d for %s, move time %v, through a token: %v, of message %q; want game %s's first move for alice, with the board's interaction and a move time",
			turn.Game, turn.Ply, turn.Owner, turn.MoveTime, turn.Token != "", turn.Message, g.ID)
	}
	board, ok := h.srv.Message(g.MessageID)
	if !ok {
		t.Fatalf("no board message %s", g.MessageID)
	}

	w := worker(t, h)
	turn.Deadline = time.Now() // a search of its whole move time from now
	turn.MoveTime = 50 * time.Millisecond
	if err := w.PlayAI(context.Background(), turn); err != nil {
		t.Fatalf("the worker: %v", err)
	}
	g = h.waitGame(g.ID, "the AI's move", func(g *storage.Game) bool { return len(g.Moves) >= 1 })
	if len(g.Moves) != 1 {
		t.Errorf("%d moves after the AI's turn, want 1", len(g.Moves))
	}
	if after, _ := h.srv.Message(g.MessageID); g.MessageID != board.ID || after.Version <= board.Version {
		t.Errorf("board %s (version %d, then %d), game's board %s: want the same board edited", board.ID, board.Version, after.Version, g.MessageID)
	}
	// The turn again, as a second job of it would: nothing to play.
	if err := w.PlayAI(context.Background(), turn); err != nil {
		t.Errorf("the turn played again: %v", err)
	}
	if g = h.waitGame(g.ID, "the game", func(*storage.Game) bool { return true }); len(g.Moves) != 1 {
		t.Errorf("%d moves after the turn's second job, want 1", len(g.Moves))
	}
}

// TestARetriedTurnShowsTheMoveItsDeadAttemptPlayed: a worker that died
// between committing the AI's move and editing the board left the board
// "thinking" over a game that awaits its member, who has no button to
// click. The queue retries the turn; the retry finds the move played and
// shows it, with the member's controls. A first attempt that finds its
// turn played (a job run twice) shows nothing.
func TestARetriedTurnShowsTheMoveItsDeadAttemptPlayed(t *testing.T) {
	h, alice, g, turn := queuedOpening(t)
	thinking := h.board(g.ID)
	if !strings.Contains(embedText(thinking), "thinking") {
		t.Fatalf("the board before the AI's move shows %q, want it thinking", embedText(thinking))
	}
	// The dead worker's commit: the AI's move is stored, the board not
	// edited.
	g = h.game(g.ID)
	g.Moves, g.Position, g.Turn = []string{"5"}, "....x.... o", 1-g.Turn
	g.Deadline = time.Now().Add(time.Hour)
	if err := h.store.UpdateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}

	w := worker(t, h)
	if err := w.PlayAI(t.Context(), turn); err != nil {
		t.Fatalf("the turn's job run twice: %v", err)
	}
	if after := h.board(g.ID); after.Version != thinking.Version {
		t.Errorf("a first attempt that found its turn played edited the board: %q", embedText(after))
	}
	turn.Retry = true
	if err := w.PlayAI(t.Context(), turn); err != nil {
		t.Fatalf("the retried turn: %v", err)
	}
	board := h.waitBoard(g.ID, "the board to show the AI's move and ask alice to move", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+alice+">, your move")
	})
	if _, _, ok := moveControl(board, "5"); ok {
		t.Error("the board still offers cell 5, which the AI took")
	}
	if _, _, ok := moveControl(board, "1"); !ok {
		t.Error("the board offers alice no move")
	}
	if g = h.game(g.ID); len(g.Moves) != 1 {
		t.Errorf("%d moves after the retry, want the one the dead attempt played", len(g.Moves))
	}

	// Alice resigned since, and her resignation's flow showed it: a
	// later retry leaves that board as it is.
	g.Status = storage.StatusFinished
	if _, err := h.store.FinishGame(t.Context(), g, storage.Result{Winner: g.Seat(storage.User(alice)) ^ 1, Outcome: storage.Resigned}); err != nil {
		t.Fatal(err)
	}
	if err := w.PlayAI(t.Context(), turn); err != nil {
		t.Fatalf("the turn retried after the resignation: %v", err)
	}
	if after := h.board(g.ID); after.Version != board.Version {
		t.Errorf("a retry redrew the board of a game resigned since: %q", embedText(after))
	}
}
