package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
)

// defaultDB is the database file when neither --db nor GAMBIT_DB says.
const defaultDB = "./data/gambit.db"

const dbUsage = `
Usage: gambit db check|backup|stats|bench [--db PATH] [options]

Inspects and exercises Gambit's database, a bbolt file. PATH defaults to
GAMBIT_DB, then ./data/gambit.db. bbolt lets one process hold the file: stop
the bot first, or take a copy while it runs from its operations endpoint
(GET /backup on GAMBIT_OPS_ADDR, with GAMBIT_OPS_TOKEN).

  check   bbolt's consistency check plus Gambit's invariants (indexes agree
          with records, every record decodes); exit status 1 on any problem,
          and on a file too damaged to open
  backup  --out FILE: write a consistent copy, atomically
  stats   keys per bucket and games per status
  bench   [--games 100] [--moves 50] [--concurrency 1]: create N games and
          commit M durable changes to each, printing "<game-id> <version>"
          per commit as it lands, and the rate on stderr

Run 'gambit db <subcommand> --help' for its options.

Examples:
  gambit db check
  gambit db backup --db ./data/gambit.db --out backup.db
  gambit db bench --db /tmp/bench.db --games 200 --concurrency 8
`

// dbCommands are the subcommands of gambit db.
var dbCommands = map[string]struct {
	summary string
	run     func(ctx context.Context, fs *flagSet, dbPath *string, args []string, sio stdio) error
}{
	"check":  {"bbolt's consistency check plus Gambit's invariants; exit 1 on a problem", runDBCheck},
	"backup": {"write a consistent copy of the database to --out", runDBBackup},
	"stats":  {"keys per bucket and games per status", runDBStats},
	"bench":  {"commit synthetic game updates durably, printing each", runDBBench},
}

func runDB(args []string, sio stdio) error {
	if len(args) == 0 {
		return usagef("want a subcommand: check, backup, stats or bench")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(sio.out, strings.TrimSpace(dbUsage))
		return flag.ErrHelp
	}
	sub, ok := dbCommands[args[0]]
	if !ok {
		return usagef("unknown subcommand %q: want check, backup, stats or bench", args[0])
	}
	fs := newFlagSet("db "+args[0], fmt.Sprintf("Usage: gambit db %s [--db PATH] [options]\n\n%s.\nSee 'gambit db --help'.", args[0], sub.summary), sio.out)
	dbPath := fs.String("db", envOr("GAMBIT_DB", defaultDB), "the database file (GAMBIT_DB)")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return sub.run(ctx, fs, dbPath, args[1:], sio)
}

// envOr returns the environment variable key, or def when it is unset or
// empty.
func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// openDB opens the database for the db subcommands: read-only for the
// inspections, so that a missing file is an error rather than a new empty
// database.
func openDB(path string, readOnly bool) (*bolt.Store, error) {
	if readOnly {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no database at %s: give its path with --db or GAMBIT_DB", path)
		}
	}
	return bolt.Open(path, &bolt.Options{ReadOnly: readOnly})
}

// inspect parses the flags of a read-only subcommand, checks them with
// validate (if not nil), opens the database read-only and runs fn on it.
func inspect(fs *flagSet, dbPath *string, args []string, validate func() error, fn func(*bolt.Store) error) error {
	if err := fs.parse(args); err != nil {
		return err
	}
	if validate != nil {
		if err := validate(); err != nil {
			return err
		}
	}
	s, err := openDB(*dbPath, true)
	if err != nil {
		return err
	}
	defer s.Close()
	return fn(s)
}

func runDBCheck(ctx context.Context, fs *flagSet, dbPath *string, args []string, sio stdio) error {
	return inspect(fs, dbPath, args, nil, func(s *bolt.Store) error {
		problems, err := s.Check(ctx)
		if err != nil {
			return err
		}
		for _, p := range problems {
			fmt.Fprintln(sio.out, p)
		}
		if len(problems) > 0 {
			return fmt.Errorf("%s: %d problem(s)", *dbPath, len(problems))
		}
		fmt.Fprintf(sio.out, "%s: ok\n", *dbPath)
		return nil
	})
}

func runDBBackup(ctx context.Context, fs *flagSet, dbPath *string, args []string, sio stdio) error {
	out := fs.String("out", "", "the file to write (required)")
	validate := func() error {
		if *out == "" {
			return usagef("--out is required")
		}
		return nil
	}
	return inspect(fs, dbPath, args, validate, func(s *bolt.Store) error {
		n, err := s.BackupFile(ctx, *out)
		if err != nil {
			return err
		}
		fmt.Fprintf(sio.out, "wrote %d bytes to %s\n", n, *out)
		return nil
	})
}

func runDBStats(ctx context.Context, fs *flagSet, dbPath *string, args []string, sio stdio) error {
	return inspect(fs, dbPath, args, nil, func(s *bolt.Store) error {
		st, err := s.Stats(ctx)
		if err != nil {
			return err
		}
		w := sio.out
		fmt.Fprintf(w, "%s: schema %d, %d bytes of data\n", st.Path, st.Schema, st.Size)
		fmt.Fprintln(w, "keys per bucket:")
		for _, name := range slices.Sorted(maps.Keys(st.Keys)) {
			fmt.Fprintf(w, "  %-24s %d\n", name, st.Keys[name])
		}
		fmt.Fprintln(w, "games per status:")
		for _, status := range slices.Sorted(maps.Keys(st.Games)) {
			fmt.Fprintf(w, "  %-24s %d\n", status, st.Games[status])
		}
		if st.Corrupt > 0 {
			fmt.Fprintf(w, "  %-24s %d\n", "corrupt", st.Corrupt)
		}
		return nil
	})
}

func runDBBench(ctx context.Context, fs *flagSet, dbPath *string, args []string, sio stdio) error {
	stdout, stderr := sio.out, sio.err
	games := fs.Int("games", 100, "games to create")
	moves := fs.Int("moves", 50, "changes committed to each game after its creation; the last finishes it")
	concurrency := fs.Int("concurrency", 1, "concurrent writers")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *games < 0 || *moves < 0 || *concurrency < 1 {
		return usagef("--games and --moves must be 0 or more, --concurrency 1 or more")
	}
	s, err := openDB(*dbPath, false)
	if err != nil {
		return err
	}
	var writeErr error
	res, err := s.Bench(ctx, bolt.BenchConfig{Games: *games, Moves: *moves, Concurrency: *concurrency, Kinds: duelKinds()},
		func(id storage.GameID, version uint64) {
			if writeErr == nil {
				_, writeErr = fmt.Fprintf(stdout, "%s %d\n", id, version)
			}
		})
	err = errors.Join(err, writeErr, s.Close())
	fmt.Fprintf(stderr, "%d durable commits in %.3f s: %.0f per second (%d writers)\n",
		res.Commits, res.Elapsed.Seconds(), res.PerSecond(), *concurrency)
	return err
}

// duelKinds are the kinds of the registered duels, for synthetic games.
func duelKinds() []storage.Kind {
	var kinds []storage.Kind
	for _, g := range catalog.All() {
		if g.Players == 2 {
			kinds = append(kinds, storage.Kind(g.Name))
		}
	}
	return kinds
}
