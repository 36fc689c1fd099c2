package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// runTimers ends what is due until ctx is done: challenges nobody answered
// and turns nobody played; and it sweeps up the AI turns nobody plays
// (sweepAI). Deadlines that passed while the bot was down
// are handled at the first tick. With metrics, it also counts the open
// games now and then.
func (b timerFlow) runTimers(ctx context.Context) {
	t := time.NewTicker(b.cfg.TickInterval)
	defer t.Stop()
	var counted time.Time
	for {
		if err := b.endDue(ctx); err != nil && ctx.Err() == nil {
			b.log.Error("end due games", "err", err)
		}
		if err := b.turns.sweepAI(ctx, b.cfg.ClaimTTL); err != nil && ctx.Err() == nil {
			b.log.Error("sweep AI turns", "err", err)
		}
		b.postDailies(ctx)
		if m := b.cfg.Metrics; m != nil && time.Since(counted) >= b.cfg.CountInterval {
			counted = time.Now()
			if pending, active, err := b.store.CountOpen(ctx); b.listed("count open games", err) != nil {
				b.log.Error("count open games", "err", err)
			} else {
				m.ChallengesPending.Set(float64(pending))
				m.GamesActive.Set(float64(active))
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// endDue expires the due challenges and forfeits the due turns of the
// guilds of this process's shards (the store selects them); the process
// running a shard ends its games.
func (b timerFlow) endDue(ctx context.Context) error {
	var shards storage.Shards
	if b.shards != nil {
		shards = b.shards()
	}
	due, err := b.store.DueGames(ctx, shards)
	if err = b.listed("end due games", err); err != nil {
		return fmt.Errorf("bot: list due games: %w", err)
	}
	var errs []error
	for _, g := range due {
		if err := b.endIfDue(ctx, g.ID); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// endIfDue ends one game whose deadline has passed, under its lock.
func (b timerFlow) endIfDue(ctx context.Context, id storage.GameID) error {
	ctx, unlock := b.locks.hold(ctx, id)
	defer unlock()
	g, err := b.store.Game(ctx, id)
	if err != nil {
		return fmt.Errorf("bot: load due game %s: %w", id, err)
	}
	if g.Deadline.IsZero() || g.Deadline.After(b.now()) || !g.Status.Open() {
		return nil // answered meanwhile
	}
	var (
		notice  string
		changes []storage.RatingChange
	)
	if g.Status == storage.StatusPending {
		g.Status = storage.StatusExpired
		notice = b.boards.boardLang(g).T("challenge.expired_notice")
		err = b.store.UpdateGame(ctx, g)
	} else {
		loser := g.Turn
		notice = b.boards.boardLang(g).T("board.ran_out", "Player", render.PlayerName(b.boards.boardLang(g), g.Players[loser]))
		g.Status = storage.StatusForfeited
		changes, err = b.store.FinishGame(ctx, g, storage.Result{Winner: 1 - loser, Outcome: storage.TimedOut})
	}
	if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrGameOver) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("bot: end due game %s: %w", id, err)
	}
	b.log.Info("deadline passed", "game", id, "status", g.Status)
	msg, err := b.boards.gameMessage(g, notice)
	if err != nil {
		return err
	}
	if changes != nil {
		pos, err := position(g)
		if err != nil {
			return err
		}
		msg = b.boards.view(g, pos, nil, changes, notice)
	}
	return b.boards.editBoard(ctx, g, msg, webhookToken{})
}
