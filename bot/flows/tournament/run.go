package tournament

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/tournament/league"
)

// Running a tournament. Advance does whatever is due, from the stored
// record alone, so that any process may run it at any time and a
// restart loses nothing: it records the results of the boards whose
// games ended, finishes the tournament when it is over, or pairs the next
// round and — in the one process whose PairRound recorded it — posts its
// pairings and boards. What asks for it: the start, a resumption, a
// withdrawal, a board's game ending (Kick, from package bot's FinishGame)
// and the timers' Tick (a start at its time, an Arena's end, and now and
// then every running tournament, which catches up after a crash). With
// Config.Scheduled the store schedules each of these as a job in the
// transaction of the change, and the job runs RunDue: no Kick, no Tick.

// maxSteps bounds one advance's loop: each step records results, pairs a
// round or finishes; a tournament needs a handful at a time.
const maxSteps = 16

// Kick advances tournament id off the caller's path (Config.Go), at most
// one advance of a tournament at a time in this process: a kick during
// one makes it run once more. Other processes are kept right by the
// store's transactions. With Config.Scheduled it does nothing: the
// change that asked for it scheduled the advance.
func (f *Flow) Kick(ctx context.Context, id storage.TournamentID) {
	if f.cfg.Scheduled {
		return
	}
	f.mu.Lock()
	if f.running[id] {
		f.again[id] = true
		f.mu.Unlock()
		return
	}
	f.running[id] = true
	f.mu.Unlock()
	ctx = context.WithoutCancel(ctx)
	f.cfg.Go(func() {
		for {
			if err := f.Advance(ctx, id); err != nil {
				f.log.Error("advance a tournament", "tournament", id, "err", err)
			}
			f.mu.Lock()
			if !f.again[id] {
				delete(f.running, id)
				f.mu.Unlock()
				return
			}
			delete(f.again, id)
			f.mu.Unlock()
		}
	})
}

// GameEnded advances the tournament of game g, which has just ended, if
// it is a board's: package bot calls it after the game's end is stored.
func (f *Flow) GameEnded(ctx context.Context, g *storage.Game) {
	if g.Settings.Tournament != "" {
		f.Kick(ctx, g.Settings.Tournament)
	}
}

// RunDue does what is due of tournament id, a job's work with
// Config.Scheduled: an announced tournament whose start time has passed
// starts, or is cancelled with too few players (startOnTime); a running
// one, or one just started, advances (Advance); any other is left alone.
func (f *Flow) RunDue(ctx context.Context, id storage.TournamentID) error {
	t, err := f.store.Tournament(ctx, id)
	if err != nil {
		return fmt.Errorf("tournament: load %s: %w", id, err)
	}
	if t.Status == storage.TournamentAnnounced {
		if !dueToStart(t, f.cfg.Now()) {
			return nil
		}
		if err := f.startOnTime(ctx, t); err != nil {
			return err
		}
	}
	return f.Advance(ctx, id)
}

// dueToStart reports whether t has a start time and it has passed at now.
func dueToStart(t *storage.Tournament, now time.Time) bool {
	return !t.StartAt.IsZero() && !now.Before(t.StartAt)
}

// Advance brings tournament id up to date: see above. It returns nil
// when nothing more is due now.
func (f *Flow) Advance(ctx context.Context, id storage.TournamentID) error {
	for range maxSteps {
		t, err := f.store.Tournament(ctx, id)
		if err != nil {
			return fmt.Errorf("tournament: load %s: %w", id, err)
		}
		if t.Status != storage.TournamentRunning {
			return nil
		}
		stale, err := f.recordEnded(ctx, t)
		if err != nil {
			return err
		}
		if stale {
			continue // the record changed: read it again
		}
		now := f.cfg.Now()
		announced, waiting, err := f.places.lost(ctx, t, now)
		if err != nil || announced {
			if err != nil {
				return err
			}
			continue
		}
		if league.Over(t, now) {
			if waiting {
				return nil // the sweep finishes it once the pairings are out
			}
			return f.finish(ctx, t)
		}
		r, ok, err := league.Next(t, now)
		if err != nil {
			return fmt.Errorf("tournament: pair %s: %w", id, err)
		}
		if !ok {
			return nil
		}
		again, err := f.pair(ctx, t, r)
		if err != nil || !again {
			return err
		}
	}
	return nil
}

