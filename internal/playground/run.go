package playground

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// DefaultAddr is where the page is served unless Config says otherwise.
const DefaultAddr = "127.0.0.1:8080"

// Config sets up a playground.
type Config struct {
	// Listener serves the page; make it with Listen, which keeps it on
	// loopback (the playground has no authentication). Run closes it.
	Listener net.Listener
	// Store is the playground's database, opened by the caller; Run does
	// not close it.
	Store storage.Store
	// StatePath is the file that keeps the members, the server's IDs and
	// the languages chosen for them between runs.
	StatePath string
	// Bot holds the bot's settings; its Token, APIURL and Logger are set
	// by Run.
	Bot bot.Config
	// Logger receives the logs; nil means slog.Default().
	Logger *slog.Logger
	// Ready, if not nil, is called with the page's URL once the page is
	// served and the bot is ready.
	Ready func(url string)
	// StandIn holds extra options for the local Discord stand-in, after
	// the playground's own: a test gives discordtest.AnswerUntilTestDeadline
	// so that a loaded machine cannot make Discord's 3 seconds run out.
	StandIn []discordtest.ServerOption
}

// defaultMembers are the simulated members of a new playground: alice
// manages the server (its owner, say), bob is a member as most are,
// without Manage Server.
var defaultMembers = []Member{{Name: "alice"}, {Name: "bob", NoManageServer: true}}

// Run starts the stand-in, the bot and the page, and serves until ctx is
// done; then it stops them in reverse order.
func Run(ctx context.Context, cfg Config) error {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	ln := cfg.Listener
	defer ln.Close()
	statePath := cfg.StatePath
	st, err := LoadState(statePath)
	if err != nil {
		return err
	}
	opts := append([]discordtest.ServerOption{discordtest.WithIdentity(st.Identity), discordtest.WithLogger(log.With("component", "stand-in"))}, cfg.StandIn...)
	srv := discordtest.New(opts...)
	defer srv.Close()
	st.Identity = srv.Identity()
	fresh := len(st.Members) == 0
	save := func(saved State) error {
		saved.Identity = st.Identity
		return SaveState(statePath, saved)
	}
	page, err := NewPage(srv, st, save, log)
	if err != nil {
		return err
	}
	if fresh {
		for _, def := range defaultMembers {
			m, err := page.AddMember(def.Name)
			if err != nil {
				return err
			}
			if err := page.SetManageServer(m.ID, !def.NoManageServer); err != nil {
				return err
			}
		}
	} else if err := save(page.Saved()); err != nil {
		return err
	}

	url := "http://" + ln.Addr().String() + "/"
	bc := cfg.Bot
	bc.Token, bc.REST.APIURL, bc.Logger = srv.Token(), srv.URL(), log.With("component", "bot")
	// The stand-in keeps no messages across restarts: every open game's
	// board is posted again.
	bc.Timers.RefreshWindow = 100 * 365 * 24 * time.Hour
	bc.Lifecycle.Ready = func() {
		if cfg.Ready != nil {
			cfg.Ready(url)
		}
	}
	b, err := bot.New(bc, cfg.Store)
	if err != nil {
		return err
	}

	hs := &http.Server{Handler: page.Handler(ln.Addr().(*net.TCPAddr).Port), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()

	botCtx, stopBot := context.WithCancel(ctx)
	defer stopBot()
	botDone := make(chan error, 1)
	go func() { botDone <- b.Run(botCtx) }()

	var runErr error
	select {
	case <-ctx.Done():
	case runErr = <-served:
	case runErr = <-botDone:
		botDone = nil
	}
	stopBot()
	if botDone != nil {
		runErr = errors.Join(runErr, <-botDone)
	}
	srv.Close() // ends the page's event streams
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		runErr = errors.Join(runErr, fmt.Errorf("playground: stop the page: %w", err))
	}
	if errors.Is(runErr, http.ErrServerClosed) {
		return nil
	}
	return runErr
}

// Listen listens on addr (DefaultAddr if empty) for the page, refusing an
// address beyond this machine. Callers listen before creating any file,
// so that a busy port leaves nothing behind.
func Listen(addr string) (net.Listener, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	if err := checkLoopback(addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("playground: listen on %s (set GAMBIT_PLAYGROUND_ADDR to use another address): %w", addr, err)
	}
	return ln, nil
}

// checkLoopback refuses to serve the page beyond this machine.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("playground: address %q: %w", addr, err)
	}
	if !isLoopback(host) {
		return fmt.Errorf("playground: address %q is not a loopback address: the playground has no authentication, so it only serves this machine", addr)
	}
	return nil
}
