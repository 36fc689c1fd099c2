package review

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
	gamereview "github.com/gambitbot/gambit/strategies/review"
)

// How a review is made and shown, wherever it runs: found kept with its
// game, or waited for while this process makes it for another click, or
// else analysed, kept and drawn.

// Analyst makes a game's review: g's moves from start, telling progress
// how many of its positions it searched.
type Analyst interface {
	Analyze(ctx context.Context, g *storage.Game, gm *games.Game, start engine.Position, progress func(done, total int)) (*gamereview.Review, error)
}

// Minimax is the bot's Analyst: the Minimax strategy within Budget, or
// within the game's standard budget (review.Standard) if Budget is nil.
type Minimax struct{ Budget *gamereview.Budget }

// Analyze implements Analyst.
func (m Minimax) Analyze(ctx context.Context, g *storage.Game, gm *games.Game, start engine.Position, progress func(done, total int)) (*gamereview.Review, error) {
	budget := gamereview.Standard(gm.Name)
	if m.Budget != nil {
		budget = *m.Budget
	}
	return gamereview.Analyze(ctx, strategies.Minimax{}, gm, start, g.Moves, budget, progress)
}

// game is a game to review with its rules and the position it started
// from.
type game struct {
	*storage.Game
	gm    *games.Game
	start engine.Position
}

// show makes (or finds) g's review and its pictures, in ctx, and shows
// them as ix's answer. It calls made once the message is ready and before
// it is shown, so that the member's next review, asked as soon as this one
// shows, finds its claim given back.
func (f *Flow) show(ctx context.Context, ix *mux.Interaction, g *game, made func()) {
	l := ix.Lang()
	msg, err := f.message(ctx, ix, g)
	made()
	switch {
	case err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled):
		msg = render.Message{Content: l.T("review.stopping")} // shutdown began (or the claim was lost): asked for again after the restart
	case err != nil:
		f.log.Warn("review", "game", g.ID, "err", err)
		msg = render.Message{Content: l.T("review.failed")}
	}
	if err := ix.EditResponse(msg); err != nil {
		f.log.Warn("review: show it", "game", g.ID, "err", err)
	}
}

// message returns the message of g's review, made if need be (its
// progress shown as ix's answer meanwhile).
func (f *Flow) message(ctx context.Context, ix *mux.Interaction, g *game) (render.Message, error) {
	rev, err := f.review(ctx, g, f.progress(ix))
	if err != nil {
		return render.Message{}, err
	}
	final, err := g.gm.Position(g.Position, games.Options{})
	if err != nil {
		return render.Message{}, err
	}
	loser, lost := render.Loser(g.Game, final)
	turning := rev.TurningPoint(loser, lost)
	draw := f.cfg.Draw
	if draw == nil {
		draw = Pictures
	}
	var pics render.ReviewPictures
	f.lowPriority(func() { pics, err = draw(g.gm, g.start, g.Moves, rev, turning) })
	if err != nil {
		return render.Message{}, err
	}
	return render.ReviewMessage(ix.Lang(), g.Game, rev, turning, pics), nil
}

// Pictures draws the pictures of rev, the review of moves played from
// start: the game replayed, and its turning point, the index turning in
// rev.Moves (−1 for none).
func Pictures(gm *games.Game, start engine.Position, moves []string, rev *gamereview.Review, turning int) (render.ReviewPictures, error) {
	var pics render.ReviewPictures
	var err error
	if pics.Replay, err = render.Replay(gm, start, moves); err != nil {
		return pics, err
	}
	if turning >= 0 {
		pics.Turning, err = render.TurningPoint(gm, start, moves, turning, rev.Moves[turning].Best)
	}
	return pics, err
}

// kept returns the review kept with g, nil if there is none, it is
// unreadable or it was made by older rules (review.Version): then it is
// made again.
func (f *Flow) kept(ctx context.Context, g *storage.Game) *gamereview.Review {
	kept, err := f.store.Review(ctx, g.ID, g.Version)
	switch {
	case err == nil:
		var rev gamereview.Review
		err := json.Unmarshal(kept.Data, &rev)
		if err == nil && len(rev.Moves) == len(g.Moves) && rev.Version == gamereview.Version {
			return &rev
		}
		if err == nil && len(rev.Moves) == len(g.Moves) {
			return nil // made by older rules: made again
		}
		f.log.Warn("review: the kept one is unreadable; making it again", "game", g.ID)
	case !errors.Is(err, storage.ErrNotFound):
		f.log.Warn("review: read the kept one", "game", g.ID, "err", err)
	}
	return nil
}

// review returns g's review: kept with the game, or being made for
// another click (waited for), or else made now in ctx, telling progress
// how far it got, and kept.
func (f *Flow) review(ctx context.Context, g *game, progress func(done, total int)) (*gamereview.Review, error) {
	if rev := f.kept(ctx, g.Game); rev != nil {
		return rev, nil
	}
	f.mu.Lock()
	if c, ok := f.making[g.ID]; ok {
		f.mu.Unlock()
		<-c.done
		return c.rev, c.err
	}
	c := &call{done: make(chan struct{})}
	f.making[g.ID] = c
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.making, g.ID)
		f.mu.Unlock()
		close(c.done)
	}()
	f.lowPriority(func() {
		// Shutdown stops it between positions (or within one): a review
		// may take a minute, more than a restart should wait for.
		c.rev, c.err = f.cfg.Analyst.Analyze(ctx, g.Game, g.gm, g.start, progress)
	})
	if c.err != nil {
		return nil, c.err
	}
	data, err := json.Marshal(c.rev)
	if err == nil {
		err = f.store.PutReview(context.WithoutCancel(ctx), &storage.Review{Game: g.ID, Version: g.Version, Data: data})
	}
	if err != nil {
		f.log.Warn("review: keep it", "game", g.ID, "err", err) // shown all the same, made again next time
	}
	return c.rev, nil
}

// progress returns the progress of a review answered through ix: it edits
// the answer, Discord's "thinking…", with how many of the game's
// positions the review has searched, once Config.ProgressInterval has
// passed on the bot's clock since the review began and since the last
// such edit — a review of a few seconds shows none — and not for the last
// position, whose review follows at once.
func (f *Flow) progress(ix *mux.Interaction) func(done, total int) {
	last := f.now()
	return func(done, total int) {
		now := f.now()
		if done >= total || now.Sub(last) < f.cfg.ProgressInterval {
			return
		}
		last = now
		msg := render.Message{Content: ix.Lang().T("review.progress", "Done", done, "Total", total)}
		if err := ix.EditResponse(msg); err != nil {
			f.log.Warn("review: show its progress", "err", err) // the review goes on; its answer follows
		}
	}
}

// lowPriority runs fn at the review threads' priority (Config.LowPriority).
func (f *Flow) lowPriority(fn func()) {
	if f.cfg.LowPriority == nil {
		fn()
		return
	}
	f.cfg.LowPriority(fn)
}