// recordEnded records the result of each board of t whose game has ended
// — a process that stopped between a game's end and its result leaves
// the board on — and reports whether t is stale: a board on in t has its
// result now, recorded by this call or, meanwhile, by the process that
// ended the game (which leaves the advance to a job with
// Config.Scheduled).
func (f *Flow) recordEnded(ctx context.Context, t *storage.Tournament) (bool, error) {
	stale := false
	for _, id := range t.PendingGames() {
		g, err := f.store.Game(ctx, id)
		if err != nil {
			return stale, fmt.Errorf("tournament: game %s of %s: %w", id, t.ID, err)
		}
		if g.Status.Open() {
			continue
		}
		if _, _, err := f.store.RecordTournamentResult(ctx, id); err != nil && !errors.Is(err, storage.ErrGameOver) {
			return stale, fmt.Errorf("tournament: record game %s of %s: %w", id, t.ID, err)
		}
		stale = true
	}
	return stale, nil
}

// finish ends t with its final standings and posts the podium, once:
// only the process whose FinishTournament ended it posts.
func (f *Flow) finish(ctx context.Context, t *storage.Tournament) error {
	ft, err := f.store.FinishTournament(ctx, t.ID, league.Placings(t))
	switch {
	case errors.Is(err, storage.ErrGameOver), errors.Is(err, storage.ErrConflict):
		return nil // another process finished it
	case err != nil:
		return fmt.Errorf("tournament: finish %s: %w", t.ID, err)
	}
	f.log.Info("tournament finished", "tournament", t.ID, "guild", t.GuildID, "players", len(t.Entrants))
	f.ann.show(ctx, ft)
	l := f.boards.Lang(ft.GuildID, ft.ChannelID)
	return post(ctx, f.boards, ft, onceNonce(ft.ID, noncePodium, 0), render.TournamentPodium(l, ft, standings(ft)))
}

// pair records round r of t with its games, and, when this call recorded
// it, posts its pairings (with the standings before it) and its boards,
// in the round's thread or the channel (placer.postRound).
// It reports whether to advance again: the record moved on before the
// round could be recorded.
func (f *Flow) pair(ctx context.Context, t *storage.Tournament, r storage.Round) (bool, error) {
	players := map[storage.PlayerID]storage.Player{}
	for _, e := range t.Entrants {
		players[e.Player.ID] = e.Player
	}
	var games []*storage.Game
	for _, b := range r.Boards {
		if b.IsBye() {
			continue
		}
		g := &storage.Game{
			Kind: t.Kind, Players: []storage.Player{players[b.White], players[b.Black]},
			Settings: storage.Settings{
				Rounds: t.Settings.Rounds, Casual: t.Settings.Casual, MoveTime: min(t.MoveTime, f.cfg.AIMoveTime),
				Tournament: t.ID, TurnTime: t.MoveTime,
			},
			GuildID: t.GuildID, ChannelID: t.ChannelID,
		}
		if err := f.boards.Begin(ctx, g); err != nil { // White, seat 0, moves first
			return false, fmt.Errorf("tournament: begin a game of %s: %w", t.ID, err)
		}
		games = append(games, g)
	}
	nt, mine, err := f.store.PairRound(ctx, t.ID, t.Version, r, games)
	switch {
	case errors.Is(err, storage.ErrConflict):
		return true, nil // changed meanwhile: pair from the new record
	case errors.Is(err, storage.ErrGameOver):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("tournament: record round %d of %s: %w", r.Number, t.ID, err)
	case !mine:
		return false, nil // another process recorded it, and posts it
	}
	round := nt.Rounds[len(nt.Rounds)-1]
	f.log.Info("tournament round paired", "tournament", t.ID, "round", round.Number, "boards", len(round.Boards))
	if err := f.places.announce(ctx, nt, t, round); err != nil {
		f.log.Warn("round's pairings not posted; an advance posts them later", "tournament", t.ID, "round", round.Number, "err", err)
	}
	if len(nt.NoShowsBefore(round.Number)) > 0 {
		f.ann.show(ctx, nt) // the no-shows are struck out, and may Join again
	}
	var errs []error
	for _, b := range round.Boards {
		if b.Game == "" {
			continue
		}
		// A board not posted now is shown by a later advance
		// (placer.lost) or the next start's refresh of open games
		// without a board, in the game's channel: the round's thread,
		// once placer.postRound recorded it.
		if err := f.boards.Show(ctx, b.Game); err != nil {
			errs = append(errs, fmt.Errorf("tournament: show game %s of %s: %w", b.Game, t.ID, err))
		}
	}
	return false, errors.Join(errs...)
}

