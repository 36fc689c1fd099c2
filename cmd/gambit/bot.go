package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/ops"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
)

const botUsage = `
Usage: gambit bot

Runs the Discord bot until SIGINT or SIGTERM. Settings come from the
environment and from a .env file in the working directory (see .env.example):

  DISCORD_TOKEN          the bot token (required)
  DISCORD_GUILD_ID       register the commands in this server only (instant, for development)
  DISCORD_API_URL        send Discord API requests to this base URL (a REST proxy)
  GAMBIT_DB              the database file (default ./data/gambit.db)
  GAMBIT_DATABASE_URL    a PostgreSQL database (postgres://…) instead of the file
  GAMBIT_DB_POOLER       pgbouncer when that URL is PgBouncer's in transaction pooling mode (default none)
  GAMBIT_DB_MAX_CONNS    this process's database connections at most (default 10, plus search
                         and review threads + 7 when it plays AI turns too)
  GAMBIT_SHARDS          gateway shards of the whole bot: a count, or auto for Discord's (default 1)
  GAMBIT_SHARD_IDS       the shards this process runs: 0-3, 0,2, or auto to share them with the
                         other processes on the database and take over those of a dead one (default all)
  GAMBIT_AI_TURNS        on PostgreSQL: here (default) plays queued AI turns in this process too,
                         workers leaves them to gambit worker processes
  GAMBIT_CLAIM_TTL       how long a dead process's AI turns and shards wait for another (default 30s)
  GAMBIT_SHUTDOWN_TIMEOUT  how long a stop waits for the work under way (default 7s)
  GAMBIT_MOVE_TIME       default AI time per move (default 2s)
  GAMBIT_CHALLENGE_TTL   how long a challenge waits for an answer (default 5m)
  GAMBIT_TURN_TIMEOUT    how long a player may take per move (default 24h)
  GAMBIT_DEFAULT_AI      the AI of /play without opponent or ai (default minimax)
  GAMBIT_SEARCH_THREADS  total AI search threads (default: the machine's cores)
  GAMBIT_REVIEW_THREADS  games' reviews made at once, beside the search threads and below
                         their priority (default: search threads − 1, at least 1)
  GAMBIT_REVIEW_NICE     the review threads' OS priority (nice), 10 (the searches') to 19
                         (the lowest, the default)
  GAMBIT_REVIEW_RATE     reviews the members of one server may have made per hour, over all
                         the processes (default 20)
  GAMBIT_AI_HASH_MIB     each AI search's transposition table in MiB (default 32)
  GAMBIT_MAX_GAMES_PER_USER  a member's games in progress and challenges sent at most (default 10)
  GAMBIT_MAX_CHALLENGES  a member's challenges waiting for an answer at most (default 3)
  GAMBIT_LOG_LEVEL       debug, info, warn or error (default info)
  GAMBIT_REDIS_URL       share Discord's rate limits between the bot's processes on this Redis
                         server (redis://host:port/0); unset, each process keeps its own
  GAMBIT_REDIS_TIMEOUT   how long a request waits for Redis before this process keeps the limits
                         on its own, asking Redis again each second (default 50ms)
  GAMBIT_REST_RATE       Discord's global limit of the bot's REST requests per second (default 50)
  GAMBIT_OPS_ADDR        serve /healthz, /metrics and /backup here (":9090" is loopback only)
  GAMBIT_OPS_TOKEN       the bearer token /backup needs (at least 16 characters, hard to guess: openssl rand -hex 32); unset: /backup is off

Without a Discord token, try Gambit locally with 'gambit playground'.`

