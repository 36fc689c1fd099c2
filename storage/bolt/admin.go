package bolt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// ctxWriter stops a long copy once its context is cancelled (a client that
// went away, an operator's ^C).
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// WriteBackup writes a consistent copy of the whole database to w from one
// read transaction (bbolt's Tx.WriteTo) and returns the bytes written.
// Writers go on meanwhile; the copy shows the state when it started. The
// transaction stays open until the copy is written, and a write that must
// grow the database waits for it (bbolt remaps the file only without open
// readers): give it a fast w, such as a local file, never a network peer
// (that is what [Store.Snapshot] is for).
func (s *Store) WriteBackup(ctx context.Context, w io.Writer) (int64, error) {
	var n int64
	err := s.view(ctx, func(tx *bbolt.Tx) (err error) {
		n, err = tx.WriteTo(ctxWriter{ctx, w})
		return err
	})
	if err != nil {
		return n, fmt.Errorf("storage: backup %s: %w", s.path, err)
	}
	return n, nil
}

// BackupFile writes a consistent copy of the database to path: it writes a
// temporary file beside path, fsyncs it and renames it into place, so path
// holds either its old content or a complete backup, never a partial one.
func (s *Store) BackupFile(ctx context.Context, path string) (n int64, err error) {
	wrap := func(err error) error { return fmt.Errorf("storage: backup %s to %s: %w", s.path, path, err) }
	if same, _ := sameFile(path, s.path); same {
		return 0, wrap(errors.New("the target is the database itself"))
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, filepath.Base(path)+".tmp-*")
	if err != nil {
		return 0, wrap(err)
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if n, err = s.WriteBackup(ctx, f); err != nil {
		return n, err
	}
	if err = f.Sync(); err != nil {
		return n, wrap(err)
	}
	if err = f.Close(); err != nil {
		return n, wrap(err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return n, wrap(err)
	}
	if err = syncDir(dir); err != nil {
		return n, wrap(err)
	}
	return n, nil
}

// Snapshot writes a consistent copy of the whole database (as
// [Store.WriteBackup] does) to a temporary file in the database's directory
// and returns the file open for reading at its start. The read transaction
// the copy needs ends before Snapshot returns, so however slowly the caller
// consumes the file, no writer waits for it. This is what GET /backup on
// the bot's operations endpoint serves.
//
// The file is removed as soon as it is created, while open: it has no name,
// closing it frees its space, and a crash leaves nothing behind. The copy
// needs as much free space as the database takes. ctx bounds the copy:
// once ctx is done the copy stops and Snapshot returns ctx's error.
func (s *Store) Snapshot(ctx context.Context) (f *os.File, err error) {
	wrap := func(err error) error { return fmt.Errorf("storage: snapshot %s: %w", s.path, err) }
	f, err = os.CreateTemp(filepath.Dir(s.path), filepath.Base(s.path)+".snapshot-*")
	if err != nil {
		return nil, wrap(err)
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			f = nil
		}
	}()
	if err = os.Remove(f.Name()); err != nil {
		return f, wrap(err)
	}
	if _, err = s.WriteBackup(ctx, f); err != nil {
		return f, err
	}
	if _, err = f.Seek(0, io.SeekStart); err != nil {
		return f, wrap(err)
	}
	return f, nil
}

func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// Stats counts the keys of every bucket (Keys holds bucket paths such as
// "ratings/connect4"; a bucket holding sub-buckets counts them) and the
// games in each status. A file too damaged to read gives an error matching
// ErrCorruptFile.
func (s *Store) Stats(ctx context.Context) (st storage.Stats, err error) {
	err = guard("stats of", s.path, func() error {
		st, err = s.stats(ctx)
		return err
	})
	return st, err
}

func (s *Store) stats(ctx context.Context) (storage.Stats, error) {
	st := storage.Stats{Path: s.path}
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		st.Keys = map[string]int{}
		st.Games = map[storage.Status]int{}
		st.Corrupt, st.Ratings = 0, 0
		st.Size = tx.Size()
		var err error
		if st.Schema, err = readSchema(tx); err != nil {
			return err
		}
		if err := tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
			return countKeys(string(name), b, st.Keys)
		}); err != nil {
			return err
		}
		for name, n := range st.Keys {
			if strings.HasPrefix(name, string(bucketRatings)+"/") {
				st.Ratings += n
			}
		}
		if b := tx.Bucket(bucketGames); b != nil {
			return b.ForEach(func(k, v []byte) error {
				if g, err := decodeGame(k, v); err != nil {
					st.Corrupt++
				} else {
					st.Games[g.Status]++
				}
				return ctx.Err()
			})
		}
		return nil
	})
	if err != nil {
		return storage.Stats{}, fmt.Errorf("storage: stats of %s: %w", s.path, err)
	}
	return st, nil
}

// countKeys records the key count of bucket b, named name, and of its
// sub-buckets.
func countKeys(name string, b *bbolt.Bucket, into map[string]int) error {
	into[name] = 0
	return b.ForEach(func(k, v []byte) error {
		into[name]++
		if v == nil {
			if sub := b.Bucket(k); sub != nil {
				return countKeys(name+"/"+string(k), sub, into)
			}
		}
		return nil
	})
}

// Ping checks that the database answers a read transaction, for health
// checks.
func (s *Store) Ping(ctx context.Context) error {
	return s.view(ctx, func(tx *bbolt.Tx) error {
		_, err := readSchema(tx)
		return err
	})
}

// Export implements storage.Admin: it reads every game, rating, guild's
// and user's settings, daily attempt and post, tournament (for a
// storage.TournamentSink) and secret in one read transaction, so the copy
// is consistent.
func (s *Store) Export(ctx context.Context, put storage.Sink) error {
	err := s.view(ctx, func(tx *bbolt.Tx) error {
		if err := tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
			g, err := decodeGame(k, v)
			if err != nil {
				return err
			}
			if err := put.Game(g); err != nil {
				return err
			}
			return ctx.Err()
		}); err != nil {
			return err
		}
		ladders, err := ratedLadders(tx)
		if err != nil {
			return err
		}
		for _, l := range ladders {
			b, _ := ladderBucket(tx, bucketRatings, l, false)
			if err := b.ForEach(func(k, v []byte) error {
				r, err := decodeRating(l.String(), k, v)
				if err != nil {
					return err
				}
				return put.Rating(l, r)
			}); err != nil {
				return err
			}
		}
		if err := tx.Bucket(bucketGuilds).ForEach(func(k, v []byte) error {
			gs, err := decodeGuildSettings(k, v)
			if err != nil {
				return err
			}
			return put.GuildSettings(string(k), gs)
		}); err != nil {
			return err
		}
		if err := tx.Bucket(bucketUsers).ForEach(func(k, v []byte) error {
			us, err := decodeUserSettings(k, v)
			if err != nil {
				return err
			}
			return put.UserSettings(string(k), us)
		}); err != nil {
			return err
		}
		if err := exportDaily(tx, put); err != nil {
			return err
		}
		if err := exportTournaments(tx, put); err != nil {
			return err
		}
		return exportSecrets(tx, put)
	})
	if err != nil {
		return fmt.Errorf("storage: export %s: %w", s.path, err)
	}
	return nil
}
