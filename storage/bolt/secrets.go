package bolt

import (
	"bytes"
	"context"
	"fmt"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// Secret implements storage.Store: the secret is read, or made and
// stored, in one write transaction, so that it is made once.
func (s *Store) Secret(ctx context.Context, name string) ([]byte, error) {
	var value []byte
	err := storage.ValidateSecretName(name)
	if err == nil {
		err = s.update(ctx, func(tx *bbolt.Tx) error {
			b := tx.Bucket(bucketSecrets)
			if value = bytes.Clone(b.Get([]byte(name))); value != nil {
				return storage.CheckSecret(name, value)
			}
			var err error
			if value, err = storage.NewSecret(); err != nil {
				return err
			}
			return b.Put([]byte(name), value)
		})
	}
	if err != nil {
		return nil, fmt.Errorf("storage: secret %q: %w", name, err)
	}
	return value, nil
}

// checkSecrets adds to c the secrets that are malformed, never their
// values.
func checkSecrets(tx *bbolt.Tx, c *checker) {
	_ = tx.Bucket(bucketSecrets).ForEach(func(k, v []byte) error {
		if err := storage.CheckSecret(string(k), v); err != nil {
			c.addf("bucket %s: %v", bucketSecrets, err)
		}
		return nil
	})
}

// exportSecrets gives put the install's secrets.
func exportSecrets(tx *bbolt.Tx, put storage.Sink) error {
	return tx.Bucket(bucketSecrets).ForEach(func(k, v []byte) error {
		if err := storage.CheckSecret(string(k), v); err != nil {
			return &storage.RecordError{Bucket: string(bucketSecrets), Key: string(k), Err: err}
		}
		return put.Secret(string(k), bytes.Clone(v))
	})
}
