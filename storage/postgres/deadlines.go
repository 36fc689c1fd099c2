package postgres

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/gambitbot/gambit/storage"
)

// DeadlineQueue is River's queue of the games' deadlines.
const DeadlineQueue = "deadlines"

// DeadlineArgs is the job of one deadline: a pending challenge that
// expires or a turn that runs out, of a game at one version. Every write
// of an open game with a deadline schedules its job in the same
// transaction, at the deadline (River's ScheduledAt); a job is unique per
// game and version, so a game changed since has a job of its own and the
// older one finds nothing to do. Whichever process works the queue ends
// the game (the bot's EndDeadline), against its version: once.
type DeadlineArgs struct {
	Game    storage.GameID `json:"game" river:"unique"`
	Version uint64         `json:"version" river:"unique"`
	// At is the deadline, as the game's record has it.
	At time.Time `json:"at"`
}

// Kind implements river.JobArgs.
func (DeadlineArgs) Kind() string { return "gambit_deadline" }

// InsertOpts implements river.JobArgsWithInsertOpts: the deadlines'
// queue, one job per game and version.
func (DeadlineArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: DeadlineQueue, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// jobs inserts the deadlines' jobs; it works none.
type jobs = river.Client[pgx.Tx]

// newJobs returns the insert-only River client of a store.
func newJobs(pool *pgxpool.Pool) (*jobs, error) {
	c, err := river.NewClient(riverpgxv5.New(pool), &river.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return nil, fmt.Errorf("job queue client: %w", err)
	}
	return c, nil
}

// deadlineJob is the insertion of the job of a game's deadline at a
// version.
func deadlineJob(id storage.GameID, version uint64, at time.Time) river.InsertManyParams {
	return river.InsertManyParams{
		Args:       DeadlineArgs{Game: id, Version: version, At: at},
		InsertOpts: &river.InsertOpts{ScheduledAt: at},
	}
}

// scheduleDeadline schedules g's deadline job in tx, the transaction that
// writes g, if it is open with a deadline.
func scheduleDeadline(ctx context.Context, tx pgx.Tx, c *jobs, g *storage.Game) error {
	if g.Deadline.IsZero() || !g.Status.Open() {
		return nil
	}
	p := deadlineJob(g.ID, g.Version, g.Deadline)
	if _, err := c.InsertTx(ctx, tx, p.Args, p.InsertOpts); err != nil {
		return fmt.Errorf("schedule the deadline of game %s: %w", g.ID, err)
	}
	return nil
}

// ScheduleDeadlines schedules the deadline job of every open game of
// shards (every game with the zero Shards) whose version has none waiting
// — a game written before its deadlines were jobs, or whose job River
// gave up — and returns how many it scheduled. Writes schedule the jobs;
// this is the bot's safety net at start and when it takes over a shard
// (the bot's Deadlines). The games are selected in SQL, by shard and by
// the absence of a job (river_job's index of its arguments).
func (s *Store) ScheduleDeadlines(ctx context.Context, shards storage.Shards) (int, error) {
	var scheduled int
	err := s.update(ctx, func(tx pgx.Tx) error {
		scheduled = 0
		rows, err := tx.Query(ctx, `SELECT g.id, g.version, g.deadline_ns FROM games g
			WHERE g.deadline_ns IS NOT NULL AND g.status IN ('pending', 'active') AND `+shardFilter("g", 1)+`
			AND NOT EXISTS (SELECT 1 FROM river_job j WHERE j.kind = $3
				AND j.args @> jsonb_build_object('game', g.id, 'version', g.version)
				AND j.state NOT IN ('cancelled', 'discarded'))
			ORDER BY g.deadline_ns, g.id`, append(shardArgs(shards), DeadlineArgs{}.Kind())...)
		if err != nil {
			return err
		}
		var (
			params  []river.InsertManyParams
			id      storage.GameID
			version uint64
			ns      int64
		)
		if _, err := pgx.ForEachRow(rows, []any{&id, &version, &ns}, func() error {
			params = append(params, deadlineJob(id, version, time.Unix(0, ns).UTC()))
			return nil
		}); err != nil {
			return err
		}
		if len(params) == 0 {
			return nil
		}
		res, err := s.jobs.InsertManyTx(ctx, tx, params)
		for _, r := range res {
			if !r.UniqueSkippedAsDuplicate {
				scheduled++
			}
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("storage: schedule the deadlines: %w", err)
	}
	return scheduled, nil
}

// shardFilter is the SQL condition that selects the games of the alias's
// table in the shards given by shardArgs as parameters $n and $n+1 (see
// migrations/0003_shard_key.sql): every game when the count is NULL, or
// those whose shard key modulo the count is one of the shards (shard 0
// without a key).
func shardFilter(alias string, n int) string {
	return fmt.Sprintf("($%d::bigint IS NULL OR coalesce(%s.shard_key %% $%d, 0) = ANY($%d::bigint[]))", n, alias, n, n+1)
}

// shardArgs are the parameters of shardFilter: the shard count, NULL for
// every game, and the shards' IDs.
func shardArgs(shards storage.Shards) []any {
	var count *int64
	if !shards.All() {
		c := int64(shards.Count)
		count = &c
	}
	ids := make([]int64, len(shards.IDs))
	for i, id := range shards.IDs {
		ids[i] = int64(id)
	}
	return []any{count, ids}
}
