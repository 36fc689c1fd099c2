// Package postgres implements storage.Store on PostgreSQL, for running
// several Gambit processes on one database (storage/bolt, a file one
// process holds, stays the default for one machine).
//
// It keeps storage/bolt's semantics, checked by the same conformance suite
// (storage/storetest): every method that changes data is one transaction;
// a game's Version is a fencing token, compared and set under the game's
// row lock, so of two writers racing on one game exactly one commits;
// leaderboards and ranks are read from a partial index of the established
// ratings. Transactions that touch a user's caps or ratings (CreateGame,
// FinishGame, DeleteUser) first take that user's transaction-scoped
// advisory lock, always in the same order, so that concurrent changes
// serialise per user instead of deadlocking. An AI's rating never moves:
// its lock is taken last, only to count the game in its tally, so that
// the games of many users against one AI do their own work side by side.
// A transaction PostgreSQL still aborts as a deadlock or serialisation
// failure is retried.
//
// The schema is created and upgraded by the SQL files in migrations/,
// applied in order at Open and recorded in the table schema_migrations.
// Connect with a postgres:// URL (pgx's syntax); a search_path parameter in
// it selects the schema the tables live in.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gambitbot/gambit/storage"
)

// DefaultTimeout bounds each store operation unless Options say otherwise.
const DefaultTimeout = 10 * time.Second

// staleClaims is how long after expiring, by the database's clock, a
// claim is deleted when a store is opened.
const staleClaims = 24 * time.Hour

// maxAttempts bounds the retries of a transaction PostgreSQL aborted as a
// deadlock or serialisation failure.
const maxAttempts = 5

// Options tune Open; the zero value is the production setting.
type Options struct {
	// Clock returns the current time; time.Now if nil. It stamps the
	// games (created, updated). Claims and whether a deadline has passed
	// follow the database server's clock instead, so that processes whose
	// clocks disagree split work correctly.
	Clock func() time.Time
	// Timeout bounds each operation (its context gets this deadline);
	// DefaultTimeout if zero.
	Timeout time.Duration
	// NoMigrate opens without upgrading the schema, for inspection
	// (check, stats): a database whose schema is behind this build's is
	// refused instead of upgraded.
	NoMigrate bool
	// MaxConns caps the pool's connections; pgxpool's default (the larger
	// of 4 and the number of CPUs) if zero. A pool_max_conns parameter in
	// the URL does the same. The job queue's clients (River: AI turns,
	// deadlines) share the pool. Opening needs two: one holds the
	// migrations' lock while another migrates.
	MaxConns int32
	// Pooler is the connection pooler between the process and
	// PostgreSQL, if any: with PoolerPgBouncer (transaction pooling) the
	// store's statements are not prepared on the server, and River's
	// clients poll for jobs instead of listening (PollOnly).
	Pooler Pooler
	// AIRatings gives the AI strategies' calibrated, fixed ratings
	// (strategies.Rating in the bot); without it every AI plays at
	// storage.DefaultAIRating. AI ratings never move either way.
	AIRatings storage.AIRatings

	// dbClock stands in for the database server's clock, which times the
	// claims, in this package's tests; nil (the server's clock) otherwise.
	dbClock func() time.Time
}

// Pooler names a connection pooler in front of PostgreSQL.
type Pooler string

// The poolers Options.Pooler knows.
const (
	// PoolerNone: the processes connect to PostgreSQL itself.
	PoolerNone Pooler = ""
	// PoolerPgBouncer: PgBouncer in transaction pooling mode, which hands
	// each transaction to any of its server connections. Statements are
	// then described by an unnamed statement and run with their
	// parameters in one round trip (pgx's QueryExecModeCacheDescribe),
	// never prepared by name on a server connection the next transaction
	// may not get; and LISTEN, which needs a session, is not used.
	PoolerPgBouncer Pooler = "pgbouncer"
)

// ParsePooler reads a Pooler's name: "" or "none", or "pgbouncer".
func ParsePooler(s string) (Pooler, error) {
	switch s {
	case "", "none":
		return PoolerNone, nil
	case string(PoolerPgBouncer):
		return PoolerPgBouncer, nil
	}
	return PoolerNone, fmt.Errorf("storage: pooler %q: want none or pgbouncer", s)
}

// Store is the PostgreSQL implementation of storage.Store, plus the
// administration functions behind `gambit db`.
type Store struct {
	pool    *pgxpool.Pool
	pooler  Pooler
	jobs    *jobs // inserts the deadlines' and the tournaments' jobs (DeadlineArgs, TournamentArgs)
	name    string
	now     func() time.Time
	dbClock func() time.Time // Options.dbClock
	timeout time.Duration
	ai      storage.AIRatings
}

