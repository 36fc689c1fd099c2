package postgres

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
	"github.com/gambitbot/gambit/storage/storetest"
)

// world is the true time of a test, the database server's clock, which
// the test moves on by hand.
type world struct{ *storetest.Clock }

// skewed opens a store on url as a process whose clock is off by skew
// from the world's, the database keeping the world's time.
func (w *world) skewed(t *testing.T, url string, skew time.Duration) *Store {
	t.Helper()
	s, err := Open(context.Background(), url, &Options{Clock: func() time.Time { return w.Now().Add(skew) }, dbClock: w.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestSkewedClocksNeitherStealNorKeepClaims: three processes share a
// database, one with a true clock, one three hours ahead and one three
// hours behind. Claims follow the database's clock: the process ahead
// cannot take a live claim early, the one behind cannot take it at all
// while it lives, and a claim taken by the process ahead or behind
// expires when its time to live has passed by the database's clock, not
// three hours later or earlier.
func TestSkewedClocksNeitherStealNorKeepClaims(t *testing.T) {
	t.Parallel()
	w := &world{storetest.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))}
	url := pgtest.URL(t)
	ctx := context.Background()
	right := w.skewed(t, url, 0)
	ahead := w.skewed(t, url, 3*time.Hour)
	behind := w.skewed(t, url, -3*time.Hour)
	claim := func(s *Store, key, owner string) bool {
		t.Helper()
		ok, err := s.Claim(ctx, key, owner, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	listed := func(s *Store, want map[string]string) {
		t.Helper()
		got, err := s.Claims(ctx, "ai/")
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("Claims = %v, want %v", got, want)
		}
	}

	// Held by the process behind: the process ahead sees it live.
	if !claim(behind, "ai/1", "behind") {
		t.Fatal("a free claim was refused")
	}
	if claim(ahead, "ai/1", "ahead") {
		t.Fatal("a process whose clock is 3 h ahead took a claim taken a moment ago with a minute to live")
	}
	listed(ahead, map[string]string{"ai/1": "behind"})

	// Held by the process ahead: the process behind sees it live, and
	// everyone sees it expire a minute later.
	if !claim(ahead, "ai/2", "ahead") {
		t.Fatal("a free claim was refused")
	}
	if claim(behind, "ai/2", "behind") {
		t.Fatal("a process whose clock is 3 h behind took a claim taken a moment ago with a minute to live")
	}
	w.Advance(time.Minute)
	listed(right, map[string]string{})
	if !claim(right, "ai/2", "right") {
		t.Fatal("a claim taken by a process 3 h ahead was kept past its minute")
	}
	if !claim(right, "ai/1", "right") {
		t.Fatal("a claim taken by a process 3 h behind was kept past its minute")
	}
	listed(behind, map[string]string{"ai/1": "right", "ai/2": "right"})
}

// TestClaimsUseTheServersClock: without a stand-in for the database's
// clock, as in production, a claim taken by a process 3 h behind expires
// an hour from the server's now, and a process 3 h ahead sees it live.
func TestClaimsUseTheServersClock(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	ctx := context.Background()
	open := func(skew time.Duration) *Store {
		s, err := Open(ctx, url, &Options{Clock: func() time.Time { return time.Now().Add(skew) }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	behind, ahead := open(-3*time.Hour), open(3*time.Hour)
	if ok, err := behind.Claim(ctx, "shard/2/0", "behind", time.Hour); !ok || err != nil {
		t.Fatalf("Claim = %v, %v", ok, err)
	}
	if ok, err := ahead.Claim(ctx, "shard/2/0", "ahead", time.Hour); ok || err != nil {
		t.Fatalf("a process 3 h ahead took a claim with an hour to live: %v, %v", ok, err)
	}
	if got, err := ahead.Claims(ctx, "shard/"); err != nil || got["shard/2/0"] != "behind" {
		t.Fatalf("Claims = %v, %v", got, err)
	}
	var left time.Duration
	if err := ahead.pool.QueryRow(ctx, "SELECT expires_at - now() FROM claims WHERE key = 'shard/2/0'").Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left <= 0 || left > time.Hour {
		t.Fatalf("the claim expires %v from the server's now, want within the hour it was taken for", left)
	}
}

// TestSkewedClockListsNoGameBeforeItsDeadline: a process whose clock is
// 3 h ahead lists a game as due when its deadline has passed by the
// database's clock, not 3 h early.
func TestSkewedClockListsNoGameBeforeItsDeadline(t *testing.T) {
	t.Parallel()
	w := &world{storetest.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))}
	url := pgtest.URL(t)
	ctx := context.Background()
	right := w.skewed(t, url, 0)
	ahead := w.skewed(t, url, 3*time.Hour)
	g := storetest.UserVsUser("connect4", "a", "b")
	g.Deadline = w.Now().Add(time.Hour)
	storetest.MustCreate(t, right, g)
	if due, err := ahead.DueGames(ctx, storage.Shards{}); err != nil || len(due) != 0 {
		t.Fatalf("a process 3 h ahead listed a game due in an hour: %v, %v", storetest.IDs(due), err)
	}
	w.Advance(time.Hour)
	if due, err := ahead.DueGames(ctx, storage.Shards{}); err != nil || len(due) != 1 {
		t.Fatalf("the game was not due at its deadline: %v, %v", storetest.IDs(due), err)
	}
}