// Tick is the timers' part, every tick: of the tournaments not ended of
// the guilds of shards (but those the bot was removed from, Config.Left),
// it starts the announced ones whose start time has
// passed (or cancels them, with too few players), and advances the
// running ones whose Arena time is up, and every running one once every
// Config.SweepEvery — which records a result a crash left unrecorded and
// pairs a round left unpaired.
func (f *Flow) Tick(ctx context.Context, shards storage.Shards) {
	list, err := f.store.OpenTournaments(ctx, shards)
	if err != nil && !errors.Is(err, storage.ErrCorrupt) {
		if ctx.Err() == nil {
			f.log.Error("list open tournaments", "err", err)
		}
		return
	}
	now := f.cfg.Now()
	f.mu.Lock()
	sweep := now.Sub(f.swept) >= f.cfg.SweepEvery
	if sweep {
		f.swept = now
	}
	f.mu.Unlock()
	if err != nil && sweep { // once a sweep, not every tick
		f.log.Error("open tournaments: left out corrupt records; 'gambit db check' lists the damage", "err", err)
	}
	for _, t := range list {
		switch {
		case f.cfg.Left != nil && f.cfg.Left(t.GuildID): // the bot was removed from its guild
		case t.Status == storage.TournamentAnnounced && dueToStart(t, now):
			if err := f.startOnTime(ctx, t); err != nil {
				f.log.Error("start a tournament at its time", "tournament", t.ID, "err", err)
			}
		case t.Status != storage.TournamentRunning:
		case sweep:
			f.Kick(ctx, t.ID)
		case t.Format == storage.FormatArena && !now.Before(league.End(t)):
			f.Kick(ctx, t.ID)
		}
	}
}

// startOnTime starts t at its time, or cancels it when too few joined,
// and says so in its channel; of processes racing, the one whose change
// the store made says it.
func (f *Flow) startOnTime(ctx context.Context, t *storage.Tournament) error {
	to, notice := storage.TournamentRunning, "tournament.started_notice"
	if len(t.Entrants) < t.Format.MinPlayers() {
		to, notice = storage.TournamentCancelled, "tournament.too_few_notice"
	}
	nt, err := f.store.SetTournamentStatus(ctx, t.ID, to)
	switch {
	case errors.Is(err, storage.ErrConflict), errors.Is(err, storage.ErrGameOver), errors.Is(err, storage.ErrInvalid):
		return nil // changed meanwhile
	case err != nil:
		return fmt.Errorf("tournament: start %s: %w", t.ID, err)
	}
	f.ann.show(ctx, nt)
	l := f.boards.Lang(nt.GuildID, nt.ChannelID)
	perr := post(ctx, f.boards, nt, onceNonce(nt.ID, nonceStart, 0), render.TournamentNotice(l, nt, l.T(notice, "Count", len(nt.Entrants), "Min", nt.Format.MinPlayers())))
	if to == storage.TournamentRunning {
		f.Kick(ctx, nt.ID)
	}
	return perr
}
