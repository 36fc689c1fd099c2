package main

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage/bolt"
)

func TestDBBenchCheckStatsBackup(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	code, out, errOut := gambit("db", "bench", "--db", db, "--games", "6", "--moves", "4", "--concurrency", "3")
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, errOut)
	}
	// One line per commit: each game's creation (version 1) and 4 changes.
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 6*5 {
		t.Fatalf("bench printed %d lines, want 30:\n%s", len(lines), out)
	}
	last := map[string]string{}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 2 {
			t.Fatalf("bench line %q: want <game-id> <version>", l)
		}
		last[f[0]] = f[1]
	}
	if len(last) != 6 {
		t.Errorf("%d games, want 6", len(last))
	}
	for id, v := range last {
		if v != "5" {
			t.Errorf("game %s ends at version %s, want 5", id, v)
		}
	}
	if !strings.Contains(errOut, "30 durable commits") {
		t.Errorf("bench summary %q", errOut)
	}

	t.Setenv("GAMBIT_DB", db) // the default for --db
	if code, out, errOut := gambit("db", "check"); code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("check: exit %d, %q %q", code, out, errOut)
	}
	code, out, _ = gambit("db", "stats")
	if code != 0 || !strings.Contains(out, "games per status:") || !hasFieldsLine(out, "finished", "6") {
		t.Errorf("stats: exit %d, output %q", code, out)
	}
	backup := filepath.Join(dir, "copy.db")
	if code, _, errOut := gambit("db", "backup", "--out", backup); code != 0 {
		t.Fatalf("backup: exit %d: %s", code, errOut)
	}
	if code, out, _ := gambit("db", "stats", "--db", backup); code != 0 || !hasFieldsLine(out, "finished", "6") {
		t.Errorf("stats of the backup: exit %d, %q", code, out)
	}
}

// hasFieldsLine reports whether out has a line whose fields are exactly the
// given ones.
func hasFieldsLine(out string, fields ...string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.Join(strings.Fields(l), " ") == strings.Join(fields, " ") {
			return true
		}
	}
	return false
}

func TestDBErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.db")
	if code, _, errOut := gambit("db", "check", "--db", missing); code != 1 || !strings.Contains(errOut, "no database at "+missing) {
		t.Errorf("check of a missing file: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("check created the database it was asked to inspect")
	}
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, []byte(strings.Repeat("not a database ", 500)), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := gambit("db", "check", "--db", junk); code != 1 || !strings.Contains(errOut, junk) {
		t.Errorf("check of a junk file: exit %d, %q; want status 1 naming the file", code, errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"db"}, "want a subcommand"},
		{[]string{"db", "repair"}, `unknown subcommand "repair"`},
		{[]string{"db", "backup", "--db", junk}, "--out is required"},
		{[]string{"db", "bench", "--db", junk, "--concurrency", "0"}, "--concurrency"},
		{[]string{"db", "stats", "extra"}, `unexpected argument "extra"`},
	} {
		if code, _, errOut := gambit(tc.args...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want status 2 naming %q", tc.args, code, errOut, tc.want)
		}
	}
	if code, out, _ := gambit("db", "--help"); code != 0 || !strings.Contains(out, "Usage: gambit db") {
		t.Errorf("db --help: exit %d, %q", code, out)
	}
}

// TestDBLockedByAnotherHolder: while the database is held (as by the running
// bot), the command fails naming the file and pointing to the online backup.
func TestDBLockedByAnotherHolder(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "held.db")
	s, err := bolt.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	code, _, errOut := gambit("db", "bench", "--db", db, "--games", "1")
	if code != 1 || !strings.Contains(errOut, db) || !strings.Contains(errOut, "locked") || !strings.Contains(errOut, "/backup") {
		t.Errorf("bench on a held database: exit %d, %q", code, errOut)
	}
}

