package ratelimit_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/egress/ratelimit"
	"github.com/gambitbot/gambit/internal/discordtest"
)

// world is Discord's stand-in on a manual clock, and the processes of a
// bot talking to it, each a discordgo session with a limiter of its own.
type world struct {
	srv   *discordtest.Server
	clock *testClock
	logs  *syncBuffer
}

func newWorld(t *testing.T, opts ...discordtest.ServerOption) *world {
	t.Helper()
	clock := newTestClock()
	srv := discordtest.New(append([]discordtest.ServerOption{discordtest.WithClock(clock)}, opts...)...)
	t.Cleanup(srv.Close)
	return &world{srv: srv, clock: clock, logs: &syncBuffer{}}
}

// process returns the session of a new process whose limiter keeps its
// state in store. Its breaker is on the manual clock, and, unless cfg
// says otherwise, waits an hour for the store: a loaded machine must not
// make the shared store look failed.
func (w *world) process(store ratelimit.Store, cfg ratelimit.Config) *discordgo.Session {
	cfg.Store, cfg.Clock, cfg.Now = store, w.clock, w.clock.Now
	if cfg.StoreTimeout == 0 {
		cfg.StoreTimeout = time.Hour
	}
	cfg.Logger = slog.New(slog.NewTextHandler(w.logs, nil))
	l := ratelimit.New(cfg)
	s, err := discordgo.New("Bot " + w.srv.Token())
	if err != nil {
		panic(err)
	}
	// As bot/egress configures its sessions.
	s.Client = &http.Client{Transport: l.Transport(w.srv.Transport())}
	s.ShouldRetryOnRateLimit = true
	s.MaxRestRetries = 3
	return s
}

// channels returns n new channels of the stand-in.
func (w *world) channels(t *testing.T, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ch, err := w.srv.AddChannel(w.srv.GuildID(), fmt.Sprintf("c%d", i))
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = ch.ID
	}
	return ids
}

// mostInASecond returns the most requests of the global limit (all but
// the interaction endpoints) the stand-in answered within one second.
func (w *world) mostInASecond() int {
	var times []time.Time
	for _, r := range w.srv.Requests() {
		if !strings.HasPrefix(r.Route, "/interactions/") && !strings.HasPrefix(r.Route, "/webhooks/") {
			times = append(times, r.Time)
		}
	}
	most := 0
	for _, from := range times {
		n := 0
		for _, t := range times {
			if !t.Before(from) && t.Before(from.Add(time.Second)) {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// syncBuffer is a log sink safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// burst has each of the sessions send per messages at once, each to a
// channel of its own, and checks that all arrived.
func burst(t *testing.T, w *world, sessions []*discordgo.Session, per int) {
	t.Helper()
	channels := w.channels(t, len(sessions)*per)
	errs := w.clock.drive(t, len(channels), func(i int) error {
		_, err := sessions[i%len(sessions)].ChannelMessageSend(channels[i], fmt.Sprintf("message %d", i))
		return err
	})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	for _, ch := range channels {
		if n := len(w.srv.Messages(ch)); n != 1 {
			t.Errorf("channel %s holds %d messages, want 1", ch, n)
		}
	}
}

// Three processes sharing a store send 40 messages each at once, 120
// requests against the global limit of 50 a second: the stand-in sees at
// most 50 in any second and answers no 429, the limiters holding the
// rest back until the second has passed. With a store each — one limiter
// per process, as discordgo's — the same bursts meet global 429s.
func TestProcessesShareTheGlobalLimit(t *testing.T) {
	t.Parallel()
	for name, kind := range kinds {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			mk := kind(t, w.clock.Now)
			sessions := []*discordgo.Session{w.process(mk(), ratelimit.Config{}), w.process(mk(), ratelimit.Config{}), w.process(mk(), ratelimit.Config{})}
			burst(t, w, sessions, 40)
			st := w.srv.RateLimitStats()
			if len(st.TooManyRequests) != 0 {
				t.Errorf("429s by scope: %v; want none", st.TooManyRequests)
			}
			if most := w.mostInASecond(); most != discordtest.DiscordGlobalLimit {
				t.Errorf("at most %d requests in a second, want the limit, %d", most, discordtest.DiscordGlobalLimit)
			}
			if got, want := w.clock.Now().Sub(start), 2*time.Second; got != want {
				t.Errorf("the 120 requests took %v of the clock, want %v (50 a second)", got, want)
			}
		})
	}
	t.Run("a store each", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t)
		sessions := []*discordgo.Session{
			w.process(ratelimit.NewMemory(w.clock.Now), ratelimit.Config{}),
			w.process(ratelimit.NewMemory(w.clock.Now), ratelimit.Config{}),
			w.process(ratelimit.NewMemory(w.clock.Now), ratelimit.Config{}),
		}
		burst(t, w, sessions, 40)
		if n := w.srv.RateLimitStats().TooManyRequests["global"]; n == 0 {
			t.Error("no global 429: the test cannot tell a shared limit from three")
		}
	})
}

