// Package ratelimit keeps the bot's Discord REST requests within
// Discord's rate limits, for every process of a deployment at once: the
// global limit (50 requests a second per bot, the interaction endpoints
// excepted), the per-route buckets Discord announces in its X-RateLimit
// headers, the waits its 429s ask for — a global 429 holds every request
// back, a route's its bucket — and the invalid requests (401, 403, 429 but
// those of scope "shared") that ban a client at 10,000 in 10 minutes.
//
// A [Limiter] is an http.RoundTripper wrapper (Transport) installed under
// the discordgo session, so every REST call goes through it. Its state is
// a [Store]: [Memory] for one process, [Redis] for several sharing one
// server. A shared store that fails, or does not answer within
// Config.StoreTimeout, is left for the process's own memory until it
// answers again (a circuit breaker, which asks it once a
// Config.ProbeInterval), and interaction callbacks never ask it: a sick
// Redis never holds up an interaction's first answer. It takes over from discordgo's own limiter, which knows one
// process only: the limiter answers a 429 itself (it waits as told and
// sends again) and hides the X-RateLimit headers from discordgo.
package ratelimit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Defaults of Config's zero fields.
const (
	// DefaultGlobal is Discord's global limit: 50 requests a second.
	DefaultGlobal = 50
	// DefaultWarnInvalid is the count of invalid requests in
	// InvalidWindow past which the limiter logs a warning.
	DefaultWarnInvalid = 1000
	// DefaultRefuseInvalid is the count of invalid requests in
	// InvalidWindow at which the limiter refuses every request, well
	// before the 10,000 of Discord's ban.
	DefaultRefuseInvalid = 5000
	// maxRetries is how many 429s in a row the limiter answers for one
	// request before it hands the last one to its caller.
	maxRetries = 5
)

// ErrTooManyInvalid is the error of a request refused because too many
// invalid requests were made in the last InvalidWindow: sent, it could
// bring Discord's ban.
var ErrTooManyInvalid = errors.New("ratelimit: request refused: too many invalid Discord requests (401, 403, 429) in the last 10 minutes")

