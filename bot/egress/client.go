package egress

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/ops"
	"github.com/gambitbot/gambit/internal/apiurl"
)

// ErrStopped is the error of a Discord request made after Stop: a stop
// that gave up waiting for the work under way.
var ErrStopped = errors.New("bot: stopped: the shutdown ran out of time")

// stoppable is the transport of the bot's Discord requests. Once stopped it
// refuses every request at once, so that work still retrying ends:
// discordgo retries a rate-limited request for as long as Discord answers
// 429.
type stoppable struct {
	next    http.RoundTripper
	stopped *atomic.Bool
}

// RoundTrip implements http.RoundTripper.
func (s *stoppable) RoundTrip(r *http.Request) (*http.Response, error) {
	if s.stopped.Load() {
		if r.Body != nil {
			_ = r.Body.Close()
		}
		return nil, ErrStopped
	}
	return s.next.RoundTrip(r)
}

// Config is what a Client needs.
type Config struct {
	// Token is the bot token, without the "Bot " prefix.
	Token string
	// APIURL, if set, is a base URL (without /api/vN) that receives every
	// request instead of discord.com.
	APIURL string
	// Logger receives the client's logs; it should be a redactor's
	// (NewRedactor).
	Logger *slog.Logger
	// Metrics, if not nil, counts the REST errors.
	Metrics *ops.Metrics
	// Limit, if not nil, wraps the transport of every request: the rate
	// limiter (bot/egress/ratelimit). What it sends, a request again
	// after a 429 too, a stop refuses as any other.
	Limit func(next http.RoundTripper) http.RoundTripper
}

// Client sends the bot's requests to Discord. Session is the discordgo
// session every REST call goes through; the client adds what the bot
// needs around it: the files each message carries, so that an edit keeps
// them (Keeping), the count of errors (Observe) and a transport that Stop
// shuts.
type Client struct {
	// Session makes the REST calls.
	Session *discordgo.Session

	stopped  atomic.Bool // set by Stop: every request fails at once
	client   *http.Client
	token    string
	log      *slog.Logger
	metrics  *ops.Metrics
	pictures pictures
}

// New returns a client for cfg. It does not call Discord.
func New(cfg Config) (*Client, error) {
	var transport http.RoundTripper = http.DefaultTransport
	if cfg.APIURL != "" {
		base, err := apiurl.Parse(cfg.APIURL)
		if err != nil {
			return nil, fmt.Errorf("bot: DISCORD_API_URL: %w", err)
		}
		transport = apiurl.Transport(base, nil)
	}
	c := &Client{token: cfg.Token, log: cfg.Logger, metrics: cfg.Metrics}
	transport = &stoppable{next: transport, stopped: &c.stopped}
	if cfg.Limit != nil {
		transport = &stoppable{next: cfg.Limit(transport), stopped: &c.stopped}
	}
	c.client = &http.Client{Transport: transport, Timeout: 20 * time.Second}
	s, err := c.NewSession()
	if err != nil {
		return nil, err
	}
	c.Session = s
	return c, nil
}

// NewSession returns a new discordgo session with the bot's token and the
// client's transport. The REST calls all go through Session; the gateway
// side (package ingress) makes one more per shard, which holds only that
// shard's connection.
func (c *Client) NewSession() (*discordgo.Session, error) {
	s, err := discordgo.New("Bot " + c.token)
	if err != nil {
		return nil, fmt.Errorf("bot: create session: %w", err)
	}
	s.Client = c.client
	s.Identify.Intents = discordgo.IntentsGuilds
	s.ShouldRetryOnRateLimit = true
	s.MaxRestRetries = 3
	return s, nil
}

// Stop makes every request from now on fail at once with ErrStopped.
func (c *Client) Stop() { c.stopped.Store(true) }

// Observe counts a Discord REST error by status and code.
func (c *Client) Observe(err error) {
	if err == nil || c.metrics == nil {
		return
	}
	status, code := "none", "0"
	var rest *discordgo.RESTError
	if errors.As(err, &rest) {
		status = fmt.Sprint(rest.Response.StatusCode)
		if rest.Message != nil {
			code = fmt.Sprint(rest.Message.Code)
		}
	}
	c.metrics.REST.Errors.WithLabelValues(status, code).Inc()
}

// Code returns the Discord JSON error code of a REST error, or 0.
func Code(err error) int {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Message != nil {
		return rest.Message.Code
	}
	return 0
}
