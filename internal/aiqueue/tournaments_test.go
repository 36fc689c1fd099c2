package aiqueue

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres"
)

// tournamentBot returns a bot of a worker process whose tournaments are
// the queue's jobs (Games.Tournaments), as gambit worker's is, on a
// store of its own, with its AI turns queued too and a few milliseconds
// a move.
func (r *rig) tournamentBot(instance string, now func() time.Time) *bot.Bot {
	r.t.Helper()
	s, err := postgres.Open(context.Background(), r.url, &postgres.Options{Clock: now})
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { _ = s.Close() })
	b, err := bot.New(bot.Config{
		Token: r.ds.Token(), REST: bot.RESTConfig{APIURL: r.ds.URL()}, Shards: bot.ShardConfig{Instance: instance},
		AI: bot.AIConfig{Queue: r.queue(), MoveTime: 5 * time.Millisecond}, Games: bot.GameConfig{Tournaments: s},
		Timers: bot.TimerConfig{ProgressInterval: time.Hour}, Now: now, Logger: slog.New(slog.DiscardHandler),
	}, s)
	if err != nil {
		r.t.Fatal(err)
	}
	if err := b.PrepareWorker(); err != nil {
		r.t.Fatal(err)
	}
	return b
}

// swiss creates a Swiss of tic-tac-toe of rounds rounds in the rig's
// channel, starting at startAt (zero: when its creator starts it),
// entered by the players given (AIs by storage.AI, members by
// storage.User).
func (r *rig) swiss(rounds int, startAt time.Time, players ...storage.PlayerID) *storage.Tournament {
	r.t.Helper()
	ctx := context.Background()
	t := &storage.Tournament{GuildID: r.ds.GuildID(), ChannelID: r.ds.ChannelID(), Creator: storage.User(r.ds.AddUser("org").ID), Name: "Friday",
		Format: storage.FormatSwiss, SwissRounds: rounds, Kind: "tictactoe", MoveTime: time.Minute, OpenToAI: true, StartAt: startAt}
	if err := r.store.CreateTournament(ctx, t, storage.DefaultTournamentCaps); err != nil {
		r.t.Fatal(err)
	}
	for _, p := range players {
		if _, err := r.store.JoinTournament(ctx, t.ID, storage.Entrant{Player: storage.Player{ID: p, Name: string(p)}}); err != nil {
			r.t.Fatal(err)
		}
	}
	return t
}

