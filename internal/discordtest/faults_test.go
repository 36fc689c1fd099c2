package discordtest_test

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
)

const (
	callbackRoute = "/interactions/{interaction_id}/{interaction_token}/callback"
	messagesRoute = "/channels/{channel_id}/messages"
)

// statuses returns the statuses of the recorded requests to a route.
func statuses(srv *discordtest.Server, method, route string) []int {
	var out []int
	for _, r := range srv.Requests() {
		if r.Method == method && r.Route == route {
			out = append(out, r.Status)
		}
	}
	return out
}

func TestRateLimitIsRetriedAfterRetryAfter(t *testing.T) {
	t.Parallel()
	srv, b, alice, bob := twoPlayers(t)

	t.Run("per route", func(t *testing.T) {
		srv.InjectFault(discordtest.Fault{Route: callbackRoute, Status: http.StatusTooManyRequests, RetryAfter: 30 * time.Millisecond})
		ix, in := challenge(t, srv, b, alice.ID, bob.ID)
		reply(t, b, in, "after the rate limit")
		if _, err := ix.Reply(ctx(t)); err != nil {
			t.Fatal(err)
		}
		rl := receive(t, b.rateLimits, "discordgo's rate limit event")
		if rl.RetryAfter != 30*time.Millisecond {
			t.Fatalf("discordgo saw retry_after %v, want 30ms", rl.RetryAfter)
		}
		if got := statuses(srv, "POST", callbackRoute); !slices.Equal(got, []int{429, 204}) {
			t.Fatalf("callback statuses = %v, want [429 204]", got)
		}
	})
	t.Run("global", func(t *testing.T) {
		srv.InjectFault(discordtest.Fault{Method: "POST", Route: messagesRoute, Status: http.StatusTooManyRequests, RetryAfter: 30 * time.Millisecond, Global: true})
		if _, err := b.ChannelMessageSend(srv.ChannelID(), "hello"); err != nil {
			t.Fatalf("send: %v", err)
		}
		receive(t, b.rateLimits, "discordgo's rate limit event")
		reqs := srv.Requests()
		var limited discordtest.Request
		for _, r := range reqs {
			if r.Route == messagesRoute && r.Status == 429 {
				limited = r
			}
		}
		if !strings.Contains(string(limited.Response), `"global":true`) {
			t.Fatalf("429 body = %s, want a global rate limit", limited.Response)
		}
		if got := statuses(srv, "POST", messagesRoute); !slices.Equal(got, []int{429, 200}) {
			t.Fatalf("statuses = %v, want [429 200]", got)
		}
	})
}

func TestServerErrors(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)

	t.Run("500 is surfaced", func(t *testing.T) {
		srv.InjectFault(discordtest.Fault{Route: messagesRoute, Status: http.StatusInternalServerError})
		_, err := b.ChannelMessageSend(srv.ChannelID(), "hello")
		restError(t, err, 500, discordtest.CodeGeneral)
	})
	t.Run("502 is retried", func(t *testing.T) {
		srv.InjectFault(discordtest.Fault{Route: messagesRoute, Status: http.StatusBadGateway})
		if _, err := b.ChannelMessageSend(srv.ChannelID(), "hello"); err != nil {
			t.Fatalf("send after one 502: %v", err)
		}
	})
	t.Run("502 beyond the retries is surfaced", func(t *testing.T) {
		srv.InjectFault(discordtest.Fault{Route: messagesRoute, Status: http.StatusBadGateway, Times: b.MaxRestRetries + 1})
		if _, err := b.ChannelMessageSend(srv.ChannelID(), "hello"); err == nil || !strings.Contains(err.Error(), "502") {
			t.Fatalf("send after %d 502s: %v, want an error", b.MaxRestRetries+1, err)
		}
	})
	want := []int{500, 502, 200, 502, 502, 502, 502}
	if got := statuses(srv, "POST", messagesRoute); !slices.Equal(got, want) {
		t.Fatalf("statuses = %v, want %v", got, want)
	}
}

func TestSlowResponses(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)

	srv.InjectFault(discordtest.Fault{Route: messagesRoute, Delay: 20 * time.Millisecond})
	if _, err := b.ChannelMessageSend(srv.ChannelID(), "slow but fine"); err != nil {
		t.Fatalf("slow send: %v", err)
	}

	// A client that gives up sooner than Discord answers sees a timeout.
	srv.InjectFault(discordtest.Fault{Route: messagesRoute, Delay: 5 * time.Second})
	impatient := *b.Client
	impatient.Timeout = 50 * time.Millisecond
	_, err := b.ChannelMessageSend(srv.ChannelID(), "too slow", discordgo.WithClient(&impatient))
	var timeout interface{ Timeout() bool }
	if !errors.As(err, &timeout) || !timeout.Timeout() {
		t.Fatalf("send with a 50ms timeout: %v, want a timeout", err)
	}
}

// TestDroppedConnection drops a request's connection: the client gets its
// HTTP library's error, which quotes the URL, and the request is recorded
// with status 0; the next request is answered.
func TestDroppedConnection(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)

	srv.InjectFault(discordtest.Fault{Method: "POST", Route: messagesRoute, Drop: true})
	_, err := b.ChannelMessageSend(srv.ChannelID(), "lost")
	var restErr *discordgo.RESTError
	if err == nil || errors.As(err, &restErr) || !strings.Contains(err.Error(), "/channels/"+srv.ChannelID()+"/messages") {
		t.Fatalf("send on a dropped connection: %v, want the HTTP client's error quoting the URL", err)
	}
	if _, err := b.ChannelMessageSend(srv.ChannelID(), "delivered"); err != nil {
		t.Fatalf("send after the drop: %v", err)
	}
	if got := statuses(srv, "POST", messagesRoute); !slices.Equal(got, []int{0, 200}) {
		t.Fatalf("statuses = %v, want [0 200]", got)
	}
}

// TestAdvanceMakesARequestTakeTimeOnDiscordsClock checks that a fault's
// Advance moves the ManualClock as the request arrives: an answer sent
// after such a request is late for Discord, one sent before it is not.
func TestAdvanceMakesARequestTakeTimeOnDiscordsClock(t *testing.T) {
	t.Parallel()
	clock := discordtest.NewManualClock(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	srv, b, alice, bob := twoPlayers(t, discordtest.WithClock(clock))
	srv.InjectFault(discordtest.Fault{Method: "POST", Route: messagesRoute, Advance: 3500 * time.Millisecond})
	_, late := challenge(t, srv, b, alice.ID, bob.ID)
	before := clock.Now()
	if _, err := b.ChannelMessageSend(srv.ChannelID(), "slow"); err != nil {
		t.Fatalf("send: %v", err)
	}
	if got := clock.Now().Sub(before); got != 3500*time.Millisecond {
		t.Fatalf("the slow request moved the clock %v, want 3.5s", got)
	}
	err := b.InteractionRespond(late, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
	restError(t, err, 404, discordtest.CodeUnknownInteraction)
	if _, err := b.ChannelMessageSend(srv.ChannelID(), "fast"); err != nil || !clock.Now().Equal(before.Add(3500*time.Millisecond)) {
		t.Fatalf("a second request (%v) moved the clock again: the fault is used once", err)
	}
}

// TestAdvanceNeedsAManualClock checks that Advance on a server with the
// system clock is refused instead of silently doing nothing.
func TestAdvanceNeedsAManualClock(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	defer func() {
		if recover() == nil {
			t.Error("InjectFault took Advance on a server without a ManualClock")
		}
	}()
	srv.InjectFault(discordtest.Fault{Advance: time.Second})
}