// Clock is the limiter's time: how long it waits.
type Clock interface {
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

type systemClock struct{}

func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Observer receives the limiter's measurements; bot/ops' metrics are one.
type Observer interface {
	// Waited tells of a request that waited d for the limits before
	// it went.
	Waited(d time.Duration)
	// TooMany tells of a 429 Discord answered, by scope: "global",
	// "user", "shared", "cloudflare" (a ban).
	TooMany(scope string)
	// Invalid tells the count of invalid requests in the last
	// InvalidWindow, when one is made.
	Invalid(n int)
	// Breaker tells that the shared store failed and the process keeps
	// the limits on its own (open), or that it answers again (closed).
	Breaker(open bool)
	// Fallback tells of one question to the store the process's own
	// memory answered because the shared store failed or was not asked.
	Fallback()
}

// Config is what a Limiter needs; zero fields take the defaults.
type Config struct {
	// Store keeps the limits' state; nil means a new Memory store.
	Store Store
	// Global is the limit of requests per second over every route but
	// the interaction endpoints: DefaultGlobal, or what Discord granted
	// the bot.
	Global int
	// WarnInvalid and RefuseInvalid are the counts of invalid requests
	// in the last InvalidWindow at which the limiter logs a warning, and
	// from which it refuses every request (ErrTooManyInvalid).
	WarnInvalid, RefuseInvalid int
	// Clock is what the limiter waits on; nil means the system's.
	Clock Clock
	// Logger receives its logs; nil means slog.Default(). They name
	// routes by template, never with an ID or a token.
	Logger *slog.Logger
	// Observer, if not nil, receives its measurements.
	Observer Observer
	// StoreTimeout is how long a request waits for the shared Store's
	// answer before it goes on this process's own limits;
	// DefaultStoreTimeout if zero.
	StoreTimeout time.Duration
	// ProbeInterval is how long the limiter keeps the limits on its own
	// after the shared store failed before it asks it again, with one
	// request; DefaultProbeInterval if zero.
	ProbeInterval time.Duration
	// Now is the time of the breaker in front of the shared store (when
	// to ask it again); nil means time.Now.
	Now func() time.Time
}

// Limiter keeps requests within Discord's rate limits. It is safe for
// concurrent use.
type Limiter struct {
	cfg Config
	// local is the process's own store: the store when cfg.Store is nil,
	// the interaction callbacks', and the fallback while cfg.Store fails.
	local    *Memory
	breaker  *breaker    // in front of cfg.Store, when it is set
	refusing atomic.Bool // the last Take found too many invalid requests
}

// New returns a limiter configured by cfg.
func New(cfg Config) *Limiter {
	if cfg.Global <= 0 {
		cfg.Global = DefaultGlobal
	}
	if cfg.WarnInvalid <= 0 {
		cfg.WarnInvalid = DefaultWarnInvalid
	}
	if cfg.RefuseInvalid <= 0 {
		cfg.RefuseInvalid = DefaultRefuseInvalid
	}
	if cfg.Clock == nil {
		cfg.Clock = systemClock{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.StoreTimeout <= 0 {
		cfg.StoreTimeout = DefaultStoreTimeout
	}
	if cfg.ProbeInterval <= 0 {
		cfg.ProbeInterval = DefaultProbeInterval
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	l := &Limiter{cfg: cfg, local: NewMemory(nil)}
	if cfg.Store != nil {
		l.breaker = &breaker{timeout: cfg.StoreTimeout, every: cfg.ProbeInterval, now: cfg.Now, log: cfg.Logger, obs: cfg.Observer}
	}
	return l
}

// Transport returns next wrapped in the limiter: each request waits for
// its place, its response's headers are learnt (and removed), and a 429
// is waited out and the request sent again, up to 5 times in a row.
func (l *Limiter) Transport(next http.RoundTripper) http.RoundTripper {
	return transport{l: l, next: next}
}

type transport struct {
	l    *Limiter
	next http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	l, ctx := t.l, req.Context()
	r := routeOf(req.Method, req.URL.Path)
	for attempt := 0; ; attempt++ {
		send := req
		if attempt > 0 {
			send = req.Clone(ctx)
			if req.Body != nil && req.Body != http.NoBody {
				body, err := req.GetBody()
				if err != nil {
					return nil, fmt.Errorf("ratelimit: %s: send again: %w", r.name, err)
				}
				send.Body = body
			}
		}
		if err := l.wait(ctx, r); err != nil {
			if send.Body != nil {
				_ = send.Body.Close()
			}
			return nil, err
		}
		resp, err := t.next.RoundTrip(send)
		if err != nil {
			return nil, err
		}
		retry, err := l.learn(ctx, r, resp)
		if err != nil {
			_ = resp.Body.Close()
			return nil, err
		}
		again := req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
		if !retry || attempt+1 >= maxRetries || !again {
			return resp, nil
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}
}

// shared calls f on the shared store, through the breaker, or on the
// process's own store: when there is no shared store, when local (an
// interaction callback's question, which only this process asks), and
// when the shared store fails — then each process keeps the limits on
// its own (a deployment of several risks 429s), and says so once. The
// shared store's answer is awaited for StoreTimeout at most; once it
// failed, it is asked again once every ProbeInterval, by one request.
func shared[T any](ctx context.Context, l *Limiter, local bool, f func(context.Context, Store) (T, error)) (T, error) {
	if l.breaker == nil || local {
		return f(ctx, l.local)
	}
	ask, probe := l.breaker.allow()
	if !ask {
		return f(ctx, l.local)
	}
	v, err := within(ctx, l.cfg.StoreTimeout, func(ctx context.Context) (T, error) { return f(ctx, l.cfg.Store) })
	if err != nil && ctx.Err() != nil {
		l.breaker.abandon(probe)
		return v, err
	}
	l.breaker.done(probe, err)
	if err != nil {
		return f(ctx, l.local)
	}
	return v, nil
}

// take asks the store for a place for r.
func (l *Limiter) take(ctx context.Context, r route) (Decision, error) {
	return shared(ctx, l, r.local, func(ctx context.Context, s Store) (Decision, error) { return s.Take(ctx, r.key, l.cfg.Global) })
}

// learnBucket records what a response's headers say of r's bucket.
func (l *Limiter) learnBucket(ctx context.Context, r route, b Bucket) {
	_, _ = shared(ctx, l, r.local, func(ctx context.Context, s Store) (struct{}, error) { return struct{}{}, s.Learn(ctx, r.key, b) })
}

// pause holds r's bucket, or every request, back for after. A pause of
// every request is shared, even one an interaction callback met.
func (l *Limiter) pause(ctx context.Context, r route, b Bucket, global bool, after time.Duration) {
	_, _ = shared(ctx, l, r.local && !global, func(ctx context.Context, s Store) (struct{}, error) {
		return struct{}{}, s.Pause(ctx, r.key, b, global, after)
	})
}

// wait returns once r may go, having taken its place, or an error if the
// request's context ends first or too many invalid requests were made.
func (l *Limiter) wait(ctx context.Context, r route) error {
	var waited time.Duration
	for {
		d, err := l.take(ctx, r)
		if err != nil {
			return fmt.Errorf("ratelimit: %s: %w", r.name, err)
		}
		if r.local && l.breaker != nil {
			// The process's own store does not count the invalid
			// requests the others made: the last count the shared
			// store gave decides.
			if l.refusing.Load() {
				return fmt.Errorf("%w: Discord bans at 10,000 (%s)", ErrTooManyInvalid, r.name)
			}
		} else if d.Invalid >= l.cfg.RefuseInvalid {
			if !l.refusing.Swap(true) {
				l.cfg.Logger.Error("Discord rate limits: refusing every request, so that Discord does not ban the bot",
					"invalid_requests", d.Invalid, "window", InvalidWindow, "refuse_at", l.cfg.RefuseInvalid, "discord_bans_at", 10000)
			}
			return fmt.Errorf("%w: %d made, Discord bans at 10,000 (%s)", ErrTooManyInvalid, d.Invalid, r.name)
		} else if l.refusing.Swap(false) {
			l.cfg.Logger.Info("Discord rate limits: invalid requests below the limit again; sending", "invalid_requests", d.Invalid)
		}
		if d.Wait <= 0 {
			if waited > 0 && l.cfg.Observer != nil {
				l.cfg.Observer.Waited(waited)
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("ratelimit: %s: waiting %v for the rate limits: %w", r.name, d.Wait, ctx.Err())
		case <-l.cfg.Clock.After(d.Wait):
		}
		waited += d.Wait
	}
}

// tooMany is the body of Discord's 429.
type tooMany struct {
	RetryAfter *float64 `json:"retry_after"`
	Global     bool     `json:"global"`
}

// learn records what resp says of the limits, removes the X-RateLimit
// headers, and reports whether it is a 429 to wait out and send again.
func (l *Limiter) learn(ctx context.Context, r route, resp *http.Response) (retry bool, err error) {
	h := resp.Header
	defer func() {
		for k := range h {
			if strings.HasPrefix(k, "X-Ratelimit-") {
				h.Del(k)
			}
		}
	}()
	var b Bucket
	b.ID = h.Get("X-RateLimit-Bucket")
	if b.ID != "" {
		b.Remaining, _ = strconv.Atoi(h.Get("X-RateLimit-Remaining"))
		b.ResetAfter = seconds(h.Get("X-RateLimit-Reset-After"))
	}
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		l.invalid(ctx, r)
	case http.StatusTooManyRequests:
		return l.tooMany(ctx, r, resp, b)
	}
	if b.ID != "" {
		l.learnBucket(ctx, r, b)
	}
	return false, nil
}

// tooMany records a 429: it pauses the bucket, or everything, for as long
// as Discord asks, counts it as invalid unless it is of scope "shared",
// and reports whether to send again (not during a ban).
func (l *Limiter) tooMany(ctx context.Context, r route, resp *http.Response, b Bucket) (bool, error) {
	h := resp.Header
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	if err != nil {
		return false, fmt.Errorf("ratelimit: %s: read a 429: %w", r.name, err)
	}
	var body tooMany
	scope := strings.ToLower(h.Get("X-RateLimit-Scope"))
	if json.Unmarshal(raw, &body) != nil || body.RetryAfter == nil {
		// Not Discord's answer: Cloudflare's, banning the client.
		scope = "cloudflare"
	}
	global := scope == "global" || body.Global || h.Get("X-RateLimit-Global") != ""
	if scope == "" {
		scope = "user"
		if global {
			scope = "global"
		}
	}
	after := seconds(h.Get("Retry-After"))
	if body.RetryAfter != nil {
		after = time.Duration(math.Ceil(*body.RetryAfter*1000)) * time.Millisecond
	}
	if l.cfg.Observer != nil {
		l.cfg.Observer.TooMany(scope)
	}
	l.cfg.Logger.Warn("rate limited by Discord", "route", r.name, "scope", scope, "retry_after", after)
	l.pause(ctx, r, b, global || scope == "cloudflare", after)
	if scope != "shared" && scope != "cloudflare" {
		l.invalid(ctx, r)
	}
	return scope != "cloudflare", nil
}

// invalid counts an invalid request, and logs a warning when the count
// reaches WarnInvalid: the process whose request reached it logs.
func (l *Limiter) invalid(ctx context.Context, r route) {
	n, err := shared(ctx, l, false, func(ctx context.Context, s Store) (int, error) { return s.Invalid(ctx) })
	if err != nil {
		return
	}
	if l.cfg.Observer != nil {
		l.cfg.Observer.Invalid(n)
	}
	if n == l.cfg.WarnInvalid {
		l.cfg.Logger.Warn("Discord rate limits: many invalid requests (401, 403, 429); Discord bans at 10,000 in 10 minutes",
			"invalid_requests", n, "window", InvalidWindow, "refuse_at", l.cfg.RefuseInvalid, "route", r.name)
	}
}

// seconds reads a header's seconds ("1.234"), rounded up to the
// millisecond; 0 if absent or malformed.
func seconds(v string) time.Duration {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0
	}
	return time.Duration(math.Ceil(f*1000)) * time.Millisecond
}
