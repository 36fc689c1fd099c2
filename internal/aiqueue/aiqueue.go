// Package aiqueue puts the bot's AI turns on River (riverqueue.com), a job
// queue over the PostgreSQL database the games live in: bot and serve
// processes enqueue turns (Queue, the bot's Config.AI.Queue, which New
// chooses as where the AI turns go instead of its own workers) and any
// process working the queue (Worker: `gambit worker`, or a bot process that
// works it too) plays them through the bot's PlayAI. River hands each job
// to one worker (SELECT … FOR UPDATE SKIP LOCKED), wakes the workers by
// LISTEN/NOTIFY, retries a job whose worker failed or stopped mid-search
// and rescues one whose worker died; a job is unique per game and ply, and
// the move is committed against the game's version, so a turn is played
// once however often its job runs.
//
// The games' reviews are River jobs of their own queue (ReviewArgs), at
// the lowest priority and on review workers apart from the AI turns', so
// that no review holds up an AI turn; the bot's MakeReview makes them.
//
// The games' deadlines are River jobs too: storage/postgres schedules a
// game's job (postgres.DeadlineArgs) in the transaction that writes it
// with a deadline, River makes it available at that time, and a Worker
// given Config.Deadlines ends the game (the bot's EndDeadline) against
// its version, once, instead of every process polling for due games.
//
// So are the tournaments' advances (tournaments.go): a Worker given
// Config.Tournaments runs them, instead of every process polling its
// tournaments.
//
// River's tables are created and upgraded with Gambit's schema by
// storage/postgres (migrateQueue). The bot knows only its AIQueue,
// ReviewQueue and Deadlines interfaces; this package is the adapter the
// binary wires in.
package aiqueue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres"
)

// QueueName is River's queue of the AI turns.
const QueueName = "ai_turns"

// MaxAttempts is how many times a turn's job runs before River gives up
// on it (a turn given up stays awaiting the AI, and a bot's sweep at its
// start or when it takes over a shard queues it again).
const MaxAttempts = 5

// Args is a job: one AI turn. Only Key makes jobs the same: the turn's
// game and ply.
type Args struct {
	Turn bot.AITurn `json:"turn"`
	Key  string     `json:"key" river:"unique"`
}

// Kind implements river.JobArgs.
func (Args) Kind() string { return "gambit_ai_turn" }

// InsertOpts implements river.JobArgsWithInsertOpts: the turns' queue,
// and one job per turn while it waits, runs or after it completed.
func (Args) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueName, MaxAttempts: MaxAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// ReviewQueueName is River's queue of the games' reviews, worked by
// review workers of their own (Config.ReviewWorkers), apart from the AI
// turns: a review never holds up an AI turn.
const ReviewQueueName = "reviews"

// reviewPriority is River's lowest priority (1 is the highest, the AI
// turns' and deadlines'), so that where a worker were to share its
// slots, the reviews come last.
const reviewPriority = 4

// ReviewArgs is a job: one game's review.
type ReviewArgs struct {
	Review bot.ReviewJob `json:"review"`
}

// Kind implements river.JobArgs.
func (ReviewArgs) Kind() string { return "gambit_review" }

// InsertOpts implements river.JobArgsWithInsertOpts: the reviews' queue,
// at River's lowest priority (reviewPriority), and one attempt: a review
// whose worker died is not made again (its member asks again once their
// claim expires), since its interaction may not outlive the wait.
func (ReviewArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: ReviewQueueName, MaxAttempts: 1, Priority: reviewPriority}
}

// Queue enqueues AI turns and reviews on River: the bot's AIQueue and
// ReviewQueue.
type Queue struct {
	client *river.Client[pgx.Tx]
	pool   *pgxpool.Pool
}

var (
	_ bot.AIQueue     = (*Queue)(nil)
	_ bot.ReviewQueue = (*Queue)(nil)
)

