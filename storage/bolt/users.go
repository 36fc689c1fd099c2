package bolt

import (
	"context"
	"fmt"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// DeleteUser implements storage.Store. Everything happens in one
// transaction; anonymising an ended game is a committed change to it, so its
// version grows by one, as is erasing the user from a tournament
// (storage.Erase).
func (s *Store) DeleteUser(ctx context.Context, userID string) (storage.DeleteReport, error) {
	p := storage.User(userID)
	if err := p.Validate(); err != nil {
		return storage.DeleteReport{}, fmt.Errorf("storage: delete user %s: %w", userID, err)
	}
	var rep storage.DeleteReport
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		rep = storage.DeleteReport{}
		var open []storage.GameID
		for _, k := range storage.CappedKeys(p) { // their games and their showcases
			open = append(open, indexIDs(tx, bucketOpen, pairPrefix(string(k)), false, 0)...)
		}
		for _, id := range open {
			g, err := getGame(tx, id)
			if err != nil {
				return fmt.Errorf("game %s: %w", id, err)
			}
			if err := deleteIndex(tx, g); err != nil {
				return err
			}
			if err := tx.Bucket(bucketGames).Delete([]byte(id)); err != nil {
				return err
			}
			rep.Removed = append(rep.Removed, g)
		}
		now := s.now()
		for _, id := range indexIDs(tx, bucketHistory, pairPrefix(string(p)), false, 0) {
			old, err := getGame(tx, id)
			if err != nil {
				return fmt.Errorf("game %s: %w", id, err)
			}
			rec := storage.Anonymise(old, p, now)
			if err := putGame(tx, old, &rec); err != nil {
				return err
			}
			rep.Anonymised++
		}
		if err := eraseFromTournaments(tx, p, now); err != nil {
			return err
		}
		if err := tx.Bucket(bucketUsers).Delete([]byte(userID)); err != nil {
			return err
		}
		if err := deleteDaily(tx, p); err != nil {
			return err
		}
		if err := deleteClaimsOf(tx, userID); err != nil {
			return err
		}
		ladders, err := ratedLadders(tx)
		if err != nil {
			return err
		}
		for _, l := range ladders {
			r, ok, err := getRating(tx, l, p)
			if err != nil {
				return err
			}
			if ok {
				if err := deleteRating(tx, l, r); err != nil {
					return err
				}
				rep.Ratings++
			}
		}
		return nil
	})
	if err != nil {
		return storage.DeleteReport{}, fmt.Errorf("storage: delete user %s: %w", userID, err)
	}
	return rep, nil
}

// deleteClaimsOf deletes the claims keyed to a user: those whose key's
// last segment is their ID (storage.ClaimOf).
func deleteClaimsOf(tx *bbolt.Tx, userID string) error {
	b := tx.Bucket(bucketClaims)
	var keys [][]byte
	if err := b.ForEach(func(k, _ []byte) error {
		if storage.ClaimOf(string(k), userID) {
			keys = append(keys, k)
		}
		return nil
	}); err != nil {
		return err
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return fmt.Errorf("delete claim %s: %w", k, err)
		}
	}
	return nil
}

// ratedLadders lists the ladders that have a ratings bucket.
func ratedLadders(tx *bbolt.Tx) ([]storage.Ladder, error) {
	var ladders []storage.Ladder
	err := tx.Bucket(bucketRatings).ForEachBucket(func(name []byte) error {
		l, err := storage.ParseLadder(string(name))
		if err != nil {
			return &storage.RecordError{Bucket: string(bucketRatings), Key: string(name), Err: err}
		}
		ladders = append(ladders, l)
		return nil
	})
	return ladders, err
}
