package discordtest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// rateClock starts the manual clock of the rate limit tests.
func rateClock() *discordtest.ManualClock {
	return discordtest.NewManualClock(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
}

// call sends a request to the stand-in with the bot's token (or token, if
// not empty) and returns the answer, its body read.
func call(t *testing.T, srv *discordtest.Server, method, path, token string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, "https://discord.com/api/v10"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token == "" {
		token = srv.Token()
	}
	req.Header.Set("Authorization", "Bot "+token)
	resp, err := (&http.Client{Transport: srv.Transport()}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// discordgoTime is a transport that moves the server's manual clock on
// by the real time discordgo waited before a request when the answer
// before it had spent its bucket (X-RateLimit-Remaining 0), plus the
// millisecond discordgo's parsing of X-RateLimit-Reset-After may cut, and
// keeps the clock still otherwise: the server sees the waits discordgo's
// own limiter makes, in real time, and no other time passes, however slow
// the machine. It keeps the answers' headers.
type discordgoTime struct {
	next  http.RoundTripper
	clock *discordtest.ManualClock

	mu      sync.Mutex
	spent   time.Time // when an answer that spent its bucket came; zero if the last did not
	headers []http.Header
}

func (d *discordgoTime) RoundTrip(r *http.Request) (*http.Response, error) {
	d.mu.Lock()
	if !d.spent.IsZero() {
		d.clock.Advance(time.Since(d.spent) + time.Millisecond)
	}
	d.mu.Unlock()
	resp, err := d.next.RoundTrip(r)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.spent = time.Time{}
	if err == nil {
		d.headers = append(d.headers, resp.Header.Clone())
		if resp.Header.Get("X-RateLimit-Remaining") == "0" {
			d.spent = time.Now()
		}
	}
	return resp, err
}

// A per-route bucket answers with Discord's headers, and discordgo's own
// limiter, reading them, waits for the bucket to reset instead of
// running into 429s: five messages through a bucket of two per 200 ms
// take three windows of the server's clock.
func TestRouteLimitHeadersMakeDiscordgoWait(t *testing.T) {
	t.Parallel()
	clock := rateClock()
	const per = 200 * time.Millisecond
	srv := newServer(t, discordtest.WithClock(clock), discordtest.WithRateLimits(discordtest.RateLimits{
		Global: discordtest.DiscordGlobalLimit,
		Routes: []discordtest.RouteLimit{{Method: http.MethodPost, Route: messagesRoute, Limit: 2, Per: per}},
	}))
	s, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	tr := &discordgoTime{next: srv.Transport(), clock: clock}
	s.Client = &http.Client{Transport: tr, Timeout: waitTimeout(t)}
	ch := srv.Identity().ChannelID
	for i := range 5 {
		if _, err := s.ChannelMessageSend(ch, "message "+strconv.Itoa(i)); err != nil {
			t.Fatalf("send message %d: %v", i, err)
		}
	}

	st := srv.RateLimitStats()
	if n := st.TooManyRequests; len(n) != 0 {
		t.Errorf("429s = %v, want none: discordgo should have waited", n)
	}
	if n := st.Requests["POST "+messagesRoute]; n != 5 {
		t.Errorf("requests counted = %d, want 5", n)
	}
	tr.mu.Lock()
	headers := tr.headers
	tr.mu.Unlock()
	for i, want := range []string{"1", "0", "1", "0", "1"} {
		h := headers[i]
		if h.Get("X-RateLimit-Limit") != "2" || h.Get("X-RateLimit-Remaining") != want || h.Get("X-RateLimit-Bucket") == "" {
			t.Errorf("answer %d: limit %q remaining %q bucket %q, want 2, %s and a bucket", i,
				h.Get("X-RateLimit-Limit"), h.Get("X-RateLimit-Remaining"), h.Get("X-RateLimit-Bucket"), want)
		}
		after, err := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64)
		if err != nil || after <= 0 || after > per.Seconds() {
			t.Errorf("answer %d: X-RateLimit-Reset-After %q, want in (0, %v]", i, h.Get("X-RateLimit-Reset-After"), per.Seconds())
		}
		if _, err := strconv.ParseFloat(h.Get("X-RateLimit-Reset"), 64); err != nil {
			t.Errorf("answer %d: X-RateLimit-Reset %q is not epoch seconds", i, h.Get("X-RateLimit-Reset"))
		}
	}
	var times []time.Time
	for _, r := range srv.Requests() {
		if r.Route == messagesRoute {
			times = append(times, r.Time)
		}
	}
	if len(times) != 5 || times[2].Sub(times[0]) < per || times[4].Sub(times[2]) < per {
		t.Errorf("requests at %v, want the third and fifth a window (%v) after the first and third", times, per)
	}
	// Another channel has a bucket of its own, with the same name.
	other, err := srv.AddChannel(srv.Identity().GuildID, "other")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelMessageSend(other.ID, "hello"); err != nil {
		t.Fatal(err)
	}
	tr.mu.Lock()
	last := tr.headers[len(tr.headers)-1]
	tr.mu.Unlock()
	if last.Get("X-RateLimit-Remaining") != "1" || last.Get("X-RateLimit-Bucket") != headers[0].Get("X-RateLimit-Bucket") {
		t.Errorf("other channel: remaining %q bucket %q, want 1 and bucket %q", last.Get("X-RateLimit-Remaining"),
			last.Get("X-RateLimit-Bucket"), headers[0].Get("X-RateLimit-Bucket"))
	}
}

// A client that ignores the headers gets Discord's 429 of scope user.
func TestRouteLimitRefusesAnExhaustedBucket(t *testing.T) {
	t.Parallel()
	limits := discordtest.DiscordRateLimits()
	limits.Routes = discordtest.DiscordRouteLimits()
	srv := newServer(t, discordtest.WithClock(rateClock()), discordtest.WithRateLimits(limits))
	ch := srv.Identity().ChannelID
	var codes []int
	for range 6 {
		req, _ := http.NewRequest(http.MethodPost, "https://discord.com/api/v10/channels/"+ch+"/messages", strings.NewReader(`{"content":"hi"}`))
		req.Header.Set("Authorization", "Bot "+srv.Token())
		req.Header.Set("Content-Type", "application/json")
		resp, err := (&http.Client{Transport: srv.Transport()}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
		if resp.StatusCode == http.StatusTooManyRequests {
			var rl struct {
				RetryAfter float64 `json:"retry_after"`
				Global     bool    `json:"global"`
			}
			if err := json.Unmarshal(body, &rl); err != nil || rl.Global || rl.RetryAfter != 5 ||
				resp.Header.Get("X-RateLimit-Scope") != "user" || resp.Header.Get("Retry-After") != "5" {
				t.Errorf("429: body %s, scope %q, Retry-After %q; want retry_after 5, not global, scope user",
					body, resp.Header.Get("X-RateLimit-Scope"), resp.Header.Get("Retry-After"))
			}
		}
	}
	if want := []int{200, 200, 200, 200, 200, 429}; !slices.Equal(codes, want) {
		t.Errorf("statuses %v, want %v (5 messages per 5 s per channel)", codes, want)
	}
	if st := srv.RateLimitStats(); st.TooManyRequests["user"] != 1 || st.Invalid != 1 {
		t.Errorf("stats %+v, want one 429 of scope user, counted invalid", st)
	}
}

// Discord's global limit is 50 requests per second; the 51st in a second
// gets a global 429 with retry_after, the interaction endpoints are not
// under it, and the next second is open again.
func TestGlobalLimit(t *testing.T) {
	t.Parallel()
	clock := rateClock()
	srv := newServer(t, discordtest.WithClock(clock))
	for i := range discordtest.DiscordGlobalLimit {
		if resp, _ := call(t, srv, http.MethodGet, "/users/@me", ""); resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d: %s, want 200 under the global limit", i, resp.Status)
		}
	}
	clock.Advance(400 * time.Millisecond)
	resp, body := call(t, srv, http.MethodGet, "/users/@me", "")
	var rl struct {
		Message    string  `json:"message"`
		RetryAfter float64 `json:"retry_after"`
		Global     bool    `json:"global"`
	}
	if err := json.Unmarshal(body, &rl); resp.StatusCode != http.StatusTooManyRequests || err != nil ||
		!rl.Global || rl.RetryAfter != 0.6 || rl.Message == "" {
		t.Fatalf("51st request: %s %s, want 429 with global true and retry_after 0.6", resp.Status, body)
	}
	if h := resp.Header; h.Get("X-RateLimit-Global") != "true" || h.Get("X-RateLimit-Scope") != "global" || h.Get("Retry-After") != "1" {
		t.Errorf("51st request headers %v, want X-RateLimit-Global true, scope global, Retry-After 1", h)
	}
	// The interaction webhook is not bound by the global limit.
	if resp, _ := call(t, srv, http.MethodGet, "/webhooks/"+srv.ApplicationID()+"/unknown/messages/@original", ""); resp.StatusCode == http.StatusTooManyRequests {
		t.Errorf("interaction webhook: %s, want no global 429", resp.Status)
	}
	if resp, _ := call(t, srv, http.MethodGet, "/webhooks/1/unknown/messages/@original", ""); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("another application's webhook: %s, want the global 429", resp.Status)
	}
	clock.Advance(600 * time.Millisecond)
	if resp, _ := call(t, srv, http.MethodGet, "/users/@me", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("a second later: %s, want 200", resp.Status)
	}
	st := srv.RateLimitStats()
	if st.TooManyRequests["global"] != 2 || st.Requests["GET /users/@me"] != discordtest.DiscordGlobalLimit+2 {
		t.Errorf("stats %+v, want two global 429s and %d requests to /users/@me", st, discordtest.DiscordGlobalLimit+2)
	}
}

// Invalid requests (401, 403, 429) up to the threshold within the window
// ban the client: Cloudflare answers 429 without Discord's JSON until the
// ban ends. Invalid requests older than the window do not count.
func TestInvalidRequestsBanTheClient(t *testing.T) {
	t.Parallel()
	clock := rateClock()
	srv := newServer(t, discordtest.WithClock(clock), discordtest.WithRateLimits(discordtest.RateLimits{
		InvalidRequests: 5, InvalidWindow: 10 * time.Minute, BanFor: time.Hour,
	}))
	unauthorized := func(n int) {
		t.Helper()
		for i := range n {
			if resp, _ := call(t, srv, http.MethodGet, "/users/@me", "wrong"); resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("bad token %d: %s, want 401", i, resp.Status)
			}
		}
	}
	unauthorized(4)
	clock.Advance(11 * time.Minute) // those four leave the window
	unauthorized(4)
	if st := srv.RateLimitStats(); st.Bans != 0 || st.Invalid != 8 {
		t.Fatalf("stats %+v, want no ban after 4 + 4 invalid requests 11 minutes apart", st)
	}
	unauthorized(1) // the fifth within ten minutes

	resp, body := call(t, srv, http.MethodGet, "/users/@me", "")
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "3600" ||
		resp.Header.Get("X-RateLimit-Scope") != "" || json.Valid(body) {
		t.Fatalf("banned: %s %v %q, want 429, Retry-After 3600, no Discord headers or JSON", resp.Status, resp.Header, body)
	}
	// discordgo gives up with an error rather than retrying forever.
	s, _ := discordgo.New("Bot " + srv.Token())
	s.Client = &http.Client{Transport: srv.Transport(), Timeout: waitTimeout(t)}
	if _, err := s.User("@me"); err == nil {
		t.Error("discordgo: no error while banned")
	}
	st := srv.RateLimitStats()
	if st.Bans != 1 || st.TooManyRequests["cloudflare"] != 2 || st.Invalid != 9 || !st.BannedUntil.Equal(clock.Now().Add(time.Hour)) {
		t.Errorf("stats %+v, want one ban until an hour from now, two Cloudflare 429s not counted invalid", st)
	}
	clock.Advance(time.Hour)
	if resp, _ := call(t, srv, http.MethodGet, "/users/@me", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("after the ban: %s, want 200", resp.Status)
	}
}

