package aiqueue

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
	"github.com/gambitbot/gambit/storage/storetest"
)

// waitLimit only guards against a hang: nothing in these tests is timed.
const waitLimit = 2 * time.Minute

// TestMain runs the tests six at a time (discordtest.WaitingTests): each
// on a schema of its own, they wait on the database and River more than
// they compute.
func TestMain(m *testing.M) {
	discordtest.WaitingTests(6)
	racetest.Exit(m.Run())
}

// rig is a shared database, a stand-in Discord and a game awaiting the
// AI's first move, as the processes of a deployment see them.
type rig struct {
	t     *testing.T
	url   string
	opts  *postgres.Options // of every process's store
	store *postgres.Store
	ds    *discordtest.Server
	game  *storage.Game
	// done are the completed jobs of each worker tracked (track).
	done map[*Worker]<-chan *river.Event
}

func newRig(t *testing.T) *rig { return newRigAt(t, pgtest.URL(t), nil) }

// newRigAt is newRig on the database at url, opened with opts.
func newRigAt(t *testing.T, url string, opts *postgres.Options) *rig {
	t.Helper()
	return newRigAgainst(t, url, opts, "minimax")
}

// newRigAgainst is newRigAt with the strategy ai opening the game.
func newRigAgainst(t *testing.T, url string, opts *postgres.Options, ai string) *rig {
	t.Helper()
	s, err := postgres.Open(context.Background(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	ds := discordtest.New()
	t.Cleanup(ds.Close)
	g := storetest.UserVsAI("connect4", ds.AddUser("ann").ID)                     // a user Discord knows, whom the board mentions
	g.Players[0], g.Players[1] = storage.Player{ID: storage.AI(ai)}, g.Players[0] // the AI opens
	g.GuildID, g.ChannelID, g.MessageID = ds.GuildID(), ds.ChannelID(), ""
	storetest.MustCreate(t, s, g)
	if !g.AwaitingAI() {
		t.Fatal("the game does not await the AI")
	}
	return &rig{t: t, url: url, opts: opts, store: s, ds: ds, game: g}
}

// turn is the AI's turn in the rig's game, searching for d.
func (r *rig) turn(d time.Duration) bot.AITurn {
	return bot.AITurn{Game: r.game.ID, Ply: 0, Owner: string(r.game.Players[1].ID), Deadline: time.Now().Add(d), MoveTime: d, Queued: time.Now()}
}

// bot returns a bot of a worker process: REST only, no gateway.
func (r *rig) bot(instance string) *bot.Bot {
	r.t.Helper()
	b, err := bot.New(bot.Config{
		Token: r.ds.Token(), REST: bot.RESTConfig{APIURL: r.ds.URL()}, Shards: bot.ShardConfig{Instance: instance},
		Timers: bot.TimerConfig{ProgressInterval: time.Millisecond, TickInterval: time.Millisecond}, Logger: slog.New(slog.DiscardHandler),
	}, r.store)
	if err != nil {
		r.t.Fatal(err)
	}
	if err := b.PrepareWorker(); err != nil {
		r.t.Fatal(err)
	}
	return b
}

// queue returns the insert-only queue of a bot or serve process, on a
// store of its own.
func (r *rig) queue() *Queue {
	r.t.Helper()
	s, err := postgres.Open(context.Background(), r.url, r.opts)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { _ = s.Close() })
	q, err := NewQueue(s.Pool(), slog.New(slog.DiscardHandler))
	if err != nil {
		r.t.Fatal(err)
	}
	return q
}

// worker starts a worker process named instance playing turns with p;
// it is stopped at the end of the test unless the test stopped it.
func (r *rig) worker(instance string, p Player) *Worker { return r.workerWith(instance, p, nil) }

// workerWith is worker with its Config changed by edit, if not nil.
func (r *rig) workerWith(instance string, p Player, edit func(*Config)) *Worker {
	r.t.Helper()
	s, err := postgres.Open(context.Background(), r.url, r.opts)
	if err != nil {
		r.t.Fatal(err)
	}
	cfg := Config{Workers: 1, ID: instance, Logger: slog.New(slog.DiscardHandler), RetryAfter: time.Millisecond, PollOnly: s.PollOnly()}
	if edit != nil {
		edit(&cfg)
	}
	w, err := NewWorker(s.Pool(), p, cfg)
	if err != nil {
		r.t.Fatal(err)
	}
	r.track(w)
	if err := w.Start(context.Background()); err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() {
		_ = w.client.StopAndCancel(context.Background())
		_ = s.Close()
	})
	return w
}