// runBot runs the Discord bot.
func runBot(args []string, sio stdio) error {
	fs := newFlagSet("bot", botUsage, sio.out)
	if err := fs.parse(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveBot(ctx, sio, gatewayMode)
}

// mode is how the bot receives interactions: on the gateway (gambit bot)
// or on an HTTP endpoint (gambit serve).
type mode struct {
	// check names the operations endpoint's health check of
	// bot.Connected.
	check string
	// run runs the bot until ctx is done.
	run func(ctx context.Context, b *bot.Bot) error
}

// gatewayMode is gambit bot's: a gateway connection.
var gatewayMode = mode{check: "gateway", run: func(ctx context.Context, b *bot.Bot) error { return b.Run(ctx) }}

// botSettings reads the bot's settings from the environment; the Discord
// ones only when needDiscord (the playground brings its own Discord).
func botSettings(needDiscord bool) (bot.Config, slog.Level, error) {
	cfg := bot.Config{AI: bot.AIConfig{Default: os.Getenv("GAMBIT_DEFAULT_AI")}}
	if needDiscord {
		cfg.Token = strings.TrimSpace(os.Getenv("DISCORD_TOKEN"))
		cfg.GuildID = os.Getenv("DISCORD_GUILD_ID")
		cfg.REST.APIURL = os.Getenv("DISCORD_API_URL")
	}
	if needDiscord && cfg.Token == "" {
		return cfg, 0, errors.New("DISCORD_TOKEN is not set: create a Discord application and put its bot token in .env " +
			"(see docs/server-admins.md), or try Gambit without Discord: gambit playground")
	}
	var errs []error
	duration := func(key string, into *time.Duration) {
		if v := os.Getenv(key); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				errs = append(errs, fmt.Errorf("%s=%q: want a positive duration such as 2s or 5m", key, v))
			}
			*into = d
		}
	}
	duration("GAMBIT_MOVE_TIME", &cfg.AI.MoveTime)
	duration("GAMBIT_CHALLENGE_TTL", &cfg.Games.ChallengeTTL)
	duration("GAMBIT_TURN_TIMEOUT", &cfg.Games.TurnTimeout)
	duration("GAMBIT_CLAIM_TTL", &cfg.Shards.ClaimTTL)
	duration("GAMBIT_SHUTDOWN_TIMEOUT", &cfg.Lifecycle.ShutdownTimeout)
	count := func(key string, into *int) {
		if v := os.Getenv(key); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				errs = append(errs, fmt.Errorf("%s=%q: want a whole number ≥ 1", key, v))
			}
			*into = n
		}
	}
	count("GAMBIT_SEARCH_THREADS", &cfg.AI.SearchThreads)
	count("GAMBIT_REVIEW_THREADS", &cfg.Review.Threads)
	count("GAMBIT_REVIEW_RATE", &cfg.Review.Rate)
	count("GAMBIT_AI_HASH_MIB", &cfg.AI.HashMiB)
	count("GAMBIT_MAX_GAMES_PER_USER", &cfg.Games.MaxPerUser)
	count("GAMBIT_MAX_CHALLENGES", &cfg.Games.MaxChallenges)
	// The sizes analyze allows (bounds.go): past them the first AI move
	// would run out of memory.
	if cfg.AI.HashMiB > maxHashMiB {
		errs = append(errs, fmt.Errorf("GAMBIT_AI_HASH_MIB=%d: at most %s", cfg.AI.HashMiB, thousands(maxHashMiB)))
	}
	if cfg.AI.SearchThreads > maxThreads {
		errs = append(errs, fmt.Errorf("GAMBIT_SEARCH_THREADS=%d: at most %d", cfg.AI.SearchThreads, maxThreads))
	}
	if cfg.Review.Threads > maxThreads {
		errs = append(errs, fmt.Errorf("GAMBIT_REVIEW_THREADS=%d: at most %d", cfg.Review.Threads, maxThreads))
	}
	if count("GAMBIT_REVIEW_NICE", &cfg.Review.Nice); cfg.Review.Nice != 0 && (cfg.Review.Nice < 10 || cfg.Review.Nice > 19) {
		errs = append(errs, fmt.Errorf("GAMBIT_REVIEW_NICE=%d: want 10 (the AI searches' priority) to 19 (the lowest)", cfg.Review.Nice))
	}
	if needDiscord {
		if err := shardSettings(&cfg); err != nil {
			errs = append(errs, err)
		}
	}
	var level slog.Level
	if v := os.Getenv("GAMBIT_LOG_LEVEL"); v != "" {
		if err := level.UnmarshalText([]byte(v)); err != nil {
			errs = append(errs, fmt.Errorf("GAMBIT_LOG_LEVEL=%q: want debug, info, warn or error", v))
		}
	}
	return cfg, level, errors.Join(errs...)
}

