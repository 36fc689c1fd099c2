package review

import (
	"context"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// Where reviews are made: on this process's review threads, or with
// Config.Queue by the review workers of whichever process works that
// queue (Make).

// Job is a game's review handed to a Queue: what a worker in any process
// needs to make it and show it as the answer to the member's click
// (Flow.Make). It is stored with the job, so it holds the interaction's
// token for its 15 minutes of validity.
type Job struct {
	Game   storage.GameID `json:"game"`
	Member string         `json:"member"`
	// Claim owns the member's claim on their review in the making,
	// which the worker takes over.
	Claim string `json:"claim"`
	// The interaction whose deferred answer the review fills in, and
	// the member's language.
	Interaction string    `json:"interaction"`
	AppID       string    `json:"app_id"`
	Token       string    `json:"token"`
	Locale      string    `json:"locale,omitempty"`
	Queued      time.Time `json:"queued"`
}

// Queue takes games' reviews for workers that may run in other processes,
// at a lower priority than the AI turns and on workers of their own.
type Queue interface {
	EnqueueReview(ctx context.Context, j Job) error
}

// enqueueTimeout bounds the hand-over of a review to the queue, which
// runs in the handler's goroutine once it answered.
const enqueueTimeout = 10 * time.Second

// hand hands the admitted review of g, answered as deferred through ix,
// to the queue (Config.Queue), or else to this process's review threads.
func (f *Flow) hand(ix *mux.Interaction, a *admission, g *game) error {
	j := Job{
		Game: g.ID, Member: a.member, Claim: a.owner, Interaction: ix.ID, AppID: ix.AppID, Token: ix.Token, Locale: string(ix.Locale), Queued: time.Now(),
	}
	if q := f.cfg.Queue; q != nil {
		ctx, cancel := context.WithTimeout(context.Background(), enqueueTimeout)
		defer cancel()
		if err := q.EnqueueReview(ctx, j); err != nil {
			a.cancel()
			f.log.Error("review: queue", "game", g.ID, "err", err)
			return ix.EditResponse(render.Message{Content: ix.Lang().T("review.failed")})
		}
		return nil
	}
	if _, ok := f.threads.Submit(context.Background(), &onThread{f: f, ix: ix, j: j, g: g}); !ok {
		a.cancel()
		return ix.EditResponse(render.Message{Content: ix.Lang().T("review.stopping")})
	}
	return nil
}

// onThread is a review made on this process's review threads, which
// serve the members in turn (scheduler.Pool); Stop ends it.
type onThread struct {
	f  *Flow
	ix *mux.Interaction
	j  Job
	g  *game
}

// Owner implements scheduler.Job: the member.
func (t *onThread) Owner() string { return t.j.Member }

// Key implements scheduler.Job: the member's claim keeps a second review
// of theirs out.
func (t *onThread) Key() string { return "" }

// Run implements scheduler.Job.
func (t *onThread) Run() { t.f.run(t.f.stopping, t.ix, t.j, t.g) }

// run makes (or finds) the review of j's game g and shows it as ix's
// answer, in ctx: it takes the member's claim over, renewing it while the
// review is made — the review stops once the claim is lost — and gives it
// up once the review is shown. A claim that ran out and was taken by a
// newer review makes this one void: the member is told it failed.
func (f *Flow) run(ctx context.Context, ix *mux.Interaction, j Job, g *game) {
	claimed, done, ok, err := f.cfg.KeepClaim(ctx, memberClaim(j.Member), j.Claim, "review", "member", j.Member)
	if err != nil || !ok {
		f.log.Warn("review: the member's claim is gone; dropping the review", "game", j.Game, "err", err)
		f.fail(ix, j)
		return
	}
	f.show(claimed, ix, g, done)
}

// fail tells the member that j's review could not be made.
func (f *Flow) fail(ix *mux.Interaction, j Job) {
	if err := ix.EditResponse(render.Message{Content: ix.Lang().T("review.failed")}); err != nil {
		f.log.Warn("review: say it failed", "game", j.Game, "err", err)
	}
}

// Make makes a review taken from the queue and shows it through the
// interaction of the click that asked for it, in ctx (the worker's: the
// review stops between positions once it is done). It returns nil once
// the review is shown or void — its interaction's token expired while it
// waited, or the member's claim was taken by a newer review — and an error
// when the game could not be read (the member is told the review failed).
func (f *Flow) Make(ctx context.Context, j Job) error {
	if time.Since(j.Queued) >= tokenLife {
		f.log.Warn("review: waited longer than its interaction lives; dropping it", "game", j.Game)
		return nil
	}
	raw := &discordgo.Interaction{ID: j.Interaction, AppID: j.AppID, Token: j.Token}
	ix := mux.NewInteraction(raw, f.cfg.Answers, f.cfg.Outgoing, time.Now(), f.now(), nil)
	ix.Locale = discordgo.Locale(j.Locale)
	g, err := f.store.Game(ctx, j.Game)
	var rg *game
	if err == nil {
		rg = &game{Game: g}
		rg.gm, rg.start, err = render.StartOf(g)
	}
	if err != nil {
		f.fail(ix, j)
		if rerr := f.store.Release(context.WithoutCancel(ctx), memberClaim(j.Member), j.Claim); rerr != nil {
			f.log.Warn("review: give the member's claim back", "member", j.Member, "err", rerr)
		}
		return fmt.Errorf("review: review of game %s: %w", j.Game, err)
	}
	f.run(ctx, ix, j, rg)
	return nil
}
