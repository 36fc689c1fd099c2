package discordtest

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"net/http"
	"strconv"
	"time"
)

// Discord's documented limits, from its "Rate Limits" page
// (https://discord.com/developers/docs/topics/rate-limits) and its
// gateway page (https://discord.com/developers/docs/events/gateway).
const (
	// DiscordGlobalLimit is the requests per second "all bots can make"
	// to the API, the interaction endpoints excepted.
	DiscordGlobalLimit = 50
	// DiscordInvalidRequests is how many invalid requests (answered 401,
	// 403 or 429) an IP address may make in DiscordInvalidWindow before
	// it is "automatically and temporarily restricted" (a Cloudflare ban).
	DiscordInvalidRequests = 10000
	// DiscordInvalidWindow is the window of DiscordInvalidRequests.
	DiscordInvalidWindow = 10 * time.Minute
	// DiscordSessionStarts is how many IDENTIFYs a bot may send in
	// DiscordSessionWindow ("Clients are limited to 1000 IDENTIFY calls
	// to the websocket in a 24-hour period").
	DiscordSessionStarts = 1000
	// DiscordSessionWindow is the window of DiscordSessionStarts.
	DiscordSessionWindow = 24 * time.Hour
)

// defaultBan is how long a ban lasts. Discord does not say ("temporarily
// restricted"); an hour is what bots that met one report.
const defaultBan = time.Hour

// RateLimits are the limits the server enforces, all measured on its
// clock (WithClock), so that a test on a [ManualClock] crosses a window by
// advancing the clock. A zero field turns its limit off.
type RateLimits struct {
	// Global is the number of requests per second a bot may make, over
	// all routes but the interaction endpoints (the callback and the
	// interaction webhook, which Discord exempts). A request above it is
	// answered 429 with X-RateLimit-Global and scope "global".
	Global int
	// Routes are the per-route buckets. A route that none matches has no
	// limit of its own and gets no X-RateLimit headers.
	Routes []RouteLimit
	// InvalidRequests is how many answers of status 401, 403 or 429 (but
	// a 429 of scope "shared", which Discord does not count) within
	// InvalidWindow ban the client for BanFor: every request is then
	// answered by "Cloudflare", 429 without Discord's JSON or headers.
	InvalidRequests int
	InvalidWindow   time.Duration
	// BanFor is how long a ban lasts; 0 means an hour.
	BanFor time.Duration
	// SessionStarts is how many gateway sessions the bot may start
	// (IDENTIFYs the gateway accepts) within SessionWindow; GET
	// /gateway/bot reports what is left in session_start_limit. An
	// IDENTIFY beyond it ends every session and resets the bot's token,
	// as Discord documents.
	SessionStarts int
	SessionWindow time.Duration
}

// RouteLimit is a per-route bucket: at most Limit requests per Per for
// each value of the route's top-level resource (channel_id, guild_id, or
// webhook_id and webhook_token), as Discord counts them.
type RouteLimit struct {
	// Method and Route select the requests: an HTTP method and an OpenAPI
	// path template such as "/channels/{channel_id}/messages". Empty
	// matches every method.
	Method string
	Route  string
	// Bucket names the limit; routes with the same Bucket share it, as
	// Discord's do. Empty means the limit's own method and route. The
	// X-RateLimit-Bucket header is a hash of it.
	Bucket string
	Limit  int
	Per    time.Duration
}

// DiscordRateLimits returns the limits a [Server] enforces unless told
// otherwise: Discord's documented global limit, invalid-request limit and
// session start limit. It has no per-route buckets: Discord publishes no
// figure for them and says they change, and a bucket on a [ManualClock]
// that a test never advances never refills — discordgo, told to retry
// after the reset, would retry for ever. A test that wants them adds
// [DiscordRouteLimits] to Routes.
func DiscordRateLimits() RateLimits {
	return RateLimits{
		Global:          DiscordGlobalLimit,
		InvalidRequests: DiscordInvalidRequests,
		InvalidWindow:   DiscordInvalidWindow,
		BanFor:          defaultBan,
		SessionStarts:   DiscordSessionStarts,
		SessionWindow:   DiscordSessionWindow,
	}
}

// DiscordRouteLimits returns per-route buckets for the channel message
// routes as Discord announces them in its headers: 5 messages sent and 5
// edited per 5 seconds in each channel.
func DiscordRouteLimits() []RouteLimit {
	return []RouteLimit{
		{Method: http.MethodPost, Route: "/channels/{channel_id}/messages", Limit: 5, Per: 5 * time.Second},
		{Method: http.MethodPatch, Route: "/channels/{channel_id}/messages/{message_id}", Limit: 5, Per: 5 * time.Second},
	}
}

// WithRateLimits makes the server enforce l instead of
// [DiscordRateLimits].
func WithRateLimits(l RateLimits) ServerOption { return func(s *Server) { s.limits.RateLimits = l } }

// WithoutRateLimits turns every rate limit off, for load tests that push
// beyond Discord on purpose; the counters of [Server.RateLimitStats] still
// count.
func WithoutRateLimits() ServerOption { return WithRateLimits(RateLimits{}) }

