package bolt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

func TestLockedDatabaseNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gambit.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// flock locks belong to the open file, so a second Open in the same
	// process contends like another process would.
	_, err = Open(path, &Options{LockTimeout: 50 * time.Millisecond})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "/backup") {
		t.Fatalf("second open: %v; want ErrLocked naming %s and pointing to the online backup", err, path)
	}
	_, err = Open(path, &Options{LockTimeout: 50 * time.Millisecond, ReadOnly: true})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("read-only open beside a writer: %v, want ErrLocked", err)
	}
}

func setSchema(t *testing.T, path string, v uint64) {
	t.Helper()
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keySchema, encodeSchema(v))
	}); err != nil {
		t.Fatal(err)
	}
}

func TestSchemaMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gambit.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := storetest.MustCreate(t, s, storetest.UserVsAI(storage.Kind("tictactoe"), "alice"))
	s.Close()

	// A v1→v2 step that renames every game's channel; it must run once.
	runs := 0
	steps := append(migrations[:len(migrations):len(migrations)], migration{name: "test rename", apply: func(tx *bbolt.Tx) error {
		runs++
		b := tx.Bucket(bucketGames)
		return b.ForEach(func(k, v []byte) error {
			old, err := decodeGame(k, v)
			if err != nil {
				return err
			}
			rec := *old
			rec.ChannelID = "moved"
			return putGame(tx, old, &rec)
		})
	}})
	for range 2 {
		s, err := open(path, nil, steps)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Game(context.Background(), g.ID)
		s.Close()
		if err != nil || got.ChannelID != "moved" {
			t.Fatalf("after migration: %+v, %v", got, err)
		}
	}
	if runs != 1 {
		t.Fatalf("migration ran %d times, want once", runs)
	}

	// The database is now at schema 2, newer than Open's 1.
	_, err = Open(path, nil)
	if !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), "newer") || !strings.Contains(err.Error(), path) {
		t.Fatalf("opening a newer schema: %v, want a refusal naming the file", err)
	}
}

func TestReadOnlyRefusesOldSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gambit.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	setSchema(t, path, 0)
	if _, err := Open(path, &Options{ReadOnly: true}); !errors.Is(err, ErrSchema) {
		t.Fatalf("read-only open of an old schema: %v, want ErrSchema", err)
	}
	s, err = Open(path, nil) // read-write upgrades it
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(path, &Options{ReadOnly: true}); err != nil {
		t.Fatal(err)
	}
	s.Close()
}

func TestForeignFileRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.db")
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bbolt.Tx) error {
		_, err := tx.CreateBucket([]byte("widgets"))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(path, nil); !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), "not a Gambit database") {
		t.Fatalf("opening a foreign bbolt file: %v", err)
	}
}

// corrupt overwrites a raw record, bypassing the store.
func corrupt(t *testing.T, s *Store, bucket []byte, key string, data []byte) {
	t.Helper()
	if err := s.db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucket).Put([]byte(key), data)
	}); err != nil {
		t.Fatal(err)
	}
}

func TestCorruptGameIsNamed(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	g := storetest.MustCreate(t, s, storetest.UserVsAI(storage.Kind("tictactoe"), "alice"))
	good, _ := encode(g)
	for name, data := range map[string][]byte{
		"truncated":      good[:len(good)/2],
		"unknown format": append([]byte{9}, good[1:]...),
		"unknown field":  append([]byte{recordV1}, bytes.Replace(good[1:], []byte(`"kind"`), []byte(`"kindd"`), 1)...),
		"empty":          {},
		"bad status":     bytes.Replace(good, []byte(`"active"`), []byte(`"paused"`), 1),
	} {
		corrupt(t, s, bucketGames, string(g.ID), data)
		_, err := s.Game(ctx, g.ID)
		var re *storage.RecordError
		if !errors.As(err, &re) || re.Bucket != "games" || re.Key != string(g.ID) || !errors.Is(err, storage.ErrCorrupt) {
			t.Fatalf("%s: %v; want a RecordError naming games/%s", name, err, g.ID)
		}
		if _, err := s.ActiveGames(ctx, storage.User("alice")); !errors.Is(err, storage.ErrCorrupt) {
			t.Fatalf("%s: listing: %v, want ErrCorrupt", name, err)
		}
		g2 := *g
		if err := s.UpdateGame(ctx, &g2); !errors.Is(err, storage.ErrCorrupt) {
			t.Fatalf("%s: updating: %v, want ErrCorrupt", name, err)
		}
		problems, err := s.Check(ctx)
		if err != nil || len(problems) == 0 || !strings.Contains(strings.Join(problems, "\n"), string(g.ID)) {
			t.Fatalf("%s: Check: %q, %v; want a problem naming the game", name, problems, err)
		}
	}
	corrupt(t, s, bucketGames, string(g.ID), good)
}

