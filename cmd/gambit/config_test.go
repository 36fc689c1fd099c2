package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
)

// TestRESTLimitsSettings: without GAMBIT_REDIS_URL each process keeps
// Discord's rate limits in memory; GAMBIT_REST_RATE sets the global
// limit and GAMBIT_REDIS_TIMEOUT the wait for Redis, a bad one of either
// refused naming it; a Redis server that does not answer stops the start
// with an error that names the setting and not the password.
func TestRESTLimitsSettings(t *testing.T) {
	t.Setenv(envRedisURL, "")
	t.Setenv(envRESTRate, "75")
	var cfg bot.Config
	closeLimits, err := restLimits(t.Context(), &cfg)
	if err != nil || cfg.REST.Limits != nil || cfg.REST.Global != 75 {
		t.Fatalf("%s unset, %s=75: store %v, global %d, err %v; want none, 75", envRedisURL, envRESTRate, cfg.REST.Limits, cfg.REST.Global, err)
	}
	closeLimits()

	t.Setenv(envRESTRate, "fast")
	if _, err := restLimits(t.Context(), &cfg); err == nil || !strings.Contains(err.Error(), envRESTRate) {
		t.Errorf("%s=fast: %v; want an error naming it", envRESTRate, err)
	}
	t.Setenv(envRESTRate, "")
	t.Setenv(envRedisTimeout, "20ms")
	if _, err := restLimits(t.Context(), &cfg); err != nil || cfg.REST.LimitsTimeout != 20*time.Millisecond {
		t.Errorf("%s=20ms: timeout %v, err %v; want 20ms", envRedisTimeout, cfg.REST.LimitsTimeout, err)
	}
	for _, bad := range []string{"50", "0s", "-1ms", "2s"} {
		t.Setenv(envRedisTimeout, bad)
		if _, err := restLimits(t.Context(), &cfg); err == nil || !strings.Contains(err.Error(), envRedisTimeout) {
			t.Errorf("%s=%s: %v; want an error naming it", envRedisTimeout, bad, err)
		}
	}
	t.Setenv(envRedisTimeout, "")
	for _, url := range []string{"redis://:hunter2secret@127.0.0.1:1/0", "http://:hunter2secret@x"} {
		t.Setenv(envRedisURL, url)
		_, err := restLimits(t.Context(), &cfg)
		if err == nil || !strings.Contains(err.Error(), envRedisURL) || strings.Contains(err.Error(), "hunter2secret") {
			t.Errorf("%s=%s: %v; want an error naming the setting, not the password", envRedisURL, url, err)
		}
	}
}

// The Redis client's own log lines (a failed dial at each of the
// limiter's probes) go to the bot's logger at the debug level: a sick
// Redis is logged at the info level and above once, by the limiter.
func TestRedisClientLogsAtDebug(t *testing.T) {
	var buf bytes.Buffer
	l := redisLogger{slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	l.Printf(t.Context(), "redis: connection pool: failed to dial after %d attempts: %v", 5, "connection refused")
	if got := buf.String(); !strings.Contains(got, "level=DEBUG") || !strings.Contains(got, "failed to dial after 5 attempts: connection refused") {
		t.Errorf("the client's line logged as %q, want it at the debug level", got)
	}
}
