package ratelimit

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is a Store on a Redis server, shared by every process of a
// deployment that names the same server and prefix. Each method is one
// Lua script, which Redis runs atomically; times are the server's (its
// TIME), so the processes' clocks do not matter. Its keys are the
// prefix's and expire by themselves. The scripts compute the keys of a
// route's bucket from what they read, so they need one Redis server (or
// a primary with replicas), not a Redis Cluster.
type Redis struct {
	client *redis.Client
	prefix string
	now    func() time.Time
}

// RedisOption configures a Redis store.
type RedisOption func(*Redis)

// WithRedisClock makes the store read the time from now instead of the
// server's TIME, for tests on a manual clock. Processes on one server
// must not mix clocks.
func WithRedisClock(now func() time.Time) RedisOption { return func(r *Redis) { r.now = now } }

// NewRedis returns a store on client whose keys start with prefix (such
// as "gambit:ratelimit:"). The client stays the caller's to close.
func NewRedis(client *redis.Client, prefix string, opts ...RedisOption) *Redis {
	r := &Redis{client: client, prefix: prefix}
	for _, o := range opts {
		o(r)
	}
	return r
}

// keep is how long the keys outlive the windows they hold: only so that
// the server forgets what nobody asks for any more, never part of a
// decision (those compare the times the keys hold), and long enough that
// a test on a manual clock never sees a key expire under it.
const keep = 15 * time.Minute

// routeTTL is how long the server remembers a route's bucket ID.
const routeTTL = 24 * time.Hour

// clock is the scripts' prelude: now, in milliseconds, from ARGV[1], or
// the server's TIME when ARGV[1] is empty.
const clock = `
local now = tonumber(ARGV[1])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local p = ARGV[2]
local keep = tonumber(ARGV[3])
`

// bucketLib reads and writes a bucket's window: the hash p..'b:'..id..':'..major
// with fields r (requests remaining) and t (reset, in milliseconds).
const bucketLib = `
local function window(id, major)
  local k = p .. 'b:' .. id .. ':' .. major
  local st = redis.call('HMGET', k, 'r', 't')
  local r, t = tonumber(st[1]), tonumber(st[2])
  if not t or t <= now then return k, nil, nil end
  return k, r, t
end
local function set(id, major, r, t)
  local k, r0, t0 = window(id, major)
  if t0 then
    r = math.min(r, r0)
    t = math.max(t, t0)
  end
  redis.call('HSET', k, 'r', r, 't', t)
  redis.call('PEXPIRE', k, t - now + keep)
end
`

// takeScript is Store.Take. ARGV: now, prefix, keep, route, major,
// global limit (0 for a request outside it), Window and InvalidWindow in
// milliseconds.
var takeScript = redis.NewScript(clock + bucketLib + `
local route, major, limit, win, invwin = ARGV[4], ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
if limit > 0 then
  local paused = tonumber(redis.call('GET', p .. 'pause') or '0')
  if paused > now then return {paused - now, 0} end
end
local id = redis.call('GET', p .. 'r:' .. route)
local k, r, t
if id then
  k, r, t = window(id, major)
  if t and r <= 0 then return {t - now, 0} end
end
if limit > 0 then
  local g = p .. 'global'
  redis.call('ZREMRANGEBYSCORE', g, '-inf', now - win)
  if redis.call('ZCARD', g) >= limit then
    local first = redis.call('ZRANGE', g, 0, 0, 'WITHSCORES')
    return {tonumber(first[2]) + win - now, 0}
  end
  redis.call('ZADD', g, now, now .. ':' .. redis.call('INCR', p .. 'seq'))
  redis.call('PEXPIRE', g, win + keep)
end
if t then redis.call('HINCRBY', k, 'r', -1) end
local inv = p .. 'invalid'
redis.call('ZREMRANGEBYSCORE', inv, '-inf', now - invwin)
return {0, redis.call('ZCARD', inv)}
`)

