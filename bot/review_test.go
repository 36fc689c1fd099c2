package bot_test

import (
	"bytes"
	"image/gif"
	"image/png"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/review"
)

// reviewGate counts the analyses of the bot's reviews and holds each
// until the test lets it through.
type reviewGate struct {
	count   atomic.Int32
	reached chan storage.GameID
	release chan struct{}
}

func newReviewGate() *reviewGate {
	return &reviewGate{reached: make(chan storage.GameID, 10), release: make(chan struct{}, 10)}
}

func (g *reviewGate) hold(game *storage.Game) {
	g.count.Add(1)
	g.reached <- game.ID
	<-g.release
}

// withReviewGate reviews with a node cap and no time, so that the values
// do not depend on the machine, holding each analysis at gate.
func withReviewGate(t *testing.T, gate *reviewGate) option {
	return withBot(func(b *bot.Bot) {
		bot.SetReview(b, review.Budget{Nodes: 100_000}, gate.hold)
		t.Cleanup(func() { close(gate.release) }) // before the harness stops the bot
	})
}

// playTicTacToe has alice (x) beat bob on a Tic-Tac-Toe board: bob's
// edge at move 2 loses (x forks), the game's turning point.
func playTicTacToe(t *testing.T, h *harness, alice, bob string) *storage.Game {
	t.Helper()
	return playTicTacToeGame(t, h, alice, bob, challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe")))
}

// playTicTacToeIn is playTicTacToe in a channel: alice's /challenge, bob's
// Accept and the same moves.
func playTicTacToeIn(t *testing.T, h *harness, channel, alice, bob string) *storage.Game {
	t.Helper()
	m := h.commandIn(alice, channel, "challenge", opt("user", bob), opt("game", "tictactoe"))
	accept, ok := find(m, customid.Accept, nil)
	if !ok || m.Ephemeral() {
		t.Fatalf("the challenge in %s: %+v", channel, m)
	}
	g := h.waitGame(h.latestGame(alice).ID, "the challenge's board to be saved", func(g *storage.Game) bool { return g.MessageID == m.ID })
	if board := h.click(bob, m.ID, accept); board.Ephemeral() {
		t.Fatalf("accepting in %s: %q", channel, board.Content)
	}
	return playTicTacToeGame(t, h, alice, bob, g)
}

// playTicTacToeGame plays playTicTacToe's moves on g, accepted.
func playTicTacToeGame(t *testing.T, h *harness, alice, bob string, g *storage.Game) *storage.Game {
	t.Helper()
	players := []string{alice, bob}
	for i, cell := range []string{"5", "2", "1", "9", "7", "3", "4"} {
		if m := h.move(players[i%2], g.ID, cell); m.Ephemeral() {
			t.Fatalf("move %s refused: %s", cell, m.Content)
		}
	}
	g = h.game(g.ID)
	if g.Status != storage.StatusFinished || g.Result.Winner != 0 {
		t.Fatalf("the game ended %s %+v, want alice's win", g.Status, g.Result)
	}
	return g
}

// reviewShown checks a review's message: private, the turning point
// (bob's edge, move 2, a blunder with a corner best), the moves labelled,
// and the pictures — the turning point and a replay of 8 frames.
func reviewShown(t *testing.T, m discordtest.Message) {
	t.Helper()
	if m.Loading() || !m.Ephemeral() || len(m.Embeds) == 0 {
		t.Fatalf("the review's message %+v: want it private, with embeds", m)
	}
	text := m.Embeds[0].Title + "\n" + m.Embeds[0].Description
	for _, want := range []string{"Review", "Tic-Tac-Toe", "**Turning point:** move 2", "played **2**, a blunder; the best was **",
		"1. ❌ **5** — best", "2. 🔵 **2** — blunder, best **"} {
		if !strings.Contains(text, want) {
			t.Errorf("the review lacks %q:\n%s", want, text)
		}
	}
	pic, ok := m.Attachment(render.TurningName)
	if _, err := png.Decode(bytes.NewReader(pic.Data)); !ok || err != nil {
		t.Errorf("the turning point's picture: attached %v, %v", ok, err)
	}
	replay, ok := m.Attachment(render.ReplayName)
	anim, err := gif.DecodeAll(bytes.NewReader(replay.Data))
	if !ok || err != nil || len(anim.Image) != 8 {
		t.Fatalf("the replay: attached %v, %v; want 8 frames", ok, err)
	}
}

// TestReviewIsDeferredMadeOnceAndOpenToAll clicks Review under a
// finished game's board: the click is answered at once with Discord's
// "thinking…" while the review is held, then with the review and its
// pictures; a second click, by a member who did not play, is answered
// from the review kept with the game without analysing it again.
func TestReviewIsDeferredMadeOnceAndOpenToAll(t *testing.T) {
	t.Parallel()
	gate := newReviewGate()
	h := start(t, withReviewGate(t, gate))
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	g := playTicTacToe(t, h, alice, bob)
	board := h.board(g.ID)
	id, ok := find(board, customid.Review, map[string]string{"game": string(g.ID)})
	if !ok {
		t.Fatalf("no Review button under the finished board: %+v", components(board))
	}
	ix, err := h.srv.ClickButton(bob, board.ID, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := <-gate.reached; got != g.ID {
		t.Fatalf("analysed %s, want %s", got, g.ID)
	}
	thinking, err := h.srv.WaitMessage(h.ctx(), func(m discordtest.Message) bool { return m.InteractionID == ix.ID })
	if err != nil || !thinking.Loading() || !thinking.Ephemeral() {
		t.Fatalf("while the review is made: %+v, %v; want a private thinking…", thinking, err)
	}
	gate.release <- struct{}{}
	reviewShown(t, h.reply(id)(ix, nil))
	kept, err := h.store.Review(h.ctx(), g.ID, h.game(g.ID).Version)
	if err != nil || len(kept.Data) == 0 {
		t.Fatalf("the review kept with the game: %v, %v", kept, err)
	}
	gate.release <- struct{}{} // were the game analysed again, it would not wait
	reviewShown(t, h.click(carol, board.ID, id))
	if n := gate.count.Load(); n != 1 {
		t.Errorf("the game was analysed %d times, want once: the second click answers from the kept review", n)
	}
}

// TestShutdownStopsAReviewInTheMaking shuts the bot down while a review
// is being made: the review stops rather than holding the restart for
// its minutes of searches, and the member is told to ask again.
func TestShutdownStopsAReviewInTheMaking(t *testing.T) {
	t.Parallel()
	gate := newReviewGate()
	h := start(t, withReviewGate(t, gate))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := wonTicTacToe(t, h, alice, bob)
	ix := askReview(t, h, alice, g.ID)
	<-gate.reached
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		h.stop()
	}()
	h.waitLog("shutting down")
	gate.release <- struct{}{}
	<-stopped
	m, err := h.srv.WaitMessage(h.ctx(), func(m discordtest.Message) bool { return m.InteractionID == ix.ID && !m.Loading() })
	if err != nil || !strings.Contains(m.Content, "restarting") || len(m.Embeds) != 0 {
		t.Fatalf("the review's answer at shutdown: %+v, %v; want the restart told, no review", m, err)
	}
	if _, err := h.store.Review(h.ctx(), g.ID, h.game(g.ID).Version); err == nil {
		t.Error("a review stopped by the shutdown was kept with the game")
	}
}
