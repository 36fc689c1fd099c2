package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/internal/racetest"
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
// refused as ErrCorruptFile. Under -race -short the first 100 trials of
// the 400 run (each trial's flips are seeded by its number): the calls
// run one at a time, and the 400 cost 4 s of CPU under -race.
func TestDamagedPagesAreReportedNotCrashed(t *testing.T) {
	orig, pageSize := readDamageSample(t)
	dir := t.TempDir()
	trials := 400
	if racetest.Short(t, "100 trials, not 400") {
		trials = 100
	}
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

// damagedCopies returns the damaged copies of a real database that the
// probe of the bot's start used, by kind: for every data page, a bit
// flipped in each field of its header (id, type, count, overflow), a bit
// flipped in the first and the last key of its elements, and its first
// element's key swapped with the next (key order); and the file truncated
// at every page boundary.
func damagedCopies(t *testing.T) map[string][]byte {
	t.Helper()
	orig, pageSize := readDamageSample(t)
	copies := map[string][]byte{}
	damage := func(name string, fn func(data []byte)) {
		data := append([]byte(nil), orig...)
		fn(data)
		copies[name] = data
	}
	pages := len(orig) / pageSize
	for id := 2; id < pages; id++ {
		p := orig[id*pageSize:]
		for _, field := range []struct {
			name string
			at   int
		}{{"id", 0}, {"type", 8}, {"count", 10}, {"overflow", 12}} {
			damage(fmt.Sprintf("page %d %s", id, field.name), func(data []byte) { data[id*pageSize+field.at] ^= 1 })
		}
		flags, count := order.Uint16(p[8:]), int(order.Uint16(p[10:]))
		if flags != branchPageFlag && flags != leafPageFlag || count < 2 {
			continue
		}
		key := func(i int) (at, size int) {
			e := p[pageHeaderSize+i*elementSize:]
			if flags == branchPageFlag {
				return pageHeaderSize + i*elementSize + int(order.Uint32(e)), int(order.Uint32(e[4:]))
			}
			return pageHeaderSize + i*elementSize + int(order.Uint32(e[4:])), int(order.Uint32(e[8:]))
		}
		for _, i := range []int{0, count - 1} {
			if at, size := key(i); size > 0 && at < pageSize {
				damage(fmt.Sprintf("page %d key %d", id, i), func(data []byte) { data[id*pageSize+at] ^= 0x80 })
			}
		}
		// The first two elements' headers exchanged, positions kept
		// relative to each: the keys out of order.
		damage(fmt.Sprintf("page %d keys swapped", id), func(data []byte) {
			at0, size0 := key(0)
			at1, size1 := key(1)
			if size0 != size1 || size0 == 0 {
				data[id*pageSize+at0] ^= 0x80
				return
			}
			a, b := data[id*pageSize+at0:][:size0], data[id*pageSize+at1:][:size1]
			tmp := append([]byte(nil), a...)
			copy(a, b)
			copy(b, tmp)
		})
	}
	for id := 1; id < pages; id++ {
		copies[fmt.Sprintf("truncated at page %d", id)] = orig[:id*pageSize]
	}
	return copies
}

// TestOpenRefusesWhatCheckRejects: `gambit bot` must not start on a file
// that `gambit db check` rejects at the bbolt level, nor change it. For
// every damaged copy (damagedCopies), the read-only open and Check of `db
// check` decide whether the file is rejected at that level — Open refuses
// it as corrupt, or Check reports a "bbolt:" problem; then the read-write
// open of the bot's start must refuse each rejected copy as ErrCorruptFile,
// with an error naming the file, and leave its bytes as they were.
func TestOpenRefusesWhatCheckRejects(t *testing.T) {
	dir := t.TempDir()
	copies := damagedCopies(t)
	var rejected, byCheckOnly int
	for _, name := range slices.Sorted(maps.Keys(copies)) {
		data := copies[name]
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".db")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		refusedRO, bboltProblems := false, false
		s, err := Open(path, &Options{ReadOnly: true})
		switch {
		case errors.Is(err, ErrCorruptFile):
			refusedRO = true
		case err != nil:
			// Not rejected at the bbolt level (a meta page bbolt itself
			// refuses is its own error).
		default:
			problems, err := s.Check(context.Background())
			bboltProblems = errors.Is(err, ErrCorruptFile) || slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, "bbolt: ") })
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}
		if !refusedRO && !bboltProblems {
			continue
		}
		rejected++
		if bboltProblems {
			byCheckOnly++
		}
		s, err = Open(path, nil)
		if err == nil {
			t.Errorf("%s: the bot's open accepted a file db check rejects", name)
			_ = s.Close()
		} else if !errors.Is(err, ErrCorruptFile) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: open: %v; want ErrCorruptFile naming %s", name, err, path)
		}
		if after, err := os.ReadFile(path); err != nil {
			t.Fatal(err)
		} else if !bytes.Equal(after, data) {
			t.Errorf("%s: the refused open changed the file", name)
		}
	}
	t.Logf("%d damaged copies, %d rejected by db check, %d of them only by bbolt's check", len(copies), rejected, byCheckOnly)
	if byCheckOnly == 0 {
		t.Error("no copy was rejected by bbolt's check alone: the damage misses what the test is about")
	}
}
