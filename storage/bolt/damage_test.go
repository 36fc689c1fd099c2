package bolt

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// readDamageSample returns the bytes and the page size of
// testdata/damage-sample.db, a real database of 27 games — 24 finished
// with ratings by Bench, 2 active, 1 challenge — and one guild's settings:
// games, index, ratings and rank buckets, inline and paged. It is a file
// rather than written by the test because bbolt lays pages out in map
// order, differently on every run; the file makes every trial the same.
// The file is of schema version 1, so a copy is upgraded first (a
// read-only Open refuses an old schema): the upgrade adds one empty
// bucket and leaves every record's page as it was.
func readDamageSample(t *testing.T) ([]byte, int) {
	t.Helper()
	sample, err := os.ReadFile(filepath.Join("testdata", "damage-sample.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "damage-sample.db")
	if err := os.WriteFile(path, sample, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	pageSize := db.Info().PageSize
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data, pageSize
}

// TestDamagedPagesAreReportedNotCrashed flips bits in the data pages (every
// page after the two checksummed meta pages) of a real database, trial after
// trial at seeded positions, and opens, checks and reads each copy the way
// `gambit db check` (read-only: Open, Check) and the bot's start
// (read-write: Open, Stats) do. bbolt trusts its pages: before Open
// verified them, damaged offsets made it read outside the file — a memory
// fault that kills the process — or panic. Every call must now return,
// and an error must name the file; damage to the page structure must be
// refused as ErrCorruptFile.
func TestDamagedPagesAreReportedNotCrashed(t *testing.T) {
	orig, pageSize := readDamageSample(t)
	dir := t.TempDir()
	trials := 400
	var refused, problems int
	for trial := range trials {
		rng := rand.New(rand.NewPCG(14, uint64(trial)))
		data := append([]byte(nil), orig...)
		for range 1 + rng.IntN(2) {
			data[2*pageSize+rng.IntN(len(data)-2*pageSize)] ^= 1 << rng.IntN(8)
		}
		// A file of its own per trial: a crash recovered inside bbolt's
		// Open leaves that file's lock held.
		path := filepath.Join(dir, fmt.Sprintf("trial%d.db", trial))
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		named := func(what string, err error) bool {
			if err != nil && !strings.Contains(err.Error(), path) {
				t.Errorf("trial %d: %s: %v; want an error naming %s", trial, what, err, path)
			}
			return err != nil
		}
		for _, readOnly := range []bool{true, false} {
			mode := map[bool]string{true: "read-only", false: "read-write"}[readOnly]
			var s *Store
			var err error
			if !noPanic(t, trial, mode+" Open", func() { s, err = Open(path, &Options{ReadOnly: readOnly}) }) {
				continue
			}
			if named(mode+" Open", err) {
				if errors.Is(err, ErrCorruptFile) {
					refused++
					if !errors.Is(err, storage.ErrCorrupt) {
						t.Errorf("trial %d: %v does not match storage.ErrCorrupt", trial, err)
					}
				}
				continue
			}
			if readOnly {
				noPanic(t, trial, "Check", func() {
					var found []string
					found, err = s.Check(context.Background())
					if !named("Check", err) && len(found) > 0 {
						problems++
					}
				})
			}
			noPanic(t, trial, mode+" Stats", func() {
				_, err = s.Stats(context.Background())
				named(mode+" Stats", err)
			})
			if err := s.Close(); err != nil {
				t.Errorf("trial %d: close: %v", trial, err)
			}
		}
		_ = os.Remove(path)
	}
	t.Logf("%d trials: %d opens refused as corrupt, %d checks found problems", trials, refused, problems)
	// The trials must reach both kinds of damage to prove anything: page
	// structure (refused at Open) and records (found by Check).
	if refused == 0 || problems == 0 {
		t.Errorf("%d opens refused, %d checks with problems: the flips missed what they test", refused, problems)
	}
}

// noPanic runs fn and reports a panic as a test error; it returns whether
// fn returned normally.
func noPanic(t *testing.T, trial int, what string, fn func()) (ok bool) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("trial %d: %s panicked: %v", trial, what, r)
		}
	}()
	fn()
	return true
}

// TestPageBothFreeAndInUseIsRefused: a freelist that lists a page in use
// (here the root) would let the next write overwrite live data, so Open
// refuses it.
func TestPageBothFreeAndInUseIsRefused(t *testing.T) {
	data, pageSize := readDamageSample(t)
	path := filepath.Join(t.TempDir(), "gambit.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	var root, freelist uint64
	err = db.View(func(tx *bbolt.Tx) error {
		root = uint64(tx.Cursor().Bucket().RootPage())
		for id := range int(tx.Size()) / pageSize {
			info, err := tx.Page(id)
			if err != nil {
				return err
			}
			if info != nil && info.Type == "freelist" && info.Count > 0 {
				freelist = uint64(id)
			}
		}
		return nil
	})
	if err := errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}
	if freelist == 0 {
		t.Fatal("the sample has no free pages to list")
	}
	binary.NativeEndian.PutUint64(data[int(freelist)*pageSize+pageHeaderSize:], root)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Open(path, nil)
	if !errors.Is(err, ErrCorruptFile) || !strings.Contains(err.Error(), fmt.Sprintf("page %d: listed as free", root)) {
		t.Fatalf("open: %v; want ErrCorruptFile naming page %d as free and in use", err, root)
	}
}
