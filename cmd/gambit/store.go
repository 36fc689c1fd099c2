package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
	"github.com/gambitbot/gambit/storage/postgres"
)

// envDatabaseURL names the PostgreSQL database; unset means the bbolt file.
const envDatabaseURL = "GAMBIT_DATABASE_URL"

// storeMode says how a command opens the database.
type storeMode int

const (
	// serving opens for the bot: read-write, upgrading the schema.
	serving storeMode = iota
	// inspecting opens for check and stats: read-only on bbolt (so a
	// missing file is an error rather than a new database), and without
	// upgrading the schema on either.
	inspecting
)

// The settings of the connections to PostgreSQL.
const (
	// envDBMaxConns caps a process's connections (default: connBudget).
	envDBMaxConns = "GAMBIT_DB_MAX_CONNS"
	// envDBPooler names the pooler in front of PostgreSQL: none or
	// pgbouncer (postgres.Pooler).
	envDBPooler = "GAMBIT_DB_POOLER"
)

// storeRole is what a process does with PostgreSQL, which sets how many
// connections it needs (connBudget).
type storeRole struct {
	// interactions: a bot or serve process, answering interactions.
	interactions bool
	// jobs is how many queued jobs (AI turns, reviews, deadlines and
	// tournaments) the process runs at once; 0 when it works no queue.
	jobs int
}

// The parts of a process's default connection budget.
const (
	// interactionConns serve the interactions of a bot or serve process:
	// each holds a connection for one short transaction at a time.
	interactionConns = 10
	// riverConns are River's own while it works the queue: fetching
	// jobs, recording their completion, the elected leader's upkeep.
	riverConns = 2
	// listenConns is the connection River's LISTEN holds while it works
	// the queue directly on PostgreSQL (none behind PgBouncer, where it
	// polls).
	listenConns = 1
	// adminConns serve the db commands: one holds the migrations' lock
	// while another migrates.
	adminConns = 4
)

// connBudget is the connections a process in role needs by default:
// interactionConns for its interactions; a connection per job it runs at
// once and River's own (riverConns, listenConns) if it works the queue;
// adminConns for the db commands. The job queue's clients share the
// store's pool, so this is the process's whole budget.
func connBudget(role storeRole, pooler postgres.Pooler) int32 {
	n := 0
	if role.interactions {
		n += interactionConns
	}
	if role.jobs > 0 {
		n += role.jobs + riverConns
		if pooler != postgres.PoolerPgBouncer {
			n += listenConns
		}
	}
	if n == 0 {
		n = adminConns
	}
	return int32(n)
}

// dbOptions reads GAMBIT_DB_MAX_CONNS and GAMBIT_DB_POOLER into the
// options of a process in role.
func dbOptions(role storeRole) (postgres.Options, error) {
	var errs []error
	pooler, err := postgres.ParsePooler(strings.TrimSpace(os.Getenv(envDBPooler)))
	if err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", envDBPooler, err))
	}
	o := postgres.Options{AIRatings: bot.AIRatings, Pooler: pooler, MaxConns: connBudget(role, pooler)}
	if v := strings.TrimSpace(os.Getenv(envDBMaxConns)); v != "" {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil || n < 2 {
			errs = append(errs, fmt.Errorf("%s=%q: want a whole number of connections, at least 2", envDBMaxConns, v))
		}
		o.MaxConns = int32(n)
	}
	return o, errors.Join(errs...)
}

// openStore opens PostgreSQL when url is set, for a process in role,
// otherwise the bbolt file at path.
func openStore(ctx context.Context, url, path string, mode storeMode, role storeRole) (storage.Admin, error) {
	if url != "" {
		o, err := dbOptions(role)
		if err != nil {
			return nil, err
		}
		o.NoMigrate = mode == inspecting
		return postgres.Open(ctx, url, &o)
	}
	if mode == inspecting {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no database at %s: give its path with --db or GAMBIT_DB, or a PostgreSQL URL with --url or %s", path, envDatabaseURL)
		}
	}
	s, err := bolt.Open(path, &bolt.Options{ReadOnly: mode == inspecting, AIRatings: bot.AIRatings})
	if mode == serving && errors.Is(err, bolt.ErrCorruptFile) {
		return nil, fmt.Errorf("%w\nthe bot does not start on a damaged file, and left it as it is: list the damage with 'gambit db check --db %s', then restore the last backup (a copy from 'gambit db backup' or GET /backup)", err, path)
	}
	return s, err
}

// storeName names the database a store holds, for messages.
func storeName(s storage.Admin) string {
	switch s := s.(type) {
	case *bolt.Store:
		return s.Path()
	case *postgres.Store:
		return s.Name()
	}
	return fmt.Sprintf("%T", s)
}