func TestCheckFindsIndexDamage(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	g := storetest.MustCreate(t, s, storetest.UserVsAI(storage.Kind("tictactoe"), "alice"))
	storetest.Play(t, s, storage.Kind("tictactoe"), storage.User("bob"), storage.AI("x"), 0)
	if problems, err := s.Check(ctx); err != nil || len(problems) != 0 {
		t.Fatalf("healthy database: %q, %v", problems, err)
	}
	openKey := pairKey("user:alice", string(g.ID))
	damage := func(fn func(tx *bbolt.Tx) error, want string) {
		t.Helper()
		if err := s.db.Update(fn); err != nil {
			t.Fatal(err)
		}
		problems, err := s.Check(ctx)
		if err != nil || len(problems) != 1 || !strings.Contains(problems[0], want) {
			t.Fatalf("Check: %q, %v; want one problem mentioning %q", problems, err, want)
		}
	}
	damage(func(tx *bbolt.Tx) error { return tx.Bucket(bucketOpen).Delete(openKey) }, "missing entry")
	damage(func(tx *bbolt.Tx) error {
		if err := tx.Bucket(bucketOpen).Put(openKey, nil); err != nil {
			return err
		}
		return tx.Bucket(bucketAI).Put([]byte("zzzz"), nil)
	}, "stray entry")
	damage(func(tx *bbolt.Tx) error {
		if err := tx.Bucket(bucketAI).Delete([]byte("zzzz")); err != nil {
			return err
		}
		_, err := tx.CreateBucket([]byte("junk"))
		return err
	}, "unknown bucket")
	if err := s.db.Update(func(tx *bbolt.Tx) error { return tx.DeleteBucket([]byte("junk")) }); err != nil {
		t.Fatal(err)
	}
}

// TestCheckFindsABadSecret: a secret of the wrong size is named by
// Check, without its value, and Secret refuses it rather than choosing
// the daily puzzles by it.
func TestCheckFindsABadSecret(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	if err := s.db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketSecrets).Put([]byte(storage.DailyKey), []byte("short"))
	}); err != nil {
		t.Fatal(err)
	}
	problems, err := s.Check(ctx)
	if err != nil || len(problems) != 1 || !strings.Contains(problems[0], `secret "daily" of 5 bytes`) || strings.Contains(problems[0], "short") {
		t.Errorf("Check: %q, %v; want the daily key named, not shown", problems, err)
	}
	if _, err := s.Secret(ctx, storage.DailyKey); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("Secret of a bad key: %v, want ErrInvalid", err)
	}
	if err := s.db.Update(func(tx *bbolt.Tx) error { return tx.Bucket(bucketSecrets).Delete([]byte(storage.DailyKey)) }); err != nil {
		t.Fatal(err)
	}
}

