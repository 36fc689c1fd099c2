package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/aiqueue"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres"
)

const workerUsage = `
Usage: gambit worker

Plays the AI turns that gambit bot and gambit serve processes queue on the
PostgreSQL database, until SIGINT or SIGTERM: it searches, commits the move
and shows it on the board through Discord's REST API. It also makes the
games' reviews members ask for, on review threads of their own at a lower
priority, and ends the games whose deadline passed (challenges nobody
answered, turns nobody played), each a job scheduled when the game was saved,
and runs the tournaments: their start at the time set, each round's pairing
and the podium, each a job scheduled by the change that made it due. It opens no gateway
and no endpoint; run as many as the AI load needs, on any machines that
reach the database. A worker that dies loses no turn: another plays it.
Settings come from the environment and from a .env file (see gambit bot):

  DISCORD_TOKEN          the bot token (required)
  DISCORD_API_URL        send Discord API requests to this base URL (a REST proxy)
  GAMBIT_DATABASE_URL    the PostgreSQL database of the bot (required)
  GAMBIT_DB_POOLER       pgbouncer when the URL is PgBouncer's in transaction pooling mode (default none)
  GAMBIT_DB_MAX_CONNS    this process's database connections at most (default: search and review threads + 7)
  GAMBIT_SEARCH_THREADS  turns played at once, one thread each (default: the machine's cores)
  GAMBIT_REVIEW_THREADS  reviews made at once, beside the turns (default: search threads − 1, at least 1)
  GAMBIT_REVIEW_NICE     the review threads' OS priority (nice), 10 to 19 (default 19, the lowest)
  GAMBIT_AI_HASH_MIB     each AI search's transposition table in MiB (default 32)
  GAMBIT_CLAIM_TTL       how long a dead worker's turn waits for another (default 30s)
  GAMBIT_SHUTDOWN_TIMEOUT  how long a stop waits for the searches under way before
                         handing them to another worker (default 7s)
  GAMBIT_REDIS_URL       the Redis server where the bot's processes share Discord's rate limits
  GAMBIT_REDIS_TIMEOUT   how long a request waits for Redis before this process keeps the limits
                         on its own, asking Redis again each second (default 50ms)
  GAMBIT_REST_RATE       Discord's global limit of the bot's REST requests per second (default 50)
  GAMBIT_LOG_LEVEL       debug, info, warn or error (default info)`

// envAITurns says which processes play the AI turns on PostgreSQL.
const envAITurns = "GAMBIT_AI_TURNS"

// runWorker runs an AI worker.
func runWorker(args []string, sio stdio) error {
	fs := newFlagSet("worker", workerUsage, sio.out)
	if err := fs.parse(args); err != nil {
		return err
	}
	url := os.Getenv(envDatabaseURL)
	if url == "" {
		return fmt.Errorf("%s is not set: gambit worker plays the AI turns queued on PostgreSQL; with the database file, gambit bot plays them itself", envDatabaseURL)
	}
	cfg, level, err := botSettings(true)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(sio.err, &slog.HandlerOptions{Level: level}))
	cfg.Logger = log
	runtime.GOMAXPROCS(bot.Procs(cfg))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	closeLimits, err := restLimits(ctx, &cfg)
	if err != nil {
		return err
	}
	defer closeLimits()
	store, err := openStore(ctx, url, "", serving, storeRole{jobs: aiJobs(cfg)})
	if err != nil {
		return err
	}
	defer func() {
		if err := store.Close(); err != nil {
			log.Error("close the database", "err", err)
		}
	}()
	// The turn after one a worker plays goes to the queue too when an AI
	// plays it (a game between two AIs), for whichever worker is free.
	if cfg.AI.Queue, err = aiQueue(store, log); err != nil {
		return err
	}
	// The tournaments' advances are this worker's jobs: a game of a
	// tournament it ends schedules one, and it runs none off the queue.
	cfg.Games.Tournaments = tournamentJobs(store)
	b, err := bot.New(cfg, store)
	if err != nil {
		return err
	}
	if err := b.PrepareWorker(); err != nil {
		return err
	}
	w, err := startAIWorker(ctx, store, b, cfg, log)
	if err != nil {
		return err
	}
	log.Info("AI worker running", "version", version(), "db", storeName(store), "search_threads", cfg.AI.SearchThreads)
	<-ctx.Done()
	log.Info("shutting down: finishing the searches under way", "within", cfg.Lifecycle.ShutdownTimeout)
	return stopAIWorker(w, cfg)
}