// sessionStartLimit returns GET /gateway/bot's session_start_limit.
func sessionStartLimit(t *testing.T, srv *discordtest.Server) map[string]int {
	t.Helper()
	resp, body := call(t, srv, http.MethodGet, "/gateway/bot", "")
	var g struct {
		Limit map[string]int `json:"session_start_limit"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &g) != nil {
		t.Fatalf("GET /gateway/bot: %s %s", resp.Status, body)
	}
	return g.Limit
}

// Each IDENTIFY spends a session start, which GET /gateway/bot reports;
// one beyond the limit ends every session and resets the token, as
// Discord does; the limit is whole again after its window.
func TestSessionStartLimit(t *testing.T) {
	t.Parallel()
	clock := rateClock()
	srv := newServer(t, discordtest.WithClock(clock), discordtest.WithRateLimits(discordtest.RateLimits{
		SessionStarts: 2, SessionWindow: 24 * time.Hour,
	}))
	day := int((24 * time.Hour).Milliseconds())
	if got := sessionStartLimit(t, srv); got["total"] != 2 || got["remaining"] != 2 || got["max_concurrency"] != 1 {
		t.Fatalf("session_start_limit %v, want total 2, remaining 2, max_concurrency 1", got)
	}
	identify := func() func() gatewayFrame {
		first, next := identifyShard(t, srv, 0, 1)
		if first.T != "READY" {
			t.Fatalf("IDENTIFY answered %+v, want READY", first)
		}
		return next
	}
	first := rawGateway(t, srv)
	if err := first.WriteJSON(map[string]any{"op": 2, "d": map[string]any{"token": srv.Token(), "intents": 1}}); err != nil {
		t.Fatal(err)
	}
	if f := readFrame(t, first); f.T != "READY" {
		t.Fatalf("first IDENTIFY answered %+v, want READY", f)
	}
	clock.Advance(time.Hour)
	if got := sessionStartLimit(t, srv); got["remaining"] != 1 || got["reset_after"] != day-int(time.Hour.Milliseconds()) {
		t.Fatalf("after one IDENTIFY: %v, want remaining 1, reset_after %d", got, day-int(time.Hour.Milliseconds()))
	}
	identify()
	if got := sessionStartLimit(t, srv); got["remaining"] != 0 {
		t.Fatalf("after two IDENTIFYs: %v, want remaining 0", got)
	}

	old := srv.Token()
	third := rawGateway(t, srv)
	if err := third.WriteJSON(map[string]any{"op": 2, "d": map[string]any{"token": old, "intents": 1}}); err != nil {
		t.Fatal(err)
	}
	if code := closeCode(t, third); code != 4004 {
		t.Errorf("IDENTIFY beyond the limit closed with %d, want 4004", code)
	}
	if code := closeCode(t, first); code != 4004 {
		t.Errorf("a running session was closed with %d, want 4004", code)
	}
	if srv.Token() == old {
		t.Error("the token was not reset")
	}
	if resp, _ := call(t, srv, http.MethodGet, "/users/@me", old); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("REST with the old token: %s, want 401", resp.Status)
	}
	if st := srv.RateLimitStats(); st.SessionStarts != 2 || st.TokenResets != 1 {
		t.Errorf("stats %+v, want 2 session starts and 1 token reset", st)
	}
	clock.Advance(23 * time.Hour)
	if got := sessionStartLimit(t, srv); got["remaining"] != 2 || got["reset_after"] != day {
		t.Errorf("a day later: %v, want remaining 2 and a new window", got)
	}
	identify()
}
