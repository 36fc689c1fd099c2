package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
)

// Secret implements storage.Store: a fresh secret is inserted unless the
// name has one, then the stored one is read, in one transaction. Of
// processes inserting at once, one row wins; the others' inserts wait
// for it and do nothing, and their reads, each statement seeing what was
// committed before it, find the winner's value.
func (s *Store) Secret(ctx context.Context, name string) ([]byte, error) {
	var value []byte
	err := storage.ValidateSecretName(name)
	if err == nil {
		err = s.update(ctx, func(tx pgx.Tx) error {
			fresh, err := storage.NewSecret()
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", name, fresh); err != nil {
				return err
			}
			if err := tx.QueryRow(ctx, "SELECT value FROM secrets WHERE name = $1", name).Scan(&value); err != nil {
				return err
			}
			return storage.CheckSecret(name, value)
		})
	}
	if err != nil {
		return nil, fmt.Errorf("storage: secret %q: %w", name, err)
	}
	return value, nil
}

// forEachSecret calls fn with every secret, by name, or the error of one
// that is malformed (never its value).
func forEachSecret(ctx context.Context, tx pgx.Tx, fn func(name string, value []byte, err error) error) error {
	rows, err := tx.Query(ctx, "SELECT name, value FROM secrets ORDER BY name")
	if err != nil {
		return err
	}
	var (
		name  string
		value []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&name, &value}, func() error {
		var bad error
		if err := storage.CheckSecret(name, value); err != nil {
			bad = &storage.RecordError{Bucket: "secrets", Key: name, Err: err}
		}
		return fn(name, value, bad)
	})
	return err
}

// checkSecrets reports the secrets that are malformed.
func checkSecrets(ctx context.Context, tx pgx.Tx, addf func(string, ...any)) error {
	return forEachSecret(ctx, tx, func(_ string, _ []byte, err error) error {
		if err != nil {
			addf("%v", err)
		}
		return ctx.Err()
	})
}

// exportSecrets gives put the install's secrets.
func exportSecrets(ctx context.Context, tx pgx.Tx, put storage.Sink) error {
	return forEachSecret(ctx, tx, func(name string, value []byte, err error) error {
		if err != nil {
			return err
		}
		return put.Secret(name, value)
	})
}

// Secret writes a copied secret, replacing the store's own of that name
// (storage.Importer).
func (k *importSink) Secret(name string, value []byte) error {
	if err := storage.CheckSecret(name, value); err != nil {
		return fmt.Errorf("secret %q: %w", name, err)
	}
	_, err := k.tx.Exec(k.ctx, "INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value", name, value)
	return err
}