// shardSettings reads GAMBIT_SHARDS and GAMBIT_SHARD_IDS into cfg.
func shardSettings(cfg *bot.Config) error {
	var errs []error
	switch v := strings.TrimSpace(os.Getenv("GAMBIT_SHARDS")); v {
	case "":
	case "auto":
		cfg.Shards.Count = bot.ShardsAuto
	default:
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			errs = append(errs, fmt.Errorf("GAMBIT_SHARDS=%q: want a whole number ≥ 1, or auto", v))
		}
		cfg.Shards.Count = n
	}
	if v := strings.TrimSpace(os.Getenv("GAMBIT_SHARD_IDS")); v == "auto" {
		cfg.Shards.Auto = true
	} else if v != "" {
		ids, err := parseShardIDs(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("GAMBIT_SHARD_IDS=%q: %w", v, err))
		}
		for _, id := range ids {
			if cfg.Shards.Count > 0 && id >= cfg.Shards.Count || cfg.Shards.Count == 0 && id > 0 {
				errs = append(errs, fmt.Errorf("GAMBIT_SHARD_IDS=%q: shard %d is not below GAMBIT_SHARDS (%d)", v, id, max(cfg.Shards.Count, 1)))
				break
			}
		}
		cfg.Shards.IDs = ids
	}
	return errors.Join(errs...)
}

