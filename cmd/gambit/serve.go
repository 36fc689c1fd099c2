package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/gambitbot/gambit/bot"
)

const serveUsage = `
Usage: gambit serve

Runs the Discord bot without a gateway connection until SIGINT or SIGTERM:
Discord POSTs every interaction to this HTTP endpoint (the application's
Interactions Endpoint URL in the developer portal), signed with the
application's key; everything else goes through Discord's REST API. Any
number of 'gambit serve' processes on one PostgreSQL database
(GAMBIT_DATABASE_URL) can sit behind a load balancer. Serve it over HTTPS
through a reverse proxy: Discord only calls https:// URLs.

Settings are those of 'gambit bot' (see 'gambit bot --help' and
.env.example), and:

  DISCORD_PUBLIC_KEY     the application's public key, 64 hex digits (required)
  GAMBIT_SERVE_ADDR      where to listen, host:port (default 127.0.0.1:8080;
                         :8080 or 0.0.0.0:8080 listens on every interface)
  GAMBIT_SERVE_PATH      the endpoint's URL path (default /interactions)`

// Defaults of gambit serve's settings.
const (
	defaultServeAddr = "127.0.0.1:8080"
)

// runServe runs the bot on an HTTP interactions endpoint.
func runServe(args []string, sio stdio) error {
	fs := newFlagSet("serve", serveUsage, sio.out)
	if err := fs.parse(args); err != nil {
		return err
	}
	addr, ep, err := serveSettings()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveBot(ctx, sio, mode{check: "interactions_endpoint", run: func(ctx context.Context, b *bot.Bot) error {
		var lc net.ListenConfig
		ln, err := lc.Listen(ctx, "tcp", addr)
		if err != nil {
			return fmt.Errorf("listen on GAMBIT_SERVE_ADDR %s: %w", addr, err)
		}
		return b.Serve(ctx, ln, ep)
	}})
}

// serveSettings reads gambit serve's own settings from the environment.
func serveSettings() (string, bot.Endpoint, error) {
	var errs []error
	var ep bot.Endpoint
	if v := strings.TrimSpace(os.Getenv("DISCORD_PUBLIC_KEY")); v == "" {
		errs = append(errs, errors.New("DISCORD_PUBLIC_KEY is not set: copy the Public Key from your application's "+
			"General Information page in Discord's developer portal"))
	} else if k, err := bot.ParsePublicKey(v); err != nil {
		errs = append(errs, fmt.Errorf("DISCORD_PUBLIC_KEY: %w", err))
	} else {
		ep.PublicKey = k
	}
	addr := envOr("GAMBIT_SERVE_ADDR", defaultServeAddr)
	if _, port, err := net.SplitHostPort(addr); err != nil || port == "" {
		errs = append(errs, fmt.Errorf("GAMBIT_SERVE_ADDR=%q: want host:port, such as 127.0.0.1:8080 or :8080", addr))
	}
	ep.Path = envOr("GAMBIT_SERVE_PATH", bot.DefaultEndpointPath)
	if !strings.HasPrefix(ep.Path, "/") || strings.ContainsAny(ep.Path, " ?#{}") {
		errs = append(errs, fmt.Errorf("GAMBIT_SERVE_PATH=%q: want a URL path such as /interactions", ep.Path))
	}
	return addr, ep, errors.Join(errs...)
}
