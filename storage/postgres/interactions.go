package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
)

// sweepBatch is how many expired rows of interactions each FirstDelivery
// deletes, the oldest first by the expiry's index, skipping rows another
// sweep holds. Each delivery adds one row and takes up to this many
// expired ones away, so the expired rows left over stay about this many,
// and the table about the interactions of the last time to live; the
// cost of a delivery is an index scan of at most this many rows.
const sweepBatch = 8

// FirstDelivery implements storage.Store: one upsert that inserts the
// interaction's row, or takes over one that expired, and returns it only
// then; the primary key lets one of racing deliveries through, the
// others waiting for its commit and finding its row alive. Expiry is by
// the database server's clock (dbNow), as for the claims, so that the
// processes' own clocks need not agree. Expired rows are swept in the
// same transaction (sweepBatch).
func (s *Store) FirstDelivery(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	if err := storage.ValidDelivery(id, ttl); err != nil {
		return false, err
	}
	var first bool
	err := s.update(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM interactions WHERE id IN (SELECT id FROM interactions
			WHERE expires_at <= `+dbNow(1)+` ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)`, s.dbTime(), sweepBatch); err != nil {
			return fmt.Errorf("sweep expired interactions: %w", err)
		}
		var got string
		err := tx.QueryRow(ctx, `INSERT INTO interactions (id, expires_at)
			VALUES ($1, `+dbNow(2)+` + $3 * interval '1 microsecond')
			ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at
			WHERE interactions.expires_at <= `+dbNow(2)+`
			RETURNING id`, id, s.dbTime(), ttl.Microseconds()).Scan(&got)
		first = err == nil
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	if err != nil {
		return false, fmt.Errorf("storage: record interaction %s: %w", id, err)
	}
	return first, nil
}
