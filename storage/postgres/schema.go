package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

// ErrSchema reports a database whose schema this build cannot use: written
// by a newer Gambit, or (with Options.NoMigrate) not yet upgraded.
var ErrSchema = errors.New("unsupported database schema")

// A migration upgrades the schema from version n-1 to n.
type migration struct {
	version uint64
	name    string
	sql     string
}

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations is the upgrade path, read from migrations/NNNN_name.sql: the
// current schema version is its length. Add files; never edit or renumber
// one that has shipped.
var migrations = mustLoadMigrations(migrationFiles)

// mustLoadMigrations reads the migration files, which must be numbered 1,
// 2, … without gaps.
func mustLoadMigrations(fsys fs.FS) []migration {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		panic(err)
	}
	var out []migration
	for i, name := range names { // fs.Glob returns sorted names
		base := strings.TrimSuffix(path.Base(name), ".sql")
		num, label, _ := strings.Cut(base, "_")
		v, err := strconv.ParseUint(num, 10, 64)
		if err != nil || v != uint64(i+1) {
			panic(fmt.Sprintf("storage/postgres: migration %s is not number %d", name, i+1))
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			panic(err)
		}
		out = append(out, migration{version: v, name: label, sql: string(data)})
	}
	return out
}

// migrateLock is the key of the advisory lock that serialises migrations
// of one schema, so that processes starting together upgrade it once.
const migrateLock = "SELECT pg_advisory_xact_lock(hashtext('gambit migrate ' || current_schema()))"

// migrate brings the schema to len(steps), each step in its own
// transaction together with its row in schema_migrations; with noMigrate
// it only checks that the schema is current. The lock is held by a
// transaction left open on a connection of its own while the steps run on
// others: a session's lock would stay behind PgBouncer's transaction
// pooling on whichever server connection took it.
func migrate(ctx context.Context, pool *pgxpool.Pool, steps []migration, noMigrate bool) error {
	if !noMigrate {
		lock, err := pool.Begin(ctx)
		if err != nil {
			return fmt.Errorf("lock for migration: %w", err)
		}
		defer func() { _ = lock.Rollback(context.WithoutCancel(ctx)) }()
		if _, err := lock.Exec(ctx, migrateLock); err != nil {
			return fmt.Errorf("lock for migration: %w", err)
		}
		if _, err := pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    bigint PRIMARY KEY,
			name       text NOT NULL,
			applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
			return fmt.Errorf("create schema_migrations: %w", err)
		}
	}
	have, err := schemaVersion(ctx, pool)
	if err != nil {
		return err
	}
	want := uint64(len(steps))
	switch {
	case have > want:
		return fmt.Errorf("%w: schema version %d is newer than this build's %d; run a newer Gambit", ErrSchema, have, want)
	case have < want && noMigrate:
		return fmt.Errorf("%w: schema version %d needs upgrading to %d; run 'gambit db migrate' or start the bot first", ErrSchema, have, want)
	}
	for _, step := range steps[have:] {
		if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, step.sql); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", step.version, step.name)
			return err
		}); err != nil {
			return fmt.Errorf("migrate schema %d→%d (%s): %w", step.version-1, step.version, step.name, err)
		}
	}
	if noMigrate {
		return nil
	}
	return migrateQueue(ctx, pool)
}

// migrateQueue creates or upgrades the tables of River, the job queue the
// AI turns go through (river_job and its companions), in the same schema
// and under the same lock as Gambit's own: River's migrations are its
// own, versioned by River in its table river_migration, and a River
// upgrade in go.mod brings its new ones here. Each runs in a transaction
// of its own on another of the pool's connections (one of them adds an
// enum value that a later statement uses, which PostgreSQL refuses
// within one transaction), while another connection holds the migration
// lock.
func migrateQueue(ctx context.Context, pool *pgxpool.Pool) error {
	m, err := rivermigrate.New(riverpgxv5.New(pool), &rivermigrate.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return fmt.Errorf("migrate the job queue: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("migrate the job queue's tables: %w", err)
	}
	return nil
}

// schemaVersion returns the highest applied migration: 0 for a database
// without Gambit's tables.
func schemaVersion(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) (uint64, error) {
	var exists bool
	if err := q.QueryRow(ctx, "SELECT to_regclass('schema_migrations') IS NOT NULL").Scan(&exists); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	if !exists {
		return 0, nil
	}
	var v uint64
	if err := q.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM schema_migrations").Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}
