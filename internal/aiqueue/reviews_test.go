package aiqueue

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/gambitbot/gambit/bot"
)

// heldReviews is a Reviewer whose reviews are in the making until the
// test releases them (or the worker stops): each sends its game on
// started first.
type heldReviews struct {
	started chan bot.ReviewJob
	release chan struct{}
}

func (h heldReviews) MakeReview(ctx context.Context, j bot.ReviewJob) error {
	h.started <- j
	select {
	case <-h.release:
	case <-ctx.Done():
	}
	return nil
}

// TestReviewsNeverHoldAnAITurn: a worker with one search thread makes
// two reviews at once, held as long as the test likes (as two maximal
// Gomoku reviews would run for their whole budget); an AI turn queued
// meanwhile is still played at once, on the search thread the reviews'
// queue never takes.
func TestReviewsNeverHoldAnAITurn(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	held := heldReviews{started: make(chan bot.ReviewJob, 2), release: make(chan struct{})}
	defer close(held.release)
	w := r.workerWith("worker-b", r.bot("worker-b"), func(c *Config) { c.Reviews, c.ReviewWorkers = held, 2 })
	q := r.queue()
	for i := range 2 {
		if err := q.EnqueueReview(context.Background(), bot.ReviewJob{Game: r.game.ID, Member: string(rune('a' + i)), Queued: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		select {
		case j := <-held.started:
			if j.Game != r.game.ID || (j.Member != "a" && j.Member != "b") || j.Queued.IsZero() {
				t.Errorf("the worker took up %+v, want a review of game %s as queued", j, r.game.ID)
			}
		case <-time.After(waitLimit):
			t.Fatal("the two reviews were not both taken up")
		}
	}
	events, cancel := w.client.Subscribe(river.EventKindJobCompleted)
	defer cancel()
	if err := q.EnqueueAI(context.Background(), r.turn(50*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-events:
		if e.Job.Kind != (Args{}).Kind() {
			t.Fatalf("a %s job completed, want the AI turn", e.Job.Kind)
		}
	case <-time.After(waitLimit):
		t.Fatal("the AI turn was not played while the reviews were made")
	}
	if n := r.moves(); n != 1 {
		t.Errorf("%d moves stored while both reviews are made, want the AI's", n)
	}
}