var (
	_ storage.Admin    = (*Store)(nil)
	_ storage.Importer = (*Store)(nil)
)

// Open connects to the database at url, creating or upgrading Gambit's
// schema (unless opts.NoMigrate) and refusing a schema newer than this
// build's. The error never shows the URL's password.
func Open(ctx context.Context, url string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's parse errors quote the URL with its password masked.
		return nil, fmt.Errorf("storage: open PostgreSQL: %w", err)
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
	}
	if cfg.MaxConns < 2 {
		return nil, fmt.Errorf("storage: open %s: %d connections: want at least 2 (one holds the migrations' lock while another migrates)", Redact(cfg.ConnConfig), cfg.MaxConns)
	}
	switch o.Pooler {
	case PoolerNone:
	case PoolerPgBouncer:
		cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeCacheDescribe
	default:
		return nil, fmt.Errorf("storage: open %s: unknown pooler %q", Redact(cfg.ConnConfig), o.Pooler)
	}
	s := &Store{pooler: o.Pooler, name: Redact(cfg.ConnConfig), now: func() time.Time { return o.Clock().UTC() }, dbClock: o.dbClock, timeout: o.Timeout, ai: o.AIRatings}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	if s.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", s.name, err)
	}
	if err := s.pool.Ping(ctx); err != nil {
		s.pool.Close()
		return nil, fmt.Errorf("storage: open %s: %w", s.name, err)
	}
	if err := migrate(ctx, s.pool, migrations, o.NoMigrate); err != nil {
		s.pool.Close()
		return nil, fmt.Errorf("storage: open %s: %w", s.name, err)
	}
	if s.jobs, err = newJobs(s.pool); err != nil {
		s.pool.Close()
		return nil, fmt.Errorf("storage: open %s: %w", s.name, err)
	}
	if !o.NoMigrate {
		// Every process that ever ran leaves its membership claim; those
		// that expired a day ago are of processes long gone.
		if _, err := s.pool.Exec(ctx, "DELETE FROM claims WHERE expires_at < "+dbNow(1)+" - $2 * interval '1 microsecond'",
			s.dbTime(), staleClaims.Microseconds()); err != nil {
			s.pool.Close()
			return nil, fmt.Errorf("storage: open %s: delete stale claims: %w", s.name, err)
		}
	}
	return s, nil
}

// Redact names a database by its connection settings without the password:
// postgres://user@host:port/database.
func Redact(c *pgx.ConnConfig) string {
	return fmt.Sprintf("postgres://%s@%s:%d/%s", c.User, c.Host, c.Port, c.Database)
}

// Name returns the database's URL without its password.
func (s *Store) Name() string { return s.name }

// Pool returns the store's connection pool, for what shares the database
// beside the store: the job queue of the AI turns, whose tables Open
// created with Gambit's (migrateQueue).
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// PollOnly reports whether River's clients on the store's pool must poll
// for jobs instead of listening for them (Options.Pooler).
func (s *Store) PollOnly() bool { return s.pooler == PoolerPgBouncer }

// Close closes the pool, waiting for connections in use.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// update runs fn in one read-committed transaction with the operation's
// timeout, retrying it when PostgreSQL aborts it as a deadlock or
// serialisation failure; fn must set the variables it fills on every run.
func (s *Store) update(ctx context.Context, fn func(pgx.Tx) error) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	for attempt := 1; ; attempt++ {
		err := pgx.BeginFunc(ctx, s.pool, fn)
		if attempt < maxAttempts && retryable(err) {
			continue
		}
		return err
	}
}

// view runs fn in a read-only repeatable-read transaction: every query in
// it sees the same snapshot, as in a bbolt read transaction.
func (s *Store) view(ctx context.Context, fn func(pgx.Tx) error) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, fn)
}

// retryable reports a transaction PostgreSQL aborted that would succeed if
// run again: a serialisation failure or a deadlock.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// playerKey is the key of a player's advisory lock.
func playerKey(p storage.PlayerID) int64 {
	h := fnv.New64a()
	h.Write([]byte("gambit player "))
	h.Write([]byte(p))
	return int64(h.Sum64())
}

// lockPlayers takes the transaction-scoped advisory locks of the players,
// ordered by lock key so that two transactions never wait on each other in
// a cycle.
func lockPlayers(ctx context.Context, tx pgx.Tx, players ...storage.PlayerID) error {
	keys := make([]int64, 0, len(players))
	for _, p := range players {
		keys = append(keys, playerKey(p))
	}
	slices.Sort(keys)
	for _, k := range slices.Compact(keys) {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", k); err != nil {
			return fmt.Errorf("lock player: %w", err)
		}
	}
	return nil
}
