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
	"github.com/gambitbot/gambit/strategies/review"
)

// wonTicTacToe stores a finished Tic-Tac-Toe game in which a (x) beat c
// as playTicTacToe plays it, without playing it through Discord.
func wonTicTacToe(t *testing.T, h *harness, a, c string) *storage.Game {
	t.Helper()
	return finishedGame(t, h, "tictactoe", a, c, []string{"5", "2", "1", "9", "7", "3", "4"}, 0)
}

// askReview sends /review game: for game id as user, in the harness's
// channel.
func askReview(t *testing.T, h *harness, user string, id storage.GameID) *discordtest.Interaction {
	t.Helper()
	ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: user, Name: "review", Options: []discordtest.Option{opt("game", string(id))}})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// answer waits for the answer to ix, as the member sees it once settled.
func answer(t *testing.T, h *harness, ix *discordtest.Interaction) discordtest.Message {
	t.Helper()
	m, err := ix.Reply(h.ctx())
	if err != nil {
		t.Fatalf("no answer to interaction %s: %v", ix.ID, err)
	}
	return readable(m)
}

// TestReviewsLeaveTheAIASearchThread: two reviews in the making, held
// as long as the test likes (as two maximal Gomoku reviews would run for
// their whole budget), do not hold the AI's turns: a third member's AI
// game is searched at once, not queued behind them, and its move is
// played while both reviews are still being made.
func TestReviewsLeaveTheAIASearchThread(t *testing.T) {
	t.Parallel()
	gate := newReviewGate()
	h := start(t, withReviewGate(t, gate), withConfig(func(c *bot.Config) { c.Review.Threads = 2 }))
	alice, bob, carol, dave := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID, h.srv.AddUser("dave").ID
	first, second := wonTicTacToe(t, h, alice, bob), wonTicTacToe(t, h, carol, bob)
	askReview(t, h, alice, first.ID)
	askReview(t, h, carol, second.ID)
	<-gate.reached
	<-gate.reached // both reviews are being made, as long as the test holds them
	g, m := playAI(t, h, dave, opt("game", "tictactoe"), opt("ai", "minimax"), opt("first", "opponent"))
	if text := embedText(m); strings.Contains(text, "queued") {
		t.Fatalf("the AI's turn waits behind the reviews: the board says %q", text)
	}
	h.waitGame(g.ID, "the AI's first move while both reviews are made", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	if n := gate.count.Load(); n != 2 {
		t.Errorf("%d reviews were analysed, want the two held", n)
	}
}

// TestAReplicaRefusesAMembersSecondReview: two replicas of the bot share
// one store, as `gambit serve` processes share a PostgreSQL database.
// While a member's review is being made on one, a second review asked of
// the other is refused, since the member's review in the making is
// known to the store; once the first is shown, the next is made.
func TestAReplicaRefusesAMembersSecondReview(t *testing.T) {
	t.Parallel()
	gate := newReviewGate()
	h := start(t, withHTTP(), withReviewGate(t, gate))
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	first, second := wonTicTacToe(t, h, alice, bob), wonTicTacToe(t, h, alice, carol)
	a := h.endpoint
	b := h.replica(nil)

	ix := askReview(t, h, alice, first.ID) // to replica A, held there
	<-gate.reached
	h.deliverOverHTTP(b)
	if m := answer(t, h, askReview(t, h, alice, second.ID)); !m.Ephemeral() || !strings.Contains(m.Content, "still being made") {
		t.Fatalf("alice's second review, on replica B while A makes her first: %q with %d embeds; want it refused", m.Content, len(m.Embeds))
	}
	gate.release <- struct{}{}
	reviewShown(t, answer(t, h, ix))
	h.deliverOverHTTP(a)
	gate.release <- struct{}{}
	if m := answer(t, h, askReview(t, h, alice, second.ID)); len(m.Embeds) == 0 {
		t.Fatalf("alice's next review, once the first is shown: %q; want it made", m.Content)
	}
}

// TestTheServersReviewRateHoldsAcrossReplicas: with a rate of two
// reviews per server, one made on each of two replicas sharing the
// store, a third asked of either is refused with when to ask again; a
// review kept with its game is still shown, taking no slot.
func TestTheServersReviewRateHoldsAcrossReplicas(t *testing.T) {
	t.Parallel()
	gate := newReviewGate()
	h := start(t, withHTTP(), withReviewGate(t, gate), withConfig(func(c *bot.Config) { c.Review.Rate = 2 }))
	alice, bob, carol, dave := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID, h.srv.AddUser("dave").ID
	first, second, third := wonTicTacToe(t, h, alice, bob), wonTicTacToe(t, h, carol, dave), wonTicTacToe(t, h, dave, bob)
	a := h.endpoint
	b := h.replica(nil, func(b *bot.Bot) { bot.SetReview(b, review.Budget{Nodes: 100_000}, nil) })

	gate.release <- struct{}{}
	reviewShown(t, answer(t, h, askReview(t, h, alice, first.ID))) // made on A
	h.deliverOverHTTP(b)
	if m := answer(t, h, askReview(t, h, carol, second.ID)); len(m.Embeds) == 0 { // made on B
		t.Fatalf("the server's second review, on replica B: %q; want it made", m.Content)
	}
	for _, to := range []string{b, a} {
		h.deliverOverHTTP(to)
		m := answer(t, h, askReview(t, h, dave, third.ID))
		if !m.Ephemeral() || len(m.Embeds) != 0 || !strings.Contains(m.Content, "as many new reviews") || !strings.Contains(m.Content, "<t:") {
			t.Errorf("the server's third review, on replica %s: %q with %d embeds; want it refused, saying when to ask again", to, m.Content, len(m.Embeds))
		}
	}
	reviewShown(t, answer(t, h, askReview(t, h, bob, first.ID))) // kept: shown, no slot needed
	if n := gate.count.Load(); n != 1 {
		t.Errorf("replica A analysed %d games, want the first only", n)
	}
}

// chanReviewQueue is a review queue that hands the reviews to the test.
type chanReviewQueue chan bot.ReviewJob

func (q chanReviewQueue) EnqueueReview(_ context.Context, j bot.ReviewJob) error {
	q <- j
	return nil
}

// TestReviewsGoToTheQueueAndAWorkerMakesThem: with a review queue the
// bot that got the click answers it as deferred and queues the review,
// with the click's interaction, instead of making it; meanwhile the
// member's claim stands, so a second review is refused. A worker —
// another bot that only works the queue, over REST — makes it, shows it
// as the click's answer and gives the claim up.
func TestReviewsGoToTheQueueAndAWorkerMakesThem(t *testing.T) {
	t.Parallel()
	q := make(chanReviewQueue, 4)
	h := start(t, withConfig(func(c *bot.Config) { c.Review.Queue = q }))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := wonTicTacToe(t, h, alice, bob)
	ix := askReview(t, h, alice, g.ID)
	var job bot.ReviewJob
	select {
	case job = <-q:
	case <-time.After(waitTimeout()):
		t.Fatal("no review queued")
	}
	if job.Game != g.ID || job.Member != alice || job.Token == "" || job.Interaction != ix.ID {
		t.Errorf("queued the review of game %s for %s through interaction %s (token %v); want game %s for alice through %s",
			job.Game, job.Member, job.Interaction, job.Token != "", g.ID, ix.ID)
	}
	if r, err := ix.Response(h.ctx()); err != nil || r.Type != 5 {
		t.Fatalf("the click was answered %+v, %v; want a deferred answer", r, err)
	}
	if m := answer(t, h, askReview(t, h, alice, g.ID)); !strings.Contains(m.Content, "still being made") {
		t.Errorf("alice's second review while the first is queued: %q; want it refused", m.Content)
	}

	w, err := bot.New(bot.Config{Token: h.srv.Token(), REST: bot.RESTConfig{APIURL: h.srv.URL()}, Logger: slog.New(slog.NewTextHandler(h.logs, nil))}, h.store)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.PrepareWorker(); err != nil {
		t.Fatal(err)
	}
	bot.SetReview(w, review.Budget{Nodes: 100_000}, nil)
	if err := w.MakeReview(context.Background(), job); err != nil {
		t.Fatalf("the worker: %v", err)
	}
	reviewShown(t, answer(t, h, ix))
	if claims, err := h.store.Claims(h.ctx(), "review/member/"+alice); err != nil || len(claims) != 0 {
		t.Errorf("alice's claims once her review is shown: %v, %v; want none", claims, err)
	}
}
