package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
	"github.com/gambitbot/gambit/storage/storetest"
)

// openTest opens a store on a fresh schema of the test server (see
// pgtest), with now as its clock.
func openTest(t testing.TB, now func() time.Time) (*Store, string) {
	t.Helper()
	url := pgtest.URL(t)
	s, err := Open(context.Background(), url, &Options{Clock: now, MaxConns: 4, AIRatings: storetest.AIRatings})
	if err != nil {
		t.Fatal(err)
	}
	return s, url
}

// TestConformance runs the store conformance suite on PostgreSQL.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t testing.TB, now func() time.Time) (storage.Admin, func() storage.Admin) {
		s, url := openTest(t, now)
		return s, func() storage.Admin {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			var err error
			if s, err = Open(context.Background(), url, &Options{Clock: now, AIRatings: storetest.AIRatings}); err != nil {
				t.Fatal(err)
			}
			return s
		}
	})
}

// TestClaimsSurviveReopening: a claim lives in the database, not in the
// process that took it, so another process (here, the store reopened)
// respects it until it expires.
func TestClaimsSurviveReopening(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s, url := openTest(t, clock)
	ctx := context.Background()
	if ok, err := s.Claim(ctx, "ai/x", "p1", time.Minute); !ok || err != nil {
		t.Fatalf("Claim = %v, %v", ok, err)
	}
	other, err := Open(ctx, url, &Options{Clock: clock})
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