// A limit learnt by one process holds the other back: the headers that
// say a channel's bucket is spent, a route's 429 (that route and channel
// only) and a global 429 (every route). The other process waits on the
// clock, the stand-in answers no more 429s than the one injected, and the
// 429's request is sent again, whole, once its wait is over.
func TestALimitLearntByOneProcessHoldsTheOther(t *testing.T) {
	t.Parallel()
	for name, kind := range kinds {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			t.Run("spent bucket", func(t *testing.T) {
				t.Parallel()
				limits := discordtest.DiscordRateLimits()
				limits.Routes = discordtest.DiscordRouteLimits() // 5 messages a channel in 5 s
				w := newWorld(t, discordtest.WithRateLimits(limits))
				mk := kind(t, w.clock.Now)
				a, b := w.process(mk(), ratelimit.Config{}), w.process(mk(), ratelimit.Config{})
				ch := w.channels(t, 2)
				for i := range 5 {
					if _, err := a.ChannelMessageSend(ch[0], fmt.Sprint(i)); err != nil {
						t.Fatal(err)
					}
				}
				errs := w.clock.drive(t, 2, func(i int) error {
					_, err := b.ChannelMessageSend(ch[i], "b")
					return err
				})
				if err := errors.Join(errs...); err != nil {
					t.Fatal(err)
				}
				if st := w.srv.RateLimitStats(); len(st.TooManyRequests) != 0 {
					t.Errorf("429s by scope: %v; want none", st.TooManyRequests)
				}
				for _, r := range w.srv.Requests() {
					if strings.HasSuffix(r.Path, ch[0]+"/messages") && strings.Contains(string(r.Body), `"b"`) && r.Time.Before(start.Add(5*time.Second)) {
						t.Errorf("b's message to the spent channel arrived at %v, before the bucket's reset", r.Time.Sub(start))
					}
					if strings.HasSuffix(r.Path, ch[1]+"/messages") && !r.Time.Equal(start) {
						t.Errorf("b's message to another channel arrived at %v, held back", r.Time.Sub(start))
					}
				}
			})
			for _, global := range []bool{false, true} {
				t.Run(fmt.Sprintf("429 global=%v", global), func(t *testing.T) {
					t.Parallel()
					w := newWorld(t)
					mk := kind(t, w.clock.Now)
					a, b := w.process(mk(), ratelimit.Config{}), w.process(mk(), ratelimit.Config{})
					ch := w.channels(t, 2)
					w.srv.InjectFault(discordtest.Fault{Method: http.MethodPost, Route: "/channels/{channel_id}/messages",
						Status: http.StatusTooManyRequests, RetryAfter: 3 * time.Second, Global: global})
					// a's message meets the 429; once a waits, b sends one
					// to the same channel and one to another.
					waits := make(chan struct{})
					var once sync.Once
					w.clock.onAfter = func() { once.Do(func() { close(waits) }) }
					errs := w.clock.drive(t, 3, func(i int) error {
						if i == 0 {
							_, err := a.ChannelMessageSend(ch[0], "a")
							return err
						}
						<-waits
						_, err := b.ChannelMessageSend(ch[i-1], fmt.Sprint("b", i))
						return err
					})
					if err := errors.Join(errs...); err != nil {
						t.Fatal(err)
					}
					st := w.srv.RateLimitStats()
					if n := st.TooManyRequests["global"] + st.TooManyRequests["user"]; n != 1 {
						t.Errorf("429s by scope: %v; want the one injected", st.TooManyRequests)
					}
					for _, r := range w.srv.Requests() {
						if r.Status != http.StatusOK {
							continue
						}
						held := r.Time.Sub(start) >= 3*time.Second
						switch body := string(r.Body); {
						case strings.Contains(body, `"a"`) && !held:
							t.Errorf("a's message was sent again at %v, before the 429's wait ended", r.Time.Sub(start))
						case strings.Contains(body, `"b1"`) && !held:
							t.Errorf("b's message to the limited channel went at %v, before the 429's wait ended", r.Time.Sub(start))
						case strings.Contains(body, `"b2"`) && held != global:
							t.Errorf("b's message to another channel went at %v; held back: %v, want %v", r.Time.Sub(start), held, global)
						}
					}
					if m := w.srv.Messages(ch[0]); len(m) != 2 {
						t.Errorf("the limited channel holds %d messages, want a's (sent again) and b's", len(m))
					}
				})
			}
		})
	}
}

