package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
)

// Review implements storage.Store.
func (s *Store) Review(ctx context.Context, id storage.GameID, version uint64) (*storage.Review, error) {
	var r *storage.Review
	err := s.view(ctx, func(tx pgx.Tx) error {
		var data []byte
		err := tx.QueryRow(ctx, "SELECT record FROM reviews WHERE game_id = $1 AND version <= $2", id, int64(min(version, 1<<63-1))).Scan(&data)
		if errors.Is(err, pgx.ErrNoRows) {
			return storage.ErrNotFound
		}
		if err != nil {
			return err
		}
		r, err = decodeReview(string(id), data)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: review of game %s: %w", id, err)
	}
	return r, nil
}

// decodeReview decodes and validates a review record.
func decodeReview(id string, data []byte) (*storage.Review, error) {
	var r storage.Review
	err := storage.DecodeJSON(data, &r)
	if err == nil {
		err = r.Validate()
	}
	if err == nil && string(r.Game) != id {
		err = fmt.Errorf("review of game %s stored for %s", r.Game, id)
	}
	if err != nil {
		return nil, &storage.RecordError{Bucket: "reviews", Key: id, Err: err}
	}
	return &r, nil
}

// PutReview implements storage.Store.
func (s *Store) PutReview(ctx context.Context, r *storage.Review) error {
	err := r.Validate()
	if err == nil {
		err = s.update(ctx, func(tx pgx.Tx) error {
			g, err := getGame(ctx, tx, r.Game, false)
			if err != nil {
				return err
			}
			if err := storage.CheckReviewOf(g, r); err != nil {
				return err
			}
			rec := *r
			rec.CreatedAt = s.now()
			data, err := json.Marshal(&rec)
			if err != nil {
				return err
			}
			_, err = tx.Exec(ctx, `INSERT INTO reviews (game_id, version, record) VALUES ($1, $2, $3)
				ON CONFLICT (game_id) DO UPDATE SET version = EXCLUDED.version, record = EXCLUDED.record`, r.Game, int64(r.Version), data)
			return err
		})
	}
	if err != nil {
		return fmt.Errorf("storage: keep the review of game %s: %w", r.Game, err)
	}
	return nil
}