// RateLimitStats are the server's counts of requests and refusals since it
// started, for a test to assert on.
type RateLimitStats struct {
	// Requests counts the requests answered, by "METHOD /route/template".
	Requests map[string]int
	// TooManyRequests counts the 429 answers by scope: "global", "user",
	// "shared", and "cloudflare" for the answers of a ban. Injected 429s
	// (Fault) are counted too.
	TooManyRequests map[string]int
	// Invalid counts the answers Discord counts toward its ban (401, 403,
	// and 429 but those of scope "shared"), since the start.
	Invalid int
	// Bans counts the bans the client earned.
	Bans int
	// BannedUntil is when the current ban ends; zero if none.
	BannedUntil time.Time
	// SessionStarts counts the sessions started and TokenResets the
	// tokens reset for starting too many.
	SessionStarts, TokenResets int
}

// RateLimitStats returns the server's counters.
func (s *Server) RateLimitStats() RateLimitStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := &s.limits
	st := RateLimitStats{
		Requests:        make(map[string]int, len(l.requests)),
		TooManyRequests: make(map[string]int, len(l.tooMany)),
		Invalid:         l.invalidTotal,
		Bans:            l.bans,
		SessionStarts:   l.sessionStarts,
		TokenResets:     l.tokenResets,
	}
	for k, v := range l.requests {
		st.Requests[k] = v
	}
	for k, v := range l.tooMany {
		st.TooManyRequests[k] = v
	}
	if s.clock.Now().Before(l.bannedUntil) {
		st.BannedUntil = l.bannedUntil
	}
	return st
}

// limiter is the server's state of its rate limits. The caller holds
// Server.mu.
type limiter struct {
	RateLimits
	global      window
	buckets     map[string]*window // bucket name and top-level resource → window
	invalid     []time.Time        // times of the invalid answers within InvalidWindow
	bannedUntil time.Time
	sessions    window // session starts

	requests                   map[string]int
	tooMany                    map[string]int
	invalidTotal, bans         int
	sessionStarts, tokenResets int
}

// window is a fixed window of a limit: count requests since it opened,
// until reset.
type window struct {
	count int
	reset time.Time
}

// take opens a new window at now if the last one is over, and reports
// whether one more request fits in limit; if so it counts it.
func (w *window) take(now time.Time, limit int, per time.Duration) bool {
	w.roll(now, per)
	if w.count >= limit {
		return false
	}
	w.count++
	return true
}

// roll opens a new window at now if the last one is over.
func (w *window) roll(now time.Time, per time.Duration) {
	if !now.Before(w.reset) {
		w.count, w.reset = 0, now.Add(per)
	}
}

// exemptFromGlobal reports whether a request is to one of the
// interaction endpoints, which "are not bound to the bot's Global Rate
// Limit": the callback, and the webhook of the application (whose ID is
// the webhook's) with an interaction token. The caller holds Server.mu.
func (s *Server) exemptFromGlobal(route string, params map[string]string) bool {
	switch route {
	case "/interactions/{interaction_id}/{interaction_token}/callback":
		return true
	case "/webhooks/{webhook_id}/{webhook_token}",
		"/webhooks/{webhook_id}/{webhook_token}/messages/@original",
		"/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}":
		return params["webhook_id"] == s.appID
	}
	return false
}

// topLevel returns the top-level resource of a request's path, which
// Discord counts each bucket for separately.
func topLevel(params map[string]string) string {
	switch {
	case params["channel_id"] != "":
		return "channel:" + params["channel_id"]
	case params["guild_id"] != "":
		return "guild:" + params["guild_id"]
	case params["webhook_id"] != "":
		return "webhook:" + params["webhook_id"] + "/" + params["webhook_token"]
	}
	return ""
}

// bucketHash is the X-RateLimit-Bucket of a bucket name: like Discord's,
// an opaque string the same for every top-level resource.
func bucketHash(name string) string {
	sum := sha256.Sum256([]byte(name))
	return hex.EncodeToString(sum[:8])
}

// banned answers a request of a banned client, as Cloudflare does in
// front of Discord, and reports whether it did. The caller holds
// Server.mu.
func (s *Server) banned(w http.ResponseWriter, now time.Time) bool {
	l := &s.limits
	if !now.Before(l.bannedUntil) {
		return false
	}
	h := w.Header()
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(l.bannedUntil.Sub(now).Seconds()))))
	h.Set("Content-Type", "text/plain; charset=UTF-8")
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = w.Write([]byte("error code: 1015"))
	return true
}

