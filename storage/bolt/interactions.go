package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// sweepBatch is how many records of the interactions bucket each
// FirstDelivery looks at, deleting those that expired, after where the
// last one stopped (interactionSweep). With k looked at for every record
// added, a whole pass over n records takes n/k deliveries, in which n/k
// records are added; so the bucket holds at most the live records L and
// those that expired since their pass, n ≤ L + n/k: n ≤ L·k/(k−1), 8/7 of
// the interactions of the last time to live. The cost of a delivery is k
// records read, whatever the bucket's size.
const sweepBatch = 8

// interactionSweep is where the sweep of the interactions bucket goes
// on: the key after the last one looked at, nil for the start. Only
// update's function touches it, under bbolt's writer lock.
type interactionSweep struct {
	next []byte
}

// FirstDelivery implements storage.Store: the record is the interaction
// ID as key and its expiry by the process's clock (one process holds the
// file) as 8 bytes, big-endian Unix nanoseconds. A record that does not
// decode is taken as expired, and replaced; Check reports it.
func (s *Store) FirstDelivery(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	if err := storage.ValidDelivery(id, ttl); err != nil {
		return false, err
	}
	var first bool
	err := s.update(ctx, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketInteractions)
		now := s.now()
		if err := s.sweepInteractions(b, now); err != nil {
			return err
		}
		if exp, ok := interactionExpiry(b.Get([]byte(id))); ok && exp.After(now) {
			first = false
			return nil
		}
		first = true
		return b.Put([]byte(id), binary.BigEndian.AppendUint64(nil, uint64(now.Add(ttl).UnixNano())))
	})
	if err != nil {
		return false, fmt.Errorf("storage: record interaction %s: %w", id, err)
	}
	return first, nil
}

// sweepInteractions looks at up to sweepBatch records of b from where the
// last sweep stopped, going round to the first key at the end, and
// deletes those expired at now.
func (s *Store) sweepInteractions(b *bbolt.Bucket, now time.Time) error {
	c := b.Cursor()
	k, v := c.First()
	if s.sweep.next != nil {
		k, v = c.Seek(s.sweep.next)
	}
	wrapped := s.sweep.next == nil
	for range sweepBatch {
		if k == nil {
			if wrapped {
				break
			}
			wrapped = true
			if k, v = c.First(); k == nil {
				break
			}
		}
		if exp, ok := interactionExpiry(v); !ok || !exp.After(now) {
			k = bytes.Clone(k)
			if err := c.Delete(); err != nil {
				return fmt.Errorf("sweep expired interactions: %w", err)
			}
			// After a Delete, Next may skip the key that followed:
			// seek it instead.
			k, v = c.Seek(k)
			continue
		}
		k, v = c.Next()
	}
	s.sweep.next = nil
	if k != nil {
		s.sweep.next = bytes.Clone(k)
	}
	return nil
}

// interactionExpiry decodes the value of an interaction's record.
func interactionExpiry(v []byte) (time.Time, bool) {
	if len(v) != 8 {
		return time.Time{}, false
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(v))), true
}

// checkInteractions reports every record of the interactions bucket whose
// value is not an expiry.
func checkInteractions(tx *bbolt.Tx, addf func(string, ...any)) {
	_ = tx.Bucket(bucketInteractions).ForEach(func(k, v []byte) error {
		if _, ok := interactionExpiry(v); !ok {
			addf("%v", &storage.RecordError{Bucket: string(bucketInteractions), Key: string(k), Err: fmt.Errorf("value of %d bytes, want an 8-byte expiry", len(v))})
		}
		return nil
	})
}