// parseShardIDs reads a list of shard IDs and ranges, such as 0-3 or 0,2,5-7.
func parseShardIDs(v string) ([]int, error) {
	var ids []int
	seen := map[int]bool{}
	for part := range strings.SplitSeq(v, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, errA := strconv.Atoi(lo)
		b := a
		var errB error
		if isRange {
			b, errB = strconv.Atoi(hi)
		}
		if errA != nil || errB != nil || a < 0 || b < a {
			return nil, fmt.Errorf("want shard IDs and ranges such as 0-3 or 0,2; %q is neither", part)
		}
		for id := a; id <= b; id++ {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return ids, nil
}

// opsSettings reads the operations endpoint's settings: the address to
// listen on ("" when GAMBIT_OPS_ADDR is unset: no endpoint) and the token
// GET /backup needs ("" when GAMBIT_OPS_TOKEN is unset: /backup is off).
// Its errors never show the token.
func opsSettings() (addr, token string, err error) {
	var errs []error
	if v := os.Getenv("GAMBIT_OPS_ADDR"); v != "" {
		if addr, err = ops.ListenAddr(v); err != nil {
			errs = append(errs, err)
		}
	}
	token = strings.TrimSpace(os.Getenv("GAMBIT_OPS_TOKEN"))
	if token != "" {
		if err := ops.ValidateToken(token); err != nil {
			errs = append(errs, err)
		}
	}
	return addr, token, errors.Join(errs...)
}

// serveBot runs the bot, receiving interactions as m says, until ctx is
// done.
func serveBot(ctx context.Context, sio stdio, m mode) error {
	cfg, level, err := botSettings(true)
	opsAddr, opsToken, opsErr := opsSettings()
	here, hereErr := aiTurnsHere()
	if err := errors.Join(err, opsErr, hereErr); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(sio.err, &slog.HandlerOptions{Level: level}))
	cfg.Logger = log
	runtime.GOMAXPROCS(bot.Procs(cfg))
	cfg.Metrics = ops.NewMetrics()
	closeLimits, err := restLimits(ctx, &cfg)
	if err != nil {
		return err
	}
	defer closeLimits()

	role := storeRole{interactions: true}
	if here {
		role.jobs = aiJobs(cfg)
	}
	store, err := openStore(ctx, os.Getenv(envDatabaseURL), envOr("GAMBIT_DB", defaultDB), serving, role)
	if err != nil {
		return err
	}
	defer func() {
		if err := store.Close(); err != nil {
			log.Error("close the database", "err", err)
		}
	}()
	stats, err := store.Stats(ctx)
	if err != nil {
		return err
	}
	log.Info("starting Gambit", "version", version(), "db", storeName(store),
		"active", stats.Games[storage.StatusActive], "pending", stats.Games[storage.StatusPending],
		"finished", stats.Games[storage.StatusFinished]+stats.Games[storage.StatusForfeited])

	// On PostgreSQL the AI turns and the reviews go through the queue,
	// and this process works them too unless GAMBIT_AI_TURNS leaves them
	// to the workers.
	q, err := aiQueue(store, log)
	if err != nil {
		return err
	}
	if q != nil {
		cfg.AI.Queue, cfg.Review.Queue = q, q
	}
	cfg.Games.Deadlines = deadlines(store)
	cfg.Games.Tournaments = tournamentJobs(store)
	if cfg.AI.Queue == nil && !here {
		return fmt.Errorf("%s=workers needs PostgreSQL (%s): with the database file, the bot plays the AI turns itself", envAITurns, envDatabaseURL)
	}
	var b *bot.Bot
	var workerStopped chan error // receives once the queue's worker stopped, if it started
	workerCtx, stopWorker := context.WithCancel(ctx)
	defer stopWorker()
	if cfg.AI.Queue != nil && here {
		// Worked once the bot serves: a board's edit through an
		// interaction needs the application ID, learnt by then. Ready
		// runs in m.run's goroutine, this one. The worker stops with
		// the bot, within the same shutdown timeout.
		cfg.Lifecycle.Ready = func() {
			w, err := startAIWorker(ctx, store, b, cfg, log)
			if err != nil {
				log.Error("AI turns: start working the queue; this process leaves them to the others", "err", err)
				return
			}
			workerStopped = make(chan error, 1)
			go func() {
				<-workerCtx.Done()
				workerStopped <- stopAIWorker(w, cfg)
			}()
		}
	}
	b, err = bot.New(cfg, store)
	if err != nil {
		return err
	}
	opsCtx, stopOps := context.WithCancel(ctx)
	defer stopOps()
	opsDone := make(chan error, 1)
	if opsAddr != "" {
		h := ops.Handler(cfg.Metrics, []ops.Check{
			{Name: "storage", Probe: store.Ping},
			{Name: m.check, Probe: func(context.Context) error {
				if !b.Connected() {
					return errors.New("not connected")
				}
				return nil
			}},
		}, opsBackup(store, opsToken))
		backup := "on"
		switch {
		case opsBackup(store, opsToken).Snapshot == nil:
			backup = "none (PostgreSQL: use pg_dump)"
		case opsToken == "":
			backup = "off (no GAMBIT_OPS_TOKEN)"
		}
		go func() {
			opsDone <- ops.Serve(opsCtx, opsAddr, h, func(a net.Addr) {
				log.Info("operations endpoint", "addr", a.String(), "backup", backup)
			})
		}()
	} else {
		opsDone <- nil
	}
	runErr := m.run(ctx, b)
	stopWorker()
	if workerStopped != nil {
		runErr = errors.Join(runErr, <-workerStopped)
	}
	stopOps()
	return errors.Join(runErr, <-opsDone)
}

// opsBackup is GET /backup of the operations endpoint: bbolt's online
// snapshot; none on PostgreSQL, whose backups are the server's business
// (pg_dump).
func opsBackup(store storage.Admin, token string) ops.Backup {
	if b, ok := store.(*bolt.Store); ok {
		return ops.Backup{Snapshot: b.Snapshot, Token: token}
	}
	return ops.Backup{}
}

// version returns the module version and VCS revision the binary was
// built from.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}
