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
// row lock lets exactly one through. Time is the store's clock, as for
// deadlines; the processes sharing a database need clocks that agree to
// within a small part of the claims' time to live.
func (s *Store) Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if err := storage.ValidClaim(key, owner, ttl); err != nil {
		return false, err
	}
	now := s.now()
	var taken bool
	err := s.update(ctx, func(tx pgx.Tx) error {
		var k string
		err := tx.QueryRow(ctx, `INSERT INTO claims (key, owner, expires_at) VALUES ($1, $2, $3)
			ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
			WHERE claims.owner = excluded.owner OR claims.expires_at <= $4
			RETURNING key`, key, owner, now.Add(ttl), now).Scan(&k)
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
			WHERE starts_with(key, $1) AND expires_at > $2`, prefix, s.now())
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