// Invalid requests (here 403s) are counted across the processes: at the
// warning's count the process that made the last one logs a warning, and
// at the refusal's count every process refuses every request with
// ErrTooManyInvalid, logged once by each, without sending it — until the
// 10-minute window has moved past them. No log line holds the token.
func TestInvalidRequestsAreCountedAcrossProcesses(t *testing.T) {
	t.Parallel()
	for name, kind := range kinds {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			mk := kind(t, w.clock.Now)
			cfg := ratelimit.Config{WarnInvalid: 2, RefuseInvalid: 3}
			a, b := w.process(mk(), cfg), w.process(mk(), cfg)
			ch := w.channels(t, 1)[0]
			w.srv.InjectFault(discordtest.Fault{Method: http.MethodPost, Status: http.StatusForbidden, Times: 3})
			for i, s := range []*discordgo.Session{a, b, a} {
				_, err := s.ChannelMessageSend(ch, "x")
				var rest *discordgo.RESTError
				if !errors.As(err, &rest) || rest.Response.StatusCode != http.StatusForbidden {
					t.Fatalf("request %d: %v, want Discord's 403", i+1, err)
				}
				if i == 1 && !strings.Contains(w.logs.String(), "level=WARN") {
					t.Errorf("no warning at the second invalid request; logs:\n%s", w.logs)
				}
			}
			for _, s := range []*discordgo.Session{b, a} {
				if _, err := s.ChannelMessageSend(ch, "y"); !errors.Is(err, ratelimit.ErrTooManyInvalid) {
					t.Errorf("a request after 3 invalid ones: %v, want ErrTooManyInvalid", err)
				}
			}
			if n := len(w.srv.Requests()); n != 3 {
				t.Errorf("the stand-in saw %d requests, want the 3 invalid ones", n)
			}
			if st := w.srv.RateLimitStats(); st.Invalid != 3 {
				t.Errorf("the stand-in counted %d invalid requests, want 3", st.Invalid)
			}
			if n := strings.Count(w.logs.String(), "refusing every request"); n != 2 {
				t.Errorf("%d logs of the refusal, want one a process; logs:\n%s", n, w.logs)
			}
			w.clock.Advance(ratelimit.InvalidWindow)
			if _, err := b.ChannelMessageSend(ch, "z"); err != nil {
				t.Errorf("a request 10 minutes later: %v", err)
			}
			if strings.Contains(w.logs.String(), w.srv.Token()) {
				t.Errorf("the logs hold the token:\n%s", w.logs)
			}
		})
	}
}

// failingStore is a shared store that fails while down is set.
type failingStore struct {
	ratelimit.Store
	down atomic.Bool
}

func (f *failingStore) Take(ctx context.Context, key ratelimit.Key, global int) (ratelimit.Decision, error) {
	if f.down.Load() {
		return ratelimit.Decision{}, errors.New("connection refused")
	}
	return f.Store.Take(ctx, key, global)
}

// While the shared store fails, requests still go, within this process's
// own limits, and the process says so once; the store is not asked again
// until the probe interval has passed, and the process says so again once
// it answers.
func TestAFailingSharedStoreLeavesTheLimitsToEachProcess(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	store := &failingStore{Store: ratelimit.NewMemory(w.clock.Now)}
	store.down.Store(true)
	s := w.process(store, ratelimit.Config{})
	ch := w.channels(t, 1)[0]
	for range 2 {
		if _, err := s.ChannelMessageSend(ch, "x"); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(w.logs.String(), "the shared store fails"); n != 1 {
		t.Errorf("%d logs of the failing store, want 1; logs:\n%s", n, w.logs)
	}
	store.down.Store(false)
	if _, err := s.ChannelMessageSend(ch, "y"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(w.logs.String(), "the shared store answers again") {
		t.Errorf("the store was asked again before the probe interval; logs:\n%s", w.logs)
	}
	w.clock.Advance(ratelimit.DefaultProbeInterval)
	if _, err := s.ChannelMessageSend(ch, "z"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.logs.String(), "the shared store answers again") {
		t.Errorf("no log of the store's return; logs:\n%s", w.logs)
	}
}
