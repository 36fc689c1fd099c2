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