// learnScript is Store.Learn. ARGV: now, prefix, keep, route, major,
// bucket ID, remaining, reset after (ms), route TTL (ms).
var learnScript = redis.NewScript(clock + bucketLib + `
redis.call('SET', p .. 'r:' .. ARGV[4], ARGV[6], 'PX', ARGV[9])
set(ARGV[6], ARGV[5], tonumber(ARGV[7]), now + tonumber(ARGV[8]))
return 0
`)

// pauseScript is Store.Pause. ARGV: now, prefix, keep, route, major,
// bucket ID (may be empty), global (1 or 0), after (ms), route TTL (ms).
var pauseScript = redis.NewScript(clock + bucketLib + `
local upto = now + tonumber(ARGV[8])
if ARGV[7] == '1' then
  local k = p .. 'pause'
  if upto > tonumber(redis.call('GET', k) or '0') then
    redis.call('SET', k, upto, 'PX', upto - now + keep)
  end
  return 0
end
local rk = p .. 'r:' .. ARGV[4]
local id = ARGV[6]
if id == '' then id = redis.call('GET', rk) or ARGV[4] end
redis.call('SET', rk, id, 'PX', ARGV[9])
set(id, ARGV[5], 0, upto)
return 0
`)

// invalidScript is Store.Invalid. ARGV: now, prefix, keep, InvalidWindow
// (ms).
var invalidScript = redis.NewScript(clock + `
local k, win = p .. 'invalid', tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', k, '-inf', now - win)
redis.call('ZADD', k, now, now .. ':' .. redis.call('INCR', p .. 'seq'))
redis.call('PEXPIRE', k, win + keep)
return redis.call('ZCARD', k)
`)

// args returns the scripts' first arguments (now, prefix, keep) followed
// by more.
func (r *Redis) args(more ...any) []any {
	now := ""
	if r.now != nil {
		now = strconv.FormatInt(r.now().UnixMilli(), 10)
	}
	return append([]any{now, r.prefix, keep.Milliseconds()}, more...)
}

// Take implements Store.
func (r *Redis) Take(ctx context.Context, key Key, global int) (Decision, error) {
	if !key.Global {
		global = 0
	}
	res, err := takeScript.Run(ctx, r.client, nil, r.args(key.Route, key.Major, global, Window.Milliseconds(), InvalidWindow.Milliseconds())...).Int64Slice()
	if err != nil {
		return Decision{}, fmt.Errorf("ratelimit: redis: take: %w", err)
	}
	if len(res) != 2 {
		return Decision{}, fmt.Errorf("ratelimit: redis: take: answered %v", res)
	}
	return Decision{Wait: time.Duration(res[0]) * time.Millisecond, Invalid: int(res[1])}, nil
}

// Learn implements Store.
func (r *Redis) Learn(ctx context.Context, key Key, b Bucket) error {
	err := learnScript.Run(ctx, r.client, nil, r.args(key.Route, key.Major, b.ID, b.Remaining, ceilMillis(b.ResetAfter), routeTTL.Milliseconds())...).Err()
	if err != nil {
		return fmt.Errorf("ratelimit: redis: learn: %w", err)
	}
	return nil
}

// Pause implements Store.
func (r *Redis) Pause(ctx context.Context, key Key, b Bucket, global bool, after time.Duration) error {
	g := "0"
	if global {
		g = "1"
	}
	err := pauseScript.Run(ctx, r.client, nil, r.args(key.Route, key.Major, b.ID, g, ceilMillis(after), routeTTL.Milliseconds())...).Err()
	if err != nil {
		return fmt.Errorf("ratelimit: redis: pause: %w", err)
	}
	return nil
}

// Invalid implements Store.
func (r *Redis) Invalid(ctx context.Context) (int, error) {
	n, err := invalidScript.Run(ctx, r.client, nil, r.args(InvalidWindow.Milliseconds())...).Int()
	if err != nil {
		return 0, fmt.Errorf("ratelimit: redis: count an invalid request: %w", err)
	}
	return n, nil
}

// ceilMillis is d in whole milliseconds, rounded up: a wait Discord asks
// for is never cut short.
func ceilMillis(d time.Duration) int64 {
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}
