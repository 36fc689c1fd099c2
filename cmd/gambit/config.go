package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/joho/godotenv"
	"github.com/redis/go-redis/v9"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/egress/ratelimit"
)

// loadDotEnv adds the settings of the .env file at path to the
// environment. Variables already set win, and a missing file is fine:
// .env is an optional convenience for development.
func loadDotEnv(path string) error {
	err := godotenv.Load(path)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return fmt.Errorf("read settings from %s: %w", path, err)
}

// Settings of Discord's rate limits, shared by the bot's processes.
const (
	envRedisURL     = "GAMBIT_REDIS_URL"
	envRedisTimeout = "GAMBIT_REDIS_TIMEOUT"
	envRESTRate     = "GAMBIT_REST_RATE"
)

// maxRedisTimeout bounds GAMBIT_REDIS_TIMEOUT: a request waits that long
// for Redis when it starts failing, and Discord wants an interaction's
// first answer within 3 seconds.
const maxRedisTimeout = time.Second

// restLimits reads where the bot's processes share Discord's rate limits
// (GAMBIT_REDIS_URL: a Redis server; unset, each process keeps its own in
// memory, which suits one process) and the global limit
// (GAMBIT_REST_RATE), and how long a request waits for the server before
// the process keeps the limits on its own (GAMBIT_REDIS_TIMEOUT), into
// cfg. It checks that the server answers. The returned function closes
// the connection.
func restLimits(ctx context.Context, cfg *bot.Config) (func(), error) {
	if v := strings.TrimSpace(os.Getenv(envRESTRate)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s=%q: want Discord's global limit of requests per second, a whole number ≥ 1 (Discord's default is %d)", envRESTRate, v, ratelimit.DefaultGlobal)
		}
		cfg.REST.Global = n
	}
	if v := strings.TrimSpace(os.Getenv(envRedisTimeout)); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 || d > maxRedisTimeout {
			return nil, fmt.Errorf("%s=%q: want how long a request waits for Redis, such as 50ms: more than 0, at most %v (default %v)", envRedisTimeout, v, maxRedisTimeout, ratelimit.DefaultStoreTimeout)
		}
		cfg.REST.LimitsTimeout = d
	}
	url := strings.TrimSpace(os.Getenv(envRedisURL))
	if url == "" {
		return func() {}, nil
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		// go-redis quotes the URL, password included: name the setting only.
		return nil, fmt.Errorf("%s: want redis://[user:password@]host:port/db or rediss://…", envRedisURL)
	}
	// A command the limiter gave up on (GAMBIT_REDIS_TIMEOUT) gives up
	// its connection too, rather than holding it for the read timeout.
	opts.ContextTimeoutEnabled = true
	if cfg.Logger != nil {
		// The limiter says once that Redis fails and once that it is
		// back; the client's own lines (a failed dial each probe) are
		// details, for the debug level. The client's logger is global:
		// set once, before any client runs.
		redisLoggerOnce.Do(func() { redis.SetLogger(redisLogger{cfg.Logger}) })
	}
	client := redis.NewClient(opts)
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := client.Ping(pctx).Err(); err != nil {
		_ = client.Close()
		return nil, fmt.Errorf("%s: the Redis server of Discord's shared rate limits does not answer at %s: %w", envRedisURL, opts.Addr, err)
	}
	// One bot's limits: another bot on the same server has its own.
	sum := sha256.Sum256([]byte(cfg.Token))
	cfg.REST.Limits = ratelimit.NewRedis(client, "gambit:ratelimit:"+hex.EncodeToString(sum[:6])+":")
	return func() { _ = client.Close() }, nil
}

// redisLoggerOnce sets the Redis client's logger.
var redisLoggerOnce sync.Once

// redisLogger passes the Redis client's log lines to the bot's logger at
// the debug level.
type redisLogger struct{ log *slog.Logger }

// Printf implements the Redis client's Logging.
func (l redisLogger) Printf(ctx context.Context, format string, v ...any) {
	l.log.DebugContext(ctx, "Redis client: "+fmt.Sprintf(format, v...))
}
