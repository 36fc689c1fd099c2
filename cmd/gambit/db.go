package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
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
Usage: gambit db migrate|check|stats|backup|bench|copy [--db PATH | --url URL] [options]

Inspects, upgrades and exercises Gambit's database: a bbolt file, or a
PostgreSQL database when --url or GAMBIT_DATABASE_URL gives one
(postgres://user:password@host:port/database). PATH defaults to GAMBIT_DB,
then ./data/gambit.db. bbolt lets one process hold the file: stop the bot
first, or take a copy while it runs from its operations endpoint (GET
/backup on GAMBIT_OPS_ADDR, with GAMBIT_OPS_TOKEN).

  migrate  create or upgrade the schema (the bot does it at start too)
  check    Gambit's invariants (every record decodes and validates, indexes
           agree with records; on bbolt also its page-level check); exit
           status 1 on any problem, and on a file too damaged to open
  stats    records per bucket or table and games per status
  backup   --out FILE: write a consistent copy, atomically (bbolt only;
           back PostgreSQL up with pg_dump)
  bench    [--games 100] [--moves 50] [--concurrency 1]: create N games and
           commit M durable changes to each, printing "<game-id> <version>"
           per commit as it lands, and the rate on stderr (bbolt only; see
           docs/contributing.md for PostgreSQL's benchmarks)
  copy     --from bolt:PATH --to postgres:URL (or the other way): copy
           every game, rating, setting, daily puzzle attempt and the
           install's secrets (the daily puzzles' key) into an empty
           database, in one transaction, then check it

Run 'gambit db <subcommand> --help' for its options.

Examples:
  gambit db check
  gambit db backup --db ./data/gambit.db --out backup.db
  gambit db bench --db /tmp/bench.db --games 200 --concurrency 8
  gambit db migrate --url postgres://gambit@localhost/gambit
  gambit db copy --from bolt:./data/gambit.db --to postgres:postgres://gambit@localhost/gambit
