package bolt

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// claimRecord is a claim as stored in the claims bucket.
type claimRecord struct {
	Owner   string    `json:"owner"`
	Expires time.Time `json:"expires"`
}

// Claim implements storage.Store. One process holds a bbolt file, so
// claims only ever meet their own process's owners here; they keep the
// semantics PostgreSQL's have across processes.
func (s *Store) Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if err := storage.ValidClaim(key, owner, ttl); err != nil {
		return false, err
	}
	var taken bool
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		taken = false
		b := tx.Bucket(bucketClaims)
		now := s.now()
		if data := b.Get([]byte(key)); data != nil {
			var c claimRecord
			if err := decodeRecord(string(bucketClaims), []byte(key), data, &c); err != nil {
				return err
			}
			if c.Owner != owner && c.Expires.After(now) {
				return nil
			}
		}
		data, err := encode(claimRecord{Owner: owner, Expires: now.Add(ttl)})
		if err != nil {
			return err
		}
		taken = true
		return b.Put([]byte(key), data)
	})
	if err != nil {
		return false, fmt.Errorf("storage: claim %s: %w", key, err)
	}
	return taken, nil
}

// Release implements storage.Store.
func (s *Store) Release(ctx context.Context, key, owner string) error {
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketClaims)
		data := b.Get([]byte(key))
		if data == nil {
			return nil
		}
		var c claimRecord
		if err := decodeRecord(string(bucketClaims), []byte(key), data, &c); err != nil {
			return err
		}
		if c.Owner != owner {
			return nil
		}
		return b.Delete([]byte(key))
	})
	if err != nil {
		return fmt.Errorf("storage: release claim %s: %w", key, err)
	}
	return nil
}

// Claims implements storage.Store.
func (s *Store) Claims(ctx context.Context, prefix string) (map[string]string, error) {
	out := map[string]string{}
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		clear(out)
		now := s.now()
		c := tx.Bucket(bucketClaims).Cursor()
		for k, v := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)); k, v = c.Next() {
			var r claimRecord
			if err := decodeRecord(string(bucketClaims), k, v, &r); err != nil {
				return err
			}
			if r.Expires.After(now) {
				out[string(k)] = r.Owner
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: list claims %q: %w", prefix, err)
	}
	return out, nil
}

// dropClaims deletes every claim of a database just opened read-write:
// the process that took them no longer holds the file, so they are dead,
// and the AI turns they held are to be played now rather than once they
// expire.
func dropClaims(db *bbolt.DB) error {
	if db.IsReadOnly() {
		return nil
	}
	return db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketClaims)
		if b == nil || b.Stats().KeyN == 0 {
			return nil
		}
		if err := tx.DeleteBucket(bucketClaims); err != nil {
			return fmt.Errorf("drop claims: %w", err)
		}
		_, err := tx.CreateBucket(bucketClaims)
		return err
	})
}
