package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// Deadlines runs the games' deadlines as jobs of a queue the processes
// share: the store schedules a game's job whenever it writes the game
// with a deadline, and whichever process works the queue calls
// EndDeadline at that time (storage/postgres with River, wired by the
// binary). Without it (bbolt, one process) runTimers looks for the due
// games every TickInterval.
type Deadlines interface {
	// ScheduleDeadlines schedules the jobs missing for the open games of
	// shards (every game with the zero Shards) and returns how many: the
	// safety net at start and after taking over a shard, for games
	// written before their deadlines were jobs.
	ScheduleDeadlines(ctx context.Context, shards storage.Shards) (int, error)
}

// TournamentJobs runs the tournaments' advances as jobs of a queue the
// processes share: the store schedules a tournament's job in the
// transaction of each change that makes an advance due (its start time,
// a start or resumption, an Arena's end, a withdrawal, a board's game
// ending), and whichever process works the queue calls
// AdvanceTournament then (storage/postgres with River, wired by the
// binary). Without it (bbolt, one process) the timers start the
// tournaments at their time, end the Arenas and sweep the running ones
// every TickInterval, and a board's end advances its tournament in the
// process that ended it.
type TournamentJobs interface {
	// ScheduleTournaments schedules the jobs missing for the open
	// tournaments of shards (every guild with the zero Shards) and
	// returns how many: the safety net at start and after taking over a
	// shard, for tournaments changed before their advances were jobs.
	ScheduleTournaments(ctx context.Context, shards storage.Shards) (int, error)
}

// ErrNotDue says a game's deadline, or a tournament's advance, is not
// due yet by the bot's clock: a job that runs early (the clocks of the
// database and of the process disagree) should run again at its time.
var ErrNotDue = errors.New("bot: the deadline has not passed")

// EndDeadline runs a deadline's job: it ends game id — expires the
// challenge, or forfeits the turn of the player who ran out of time — if
// the game is still at version and its deadline has passed, and shows
// it. It returns nil when the game is ended, or when there is nothing to
// do (the game changed, ended or is gone: a job of its new version, if
// any, times it); ErrNotDue before the deadline; and an error when the
// store failed, for the job to be tried again. The commit is against the
// version, so of two runs of one job one ends the game.
func (b *Bot) EndDeadline(ctx context.Context, id storage.GameID, version uint64) error {
	err := b.timers.endIfDue(ctx, id, version)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	return err
}