// track subscribes to the jobs w completes, for completed; before w
// starts, so that none is missed.
func (r *rig) track(w *Worker) {
	events, unsubscribe := w.client.Subscribe(river.EventKindJobCompleted)
	r.t.Cleanup(unsubscribe)
	if r.done == nil {
		r.done = map[*Worker]<-chan *river.Event{}
	}
	r.done[w] = events
}

// completed waits until w, a worker of r, completes its next job and
// returns it; nil after a failure it reports (t.Error, so that it may
// wait in a goroutine of its own).
func (r *rig) completed(t *testing.T, w *Worker) *rivertype.JobRow {
	t.Helper()
	select {
	case e := <-r.done[w]:
		return e.Job
	case <-time.After(waitLimit):
		t.Error("no job completed")
		return nil
	}
}

// moves returns the moves the store holds for the rig's game.
func (r *rig) moves() int {
	r.t.Helper()
	g, err := r.store.Game(context.Background(), r.game.ID)
	if err != nil {
		r.t.Fatal(err)
	}
	return len(g.Moves)
}

// jobs returns the jobs of the AI turns in the database.
func (r *rig) jobs(w *Worker) []*rivertype.JobRow {
	r.t.Helper()
	res, err := w.client.JobList(context.Background(), river.NewJobListParams().Kinds(Args{}.Kind()).First(100))
	if err != nil {
		r.t.Fatal(err)
	}
	return res.Jobs
}

// playerFunc is a Player made of a function.
type playerFunc func(ctx context.Context, t bot.AITurn) error

func (f playerFunc) PlayAI(ctx context.Context, t bot.AITurn) error { return f(ctx, t) }

// TestTurnIsPlayedByAnotherProcess: a turn enqueued by a bot process is
// played by a worker process, which commits the move and posts the board
// over REST.
func TestTurnIsPlayedByAnotherProcess(t *testing.T) {
	t.Parallel()
	testTurnIsPlayedByAnotherProcess(t, newRig(t))
}

// TestTurnIsPlayedBehindPgBouncer: the same through PgBouncer in
// transaction pooling mode, the worker polling for the job.
func TestTurnIsPlayedBehindPgBouncer(t *testing.T) {
	t.Parallel()
	testTurnIsPlayedByAnotherProcess(t, newRigAt(t, pgtest.PgBouncerURL(t), &postgres.Options{Pooler: postgres.PoolerPgBouncer}))
}