// aiTurnsHere reads GAMBIT_AI_TURNS: whether a bot or serve process on
// PostgreSQL plays queued AI turns too ("here", the default, so that one
// process alone plays its games), or leaves them to gambit worker
// processes ("workers").
func aiTurnsHere() (bool, error) {
	switch v := strings.TrimSpace(os.Getenv(envAITurns)); v {
	case "", "here":
		return true, nil
	case "workers":
		return false, nil
	default:
		return false, fmt.Errorf("%s=%q: want here (this process plays AI turns too) or workers (gambit worker processes play them)", envAITurns, v)
	}
}

// aiQueue returns the queue of AI turns and reviews on a PostgreSQL
// store, nil on bbolt, whose bot plays its turns and makes its reviews in
// process.
func aiQueue(store storage.Admin, log *slog.Logger) (*aiqueue.Queue, error) {
	pg, ok := store.(*postgres.Store)
	if !ok {
		return nil, nil
	}
	return aiqueue.NewQueue(pg.Pool(), log)
}

// deadlines returns the scheduler of the games' deadlines as jobs of the
// queue of a PostgreSQL store, nil on bbolt, whose bot looks for the due
// games itself.
func deadlines(store storage.Admin) bot.Deadlines {
	if pg, ok := store.(*postgres.Store); ok {
		return pg
	}
	return nil
}

// tournamentJobs returns the scheduler of the tournaments' advances as
// jobs of the queue of a PostgreSQL store, nil on bbolt, whose bot runs
// them on its timers.
func tournamentJobs(store storage.Admin) bot.TournamentJobs {
	if pg, ok := store.(*postgres.Store); ok {
		return pg
	}
	return nil
}

// aiJobs is how many jobs a process working the queue runs at once: a
// turn per search thread, a review per review thread, the deadlines and
// the tournaments.
func aiJobs(cfg bot.Config) int {
	return searchThreads(cfg) + bot.ReviewThreads(cfg) + aiqueue.DefaultDeadlineWorkers + aiqueue.DefaultTournamentWorkers
}

// searchThreads is the process's AI search threads: cfg's, or the
// machine's cores.
func searchThreads(cfg bot.Config) int {
	if cfg.AI.SearchThreads > 0 {
		return cfg.AI.SearchThreads
	}
	return runtime.NumCPU()
}

// startAIWorker starts working the queue of AI turns of a PostgreSQL store
// with b, one turn per search thread, the games' reviews, one per review
// thread, the games' deadlines and the tournaments' advances.
func startAIWorker(ctx context.Context, store storage.Admin, b *bot.Bot, cfg bot.Config, log *slog.Logger) (*aiqueue.Worker, error) {
	pg, ok := store.(*postgres.Store)
	if !ok {
		return nil, errors.New("the AI turns' queue needs PostgreSQL")
	}
	w, err := aiqueue.NewWorker(pg.Pool(), b, aiqueue.Config{
		Workers: searchThreads(cfg), Deadlines: b, Tournaments: b, Reviews: b, ReviewWorkers: bot.ReviewThreads(cfg), ID: cfg.Shards.Instance, Logger: log, RescueAfter: cfg.Shards.ClaimTTL, PollOnly: pg.PollOnly(),
	})
	if err != nil {
		return nil, err
	}
	if err := w.Start(context.WithoutCancel(ctx)); err != nil {
		return nil, err
	}
	return w, nil
}

// stopAIWorker stops w, letting the searches under way finish within the
// shutdown timeout; past it they are cancelled, and their turns retried
// by another worker.
func stopAIWorker(w *aiqueue.Worker, cfg bot.Config) error {
	timeout := cfg.Lifecycle.ShutdownTimeout
	if timeout <= 0 {
		timeout = bot.DefaultShutdownTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return w.Stop(ctx)
}
