package aiqueue

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
	"github.com/gambitbot/gambit/storage/storetest"
)

// deadlineRig is a shared database on a manual clock, a stand-in Discord
// and a bot of a worker process on the same clock.
type deadlineRig struct {
	*rig
	clk *storetest.Clock
	b   *bot.Bot
	q   *Queue
}

func newDeadlineRig(t *testing.T) *deadlineRig {
	t.Helper()
	clk := storetest.NewClock(time.Now().UTC())
	url := pgtest.URL(t)
	s, err := postgres.Open(context.Background(), url, &postgres.Options{Clock: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	r := &deadlineRig{rig: &rig{t: t, url: url, store: s}, clk: clk}
	r.ds = discordtest.New()
	t.Cleanup(r.ds.Close)
	b, err := bot.New(bot.Config{Token: r.ds.Token(), REST: bot.RESTConfig{APIURL: r.ds.URL()}, Shards: bot.ShardConfig{Instance: "worker-a"}, Now: clk.Now, Logger: slog.New(slog.DiscardHandler)}, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.PrepareWorker(); err != nil {
		t.Fatal(err)
	}
	r.b = b
	if r.q, err = NewQueue(s.Pool(), slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	return r
}

// challenge creates a challenge between two members that expires in d.
func (r *deadlineRig) challenge(d time.Duration) *storage.Game {
	r.t.Helper()
	g := storetest.UserVsUser("connect4", r.ds.AddUser("ann").ID, r.ds.AddUser("bob").ID)
	g.Status, g.Deadline = storage.StatusPending, r.clk.Now().Add(d)
	g.GuildID, g.ChannelID, g.MessageID = r.ds.GuildID(), r.ds.ChannelID(), ""
	return storetest.MustCreate(r.t, r.store, g)
}

// deadlineJobs returns the deadlines' jobs of game id, oldest first.
func (r *deadlineRig) deadlineJobs(id storage.GameID) []*river.Job[postgres.DeadlineArgs] {
	r.t.Helper()
	res, err := r.q.client.JobList(context.Background(), river.NewJobListParams().Kinds(postgres.DeadlineArgs{}.Kind()).
		States(rivertype.JobStateScheduled, rivertype.JobStateAvailable).First(100))
	if err != nil {
		r.t.Fatal(err)
	}
	var out []*river.Job[postgres.DeadlineArgs]
	for _, row := range res.Jobs {
		var args postgres.DeadlineArgs
		if err := json.Unmarshal(row.EncodedArgs, &args); err != nil {
			r.t.Fatal(err)
		}
		if args.Game == id {
			out = append(out, &river.Job[postgres.DeadlineArgs]{JobRow: row, Args: args})
		}
	}
	return out
}

// at reports whether job is scheduled at deadline, as PostgreSQL keeps
// it: to the microsecond.
func at(job *river.Job[postgres.DeadlineArgs], deadline time.Time) bool {
	return job.ScheduledAt.Sub(deadline).Abs() < time.Microsecond
}

// game returns the stored game id.
func (r *deadlineRig) game(id storage.GameID) *storage.Game {
	r.t.Helper()
	g, err := r.store.Game(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return g
}

// TestDeadlineJobEndsTheGameOnce: the job the store scheduled when it
// saved a challenge waits for the deadline (a run before it snoozes until
// then), expires the challenge once its time passed and shows it; run
// again, as River may, it changes nothing.
func TestDeadlineJobEndsTheGameOnce(t *testing.T) {
	t.Parallel()
	r := newDeadlineRig(t)
	g := r.challenge(5 * time.Minute)
	jobs := r.deadlineJobs(g.ID)
	if len(jobs) != 1 || !at(jobs[0], g.Deadline) || jobs[0].Args.Version != g.Version {
		t.Fatalf("the challenge's jobs are %v, want one at %v for version %d", jobs, g.Deadline, g.Version)
	}
	w := &deadlineWorker{e: r.b}
	ctx := context.Background()

	r.clk.Advance(5*time.Minute - time.Second)
	var snooze *rivertype.JobSnoozeError
	if err := w.Work(ctx, jobs[0]); !errors.As(err, &snooze) {
		t.Fatalf("the job run a second early: %v, want a snooze", err)
	}
	if got := r.game(g.ID); got.Status != storage.StatusPending {
		t.Fatalf("a second early the challenge is %s", got.Status)
	}

	r.clk.Advance(time.Second)
	if err := w.Work(ctx, jobs[0]); err != nil {
		t.Fatal(err)
	}
	ended := r.game(g.ID)
	if ended.Status != storage.StatusExpired || ended.Version != g.Version+1 {
		t.Fatalf("after the deadline the challenge is %s at version %d, want expired at %d", ended.Status, ended.Version, g.Version+1)
	}
	shown := len(r.ds.Messages(r.ds.ChannelID()))
	if shown == 0 {
		t.Error("the expired challenge was not shown")
	}
	if err := w.Work(ctx, jobs[0]); err != nil {
		t.Fatal(err)
	}
	if again := r.game(g.ID); again.Version != ended.Version {
		t.Errorf("the job run twice changed the game again: version %d, want %d", again.Version, ended.Version)
	}
	if n := len(r.ds.Messages(r.ds.ChannelID())); n != shown {
		t.Errorf("the job run twice posted %d messages, want %d", n, shown)
	}
}

// TestStaleDeadlineJobDoesNothing: a game changed after its job was
// scheduled has a job of its new version; the old one, run after its own
// deadline, leaves the game alone.
func TestStaleDeadlineJobDoesNothing(t *testing.T) {
	t.Parallel()
	r := newDeadlineRig(t)
	g := r.challenge(5 * time.Minute)
	old := r.deadlineJobs(g.ID)
	g.Status, g.Deadline = storage.StatusActive, r.clk.Now().Add(time.Hour) // accepted: a turn timer
	if err := r.store.UpdateGame(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	jobs := r.deadlineJobs(g.ID)
	if len(old) != 1 || len(jobs) != 2 || jobs[1].Args.Version != g.Version || !at(jobs[1], g.Deadline) {
		t.Fatalf("jobs before %v and after the change %v, want one for each version", old, jobs)
	}
	r.clk.Advance(10 * time.Minute)
	if err := (&deadlineWorker{e: r.b}).Work(context.Background(), old[0]); err != nil {
		t.Fatal(err)
	}
	if got := r.game(g.ID); got.Status != storage.StatusActive || got.Version != g.Version {
		t.Errorf("after the stale job the game is %s at version %d, want active at %d", got.Status, got.Version, g.Version)
	}
}

// TestDeadlineIsEndedByAWorker: a worker process given the deadlines
// works their queue: a challenge saved past its deadline (written while
// every process was down) is expired by it.
func TestDeadlineIsEndedByAWorker(t *testing.T) {
	t.Parallel()
	r := newDeadlineRig(t)
	s, err := postgres.Open(context.Background(), r.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWorker(s.Pool(), r.b, Config{Workers: 1, Deadlines: r.b, ID: "worker-a", Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	events, cancel := w.client.Subscribe(river.EventKindJobCompleted)
	defer cancel()
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = w.client.StopAndCancel(context.Background())
		_ = s.Close()
	})
	g := r.challenge(-time.Second)
	select {
	case e := <-events:
		if e.Job.Kind != (postgres.DeadlineArgs{}).Kind() {
			t.Fatalf("completed a %s job", e.Job.Kind)
		}
	case <-time.After(waitLimit):
		t.Fatal("no job completed")
	}
	if got := r.game(g.ID); got.Status != storage.StatusExpired {
		t.Errorf("the challenge is %s, want expired", got.Status)
	}
}
