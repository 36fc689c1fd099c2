package bolt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"go.etcd.io/bbolt"
	bberrors "go.etcd.io/bbolt/errors"

	"github.com/gambitbot/gambit/storage"
)

// ErrLocked reports that another process holds the database file open.
var ErrLocked = errors.New("database is locked by another process")

// DefaultLockTimeout is how long Open waits for another process to release
// the database file.
const DefaultLockTimeout = 2 * time.Second

// DefaultMaxBatchDelay is how long a write waits for concurrent writes to
// join its transaction (see Options.MaxBatchDelay).
const DefaultMaxBatchDelay = 250 * time.Microsecond

// Options tune Open; the zero value is the production setting.
type Options struct {
	// LockTimeout is how long to wait for another process holding the file
	// (bbolt allows one writer process); DefaultLockTimeout if zero.
	LockTimeout time.Duration
	// ReadOnly opens the file with a shared lock for inspection (check,
	// stats, backup); writes fail and no migration runs.
	ReadOnly bool
	// Clock returns the current time; time.Now if nil. Tests inject one to
	// drive deadlines.
	Clock func() time.Time
	// MaxBatchDelay is how long a write that finds other writes in flight
	// waits for more to join one commit (bbolt's DB.Batch); a lone write
	// commits at once. DefaultMaxBatchDelay if zero.
	MaxBatchDelay time.Duration
	// AIRatings gives the AI strategies' calibrated, fixed ratings
	// (strategies.Rating in the bot); without it every AI plays at
	// storage.DefaultAIRating. AI ratings never move either way.
	AIRatings storage.AIRatings
}

// Store is the bbolt implementation of storage.Store, plus the
// administration functions behind `gambit db`.
type Store struct {
	db       *bbolt.DB
	path     string
	now      func() time.Time
	ai       storage.AIRatings
	inflight atomic.Int64
	sweep    interactionSweep // FirstDelivery's sweep of expired interactions
}

var _ storage.Admin = (*Store)(nil)

// Open opens or creates the database at path, creating its directory,
// upgrading an older schema and refusing a newer one. When another process
// holds the file it fails after the lock timeout with an error that names
// the file and matches ErrLocked. It reads every page of the B+tree first
// and refuses a damaged file with an error that names it and matches
// ErrCorruptFile (and storage.ErrCorrupt); opened read-write, it runs
// bbolt's consistency check too, and refuses what `gambit db check` rejects
// at the bbolt level. A refused file is left as it was.
func Open(path string, opts *Options) (*Store, error) {
	return open(path, opts, migrations)
}

// open is Open with the migration steps as a parameter, for tests.
func open(path string, opts *Options, steps []migration) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.LockTimeout == 0 {
		o.LockTimeout = DefaultLockTimeout
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.MaxBatchDelay == 0 {
		o.MaxBatchDelay = DefaultMaxBatchDelay
	}
	if !o.ReadOnly {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("storage: open %s: %w", path, err)
		}
	}
	var db *bbolt.DB
	err := guard("open", path, func() (err error) {
		if db, err = openBolt(path, o); err != nil {
			return err
		}
		if err := verify(db, path, !o.ReadOnly); err != nil {
			return err
		}
		if err := migrate(db, path, steps); err != nil {
			return err
		}
		return dropClaims(db)
	})
	if err != nil {
		if db != nil {
			err = errors.Join(err, db.Close())
		}
		return nil, err
	}
	return &Store{db: db, path: path, now: func() time.Time { return o.Clock().UTC() }, ai: o.AIRatings}, nil
}

// openBolt opens the bbolt file with the settings of o.
func openBolt(path string, o Options) (*bbolt.DB, error) {
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{
		Timeout:  o.LockTimeout,
		ReadOnly: o.ReadOnly,
		// Durability: every commit is fsynced, and so are the freelist
		// and file growth. These are bbolt's defaults, spelled out
		// because the crash guarantees in doc.go depend on them.
		NoSync:         false,
		NoGrowSync:     false,
		NoFreelistSync: false,
	})
	if errors.Is(err, bberrors.ErrTimeout) {
		return nil, fmt.Errorf("storage: open %s: %w (waited %s); stop the process using it, or take a copy through the bot's online backup (GET /backup on GAMBIT_OPS_ADDR, with GAMBIT_OPS_TOKEN)",
			path, ErrLocked, o.LockTimeout)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	db.MaxBatchDelay = o.MaxBatchDelay
	return db, nil
}

// verify refuses a file whose pages are damaged (see verifyPages) before
// anything walks them. With full, it also runs bbolt's own consistency
// check (tx.Check: key order, pages neither free nor in use), which `gambit
// db check` reports too, so that the bot never serves — and writes to — a
// file that check rejects. A read-only open leaves that to Check, which
// lists every problem.
func verify(db *bbolt.DB, path string, full bool) error {
	var problems []string
	if err := db.View(func(tx *bbolt.Tx) (err error) {
		if problems, err = verifyPages(tx, path); err != nil || len(problems) > 0 || !full {
			return err
		}
		// Safe now: the pages' structure is sound (see verifyPages).
		for err := range tx.Check() {
			problems = append(problems, fmt.Sprintf("bbolt: %v", err))
		}
		return nil
	}); err != nil {
		return fmt.Errorf("storage: open %s: verify pages: %w", path, err)
	}
	if len(problems) > 0 {
		return errCorruptPages("open", path, problems)
	}
	return nil
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close closes the database, waiting for running transactions.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("storage: close %s: %w", s.path, err)
	}
	return nil
}

// update runs fn in one read-write transaction and returns once it is
// durably committed. A lone write commits on its own; when other writes are
// in flight it goes through DB.Batch so that they share one commit and one
// fsync. Batch may run fn more than once, so fn must only read and write the
// transaction and set variables it overwrites on every run.
func (s *Store) update(ctx context.Context, fn func(*bbolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer s.inflight.Add(-1)
	if s.inflight.Add(1) > 1 {
		return s.db.Batch(fn)
	}
	return s.db.Update(fn)
}

// view runs fn in a read-only transaction.
func (s *Store) view(ctx context.Context, fn func(*bbolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(fn)
}
