package postgres

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

// deadlineJobRow is a deadline's job as the database holds it.
type deadlineJobRow struct {
	Game      storage.GameID
	Version   uint64
	Scheduled time.Time
	State     string
}

// deadlineJobs lists the deadlines' jobs, by game and version.
func deadlineJobs(t *testing.T, s *Store) []deadlineJobRow {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), `SELECT args->>'game', (args->>'version')::bigint, scheduled_at, state::text
		FROM river_job WHERE kind = $1 AND queue = $2 ORDER BY args->>'game', (args->>'version')::bigint`, DeadlineArgs{}.Kind(), DeadlineQueue)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (j deadlineJobRow, err error) {
		err = r.Scan(&j.Game, &j.Version, &j.Scheduled, &j.State)
		j.Scheduled = j.Scheduled.UTC()
		return j, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWritesScheduleTheDeadlines: every write of an open game with a
// deadline schedules a job at the deadline, in its transaction, one per
// game and version; a game without a deadline, or ended, has none.
func TestWritesScheduleTheDeadlines(t *testing.T) {
	t.Parallel()
	clk := storetest.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	s, _ := openTest(t, clk.Now)
	ctx := context.Background()

	challenge := storetest.UserVsUser("connect4", "ann", "bob")
	challenge.Status, challenge.Deadline = storage.StatusPending, clk.Now().Add(5*time.Minute)
	storetest.MustCreate(t, s, challenge)
	noTimer := storetest.MustCreate(t, s, storetest.UserVsAI("connect4", "cid"))
	want := []deadlineJobRow{{challenge.ID, 1, challenge.Deadline, "scheduled"}}
	if got := deadlineJobs(t, s); !slices.Equal(got, want) {
		t.Fatalf("after creating a challenge and an untimed game, the jobs are %+v, want %+v", got, want)
	}

	// Accepted: a turn timer, at the next version.
	challenge.Status, challenge.Deadline = storage.StatusActive, clk.Now().Add(24*time.Hour)
	if err := s.UpdateGame(ctx, challenge); err != nil {
		t.Fatal(err)
	}
	want = append(want, deadlineJobRow{challenge.ID, 2, challenge.Deadline, "scheduled"})
	if got := deadlineJobs(t, s); !slices.Equal(got, want) {
		t.Fatalf("after accepting, the jobs are %+v, want %+v", got, want)
	}
	if noTimer.Version != 1 {
		t.Fatal("the untimed game changed")
	}

	// Ended: nothing to time.
	challenge.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, challenge, storage.Result{Winner: 0, Outcome: storage.Resigned}); err != nil {
		t.Fatal(err)
	}
	if got := deadlineJobs(t, s); !slices.Equal(got, want) {
		t.Errorf("after finishing, the jobs are %+v, want %+v", got, want)
	}

	// A write that fails schedules nothing: the job is the write's.
	stale := *noTimer
	stale.Version = 0
	stale.Deadline = clk.Now().Add(time.Hour)
	if err := s.UpdateGame(ctx, &stale); err == nil {
		t.Fatal("a write of a stale version succeeded")
	}
	if got := deadlineJobs(t, s); !slices.Equal(got, want) {
		t.Errorf("after a failed write, the jobs are %+v, want %+v", got, want)
	}
}

// TestScheduleDeadlinesOfShards: ScheduleDeadlines schedules the jobs of
// the open games of the shards asked for whose version has none — games
// written before their deadlines were jobs — and nothing the second time.
func TestScheduleDeadlinesOfShards(t *testing.T) {
	t.Parallel()
	clk := storetest.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	s, _ := openTest(t, clk.Now)
	ctx := context.Background()
	const count = 2
	var inShard [count][]storage.GameID
	for i := range 4 {
		id := uint64(1_300_000_000_000+i)<<22 | 7
		g := storetest.UserVsUser("connect4", fmt.Sprint("a", i), fmt.Sprint("b", i))
		g.GuildID, g.Deadline = fmt.Sprint(id), clk.Now().Add(time.Duration(i+1)*time.Minute)
		storetest.MustCreate(t, s, g)
		shard := storage.ShardOf(g.GuildID, count)
		inShard[shard] = append(inShard[shard], g.ID)
	}
	storetest.MustCreate(t, s, storetest.UserVsAI("connect4", "untimed"))
	if len(inShard[0]) == 0 || len(inShard[1]) == 0 {
		t.Fatalf("the games do not cover both shards: %v", inShard)
	}
	// As if written by a build that had no deadline jobs.
	if _, err := s.pool.Exec(ctx, "DELETE FROM river_job"); err != nil {
		t.Fatal(err)
	}
	schedule := func(sh storage.Shards, want int) {
		t.Helper()
		n, err := s.ScheduleDeadlines(ctx, sh)
		if err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("ScheduleDeadlines(%+v) scheduled %d, want %d", sh, n, want)
		}
	}
	schedule(storage.Shards{Count: count, IDs: []int{1}}, len(inShard[1]))
	var got []storage.GameID
	for _, j := range deadlineJobs(t, s) {
		got = append(got, j.Game)
	}
	if !slices.Equal(got, inShard[1]) {
		t.Errorf("the jobs are of %v, want shard 1's %v", got, inShard[1])
	}
	schedule(storage.Shards{Count: count, IDs: []int{1}}, 0)
	schedule(storage.Shards{}, len(inShard[0]))
	schedule(storage.Shards{}, 0)
	for _, j := range deadlineJobs(t, s) {
		if j.Version != 1 || j.State != "scheduled" {
			t.Errorf("job %+v, want version 1, scheduled", j)
		}
	}
}
