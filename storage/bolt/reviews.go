package bolt

import (
	"context"
	"errors"
	"fmt"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// Review implements storage.Store.
func (s *Store) Review(ctx context.Context, id storage.GameID, version uint64) (*storage.Review, error) {
	var r *storage.Review
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		data := tx.Bucket(bucketReviews).Get([]byte(id))
		if data == nil {
			return storage.ErrNotFound
		}
		var err error
		r, err = decodeReview([]byte(id), data)
		return err
	})
	if err == nil && r.Version > version {
		err = storage.ErrNotFound // made from a version the caller has not seen
	}
	if err != nil {
		return nil, fmt.Errorf("storage: review of game %s: %w", id, err)
	}
	return r, nil
}

// decodeReview decodes and validates a review record.
func decodeReview(key, data []byte) (*storage.Review, error) {
	var r storage.Review
	if err := decodeRecord(string(bucketReviews), key, data, &r); err != nil {
		return nil, err
	}
	err := r.Validate()
	if err == nil && string(r.Game) != string(key) {
		err = fmt.Errorf("review of game %s stored under %q", r.Game, key)
	}
	if err != nil {
		return nil, &storage.RecordError{Bucket: string(bucketReviews), Key: string(key), Err: err}
	}
	return &r, nil
}

// PutReview implements storage.Store.
func (s *Store) PutReview(ctx context.Context, r *storage.Review) error {
	err := r.Validate()
	if err == nil {
		err = s.update(ctx, func(tx *bbolt.Tx) error {
			g, err := getGame(tx, r.Game)
			if err != nil {
				return err
			}
			if err := storage.CheckReviewOf(g, r); err != nil {
				return err
			}
			rec := *r
			rec.CreatedAt = s.now()
			data, err := encode(&rec)
			if err != nil {
				return err
			}
			return tx.Bucket(bucketReviews).Put([]byte(r.Game), data)
		})
	}
	if err != nil {
		return fmt.Errorf("storage: keep the review of game %s: %w", r.Game, err)
	}
	return nil
}

// checkReviews reports the review records that do not decode or whose
// game is missing or may have none.
func checkReviews(tx *bbolt.Tx, report func(format string, args ...any)) {
	_ = tx.Bucket(bucketReviews).ForEach(func(k, v []byte) error {
		r, err := decodeReview(k, v)
		if err != nil {
			report("%v", err)
			return nil
		}
		g, err := getGame(tx, r.Game)
		if errors.Is(err, storage.ErrNotFound) {
			report("review of game %s: no such game", r.Game)
		} else if err == nil {
			err = storage.CheckReviewOf(g, r)
		}
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			report("%v", err)
		}
		return nil
	})
}