`

// dbTarget is the database a db subcommand works on: the PostgreSQL URL
// when set, else the bbolt file.
type dbTarget struct {
	path, url *string
}

// dbCommands are the subcommands of gambit db.
var dbCommands = map[string]struct {
	summary string
	run     func(ctx context.Context, fs *flagSet, db dbTarget, args []string, sio stdio) error
}{
	"migrate": {"create or upgrade the schema", runDBMigrate},
	"check":   {"Gambit's invariants; exit 1 on a problem", runDBCheck},
	"backup":  {"write a consistent copy of a bbolt database to --out", runDBBackup},
	"stats":   {"records per bucket or table and games per status", runDBStats},
	"bench":   {"commit synthetic game updates durably to a bbolt file, printing each", runDBBench},
	"copy":    {"copy a bbolt database into an empty PostgreSQL database, or back", runDBCopy},
}

// dbNames lists the subcommands for messages.
const dbNames = "migrate, check, stats, backup, bench or copy"

func runDB(args []string, sio stdio) error {
	if len(args) == 0 {
		return usagef("want a subcommand: %s", dbNames)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(sio.out, strings.TrimSpace(dbUsage))
		return flag.ErrHelp
	}
	sub, ok := dbCommands[args[0]]
	if !ok {
		return usagef("unknown subcommand %q: want %s", args[0], dbNames)
	}
	fs := newFlagSet("db "+args[0], fmt.Sprintf("Usage: gambit db %s [--db PATH | --url URL] [options]\n\n%s.\nSee 'gambit db --help'.", args[0], sub.summary), sio.out)
	db := dbTarget{
		path: fs.String("db", envOr("GAMBIT_DB", defaultDB), "the bbolt database file (GAMBIT_DB)"),
		url:  fs.String("url", os.Getenv(envDatabaseURL), "a PostgreSQL database instead of the file ("+envDatabaseURL+")"),
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return sub.run(ctx, fs, db, args[1:], sio)
}

// envOr returns the environment variable key, or def when it is unset or
// empty.
func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// inspect parses the flags of an inspecting subcommand, checks them with
// validate (if not nil), opens the database without changing it and runs
// fn on it.
func inspect(ctx context.Context, fs *flagSet, db dbTarget, args []string, validate func() error, fn func(storage.Admin) error) error {
	if err := fs.parse(args); err != nil {
		return err
	}
	if validate != nil {
		if err := validate(); err != nil {
			return err
		}
	}
	s, err := openStore(ctx, *db.url, *db.path, inspecting, storeRole{})
	if err != nil {
		return err
	}
	defer s.Close()
	return fn(s)
}

func runDBMigrate(ctx context.Context, fs *flagSet, db dbTarget, args []string, sio stdio) error {
	if err := fs.parse(args); err != nil {
		return err
	}
	s, err := openStore(ctx, *db.url, *db.path, serving, storeRole{})
	if err != nil {
		return err
	}
	st, err := s.Stats(ctx)
	err = errors.Join(err, s.Close())
	if err != nil {
		return err
	}
	fmt.Fprintf(sio.out, "%s: schema %d\n", st.Path, st.Schema)
	return nil
}

func runDBCheck(ctx context.Context, fs *flagSet, db dbTarget, args []string, sio stdio) error {
	return inspect(ctx, fs, db, args, nil, func(s storage.Admin) error {
		problems, err := s.Check(ctx)
		if err != nil {
			return err
		}
		for _, p := range problems {
			fmt.Fprintln(sio.out, p)
		}
		if len(problems) > 0 {
			return fmt.Errorf("%s: %d problem(s)", storeName(s), len(problems))
		}
		fmt.Fprintf(sio.out, "%s: ok\n", storeName(s))
		return nil
	})
}

func runDBBackup(ctx context.Context, fs *flagSet, db dbTarget, args []string, sio stdio) error {
	out := fs.String("out", "", "the file to write (required)")
	validate := func() error {
		if *out == "" {
			return usagef("--out is required")
		}
		if *db.url != "" {
			return usagef("backup copies a bbolt file; back PostgreSQL up with pg_dump")
		}
		return nil
	}
	return inspect(ctx, fs, db, args, validate, func(s storage.Admin) error {
		n, err := s.(*bolt.Store).BackupFile(ctx, *out)
		if err != nil {
			return err
		}
		fmt.Fprintf(sio.out, "wrote %d bytes to %s\n", n, *out)
		return nil
	})
}

func runDBStats(ctx context.Context, fs *flagSet, db dbTarget, args []string, sio stdio) error {
	return inspect(ctx, fs, db, args, nil, func(s storage.Admin) error {
		st, err := s.Stats(ctx)
		if err != nil {
			return err
		}
		w := sio.out
		fmt.Fprintf(w, "%s: schema %d, %d bytes of data\n", st.Path, st.Schema, st.Size)
		fmt.Fprintln(w, "records per bucket or table:")
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

func runDBBench(ctx context.Context, fs *flagSet, db dbTarget, args []string, sio stdio) error {
	stdout, stderr := sio.out, sio.err
	games := fs.Int("games", 100, "games to create")
	moves := fs.Int("moves", 50, "changes committed to each game after its creation; the last finishes it")
	concurrency := fs.Int("concurrency", 1, "concurrent writers")
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := checkBounds(bound{"games", *games, 0, maxBenchGames, ""}, bound{"moves", *moves, 0, maxBenchMoves, ""},
		bound{"concurrency", *concurrency, 1, maxConcurrency, ""}); err != nil {
		return err
	}
	if *db.url != "" {
		return usagef("bench runs on a bbolt file; PostgreSQL's benchmarks are Go benchmarks (see docs/contributing.md, \"Tests and benchmarks\")")
	}
	s, err := bolt.Open(*db.path, nil)
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

func runDBCopy(ctx context.Context, fs *flagSet, _ dbTarget, args []string, sio stdio) error {
	from := fs.String("from", "", "the source: bolt:PATH or postgres:URL (required)")
	to := fs.String("to", "", "the target, an empty database of the other kind: postgres:URL or bolt:PATH (required)")
	if err := fs.parse(args); err != nil {
		return err
	}
	srcURL, srcPath, err := copyEnd("--from", *from)
	if err != nil {
		return err
	}
	dstURL, dstPath, err := copyEnd("--to", *to)
	if err != nil {
		return err
	}
	if (srcURL == "") == (dstURL == "") {
		return usagef("copy goes from bolt:PATH to postgres:URL or from postgres:URL to bolt:PATH")
	}
	src, err := openStore(ctx, srcURL, srcPath, inspecting, storeRole{})
	if err != nil {
		return err
	}
	defer src.Close()
	// The target is opened as the bot opens it: created, or upgraded.
	dst, err := openStore(ctx, dstURL, dstPath, serving, storeRole{})
	if err != nil {
		return err
	}
	defer dst.Close()
	if err := storage.Copy(ctx, src, dst.(storage.Importer)); err != nil {
		return err
	}
	problems, err := dst.Check(ctx)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(sio.out, p)
		}
		return fmt.Errorf("%s: %d problem(s) after the copy", storeName(dst), len(problems))
	}
	st, err := dst.Stats(ctx)
	if err != nil {
		return err
	}
	total := 0
	for _, n := range st.Games {
		total += n
	}
	fmt.Fprintf(sio.out, "copied %s to %s: %d games, %d ratings, %d guild settings; check ok\n",
		storeName(src), storeName(dst), total, st.Ratings, st.Keys["guilds"])
	return nil
}

// copyEnd reads an end of a copy, bolt:PATH or postgres:URL, into a URL
// or a path.
func copyEnd(flag, end string) (url, path string, err error) {
	if path, ok := strings.CutPrefix(end, "bolt:"); ok && path != "" {
		return "", path, nil
	}
	if url, ok := strings.CutPrefix(end, "postgres:"); ok && strings.HasPrefix(url, "postgres") {
		return url, "", nil
	}
	return "", "", usagef("%s must be bolt:PATH or postgres:URL, such as postgres:postgres://gambit@localhost/gambit", flag)
}
