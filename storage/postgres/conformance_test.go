package postgres

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
	"github.com/gambitbot/gambit/storage/storetest"
)

// TestMain runs the tests eight at a time (discordtest.WaitingTests):
// each on a schema of its own, they wait on the server more than they
// compute.
func TestMain(m *testing.M) {
	discordtest.WaitingTests(8)
	racetest.Exit(m.Run())
}

// openTest opens a store on a fresh schema of the test server (see
// pgtest), with now as its clock and as the database's (which times the
// claims).
func openTest(t testing.TB, now func() time.Time) (*Store, string) {
	t.Helper()
	url := pgtest.URL(t)
	s, err := Open(context.Background(), url, &Options{Clock: now, dbClock: now, MaxConns: 4, AIRatings: storetest.AIRatings})
	if err != nil {
		t.Fatal(err)
	}
	return s, url
}

// TestConformance runs the store conformance suite on PostgreSQL.
func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t testing.TB, now func() time.Time) (storage.Admin, func() storage.Admin) {
		s, url := openTest(t, now)
		return s, func() storage.Admin {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			var err error
			if s, err = Open(context.Background(), url, &Options{Clock: now, dbClock: now, AIRatings: storetest.AIRatings}); err != nil {
				t.Fatal(err)
			}
			return s
		}
	}, rewriteRecord)
}

// rewriteRecord replaces the record of game id with record, for storetest.
func rewriteRecord(t testing.TB, s storage.Admin, id storage.GameID, record []byte) (restore func()) {
	pool := s.(*Store).pool
	ctx := context.Background()
	var old []byte
	if err := pool.QueryRow(ctx, "SELECT record FROM games WHERE id = $1", id).Scan(&old); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "UPDATE games SET record = $2 WHERE id = $1", id, record); err != nil {
		t.Fatal(err)
	}
	return func() {
		if _, err := pool.Exec(ctx, "UPDATE games SET record = $2 WHERE id = $1", id, old); err != nil {
			t.Fatal(err)
		}
	}
}

// TestClaimsSurviveReopening: a claim lives in the database, not in the
// process that took it, so another process (here, the store reopened)
// respects it until it expires.
func TestClaimsSurviveReopening(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s, url := openTest(t, clock)
	ctx := context.Background()
	if ok, err := s.Claim(ctx, "ai/x", "p1", time.Minute); !ok || err != nil {
		t.Fatalf("Claim = %v, %v", ok, err)
	}
	other, err := Open(ctx, url, &Options{Clock: clock, dbClock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if ok, err := other.Claim(ctx, "ai/x", "p2", time.Minute); ok || err != nil {
		t.Fatalf("another process took a live claim: %v, %v", ok, err)
	}
	now = now.Add(time.Minute)
	if ok, err := other.Claim(ctx, "ai/x", "p2", time.Minute); !ok || err != nil {
		t.Fatalf("another process could not take an expired claim: %v, %v", ok, err)
	}
	_ = s.Close()
}

// TestOpenDeletesStaleClaims: claims that expired a day ago belong to
// processes long gone; opening the store deletes them, so that the
// membership claims of every process that ever ran do not pile up.
func TestOpenDeletesStaleClaims(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s, url := openTest(t, clock)
	defer s.Close()
	ctx := context.Background()
	for _, key := range []string{"member/old", "member/recent"} {
		if ok, err := s.Claim(ctx, key, key, time.Minute); !ok || err != nil {
			t.Fatalf("Claim(%s) = %v, %v", key, ok, err)
		}
		now = now.Add(24 * time.Hour)
	}
	other, err := Open(ctx, url, &Options{Clock: clock, dbClock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var keys []string
	rows, err := other.pool.Query(ctx, "SELECT key FROM claims ORDER BY key")
	if err != nil {
		t.Fatal(err)
	}
	if keys, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(keys, []string{"member/recent"}) {
		t.Fatalf("claims after reopening: %v, want member/recent only", keys)
	}
}
