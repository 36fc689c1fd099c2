package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/gambitbot/gambit/storage"
)

// TournamentQueue is River's queue of the tournaments' advances.
const TournamentQueue = "tournaments"

// TournamentArgs is the job of one advance of a tournament due at At:
// the store inserts it in the transaction of the change that makes it
// due, so that no crash between the change and the job loses it — a
// tournament created with a start time (at that time), a start or a
// resumption (now, and for an Arena its end too), a withdrawal from a
// running one or a no-show's return to it, and the end of one of its games (now). A job is unique
// per tournament and time. Whichever process works the queue runs what
// is due of the tournament (the bot's AdvanceTournament), which reads
// everything from the stored record: a job that finds nothing to do does
// nothing, and of two that pair a round the store lets one record it.
type TournamentArgs struct {
	Tournament storage.TournamentID `json:"tournament" river:"unique"`
	// At is when the advance is due, by the store's clock.
	At time.Time `json:"at" river:"unique"`
}

// Kind implements river.JobArgs.
func (TournamentArgs) Kind() string { return "gambit_tournament" }

// InsertOpts implements river.JobArgsWithInsertOpts: the tournaments'
// queue, one job per tournament and time.
func (TournamentArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: TournamentQueue, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// tournamentJob is the insertion of the job of tournament id's advance
// due at at, scheduled then if that is after now (River runs one due
// earlier at once, by the database's clock).
func tournamentJob(id storage.TournamentID, at, now time.Time) river.InsertManyParams {
	p := river.InsertManyParams{Args: TournamentArgs{Tournament: id, At: at}}
	if at.After(now) {
		p.InsertOpts = &river.InsertOpts{ScheduledAt: at}
	}
	return p
}

// arenaEnd is when Arena t ends (league.End, which the store cannot
// import): its duration after its start.
func arenaEnd(t *storage.Tournament) time.Time { return t.StartedAt.Add(t.Duration) }

// tournamentChangeJobs are the jobs that a change of a tournament from
// old (nil for a new one) to rec at now makes due: its start at the time
// set, an advance now when it starts, resumes, or loses a player or gets
// one back (a no-show who joined again) while running, an Arena's end
// when it starts or resumes, and a round's announcement (announceJobs).
func tournamentChangeJobs(old, rec *storage.Tournament, now time.Time) []river.InsertManyParams {
	return append(stateJobs(old, rec, now), announceJobs(old, rec, now)...)
}

// announceJobs: a round just paired is the pairing process's to
// announce for storage.AnnounceGrace; an advance then posts its pairings
// if that process stopped before it did.
func announceJobs(old, rec *storage.Tournament, now time.Time) []river.InsertManyParams {
	if old == nil || len(rec.Rounds) <= len(old.Rounds) || !rec.Rounds[len(rec.Rounds)-1].Unannounced {
		return nil
	}
	return []river.InsertManyParams{tournamentJob(rec.ID, rec.Rounds[len(rec.Rounds)-1].PairedAt.Add(storage.AnnounceGrace), now)}
}

// stateJobs are the jobs of tournamentChangeJobs but announceJobs'.
func stateJobs(old, rec *storage.Tournament, now time.Time) []river.InsertManyParams {
	switch {
	case old == nil:
		if rec.Status == storage.TournamentAnnounced && !rec.StartAt.IsZero() {
			return []river.InsertManyParams{tournamentJob(rec.ID, rec.StartAt, now)}
		}
	case rec.Status == storage.TournamentRunning && old.Status != storage.TournamentRunning:
		jobs := []river.InsertManyParams{tournamentJob(rec.ID, now, now)}
		if rec.Format == storage.FormatArena {
			jobs = append(jobs, tournamentJob(rec.ID, arenaEnd(rec), now))
		}
		return jobs
	case rec.Status == storage.TournamentRunning && withdrawals(rec) != withdrawals(old):
		return []river.InsertManyParams{tournamentJob(rec.ID, now, now)}
	}
	return nil
}

// withdrawals counts t's entrants who withdrew.
func withdrawals(t *storage.Tournament) int {
	n := 0
	for _, e := range t.Entrants {
		if e.Withdrawn {
			n++
		}
	}
	return n
}

// insertJobs inserts jobs in tx; a job already there (the same
// tournament and time) is left alone.
func insertJobs(ctx context.Context, tx pgx.Tx, c *jobs, params []river.InsertManyParams) (int, error) {
	if len(params) == 0 {
		return 0, nil
	}
	res, err := c.InsertManyTx(ctx, tx, params)
	n := 0
	for _, r := range res {
		if !r.UniqueSkippedAsDuplicate {
			n++
		}
	}
	return n, err
}

// scheduleTournamentChange inserts in tx the jobs that the change of a
// tournament from old to rec makes due (tournamentChangeJobs).
func scheduleTournamentChange(ctx context.Context, tx pgx.Tx, c *jobs, old, rec *storage.Tournament, now time.Time) error {
	if _, err := insertJobs(ctx, tx, c, tournamentChangeJobs(old, rec, now)); err != nil {
		return fmt.Errorf("schedule the advance of tournament %s: %w", rec.ID, err)
	}
	return nil
}

// scheduleGameEnd inserts in tx, the transaction that writes g over old
// (nil for a new game, which no write ends), the advance of g's
// tournament at the write's time if g is a tournament's board whose game
// this write ends: its result is due.
func scheduleGameEnd(ctx context.Context, tx pgx.Tx, c *jobs, old, g *storage.Game) error {
	if g.Settings.Tournament == "" || old == nil || !old.Status.Open() || g.Status.Open() {
		return nil
	}
	p := tournamentJob(g.Settings.Tournament, g.UpdatedAt, g.UpdatedAt)
	if _, err := c.InsertTx(ctx, tx, p.Args, p.InsertOpts); err != nil {
		return fmt.Errorf("schedule the advance of tournament %s after game %s: %w", g.Settings.Tournament, g.ID, err)
	}
	return nil
}

// ScheduleTournaments schedules the jobs missing for the open
// tournaments of the guilds of shards (every guild with the zero Shards)
// and returns how many it scheduled: the start at its time of an
// announced one, the end of a running Arena, and an advance now of a
// running one that has no advance waiting — a tournament changed before
// its advances were jobs, or whose job River gave up. The changes
// schedule the jobs; this is the bot's safety net at start and when it
// takes over a shard. A tournament whose record does not decode is left
// out, and named in the error.
func (s *Store) ScheduleTournaments(ctx context.Context, shards storage.Shards) (int, error) {
	var (
		scheduled int
		skipped   storage.SkippedTournamentsError
	)
	err := s.update(ctx, func(tx pgx.Tx) error {
		scheduled, skipped = 0, storage.SkippedTournamentsError{}
		list, err := queryTournaments(ctx, tx, &skipped, `SELECT id, record FROM tournaments
			WHERE status IN ('announced', 'running') ORDER BY id`)
		if err != nil {
			return err
		}
		now := s.now()
		var params []river.InsertManyParams
		for _, t := range list {
			switch {
			case !shards.Has(t.GuildID):
			case t.Status == storage.TournamentAnnounced:
				if !t.StartAt.IsZero() {
					params = append(params, tournamentJob(t.ID, t.StartAt, now))
				}
			default:
				if t.Format == storage.FormatArena {
					params = append(params, tournamentJob(t.ID, arenaEnd(t), now))
				}
				var waiting bool
				if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM river_job WHERE kind = $1 AND args->>'tournament' = $2
					AND state IN ('available', 'pending', 'retryable', 'running'))`, TournamentArgs{}.Kind(), t.ID).Scan(&waiting); err != nil {
					return err
				}
				if !waiting {
					params = append(params, tournamentJob(t.ID, now, now))
				}
			}
		}
		scheduled, err = insertJobs(ctx, tx, s.jobs, params)
		return err
	})
	if err == nil {
		err = skipped.Err()
	}
	if err != nil {
		return scheduled, fmt.Errorf("storage: schedule the tournaments: %w", err)
	}
	return scheduled, nil
}