func TestLoadDotEnv(t *testing.T) {
	dir := t.TempDir()
	if err := loadDotEnv(filepath.Join(dir, "absent")); err != nil {
		t.Errorf("a missing .env: %v", err)
	}
	path := filepath.Join(dir, ".env")
	if err := os.WriteFile(path, []byte("GAMBIT_TEST_SETTING=from-file\nGAMBIT_TEST_KEPT=from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GAMBIT_TEST_KEPT", "from-env")
	t.Setenv("GAMBIT_TEST_SETTING", "")
	os.Unsetenv("GAMBIT_TEST_SETTING")
	if err := loadDotEnv(path); err != nil {
		t.Fatal(err)
	}
	if got := os.Getenv("GAMBIT_TEST_SETTING"); got != "from-file" {
		t.Errorf("GAMBIT_TEST_SETTING = %q, want the file's value", got)
	}
	if got := os.Getenv("GAMBIT_TEST_KEPT"); got != "from-env" {
		t.Errorf("GAMBIT_TEST_KEPT = %q: the environment must win over .env", got)
	}
	if err := os.WriteFile(path, []byte("BROKEN='unterminated\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := loadDotEnv(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a malformed .env: %v, want an error naming it", err)
	}
}

// damagedDB writes a database of a few games with `gambit db bench`, lets
// damage change its root page — the leaf of the top-level buckets, which
// every command reads first — and returns its path.
func damagedDB(t *testing.T, damage func(page []byte)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "damaged.db")
	if code, _, errOut := gambit("db", "bench", "--db", path, "--games", "4", "--moves", "3"); code != 0 {
		t.Fatalf("bench: exit %d: %s", code, errOut)
	}
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	pageSize := uint64(db.Info().PageSize)
	var root uint64
	err = db.View(func(tx *bbolt.Tx) error {
		root = uint64(tx.Cursor().Bucket().RootPage())
		return nil
	})
	if err := errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := data[root*pageSize : (root+1)*pageSize]
	if flags := binary.NativeEndian.Uint16(page[8:]); flags != 0x02 {
		t.Fatalf("root page %d has flags %#x, want a leaf page (0x02)", root, flags)
	}
	damage(page)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDamagedDatabaseIsReported: `gambit db check` and the bot's start
// report a database with damaged pages as corrupt, naming the file, and
// exit 1. Before, bbolt followed the damage: a page naming another page
// made it panic, offsets past the file a memory fault that killed the
// process.
func TestDamagedDatabaseIsReported(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(page []byte)
		// checkSays is what db check's error says: the file is corrupt,
		// or it lists the problems that bbolt's own check found.
		checkSays string
	}{
		{"a page naming another page", func(page []byte) {
			binary.NativeEndian.PutUint64(page, binary.NativeEndian.Uint64(page)+1000)
		}, "corrupt"},
		{"keys far past the file", func(page []byte) {
			for i := range int(binary.NativeEndian.Uint16(page[10:])) {
				binary.NativeEndian.PutUint32(page[16+16*i+4:], 0x7fff0000) // the leaf element's key offset
			}
		}, "corrupt"},
		// Sound pages, but the first key sorts after the others: only
		// bbolt's own check, which db check runs, sees it.
		{"keys out of order", func(page []byte) {
			page[16+binary.NativeEndian.Uint32(page[16+4:])] |= 0x80 // the first leaf element's key
		}, "problem"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := damagedDB(t, tc.damage)
			reported := func(what, says string, args ...string) string {
				t.Helper()
				var code int
				var errOut string
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s panicked: %v", what, r)
						}
					}()
					code, _, errOut = gambit(args...)
				}()
				if code != 1 || !strings.Contains(errOut, db) || !strings.Contains(errOut, says) {
					t.Errorf("%s: exit %d, stderr %q; want status 1 and an error naming %s and saying %q", what, code, errOut, db, says)
				}
				return errOut
			}
			reported("gambit db check", tc.checkSays, "db", "check", "--db", db)
			t.Setenv("DISCORD_TOKEN", "test-token")
			// Were the database to pass, this URL stops the bot before it
			// reaches out: the exit would not mention corruption.
			t.Setenv("DISCORD_API_URL", "http://127.0.0.1:1/api/v10")
			t.Setenv("GAMBIT_DB", db)
			if errOut := reported("gambit bot", "corrupt", "bot"); !strings.Contains(errOut, "gambit db check --db "+db) || !strings.Contains(errOut, "restore the last backup") {
				t.Errorf("gambit bot: stderr %q; want it to name db check and the backup", errOut)
			}
		})
	}
}