// tournament returns the stored tournament id.
func (r *rig) tournament(id storage.TournamentID) *storage.Tournament {
	r.t.Helper()
	t, err := r.store.Tournament(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return t
}

// tournamentJobs returns the jobs of tournament id in the states given,
// oldest first.
func (r *rig) tournamentJobs(id storage.TournamentID, states ...rivertype.JobState) []*river.Job[postgres.TournamentArgs] {
	r.t.Helper()
	q, err := NewQueue(r.store.Pool(), slog.New(slog.DiscardHandler)) // on the rig's pool: no connections of its own
	if err != nil {
		r.t.Fatal(err)
	}
	res, err := q.client.JobList(context.Background(), river.NewJobListParams().Kinds(postgres.TournamentArgs{}.Kind()).
		States(states...).First(10000))
	if err != nil {
		r.t.Fatal(err)
	}
	var out []*river.Job[postgres.TournamentArgs]
	for _, row := range res.Jobs {
		var args postgres.TournamentArgs
		if err := json.Unmarshal(row.EncodedArgs, &args); err != nil {
			r.t.Fatal(err)
		}
		if args.Tournament == id {
			out = append(out, &river.Job[postgres.TournamentArgs]{JobRow: row, Args: args})
		}
	}
	return out
}

// waitFinished waits, on the completions of a worker's jobs (events),
// until tournament id is finished and none of its jobs is left to run,
// and returns it.
func (r *rig) waitFinished(events <-chan *river.Event, id storage.TournamentID) *storage.Tournament {
	r.t.Helper()
	guard := time.After(waitLimit)
	for {
		t := r.tournament(id)
		left := r.tournamentJobs(id, rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRetryable,
			rivertype.JobStateRunning, rivertype.JobStateScheduled)
		if t.Status == storage.TournamentFinished && len(left) == 0 {
			return t
		}
		select {
		case <-events:
		case <-guard:
			for _, j := range r.tournamentJobs(id, rivertype.JobStateCompleted, rivertype.JobStateDiscarded, rivertype.JobStateCancelled) {
				r.t.Logf("job %d: %s, due at %v, attempt %d, errors %v", j.ID, j.State, j.Args.At, j.Attempt, j.Errors)
			}
			r.t.Fatalf("the tournament never finished: %s after %d rounds, %d jobs left", t.Status, len(t.Rounds), len(left))
		}
	}
}

// advanceLog is an Advancer that advances with a bot, failing its first
// failFirst calls, and counts the calls.
type advanceLog struct {
	b         *bot.Bot
	failFirst int64
	calls     atomic.Int64
}

var errFlaky = errors.New("the worker failed")

func (a *advanceLog) AdvanceTournament(ctx context.Context, id storage.TournamentID, at time.Time) error {
	if a.calls.Add(1) <= a.failFirst {
		return errFlaky
	}
	return a.b.AdvanceTournament(ctx, id, at)
}

// TestSwissOfAIsRunsOnJobsAlone: a Swiss of four AI entrants, started
// through the store, runs from its first pairing to its podium on a
// worker's jobs alone — no bot runs the timers that poll the tournaments
// — and every advance was a tournament's job: one per start and per
// game's end. (Before the tournaments were jobs, nothing paired the
// first round without a bot's tick.)
func TestSwissOfAIsRunsOnJobsAlone(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	b := r.tournamentBot("worker-t", time.Now)
	adv := &advanceLog{b: b}
	w := r.workerWith("worker-t", b, func(c *Config) { c.Tournaments = adv })
	events, cancel := w.client.Subscribe(river.EventKindJobCompleted)
	defer cancel()
	tr := r.swiss(3, time.Time{}, storage.AI("minimax"), storage.AI("greedy"), storage.AI("random"), storage.AI("mcts"))
	if _, err := r.store.SetTournamentStatus(context.Background(), tr.ID, storage.TournamentRunning); err != nil {
		t.Fatal(err)
	}
	done := r.waitFinished(events, tr.ID)
	if len(done.Rounds) != 3 || len(done.PendingGames()) != 0 || !slices.ContainsFunc(done.Entrants, func(e storage.Entrant) bool { return e.Rank == 1 }) {
		t.Errorf("the finished Swiss has %d rounds, %d games on, entrants %+v; want 3 rounds played to the podium",
			len(done.Rounds), len(done.PendingGames()), done.Entrants)
	}
	jobs := r.tournamentJobs(tr.ID, rivertype.JobStateCompleted)
	// Each round's pairing also schedules, storage.AnnounceGrace later,
	// the job that would post its pairings had the pairing process
	// stopped first: those that ran by now count too.
	announces := 0
	for _, j := range jobs {
		if slices.ContainsFunc(done.Rounds, func(r storage.Round) bool { return j.Args.At.Equal(r.PairedAt.Add(storage.AnnounceGrace)) }) {
			announces++
		}
	}
	if want := 1 + len(done.Games()) + announces; len(jobs) != want || adv.calls.Load() != int64(want) {
		t.Errorf("%d tournament jobs completed, %d advances; want %d: the start's, one a game and %d rounds' announcements", len(jobs), adv.calls.Load(), want, announces)
	}
}

// TestTournamentStartsAtItsTimeByItsJob: a tournament created with a
// start time has a job scheduled then; run early (the database's clock
// ahead of the bot's) it waits, a snooze, and at its time it starts the
// tournament and pairs its first round, once, however often it runs.
func TestTournamentStartsAtItsTimeByItsJob(t *testing.T) {
	t.Parallel()
	r := newDeadlineRig(t)
	b := r.tournamentBot("worker-t", r.clk.Now)
	tr := r.swiss(2, r.clk.Now().Add(time.Hour), storage.User(r.ds.AddUser("ann").ID), storage.User(r.ds.AddUser("bob").ID),
		storage.User(r.ds.AddUser("cid").ID), storage.User(r.ds.AddUser("dee").ID))
	jobs := r.tournamentJobs(tr.ID, rivertype.JobStateScheduled)
	if len(jobs) != 1 || jobs[0].ScheduledAt.Sub(tr.StartAt).Abs() >= time.Microsecond {
		t.Fatalf("the tournament's scheduled jobs are %v, want one at %v", jobs, tr.StartAt)
	}
	w := &tournamentWorker{a: b}
	ctx := context.Background()

	r.clk.Advance(time.Hour - time.Second)
	var snooze *rivertype.JobSnoozeError
	if err := w.Work(ctx, jobs[0]); !errors.As(err, &snooze) {
		t.Fatalf("the job run a second early: %v, want a snooze", err)
	}
	if got := r.tournament(tr.ID); got.Status != storage.TournamentAnnounced {
		t.Fatalf("a second early the tournament is %s", got.Status)
	}

	r.clk.Advance(time.Second)
	for range 2 {
		if err := w.Work(ctx, jobs[0]); err != nil {
			t.Fatal(err)
		}
	}
	got := r.tournament(tr.ID)
	if got.Status != storage.TournamentRunning || len(got.Rounds) != 1 || len(got.PendingGames()) != 2 {
		t.Fatalf("at its time the tournament is %s with %d rounds and %d games on; want running, round 1's two games on",
			got.Status, len(got.Rounds), len(got.PendingGames()))
	}
	// The start notice, the pairings and the two boards (in the round's
	// thread), once.
	if n := len(r.ds.ChannelAndThreads(r.ds.ChannelID())); n != 4 {
		t.Errorf("%d messages in the channel and its threads, want 4: the start, the pairings and two boards", n)
	}
}

// TestTwoWorkersPairARoundOnce: the same job run by two workers at once,
// each a process of its own, pairs the round once and posts its pairings
// and boards once: the store's transaction lets one record it, and only
// that one posts.
func TestTwoWorkersPairARoundOnce(t *testing.T) {
	t.Parallel()
	r := newDeadlineRig(t)
	players := []storage.PlayerID{storage.User(r.ds.AddUser("ann").ID), storage.User(r.ds.AddUser("bob").ID),
		storage.User(r.ds.AddUser("cid").ID), storage.User(r.ds.AddUser("dee").ID)}
	tr := r.swiss(2, time.Time{}, players...)
	if _, err := r.store.SetTournamentStatus(context.Background(), tr.ID, storage.TournamentRunning); err != nil {
		t.Fatal(err)
	}
	jobs := r.tournamentJobs(tr.ID, rivertype.JobStateAvailable)
	if len(jobs) != 1 {
		t.Fatalf("%d jobs after the start, want 1", len(jobs))
	}
	workers := []*tournamentWorker{{a: r.tournamentBot("worker-a", r.clk.Now)}, {a: r.tournamentBot("worker-b", r.clk.Now)}}
	var wg sync.WaitGroup
	errs := make([]error, len(workers))
	for i, w := range workers {
		wg.Go(func() { errs[i] = w.Work(context.Background(), jobs[0]) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	got := r.tournament(tr.ID)
	if len(got.Rounds) != 1 || len(got.PendingGames()) != 2 {
		t.Fatalf("after two runs the tournament has %d rounds, %d games on; want round 1's two", len(got.Rounds), len(got.PendingGames()))
	}
	if n := len(r.ds.ChannelAndThreads(r.ds.ChannelID())); n != 3 {
		t.Errorf("%d messages in the channel and its threads, want 3: the pairings and two boards, once", n)
	}
}

// TestFailedTournamentJobIsRetried: a worker whose first advance fails
// (its store or Discord down) leaves the job to River, which runs it
// again, and the tournament still ends.
func TestFailedTournamentJobIsRetried(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	b := r.tournamentBot("worker-t", time.Now)
	adv := &advanceLog{b: b, failFirst: 1}
	w := r.workerWith("worker-t", b, func(c *Config) { c.Tournaments = adv })
	events, cancel := w.client.Subscribe(river.EventKindJobCompleted)
	defer cancel()
	tr := r.swiss(1, time.Time{}, storage.AI("minimax"), storage.AI("random"))
	if _, err := r.store.SetTournamentStatus(context.Background(), tr.ID, storage.TournamentRunning); err != nil {
		t.Fatal(err)
	}
	done := r.waitFinished(events, tr.ID)
	if len(done.Rounds) != 1 {
		t.Errorf("the finished Swiss has %d rounds, want 1", len(done.Rounds))
	}
	var retried int
	for _, j := range r.tournamentJobs(tr.ID, rivertype.JobStateCompleted) {
		if j.Attempt > 1 {
			retried++
			if len(j.Errors) != 1 || j.Errors[0].Error == "" {
				t.Errorf("the retried job's errors are %+v, want the first attempt's", j.Errors)
			}
		}
	}
	if retried != 1 {
		t.Errorf("%d jobs completed after a retry, want the one that failed", retried)
	}
}

// stuckAdvancer is an Advancer whose advances hang until their worker
// stops, and says when one has begun.
type stuckAdvancer struct{ begun chan struct{} }

func (s stuckAdvancer) AdvanceTournament(ctx context.Context, _ storage.TournamentID, _ time.Time) error {
	select {
	case s.begun <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return ctx.Err()
}

// TestTournamentJobOfAStoppedWorkerRunsElsewhere: a worker stopped in the
// middle of a tournament's job (its advance cut short) leaves the job to
// River, and another worker runs it: the tournament still ends.
func TestTournamentJobOfAStoppedWorkerRunsElsewhere(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	stuck := stuckAdvancer{begun: make(chan struct{}, 1)}
	a := r.workerWith("worker-a", r.bot("worker-a"), func(c *Config) { c.Tournaments = stuck })
	tr := r.swiss(1, time.Time{}, storage.AI("minimax"), storage.AI("random"))
	if _, err := r.store.SetTournamentStatus(context.Background(), tr.ID, storage.TournamentRunning); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stuck.begun:
	case <-time.After(waitLimit):
		t.Fatal("worker A never took the start's job")
	}
	if err := a.client.StopAndCancel(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := r.tournament(tr.ID); len(got.Rounds) != 0 {
		t.Fatalf("worker A's cut advance paired %d rounds", len(got.Rounds))
	}
	b := r.tournamentBot("worker-b", time.Now)
	w := r.workerWith("worker-b", b, func(c *Config) { c.Tournaments = b })
	events, cancel := w.client.Subscribe(river.EventKindJobCompleted)
	defer cancel()
	done := r.waitFinished(events, tr.ID)
	if len(done.Rounds) != 1 {
		t.Errorf("the finished Swiss has %d rounds, want 1", len(done.Rounds))
	}
}
