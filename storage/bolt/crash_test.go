package bolt

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// The crash drill runs a few kills by default; run the long one with
//
//	go test ./storage/bolt -run CrashDrill -crash.kills=50
var crashKills = flag.Int("crash.kills", 3, "number of SIGKILLs in the crash drill")

// crashChildEnv names the database a crash-drill child writes to.
const crashChildEnv = "GAMBIT_CRASH_DRILL_DB"

// TestCrashDrillChild is the writer of the crash drill, run by
// TestCrashDrill in a child process: it plays games forever through Bench,
// printing "<game-id> <version>" after each durable commit, until killed.
func TestCrashDrillChild(t *testing.T) {
	path := os.Getenv(crashChildEnv)
	if path == "" {
		t.Skip("only runs as the crash drill's child process")
	}
	s, err := Open(path, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	_, err = s.Bench(context.Background(), BenchConfig{Games: 1 << 30, Moves: 6, Concurrency: 4}, func(id storage.GameID, v uint64) {
		fmt.Fprintf(os.Stdout, "%s %d\n", id, v)
	})
	fmt.Fprintln(os.Stderr, "bench ended:", err)
	os.Exit(3)
}

// TestCrashDrill kills a writing child process with SIGKILL at random
// points. After every kill, every update the child reported as committed
// must be on disk, bbolt's consistency check and the store's invariants must
// pass, and every finished game must be counted exactly once in the ratings.
func TestCrashDrill(t *testing.T) {
	path := filepath.Join(t.TempDir(), "drill.db")
	committed := map[storage.GameID]uint64{} // highest version reported per game
	for round := range *crashKills {
		lines := runAndKill(t, path, rand.IntN(300)+1)
		for _, line := range lines {
			var id string
			var v uint64
			if _, err := fmt.Sscanf(line, "%s %d", &id, &v); err != nil {
				t.Fatalf("round %d: child printed %q", round, line)
			}
			committed[storage.GameID(id)] = max(committed[storage.GameID(id)], v)
		}
		verifyAfterCrash(t, path, committed)
		t.Logf("round %d: killed after %d reported commits; %d games verified", round, len(lines), len(committed))
	}
}

// runAndKill starts the child on path, kills it with SIGKILL once it has
// reported at least n commits (plus a random few hundred microseconds, to
// land inside a commit), and returns every line it printed.
func runAndKill(t *testing.T, path string, n int) []string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashDrillChild$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() {
		defer close(got)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			got <- sc.Text()
		}
	}()
	var lines []string
	timeout := time.After(time.Minute)
	killed := false
	for !killed {
		select {
		case line, ok := <-got:
			if !ok {
				_ = cmd.Wait()
				t.Fatalf("child exited before the kill: %s", stderr.String())
			}
			lines = append(lines, line)
			if len(lines) >= n {
				time.Sleep(time.Duration(rand.IntN(500)) * time.Microsecond)
				killed = true
			}
		case <-timeout:
			killed = true
			t.Errorf("child reported %d of %d commits within a minute: %s", len(lines), n, stderr.String())
		}
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	// Lines printed before death were committed too; collect them.
	for line := range got {
		lines = append(lines, line)
	}
	_ = cmd.Wait()
	return lines
}

// verifyAfterCrash reopens the database and checks it.
func verifyAfterCrash(t *testing.T, path string, committed map[storage.GameID]uint64) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	problems, err := s.Check(ctx)
	if err != nil || len(problems) > 0 {
		t.Fatalf("after a crash: Check: %v\n%s", err, strings.Join(problems, "\n"))
	}
	for id, v := range committed {
		g, err := s.Game(ctx, id)
		if err != nil {
			t.Fatalf("reported commit %s %d lost: %v", id, v, err)
		}
		if g.Version < v {
			t.Fatalf("game %s is at version %d but version %d was reported committed", id, g.Version, v)
		}
		if len(g.Moves) != int(g.Version-1) {
			t.Fatalf("game %s at version %d has %d moves", id, g.Version, len(g.Moves))
		}
		for i, m := range g.Moves {
			if m != fmt.Sprintf("m%d", i+1) {
				t.Fatalf("game %s move %d is %q", id, i+1, m)
			}
		}
	}
	// Each ended game counts once for each player in each of its ladders.
	if err := s.db.View(func(tx *bbolt.Tx) error {
		want := map[string]int{}
		if err := tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
			g, err := decodeGame(k, v)
			if err == nil && g.Status.Ended() {
				want[storage.Global(g.Kind).String()] += 2
				want[storage.Ladder{Kind: g.Kind, Guild: g.GuildID}.String()] += 2
			}
			return err
		}); err != nil {
			return err
		}
		ladders, err := ratedLadders(tx)
		if err != nil {
			return err
		}
		for _, l := range ladders {
			b, _ := ladderBucket(tx, bucketRatings, l, false)
			got := 0
			if err := b.ForEach(func(k, v []byte) error {
				r, err := decodeRating(l.String(), k, v)
				got += r.Games
				return err
			}); err != nil {
				return err
			}
			if got != want[l.String()] {
				t.Errorf("ladder %s counts %d player-games, the games say %d", l, got, want[l.String()])
			}
			delete(want, l.String())
		}
		for l, n := range want {
			t.Errorf("ladder %s has no ratings but %d player-games", l, n)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