// NewQueue returns a queue that inserts jobs through pool (an insert-only
// River client: it works none).
func NewQueue(pool *pgxpool.Pool, log *slog.Logger) (*Queue, error) {
	c, err := river.NewClient(riverpgxv5.New(pool), &river.Config{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("aiqueue: new client: %w", err)
	}
	return &Queue{client: c, pool: pool}, nil
}

// EnqueueAI implements bot.AIQueue: one job per turn not already queued,
// running or played.
func (q *Queue) EnqueueAI(ctx context.Context, turns ...bot.AITurn) error {
	if len(turns) == 0 {
		return nil
	}
	// One row per turn: PostgreSQL refuses a batch that inserts one
	// unique key twice.
	params := make([]river.InsertManyParams, 0, len(turns))
	seen := make(map[string]bool, len(turns))
	for _, t := range turns {
		if k := t.Key(); !seen[k] {
			seen[k] = true
			params = append(params, river.InsertManyParams{Args: Args{Turn: t, Key: k}})
		}
	}
	if _, err := q.client.InsertMany(ctx, params); err != nil {
		return fmt.Errorf("aiqueue: enqueue %d AI turns: %w", len(turns), err)
	}
	return nil
}

// ForgetAI implements bot.AIQueue: in one transaction it deletes the
// AI turns' and the reviews' jobs that are owner's (a turn's owner, a
// review's member), in every state River keeps (waiting, scheduled,
// retryable, given up, cancelled, completed), and scrubs the member and
// the interaction token from those running now, which River does not let
// go of (a turn's worker finds the game gone; a review's answers nobody).
// A job queued after this, by a click that raced /privacy delete, is not
// seen.
func (q *Queue) ForgetAI(ctx context.Context, owner string) error {
	err := pgx.BeginFunc(ctx, q.pool, func(tx pgx.Tx) error {
		// A turn's owner is a player ID; a review's member, the Discord
		// user ID within it.
		member, _ := storage.PlayerID(owner).UserID()
		for _, job := range []struct{ kind, args, field, id string }{
			{Args{}.Kind(), "turn", "owner", owner},
			{ReviewArgs{}.Kind(), "review", "member", member},
		} {
			if job.id == "" {
				continue
			}
			if _, err := tx.Exec(ctx, `DELETE FROM river_job
				WHERE kind = $1 AND state <> 'running' AND args->$2->>$3 = $4`, job.kind, job.args, job.field, job.id); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE river_job SET args = jsonb_set(args, ARRAY[$2::text], (args->$2) - $3::text - 'token')
				WHERE kind = $1 AND args->$2->>$3 = $4`, job.kind, job.args, job.field, job.id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("aiqueue: forget the AI turns of a member: %w", err)
	}
	return nil
}

// EnqueueReview implements bot.ReviewQueue: one job per review.
func (q *Queue) EnqueueReview(ctx context.Context, j bot.ReviewJob) error {
	if _, err := q.client.Insert(ctx, ReviewArgs{Review: j}, nil); err != nil {
		return fmt.Errorf("aiqueue: enqueue the review of game %s: %w", j.Game, err)
	}
	return nil
}

// Player plays a turn: *bot.Bot, after PrepareWorker or Run.
type Player interface {
	PlayAI(ctx context.Context, t bot.AITurn) error
}

// Reviewer makes a game's review: *bot.Bot, after PrepareWorker or Run.
type Reviewer interface {
	MakeReview(ctx context.Context, j bot.ReviewJob) error
}

// Ender ends the games whose deadline passed: *bot.Bot.
type Ender interface {
	EndDeadline(ctx context.Context, id storage.GameID, version uint64) error
}

// Config configures Work.
type Config struct {
	// Workers is how many turns this process plays at once: its search
	// threads.
	Workers int
	// Deadlines, if not nil, ends the games whose deadline's job this
	// worker takes (postgres.DeadlineArgs), DeadlineWorkers at once; nil
	// leaves them to the other workers.
	Deadlines Ender
	// DeadlineWorkers is how many deadlines this process ends at once;
	// 0 means DefaultDeadlineWorkers.
	DeadlineWorkers int
	// Tournaments, if not nil, runs what is due of the tournaments whose
	// job this worker takes (postgres.TournamentArgs), TournamentWorkers
	// at once; nil leaves them to the other workers.
	Tournaments Advancer
	// TournamentWorkers is how many tournaments this process advances at
	// once; 0 means DefaultTournamentWorkers.
	TournamentWorkers int
	// Reviews, if not nil, makes the games' reviews this worker takes
	// (ReviewArgs), ReviewWorkers at once, on workers of their own;
	// nil leaves them to the other workers.
	Reviews Reviewer
	// ReviewWorkers is how many reviews this process makes at once: its
	// review threads (bot.ReviewThreads); 0 means one.
	ReviewWorkers int
	// ID names the process among River's clients (the bot's Instance).
	ID string
	// Logger receives River's logs; nil means slog.Default().
	Logger *slog.Logger
	// RetryAfter is how long after a failed attempt a turn is tried
	// again; 0 means a second. A player is waiting.
	RetryAfter time.Duration
	// PollOnly makes the worker poll for jobs (every pollInterval)
	// instead of listening for them, behind a pooler that has no
	// sessions for LISTEN (PgBouncer in transaction pooling mode).
	PollOnly bool
	// RescueAfter is how long a job may stay running beyond its turn's
	// search before River takes its worker for dead and runs it again
	// elsewhere (River's rescuer looks every 30 seconds); 0 means
	// DefaultRescueAfter. Give the bot's ClaimTTL: a job rescued from a
	// worker still alive — its store or board's edits slower than this —
	// finds the turn claimed and waits (ErrTurnBusy), then finds it
	// played. The attempt itself may take jobMargin beyond its search.
	RescueAfter time.Duration
}

// DefaultRescueAfter is Config.RescueAfter's default, the bot's claim's.
const DefaultRescueAfter = bot.DefaultClaimTTL

// DefaultDeadlineWorkers is Config.DeadlineWorkers's default: ending a
// game is a store write and a board's edit, no search.
const DefaultDeadlineWorkers = 2

// pollInterval is how often a PollOnly worker looks for jobs: a player
// waits for the AI's move, so more often than River's default second.
const pollInterval = 200 * time.Millisecond

// jobMargin is the time an attempt at a turn may take beyond its search:
// the store and the board's edits. It bounds the attempt only: River's
// rescuer takes a dead worker's job after Config.RescueAfter beyond the
// search (turnWorker.Timeout).
const jobMargin = time.Minute

// Worker is a River client that plays the queued AI turns and, given
// Config.Deadlines, ends the games whose deadline passed and, given
// Config.Tournaments, advances the tournaments.
type Worker struct {
	client *river.Client[pgx.Tx]
}

// NewWorker returns a worker of the AI turns queued in pool's database,
// of the deadlines with Config.Deadlines and of the tournaments with
// Config.Tournaments; Start starts it.
func NewWorker(pool *pgxpool.Pool, p Player, cfg Config) (*Worker, error) {
	if cfg.Workers < 1 {
		return nil, fmt.Errorf("aiqueue: %d workers: want at least one", cfg.Workers)
	}
	if cfg.RetryAfter <= 0 {
		cfg.RetryAfter = time.Second
	}
	if cfg.RescueAfter <= 0 {
		cfg.RescueAfter = DefaultRescueAfter
	}
	if cfg.DeadlineWorkers <= 0 {
		cfg.DeadlineWorkers = DefaultDeadlineWorkers
	}
	if cfg.TournamentWorkers <= 0 {
		cfg.TournamentWorkers = DefaultTournamentWorkers
	}
	workers := river.NewWorkers()
	queues := map[string]river.QueueConfig{QueueName: {MaxWorkers: cfg.Workers}}
	if err := river.AddWorkerSafely(workers, &turnWorker{p: p, rescueAfter: cfg.RescueAfter}); err != nil {
		return nil, fmt.Errorf("aiqueue: %w", err)
	}
	if cfg.Deadlines != nil {
		if err := river.AddWorkerSafely(workers, &deadlineWorker{e: cfg.Deadlines}); err != nil {
			return nil, fmt.Errorf("aiqueue: %w", err)
		}
		queues[postgres.DeadlineQueue] = river.QueueConfig{MaxWorkers: cfg.DeadlineWorkers}
	}
	if cfg.Tournaments != nil {
		if err := river.AddWorkerSafely(workers, &tournamentWorker{a: cfg.Tournaments}); err != nil {
			return nil, fmt.Errorf("aiqueue: %w", err)
		}
		queues[postgres.TournamentQueue] = river.QueueConfig{MaxWorkers: cfg.TournamentWorkers}
	}
	if cfg.Reviews != nil {
		if err := river.AddWorkerSafely(workers, &reviewWorker{r: cfg.Reviews}); err != nil {
			return nil, fmt.Errorf("aiqueue: %w", err)
		}
		queues[ReviewQueueName] = river.QueueConfig{MaxWorkers: max(cfg.ReviewWorkers, 1)}
	}
	rc := &river.Config{
		ID:                   cfg.ID,
		Logger:               cfg.Logger,
		Queues:               queues,
		Workers:              workers,
		JobTimeout:           cfg.RescueAfter, // every turn has its own (turnWorker.Timeout)
		RescueStuckJobsAfter: cfg.RescueAfter,
		RetryPolicy:          retryAfter(cfg.RetryAfter),
		PollOnly:             cfg.PollOnly,
	}
	if cfg.PollOnly {
		rc.FetchPollInterval = pollInterval
	}
	c, err := river.NewClient(riverpgxv5.New(pool), rc)
	if err != nil {
		return nil, fmt.Errorf("aiqueue: new worker: %w", err)
	}
	return &Worker{client: c}, nil
}

// Start starts working the queues until ctx is done or Stop.
func (w *Worker) Start(ctx context.Context) error {
	if err := w.client.Start(ctx); err != nil {
		return fmt.Errorf("aiqueue: start worker: %w", err)
	}
	return nil
}

// Stop stops taking turns and waits for those under way until ctx is
// done; then it cancels them (their jobs are retried by another worker)
// and waits for them to return.
func (w *Worker) Stop(ctx context.Context) error {
	err := w.client.Stop(ctx)
	if err == nil {
		return nil
	}
	if cerr := w.client.StopAndCancel(context.WithoutCancel(ctx)); cerr != nil {
		return fmt.Errorf("aiqueue: stop worker: %w", errors.Join(err, cerr))
	}
	return nil
}

// turnWorker is River's worker of the Args jobs.
type turnWorker struct {
	river.WorkerDefaults[Args]
	p           Player
	rescueAfter time.Duration // Config.RescueAfter
}

// Work plays the turn. An error makes River try again, up to MaxAttempts;
// a turn another worker holds waits until that one's search should be
// over (a snooze, which River does not count as an attempt). The attempt
// runs on the context River gave before its timeout (outerContext),
// bounded by the search and jobMargin instead.
func (w *turnWorker) Work(ctx context.Context, job *river.Job[Args]) error {
	if outer, ok := ctx.Value(outerContext{}).(context.Context); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(outer, searchTime(job)+jobMargin)
		defer cancel()
	}
	turn := job.Args.Turn
	turn.Retry = job.Attempt > 1 // an earlier attempt may have played it and died
	err := w.p.PlayAI(ctx, turn)
	if errors.Is(err, bot.ErrTurnBusy) {
		return snoozeUntil(job.Args.Turn.Deadline)
	}
	return err
}

// Timeout is River's timeout of an attempt at a turn, which is also how
// long its rescuer leaves the job of a worker that died: the search and
// RescueAfter. River would end the attempt then; Work keeps it going
// until jobMargin beyond the search.
func (w *turnWorker) Timeout(job *river.Job[Args]) time.Duration {
	return searchTime(job) + w.rescueAfter
}

// Middleware gives Work the context River runs it on before its timeout.
func (w *turnWorker) Middleware(*rivertype.JobRow) []rivertype.WorkerMiddleware {
	return []rivertype.WorkerMiddleware{river.WorkerMiddlewareFunc(keepOuterContext)}
}

// outerContext is the key of the context River runs an attempt on before
// it adds its timeout (keepOuterContext): cancelled when the worker stops.
type outerContext struct{}

func keepOuterContext(ctx context.Context, _ *rivertype.JobRow, doInner func(context.Context) error) error {
	return doInner(context.WithValue(ctx, outerContext{}, ctx))
}

// searchTime is the longest an attempt at a turn searches: until the
// turn's deadline, or its move time if that passed (a retry).
func searchTime(job *river.Job[Args]) time.Duration {
	return max(job.Args.Turn.MoveTime, time.Until(job.Args.Turn.Deadline))
}

// reviewTimeout is how long a review's attempt may run, and how long
// River's rescuer leaves the job of a worker that died: the 15 minutes
// of the interaction the review answers, past which it could not be
// shown (a review's node budget keeps it far shorter).
const reviewTimeout = 15 * time.Minute

// reviewWorker is River's worker of the reviews' jobs.
type reviewWorker struct {
	river.WorkerDefaults[ReviewArgs]
	r Reviewer
}

// Work makes the review; it stops between positions once ctx is done
// (the worker stopping, or the timeout).
func (w *reviewWorker) Work(ctx context.Context, job *river.Job[ReviewArgs]) error {
	return w.r.MakeReview(ctx, job.Args.Review)
}

// Timeout is River's timeout of a review's attempt: reviewTimeout.
func (w *reviewWorker) Timeout(*river.Job[ReviewArgs]) time.Duration { return reviewTimeout }

// deadlineWorker is River's worker of the deadlines' jobs.
type deadlineWorker struct {
	river.WorkerDefaults[postgres.DeadlineArgs]
	e Ender
}

// Work ends the game if its deadline passed at the job's version. A job
// that runs before the deadline by this process's clock (River times it
// by the database's) waits for it, a snooze.
func (w *deadlineWorker) Work(ctx context.Context, job *river.Job[postgres.DeadlineArgs]) error {
	err := w.e.EndDeadline(ctx, job.Args.Game, job.Args.Version)
	if errors.Is(err, bot.ErrNotDue) {
		return snoozeUntil(job.Args.At)
	}
	return err
}

// snoozeUntil has River run a job again a second after at (River's
// clock is the database's, which may be behind this process's).
func snoozeUntil(at time.Time) error {
	return river.JobSnooze(max(time.Until(at), 0) + time.Second)
}

// retryAfter is the retry policy of the AI turns: a fixed wait, as a
// player is waiting for the move. Other jobs (the deadlines) back off as
// River's default policy does.
type retryAfter time.Duration

// NextRetry implements river.ClientRetryPolicy.
func (d retryAfter) NextRetry(job *rivertype.JobRow) time.Time {
	if job.Kind != (Args{}).Kind() {
		return (&river.DefaultClientRetryPolicy{}).NextRetry(job)
	}
	return time.Now().Add(time.Duration(d))
}