// limit applies the global and per-route limits to a request: it sets
// the X-RateLimit headers of its bucket, and answers 429 and reports
// false if a limit is spent. The caller holds Server.mu.
func (s *Server) limit(w http.ResponseWriter, method, route string, params map[string]string, now time.Time) bool {
	l := &s.limits
	if l.Global > 0 && !s.exemptFromGlobal(route, params) && !l.global.take(now, l.Global, time.Second) {
		retry := l.global.reset.Sub(now)
		h := w.Header()
		h.Set("X-RateLimit-Global", "true")
		h.Set("X-RateLimit-Scope", "global")
		h.Set("Retry-After", strconv.Itoa(int(math.Ceil(retry.Seconds()))))
		writeJSON(w, http.StatusTooManyRequests, tooManyBody(retry, true))
		return false
	}
	for _, rl := range l.Routes {
		if rl.Route != route || (rl.Method != "" && rl.Method != method) || rl.Limit <= 0 {
			continue
		}
		name := rl.Bucket
		if name == "" {
			name = rl.Method + " " + rl.Route
		}
		key := name + " " + topLevel(params)
		b := l.buckets[key]
		if b == nil {
			if l.buckets == nil {
				l.buckets = map[string]*window{}
			}
			b = &window{}
			l.buckets[key] = b
		}
		ok := b.take(now, rl.Limit, rl.Per)
		after := b.reset.Sub(now)
		h := w.Header()
		h.Set("X-RateLimit-Limit", strconv.Itoa(rl.Limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(rl.Limit-b.count))
		h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(b.reset.UnixMilli())/1000, 'f', 3, 64))
		h.Set("X-RateLimit-Reset-After", secondsUp(after))
		h.Set("X-RateLimit-Bucket", bucketHash(name))
		if !ok {
			h.Set("X-RateLimit-Scope", "user")
			h.Set("Retry-After", strconv.Itoa(int(math.Ceil(after.Seconds()))))
			writeJSON(w, http.StatusTooManyRequests, tooManyBody(after, false))
			return false
		}
		return true
	}
	return true
}

// tooManyBody is Discord's body of a 429.
func tooManyBody(retry time.Duration, global bool) map[string]any {
	return map[string]any{
		"message":     "You are being rate limited.",
		"retry_after": math.Ceil(retry.Seconds()*1000) / 1000,
		"global":      global,
		"code":        0,
	}
}

// secondsUp formats d in seconds with millisecond precision, rounded up,
// so that a client that waits what it is told is not early.
func secondsUp(d time.Duration) string {
	return strconv.FormatFloat(math.Ceil(d.Seconds()*1000)/1000, 'f', 3, 64)
}

// count records an answered request in the counters and in the invalid
// requests, and bans the client once they reach the limit. The caller
// holds Server.mu.
func (s *Server) count(method, route string, status int, scope string, now time.Time) {
	l := &s.limits
	if route != "" {
		if l.requests == nil {
			l.requests = map[string]int{}
		}
		l.requests[method+" "+route]++
	}
	if status == http.StatusTooManyRequests {
		if l.tooMany == nil {
			l.tooMany = map[string]int{}
		}
		l.tooMany[scope]++
	}
	invalid := status == http.StatusUnauthorized || status == http.StatusForbidden ||
		(status == http.StatusTooManyRequests && scope != "shared" && scope != "cloudflare")
	if !invalid {
		return
	}
	l.invalidTotal++
	if l.InvalidRequests <= 0 {
		return
	}
	cut := 0
	for cut < len(l.invalid) && !l.invalid[cut].After(now.Add(-l.InvalidWindow)) {
		cut++
	}
	l.invalid = append(l.invalid[cut:], now)
	if len(l.invalid) >= l.InvalidRequests {
		l.invalid = nil
		l.bans++
		l.bannedUntil = now.Add(cmp.Or(l.BanFor, defaultBan))
	}
}

// sessionStartLimit is the session_start_limit of GET /gateway/bot. The
// caller holds Server.mu.
func (s *Server) sessionStartLimit() map[string]int {
	l := &s.limits
	now := s.clock.Now()
	total, remaining, resetAfter := DiscordSessionStarts, DiscordSessionStarts, 0
	if l.SessionStarts > 0 {
		l.sessions.roll(now, l.SessionWindow)
		total, remaining = l.SessionStarts, l.SessionStarts-l.sessions.count
		resetAfter = int(l.sessions.reset.Sub(now).Milliseconds())
	}
	return map[string]int{
		"total": total, "remaining": remaining, "reset_after": resetAfter,
		"max_concurrency": s.shards.concurrency(),
	}
}

// startSession spends one session start, and reports false if none is
// left: Discord's gateway page says that upon hitting the limit "all
// active sessions for the app will be terminated, the bot token will be
// reset, and the owner will receive an email notification", so the
// token is reset and every connection is closed with 4004 (Authentication
// failed), what a client presenting the old token gets from then on. The
// caller holds Server.mu.
func (s *Server) startSession() bool {
	l := &s.limits
	if l.SessionStarts > 0 && !l.sessions.take(s.clock.Now(), l.SessionStarts, l.SessionWindow) {
		l.tokenResets++
		s.token = randomHex(24)
		for id, sess := range s.sessions {
			if c := sess.conn; c != nil {
				sess.conn, c.session = nil, nil
				go c.closeWith(closeAuthFailed)
			}
			delete(s.sessions, id)
		}
		s.broadcast()
		return false
	}
	l.sessionStarts++
	return true
}
