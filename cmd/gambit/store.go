package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
	"github.com/gambitbot/gambit/storage/postgres"
)

// envDatabaseURL names the PostgreSQL database; unset means the bbolt file.
const envDatabaseURL = "GAMBIT_DATABASE_URL"

// storeMode says how a command opens the database.
type storeMode int

const (
	// serving opens for the bot: read-write, upgrading the schema.
	serving storeMode = iota
	// inspecting opens for check and stats: read-only on bbolt (so a
	// missing file is an error rather than a new database), and without
	// upgrading the schema on either.
	inspecting
)

// openStore opens PostgreSQL when url is set, otherwise the bbolt file at
// path.
func openStore(ctx context.Context, url, path string, mode storeMode) (storage.Admin, error) {
	if url != "" {
		return postgres.Open(ctx, url, &postgres.Options{NoMigrate: mode == inspecting, AIRatings: bot.AIRatings})
	}
	if mode == inspecting {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no database at %s: give its path with --db or GAMBIT_DB, or a PostgreSQL URL with --url or %s", path, envDatabaseURL)
		}
	}
	s, err := bolt.Open(path, &bolt.Options{ReadOnly: mode == inspecting, AIRatings: bot.AIRatings})
	if mode == serving && errors.Is(err, bolt.ErrCorruptFile) {
		return nil, fmt.Errorf("%w\nthe bot does not start on a damaged file, and left it as it is: list the damage with 'gambit db check --db %s', then restore the last backup (a copy from 'gambit db backup' or GET /backup)", err, path)
	}
	return s, err
}

// storeName names the database a store holds, for messages.
func storeName(s storage.Admin) string {
	switch s := s.(type) {
	case *bolt.Store:
		return s.Path()
	case *postgres.Store:
		return s.Name()
	}
	return fmt.Sprintf("%T", s)
}
