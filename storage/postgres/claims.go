package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
)

// Claim implements storage.Store: one upsert that takes the row only when
// it is free, expired or already owner's, so that of racing claimants the
// row lock lets exactly one through.
//
// Claims are timed by the database server's clock (dbNow), the one clock
// every process sharing the database reads, so that a process whose own
// clock is off can neither take a live claim (its clock ahead) nor keep
// one past its time (its clock behind); the processes need no NTP among
// themselves. They are leases in a table rather than session advisory
// locks, which would die with their connection: a claim outlives the
// transaction that takes it (an AI turn, a shard, an identify window),
// so a session lock would hold a connection per claim out of the pool
// for as long, and would not survive a transaction-pooling PgBouncer,
// which hands each transaction a different server connection.
func (s *Store) Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if err := storage.ValidClaim(key, owner, ttl); err != nil {
		return false, err
	}
	var taken bool
	err := s.update(ctx, func(tx pgx.Tx) error {
		var k string
		err := tx.QueryRow(ctx, `INSERT INTO claims (key, owner, expires_at)
			VALUES ($1, $2, `+dbNow(3)+` + $4 * interval '1 microsecond')
			ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
			WHERE claims.owner = excluded.owner OR claims.expires_at <= `+dbNow(3)+`
			RETURNING key`, key, owner, s.dbTime(), ttl.Microseconds()).Scan(&k)
		taken = err == nil
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	if err != nil {
		return false, fmt.Errorf("storage: claim %s: %w", key, err)
	}
	return taken, nil
}

// dbNow is the current time in the claims' queries, the database
// server's: the start of the statement, so that one statement sees one
// time. Its parameter $n, the argument dbTime returns, replaces it in
// tests.
func dbNow(n int) string {
	return fmt.Sprintf("coalesce($%d::timestamptz, statement_timestamp())", n)
}

// dbTime is the argument of dbNow: nil, for the server's clock, unless a
// test stands in for it (Options.dbClock).
func (s *Store) dbTime() *time.Time {
	if s.dbClock == nil {
		return nil
	}
	t := s.dbClock()
	return &t
}

// Release implements storage.Store.
func (s *Store) Release(ctx context.Context, key, owner string) error {
	err := s.update(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "DELETE FROM claims WHERE key = $1 AND owner = $2", key, owner)
		return err
	})
	if err != nil {
		return fmt.Errorf("storage: release claim %s: %w", key, err)
	}
	return nil
}

// Claims implements storage.Store.
func (s *Store) Claims(ctx context.Context, prefix string) (map[string]string, error) {
	out := map[string]string{}
	err := s.view(ctx, func(tx pgx.Tx) error {
		clear(out)
		rows, err := tx.Query(ctx, `SELECT key, owner FROM claims
			WHERE starts_with(key, $1) AND expires_at > `+dbNow(2), prefix, s.dbTime())
		if err != nil {
			return err
		}
		var key, owner string
		_, err = pgx.ForEachRow(rows, []any{&key, &owner}, func() error {
			out[key] = owner
			return nil
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: list claims %q: %w", prefix, err)
	}
	return out, nil
}
