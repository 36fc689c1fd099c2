package bolt

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// ladderBucket returns ladder l's sub-bucket of root (bucketRatings or
// bucketRank), creating it if create is set; nil if it does not exist.
func ladderBucket(tx *bbolt.Tx, root []byte, l storage.Ladder, create bool) (*bbolt.Bucket, error) {
	parent := tx.Bucket(root)
	name := []byte(l.String())
	if !create {
		return parent.Bucket(name), nil
	}
	return parent.CreateBucketIfNotExists(name)
}

// getRating returns p's rating in ladder l, or ok false if p has none.
func getRating(tx *bbolt.Tx, l storage.Ladder, p storage.PlayerID) (r storage.Rating, ok bool, err error) {
	b, _ := ladderBucket(tx, bucketRatings, l, false)
	if b == nil {
		return r, false, nil
	}
	data := b.Get([]byte(p))
	if data == nil {
		return r, false, nil
	}
	r, err = decodeRating(l.String(), []byte(p), data)
	return r, err == nil, err
}

// putRating replaces rating old with r in ladder l, keeping the rank index
// in step: only established ratings have a rank key.
func putRating(tx *bbolt.Tx, l storage.Ladder, old, r storage.Rating) error {
	ratings, err := ladderBucket(tx, bucketRatings, l, true)
	if err != nil {
		return err
	}
	rank, err := ladderBucket(tx, bucketRank, l, true)
	if err != nil {
		return err
	}
	if !old.Provisional() {
		if err := rank.Delete(rankKey(old)); err != nil {
			return err
		}
	}
	if !r.Provisional() {
		if err := rank.Put(rankKey(r), nil); err != nil {
			return err
		}
	}
	data, err := encode(r)
	if err != nil {
		return err
	}
	return ratings.Put([]byte(r.Player), data)
}

// deleteRating removes r from ladder l and its rank index.
func deleteRating(tx *bbolt.Tx, l storage.Ladder, r storage.Rating) error {
	if rank, _ := ladderBucket(tx, bucketRank, l, false); rank != nil && !r.Provisional() {
		if err := rank.Delete(rankKey(r)); err != nil {
			return err
		}
	}
	ratings, _ := ladderBucket(tx, bucketRatings, l, false)
	return ratings.Delete([]byte(r.Player))
}

// applyRatings rates the ended game g (see storage.Rate) inside tx.
func applyRatings(tx *bbolt.Tx, g *storage.Game, ai storage.AIRatings) ([]storage.RatingChange, error) {
	return storage.Rate(g, ai,
		func(l storage.Ladder, p storage.PlayerID) (storage.Rating, bool, error) { return getRating(tx, l, p) },
		func(l storage.Ladder, old, r storage.Rating) error { return putRating(tx, l, old, r) })
}

// standing loads the rating named by a rank key.
func standing(tx *bbolt.Tx, l storage.Ladder, key []byte, rank int) (storage.Standing, error) {
	p, ok := rankKeyPlayer(key)
	if !ok {
		return storage.Standing{}, &storage.RecordError{Bucket: string(bucketRank) + "/" + l.String(), Key: string(key), Err: errors.New("malformed rank key")}
	}
	r, found, err := getRating(tx, l, p)
	if err == nil && !found {
		err = &storage.RecordError{Bucket: string(bucketRank) + "/" + l.String(), Key: string(key), Err: fmt.Errorf("no rating for %s", p)}
	}
	return storage.Standing{Rank: rank, Rating: r}, err
}

// provisionalRatings returns up to n provisional ratings of ladder l,
// highest first. They have no rank index, so this reads the whole ladder:
// it runs only when the ladder has fewer than n established ratings.
func provisionalRatings(tx *bbolt.Tx, l storage.Ladder, n int) ([]storage.Rating, error) {
	b, _ := ladderBucket(tx, bucketRatings, l, false)
	if b == nil || n <= 0 {
		return nil, nil
	}
	var out []storage.Rating
	err := b.ForEach(func(k, v []byte) error {
		r, err := decodeRating(l.String(), k, v)
		if err == nil && r.Provisional() {
			out = append(out, r)
		}
		return err
	})
	slices.SortFunc(out, func(a, b storage.Rating) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.Player, b.Player))
	})
	return out[:min(n, len(out))], err
}

// Leaderboard implements storage.Store.
func (s *Store) Leaderboard(ctx context.Context, l storage.Ladder, n int) ([]storage.Standing, error) {
	var top []storage.Standing
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		top = nil
		b, _ := ladderBucket(tx, bucketRank, l, false)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, _ := c.First(); k != nil && len(top) < n; k, _ = c.Next() {
			st, err := standing(tx, l, k, len(top)+1)
			if err != nil {
				return err
			}
			top = append(top, st)
		}
		provisional, err := provisionalRatings(tx, l, n-len(top))
		for _, r := range provisional {
			top = append(top, storage.Standing{Rating: r})
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: leaderboard %s: %w", l, err)
	}
	return top, nil
}

// Rank implements storage.Store. Finding the rank walks the ladder's rank
// index from the top, so it costs time proportional to the rank (about 0.2 ms per
// 10,000 places on a 2-core VM; see BenchmarkRank).
func (s *Store) Rank(ctx context.Context, l storage.Ladder, p storage.PlayerID, around int) (storage.RankView, error) {
	var v storage.RankView
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		v = storage.RankView{}
		r, ok, err := getRating(tx, l, p)
		if err != nil {
			return err
		}
		if !ok {
			return storage.ErrNotFound
		}
		v.Player = storage.Standing{Rating: r}
		if r.Provisional() {
			return nil
		}
		rankBucket := string(bucketRank) + "/" + l.String()
		b, _ := ladderBucket(tx, bucketRank, l, false)
		if b == nil {
			return &storage.RecordError{Bucket: rankBucket, Key: string(p), Err: errors.New("established rating without rank index")}
		}
		key := rankKey(r)
		c := b.Cursor()
		rank := 1
		k, _ := c.First()
		for ; k != nil && !bytes.Equal(k, key); k, _ = c.Next() {
			if rank%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			rank++
		}
		if k == nil {
			return &storage.RecordError{Bucket: rankBucket, Key: string(key), Err: fmt.Errorf("missing rank key of %s", p)}
		}
		v.Player.Rank = rank
		for k, _ = c.Next(); k != nil && len(v.Below) < around; k, _ = c.Next() {
			st, err := standing(tx, l, k, rank+len(v.Below)+1)
			if err != nil {
				return err
			}
			v.Below = append(v.Below, st)
		}
		c.Seek(key)
		for k, _ = c.Prev(); k != nil && len(v.Above) < around; k, _ = c.Prev() {
			st, err := standing(tx, l, k, rank-len(v.Above)-1)
			if err != nil {
				return err
			}
			v.Above = append(v.Above, st)
		}
		slices.Reverse(v.Above)
		return nil
	})
	if err != nil {
		return storage.RankView{}, fmt.Errorf("storage: rank of %s in %s: %w", p, l, err)
	}
	return v, nil
}
