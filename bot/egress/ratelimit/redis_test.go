package ratelimit_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gambitbot/gambit/bot/egress/ratelimit"
)

// envRedisURL names the Redis server of the tests.
const envRedisURL = "GAMBIT_TEST_REDIS_URL"

// redisPrefix returns a key prefix of the test's own on the test server,
// whose keys are deleted when the test ends. Without the server the test
// skips, saying so, except in CI (CI=true), where that is a failure:
// .ci/run starts one with .ci/redis.
func redisPrefix(t testing.TB) string {
	t.Helper()
	if os.Getenv(envRedisURL) == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must run the Redis tests (.ci/run starts a server with .ci/redis)", envRedisURL)
		}
		t.Skipf("no Redis server: set %s (a throwaway one: export %s=$(.ci/redis start /tmp/gambit-redis))", envRedisURL, envRedisURL)
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	prefix := "test:" + hex.EncodeToString(b[:]) + ":"
	client := redisClient(t)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		iter := client.Scan(ctx, 0, prefix+"*", 100).Iterator()
		for iter.Next(ctx) {
			if err := client.Del(ctx, iter.Val()).Err(); err != nil {
				t.Errorf("delete the test's key %s: %v", iter.Val(), err)
			}
		}
		if err := iter.Err(); err != nil {
			t.Errorf("list the test's keys: %v", err)
		}
	})
	return prefix
}

// redisClient returns a new client of the test server (another process),
// closed when the test ends.
func redisClient(t testing.TB) *redis.Client {
	t.Helper()
	opts, err := redis.ParseURL(os.Getenv(envRedisURL))
	if err != nil {
		t.Fatalf("%s: %v", envRedisURL, err)
	}
	client := redis.NewClient(opts)
	t.Cleanup(func() { _ = client.Close() })
	return client
}

// Without a test clock the Redis store reads the server's TIME: a global
// pause of an hour holds a request back for (nearly) an hour, whatever the
// time the processes' clocks say, and the invalid requests are counted.
func TestRedisOnTheServersClock(t *testing.T) {
	t.Parallel()
	prefix := redisPrefix(t)
	a, b := ratelimit.NewRedis(redisClient(t), prefix), ratelimit.NewRedis(redisClient(t), prefix)
	ctx := t.Context()
	if err := a.Pause(ctx, send, ratelimit.Bucket{}, true, time.Hour); err != nil {
		t.Fatal(err)
	}
	d, err := b.Take(ctx, edit, 50)
	if err != nil {
		t.Fatal(err)
	}
	if d.Wait <= 50*time.Minute || d.Wait > time.Hour {
		t.Errorf("after a global pause of an hour, a request waits %v", d.Wait)
	}
	if n, err := b.Invalid(ctx); err != nil || n != 1 {
		t.Errorf("the first invalid request counted %d, %v", n, err)
	}
}