func testTurnIsPlayedByAnotherProcess(t *testing.T, r *rig) {
	w := r.worker("worker-b", r.bot("worker-b"))
	done := make(chan *rivertype.JobRow, 1)
	go func() { done <- r.completed(t, w) }()
	if err := r.queue().EnqueueAI(context.Background(), r.turn(50*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	job := <-done
	if job == nil {
		return
	}
	if len(job.AttemptedBy) != 1 || job.AttemptedBy[0] != "worker-b" {
		t.Errorf("the job was worked by %v, want worker-b", job.AttemptedBy)
	}
	if n := r.moves(); n != 1 {
		t.Errorf("%d moves stored after the AI's turn, want 1", n)
	}
	if msgs := r.ds.Messages(r.ds.ChannelID()); len(msgs) != 1 {
		t.Errorf("%d messages in the channel, want the board", len(msgs))
	}
}

// TestWorkerStoppedMidSearchLosesNothing: a worker stopped in the middle
// of a search (its context cancelled, as River's hard stop does) commits
// nothing; the job is retried by another worker, which commits the move,
// once.
func TestWorkerStoppedMidSearchLosesNothing(t *testing.T) {
	t.Parallel()
	// Monte Carlo searches until its deadline, where the Deep thinker
	// answers Connect Four's empty board from its book at once: the search
	// must still be under way when the worker stops, on any machine.
	r := newRigAgainst(t, pgtest.URL(t), nil, "mcts")
	var cancelled atomic.Bool
	slow := r.bot("worker-a")
	a := r.worker("worker-a", playerFunc(func(ctx context.Context, turn bot.AITurn) error {
		turn.Deadline, turn.MoveTime = time.Now().Add(bot.MaxMoveTime), bot.MaxMoveTime // never ends by itself in this test
		err := slow.PlayAI(ctx, turn)
		cancelled.Store(errors.Is(err, context.Canceled))
		return err
	}))
	if err := r.queue().EnqueueAI(context.Background(), r.turn(time.Second)); err != nil {
		t.Fatal(err)
	}
	// The search shows its progress on the board: it is under way.
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if _, err := r.ds.WaitMessage(ctx, func(m discordtest.Message) bool { return m.ChannelID == r.ds.ChannelID() }); err != nil {
		t.Fatal(err)
	}
	if err := a.client.StopAndCancel(ctx); err != nil {
		t.Fatal(err)
	}
	if !cancelled.Load() {
		t.Fatal("the stopped worker's search did not end by its context")
	}
	if n := r.moves(); n != 0 {
		t.Fatalf("the stopped worker committed %d moves", n)
	}
	fast := r.bot("worker-b")
	b := r.worker("worker-b", playerFunc(func(ctx context.Context, turn bot.AITurn) error {
		turn.Deadline, turn.MoveTime = time.Now(), 50*time.Millisecond
		return fast.PlayAI(ctx, turn)
	}))
	job := r.completed(t, b)
	if job == nil {
		return
	}
	// (River does not count an attempt its own stop cut short.)
	if len(job.AttemptedBy) != 2 || job.AttemptedBy[0] != "worker-a" || job.AttemptedBy[1] != "worker-b" {
		t.Errorf("worked by %v, want worker-a then worker-b", job.AttemptedBy)
	}
	if n := r.moves(); n != 1 {
		t.Errorf("%d moves stored, want 1", n)
	}
}

// TestARetryOfATurnSaysSo: the first attempt at a turn is no retry; the
// attempt after one that failed (or died) is, so that it shows a move the
// failed one played (bot.AITurn.Retry).
func TestARetryOfATurnSaysSo(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	attempts := make(chan bool, 8)
	w := r.worker("worker-r", playerFunc(func(_ context.Context, turn bot.AITurn) error {
		attempts <- turn.Retry
		if len(attempts) == 1 {
			return errors.New("the first attempt fails")
		}
		return nil
	}))
	if err := r.queue().EnqueueAI(context.Background(), r.turn(50*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if job := r.completed(t, w); job == nil {
		return
	}
	close(attempts)
	var retries []bool
	for r := range attempts {
		retries = append(retries, r)
	}
	if !slices.Equal(retries, []bool{false, true}) {
		t.Errorf("the attempts said retry %v, want [false true]", retries)
	}
}

// TestDuplicateTurnPlaysOneMove: two processes enqueue the same turn, and
// a stale job for it runs after the move was played (a worker River took
// for dead, still alive): one job, one move.
func TestDuplicateTurnPlaysOneMove(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	b := r.bot("worker-b")
	turn := r.turn(50 * time.Millisecond)
	for i, q := range []*Queue{r.queue(), r.queue()} {
		// Each process queues the turn as it saw it: its own times.
		again := turn
		again.Queued, again.Deadline = turn.Queued.Add(time.Duration(i)*time.Second), turn.Deadline.Add(time.Duration(i)*time.Second)
		if err := q.EnqueueAI(context.Background(), again, again); err != nil {
			t.Fatal(err)
		}
	}
	w := r.worker("worker-b", b)
	if job := r.completed(t, w); job == nil {
		return
	}
	if jobs := r.jobs(w); len(jobs) != 1 {
		t.Errorf("%d jobs for one turn, want 1", len(jobs))
	}
	// Queued again once played: nothing new.
	if err := r.queue().EnqueueAI(context.Background(), turn); err != nil {
		t.Fatal(err)
	}
	if jobs := r.jobs(w); len(jobs) != 1 {
		t.Errorf("%d jobs after queueing a played turn again, want 1", len(jobs))
	}
	// A job of the played turn that runs anyway ends without a move.
	if err := b.PlayAI(context.Background(), turn); err != nil {
		t.Errorf("a stale turn: %v, want nil (nothing to do)", err)
	}
	if n := r.moves(); n != 1 {
		t.Errorf("%d moves stored, want 1", n)
	}
}

// TestDeadWorkersTurnIsRescuedAfterRescueAfter: River's rescuer leaves
// the job of a worker that died until the job's timeout has passed, so
// that timeout is the turn's search and Config.RescueAfter (the bot's
// claim time), not the minute an attempt may take beyond its search.
func TestDeadWorkersTurnIsRescuedAfterRescueAfter(t *testing.T) {
	t.Parallel()
	w := &turnWorker{rescueAfter: 2 * time.Second}
	// A retry: the turn's deadline passed, it searches its move time.
	job := &river.Job[Args]{Args: Args{Turn: bot.AITurn{MoveTime: 300 * time.Millisecond, Deadline: time.Now().Add(-time.Second)}}}
	if got, want := w.Timeout(job), 2300*time.Millisecond; got != want {
		t.Errorf("River's timeout of the turn's job: %v, want the search and RescueAfter, %v", got, want)
	}
}

// TestAnAttemptOutlivesRiversTimeout: an attempt still under way when
// River's timeout (the search and RescueAfter) passed — its store or
// board's edits slow — goes on and plays the turn; River says the job
// appears stuck, and may rescue it meanwhile, which then finds the turn
// held (bot.ErrTurnBusy), then played.
func TestAnAttemptOutlivesRiversTimeout(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	stuck := make(chan struct{})
	var once atomic.Bool
	logs := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) {
		if bytes.Contains(p, []byte("Job appears to be stuck")) && once.CompareAndSwap(false, true) {
			close(stuck)
		}
	}), nil))
	s, err := postgres.Open(context.Background(), r.url, r.opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	var attempts atomic.Int32
	var played atomic.Bool
	player := playerFunc(func(ctx context.Context, turn bot.AITurn) error {
		if attempts.Add(1) > 1 { // the job rescued while the first attempt holds the turn, as the bot answers
			if played.Load() {
				return nil
			}
			return bot.ErrTurnBusy
		}
		select {
		case <-stuck: // River's timeout passed some seconds ago
		case <-ctx.Done():
		}
		if err := ctx.Err(); err != nil {
			t.Errorf("the attempt's context ended with River's timeout: %v", err)
			return err
		}
		played.Store(true)
		return nil
	})
	w, err := NewWorker(s.Pool(), player, Config{Workers: 1, ID: "worker-a", Logger: logs, RescueAfter: time.Millisecond, PollOnly: s.PollOnly()})
	if err != nil {
		t.Fatal(err)
	}
	r.track(w)
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.client.StopAndCancel(context.Background()) })
	if err := r.queue().EnqueueAI(context.Background(), r.turn(0)); err != nil {
		t.Fatal(err)
	}
	r.completed(t, w)
	if !played.Load() {
		t.Error("the first attempt did not play the turn")
	}
}

// writerFunc is an io.Writer made of a function.
type writerFunc func(p []byte)

func (f writerFunc) Write(p []byte) (int, error) {
	f(p)
	return len(p), nil
}