func TestBackupIsAConsistentCopy(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	g := storetest.MustCreate(t, s, storetest.UserVsAI(storage.Kind("connect4"), "alice"))
	dir := t.TempDir()

	var buf bytes.Buffer
	n, err := s.WriteBackup(ctx, &buf)
	if err != nil || n != int64(buf.Len()) || n == 0 {
		t.Fatalf("WriteBackup: %d bytes, %v (buffer %d)", n, err, buf.Len())
	}
	target := filepath.Join(dir, "backup.db")
	if _, err := s.BackupFile(ctx, target); err != nil {
		t.Fatal(err)
	}
	streamed, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(streamed, buf.Bytes()) {
		t.Fatal("BackupFile and WriteBackup wrote different copies of an unchanged database")
	}
	if _, err := s.BackupFile(ctx, s.Path()); err == nil {
		t.Fatal("BackupFile overwrote the live database")
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*")); len(leftovers) != 0 {
		t.Fatalf("temporary files left behind: %v", leftovers)
	}

	b, err := Open(target, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if problems, err := b.Check(ctx); err != nil || len(problems) != 0 {
		t.Fatalf("backup check: %q, %v", problems, err)
	}
	got, err := b.Game(ctx, g.ID)
	if err != nil || got.Version != g.Version {
		t.Fatalf("game in backup: %+v, %v", got, err)
	}
	if err := b.CreateGame(ctx, storetest.UserVsAI(storage.Kind("tictactoe"), "bob"), storage.Limits{}); err == nil {
		t.Fatal("a read-only store accepted a write")
	}
}

// TestSnapshot checks that a snapshot is the same consistent copy as a
// streamed backup, that no transaction is open once Snapshot returns (so
// a slow reader of the file holds up no writer), and that the temporary
// file never shows in the database's directory.
func TestSnapshot(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	storetest.MustCreate(t, s, storetest.UserVsAI(storage.Kind("connect4"), "alice"))
	dir := filepath.Dir(s.Path())
	listing := func() []string {
		t.Helper()
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	before := listing()

	var want bytes.Buffer
	if _, err := s.WriteBackup(ctx, &want); err != nil {
		t.Fatal(err)
	}
	f, err := s.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if open := s.db.Stats().OpenTxN; open != 0 {
		t.Errorf("%d transactions open after Snapshot returned", open)
	}
	if got := listing(); !slices.Equal(got, before) {
		t.Errorf("directory holds %q during a snapshot, want %q", got, before)
	}
	got, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("snapshot of %d bytes differs from the %d-byte backup of an unchanged database", len(got), want.Len())
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if f, err := s.Snapshot(cancelled); f != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("Snapshot with a cancelled context: %v, %v; want no file and context.Canceled", f, err)
	}
	if got := listing(); !slices.Equal(got, before) {
		t.Errorf("directory holds %q after a cancelled snapshot, want %q", got, before)
	}
}

func TestStatsAndBench(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	var lines []string
	res, err := s.Bench(ctx, BenchConfig{Games: 6, Moves: 4, Concurrency: 3, Kinds: []storage.Kind{"adjacency", "connect4", "tictactoe"}}, func(id storage.GameID, v uint64) {
		lines = append(lines, fmt.Sprintf("%s %d", id, v))
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Commits != 6*5 || len(lines) != 30 || res.PerSecond() <= 0 {
		t.Fatalf("bench: %+v with %d callbacks, want 30 commits", res, len(lines))
	}
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Schema != uint64(len(migrations)) || st.Games[storage.StatusFinished] != 6 || st.Keys["games"] != 6 ||
		st.Keys["idx_open"] != 0 || st.Keys["ratings"] != 6 || st.Keys["ratings/tictactoe/bench"] != 3 || st.Size == 0 {
		t.Fatalf("stats %+v", st)
	}
	if _, err := s.Bench(ctx, BenchConfig{Games: 1, Moves: 1}, nil); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("bench without writers: %v, want ErrInvalid", err)
	}
}

func TestPingAnswersUntilClosed(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "ping.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(context.Background()); err != nil {
		t.Fatalf("Ping of an open store: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(context.Background()); err == nil {
		t.Fatal("Ping of a closed store succeeded")
	}
}