// AdvanceTournament runs a tournament's job, due at at: once at has
// passed by the bot's clock it does what is due of tournament id — an
// announced one past its start time starts (or is cancelled, with too
// few players), a running one records its ended games' results, pairs
// its next round and posts it, or finishes — from the stored record
// alone. It returns nil when that is done or there is nothing to do (the
// tournament is gone, paused or ended); ErrNotDue before at; and an
// error when the store or Discord failed, for the job to be tried again.
// Of two runs at once, the store's transactions let one pair a round and
// post it.
func (b *Bot) AdvanceTournament(ctx context.Context, id storage.TournamentID, at time.Time) error {
	if b.now().Before(at) {
		return fmt.Errorf("%w: tournament %s at %v", ErrNotDue, id, at)
	}
	err := b.timers.tournaments.RunDue(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	return err
}

// runTimers ends what is due until ctx is done: challenges nobody answered
// and turns nobody played, unless Deadlines runs them as jobs (then it
// schedules the jobs missing at start, scheduleDeadlines); and it sweeps
// up the AI turns nobody plays (sweepAI) as often as the AI-turn seam
// says (aiSeam.sweepEvery: every tick for this process's workers, every
// ClaimTTL for an AIQueue). Deadlines that passed while the bot was
// down are handled at the first tick. It runs the tournaments' clocks
// (tournament.Flow.Tick: starts at the time set, an Arena's end, the
// sweep that catches up after a crash) unless Games.Tournaments runs them
// as jobs (then it schedules the jobs missing at start). With metrics, it
// also counts the open games now and then.
func (b timerFlow) runTimers(ctx context.Context) {
	b.scheduleDeadlines(ctx)
	t := time.NewTicker(b.cfg.Timers.TickInterval)
	defer t.Stop()
	var counted time.Time
	swept := b.now() // Run swept at start
	for {
		if b.cfg.Games.Deadlines == nil {
			if err := b.endDue(ctx); err != nil && ctx.Err() == nil {
				b.log.Error("end due games", "err", err)
			}
		}
		if b.now().Sub(swept) >= b.ai.turns.sweepEvery() {
			swept = b.now()
			if err := b.turns.sweepAI(ctx, b.cfg.Shards.ClaimTTL); err != nil && ctx.Err() == nil {
				b.log.Error("sweep AI turns", "err", err)
			}
		}
		b.daily.PostDailies(ctx)
		if b.cfg.Games.Tournaments == nil {
			b.tournaments.Tick(ctx, b.life.myShards())
		}
		if m := b.cfg.Metrics; m != nil && time.Since(counted) >= b.cfg.Timers.CountInterval {
			counted = time.Now()
			if pending, active, err := b.store.CountOpen(ctx); b.corrupt.listed("count open games", err) != nil {
				b.log.Error("count open games", "err", err)
			} else {
				m.Games.ChallengesPending.Set(float64(pending))
				m.Games.Active.Set(float64(active))
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// scheduleDeadlines schedules the deadline jobs missing for the games of
// this process's shards, with Deadlines, and the jobs missing for its
// tournaments, with Tournaments: at start, and after taking over a shard
// (tookOver).
func (b timerFlow) scheduleDeadlines(ctx context.Context) {
	if d := b.cfg.Games.Deadlines; d != nil {
		b.scheduled(ctx, "the deadlines of games", d.ScheduleDeadlines)
	}
	if t := b.cfg.Games.Tournaments; t != nil {
		b.scheduled(ctx, "the advances of tournaments", t.ScheduleTournaments)
	}
}

// scheduled schedules what of this process's shards had no job by
// schedule, and logs it.
func (b timerFlow) scheduled(ctx context.Context, what string, schedule func(context.Context, storage.Shards) (int, error)) {
	n, err := schedule(ctx, b.life.myShards())
	switch {
	case err != nil && ctx.Err() == nil:
		b.log.Error("schedule "+what, "err", err)
	case n > 0:
		b.log.Info("scheduled "+what+" that had no job", "jobs", n)
	}
}

// tookOver is the safety net after this process took over a shard from a
// process that died: with Deadlines and Tournaments, the jobs missing are
// scheduled; when the timers sweep the AI turns less often than every
// tick (aiSeam.sweepEvery), the AI turns that await the AI unclaimed are
// queued (otherwise the timers' ticks do both).
func (b timerFlow) tookOver(ctx context.Context) {
	b.scheduleDeadlines(ctx)
	if b.ai.turns.sweepEvery() > 0 {
		if err := b.turns.sweepAI(ctx, b.cfg.Shards.ClaimTTL); err != nil && ctx.Err() == nil {
			b.log.Error("sweep AI turns", "err", err)
		}
	}
}

// endDue expires the due challenges and forfeits the due turns of the
// guilds of this process's shards (the store selects them); the process
// running a shard ends its games.
func (b timerFlow) endDue(ctx context.Context) error {
	due, err := b.store.DueGames(ctx, b.life.myShards())
	if err = b.corrupt.listed("end due games", err); err != nil {
		return fmt.Errorf("bot: list due games: %w", err)
	}
	var errs []error
	for _, g := range due {
		if err := b.endIfDue(ctx, g.ID, 0); err != nil && !errors.Is(err, ErrNotDue) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// endIfDue ends one game whose deadline has passed, under its lock, if
// it is at version (any version if 0); ErrNotDue if the deadline has not
// passed by the bot's clock.
func (b timerFlow) endIfDue(ctx context.Context, id storage.GameID, version uint64) error {
	ctx, unlock := b.locks.hold(ctx, id)
	defer unlock()
	g, err := b.store.Game(ctx, id)
	if err != nil {
		return fmt.Errorf("bot: load due game %s: %w", id, err)
	}
	if g.Deadline.IsZero() || !g.Status.Open() || version != 0 && g.Version != version {
		return nil // answered meanwhile
	}
	if g.Deadline.After(b.now()) {
		return fmt.Errorf("%w: game %s at %v", ErrNotDue, id, g.Deadline)
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
		notice = b.boards.boardLang(g).T("board.ran_out", "Player", render.PlayerName(b.boards.boardLang(g), g.Kind, g.Players[loser]))
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
