package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/playground"
)

const playgroundUsage = `
Usage: gambit playground

Plays Gambit without a Discord token: starts a local stand-in of Discord,
runs the real bot against it and serves a web page showing one channel,
where simulated members use the slash commands, buttons and selects. Games
are kept in their own database, so they survive restarts.

  GAMBIT_PLAYGROUND_ADDR  where the page is served (default 127.0.0.1:8080; loopback only)
  GAMBIT_PLAYGROUND_DB    the playground's database (default ./data/playground.db)
  GAMBIT_DATABASE_URL     a PostgreSQL database (postgres://…) instead of the file
  GAMBIT_MOVE_TIME, GAMBIT_DEFAULT_AI, GAMBIT_SEARCH_THREADS, GAMBIT_LOG_LEVEL
                          as for 'gambit bot'

To play on Discord instead, create a Discord application, set DISCORD_TOKEN
and run 'gambit bot' (see docs/server-admins.md).`

// defaultPlaygroundDB is the playground's database unless
// GAMBIT_PLAYGROUND_DB says otherwise.
const defaultPlaygroundDB = "./data/playground.db"

// runPlayground serves the local playground until SIGINT or SIGTERM.
func runPlayground(args []string, sio stdio) error {
	fs := newFlagSet("playground", playgroundUsage, sio.out)
	if err := fs.parse(args); err != nil {
		return err
	}
	cfg, level, err := botSettings(false)
	if err != nil {
		return err
	}
	runtime.GOMAXPROCS(bot.Procs(cfg))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := playground.Listen(os.Getenv("GAMBIT_PLAYGROUND_ADDR"))
	if err != nil {
		return err
	}
	db := envOr("GAMBIT_PLAYGROUND_DB", defaultPlaygroundDB)
	store, err := openStore(ctx, os.Getenv(envDatabaseURL), db, serving, storeRole{interactions: true})
	if err != nil {
		_ = ln.Close()
		return err
	}
	defer func() {
		if err := store.Close(); err != nil {
			fmt.Fprintf(sio.err, "gambit playground: close the database: %v\n", err)
		}
	}()
	return playground.Run(ctx, playground.Config{
		Listener:  ln,
		Store:     store,
		StatePath: strings.TrimSuffix(db, ".db") + ".json",
		Bot:       cfg,
		Logger:    slog.New(slog.NewTextHandler(sio.err, &slog.HandlerOptions{Level: level})),
		Ready: func(url string) {
			fmt.Fprintf(sio.out, "Gambit playground: open %s in your browser.\n", url)
			fmt.Fprintln(sio.out, "To play on real Discord instead, put a bot token in DISCORD_TOKEN and run 'gambit bot' (see docs/server-admins.md).")
		},
	})
}
