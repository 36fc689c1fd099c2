package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
	"github.com/gambitbot/gambit/storage/storetest"
)

// TestConformanceBehindPgBouncer runs the store conformance suite through
// a real PgBouncer in transaction pooling mode (.ci/pgbouncer), where
// consecutive transactions of one client connection may run on different
// server connections: statements prepared by name on one are unknown on
// the next, and a session's advisory lock stays on the server connection
// that took it.
func TestConformanceBehindPgBouncer(t *testing.T) {
	t.Parallel()
	open := func(t testing.TB, url string, now func() time.Time) *Store {
		t.Helper()
		s, err := Open(context.Background(), url, &Options{Clock: now, dbClock: now, MaxConns: 4, Pooler: PoolerPgBouncer, AIRatings: storetest.AIRatings})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	storetest.Run(t, func(t testing.TB, now func() time.Time) (storage.Admin, func() storage.Admin) {
		url := pgtest.PgBouncerURL(t)
		s := open(t, url, now)
		return s, func() storage.Admin {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = open(t, url, now)
			return s
		}
	}, rewriteRecord)
}

// TestPoolerSettings: PgBouncer's setting describes statements instead of
// preparing them and makes River poll; without it the store prepares and
// River listens; a pool of one connection, which could not migrate, and
// an unknown pooler are refused.
func TestPoolerSettings(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	ctx := context.Background()
	for _, tc := range []struct {
		pooler Pooler
		mode   pgx.QueryExecMode
		poll   bool
	}{
		{PoolerNone, pgx.QueryExecModeCacheStatement, false},
		{PoolerPgBouncer, pgx.QueryExecModeCacheDescribe, true},
	} {
		s, err := Open(ctx, url, &Options{Pooler: tc.pooler, MaxConns: 3})
		if err != nil {
			t.Fatal(err)
		}
		cfg := s.Pool().Config()
		if cfg.ConnConfig.DefaultQueryExecMode != tc.mode || s.PollOnly() != tc.poll || cfg.MaxConns != 3 {
			t.Errorf("pooler %q: exec mode %v, poll only %v, %d connections; want %v, %v, 3", tc.pooler, cfg.ConnConfig.DefaultQueryExecMode, s.PollOnly(), cfg.MaxConns, tc.mode, tc.poll)
		}
		s.Close()
	}
	if _, err := Open(ctx, url, &Options{MaxConns: 1}); err == nil {
		t.Error("a pool of one connection was opened")
	}
	if _, err := Open(ctx, url, &Options{Pooler: "pgpool"}); err == nil {
		t.Error("an unknown pooler was accepted")
	}
	for in, want := range map[string]Pooler{"": PoolerNone, "none": PoolerNone, "pgbouncer": PoolerPgBouncer} {
		if got, err := ParsePooler(in); err != nil || got != want {
			t.Errorf("ParsePooler(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParsePooler("PgBouncer "); err == nil {
		t.Error("ParsePooler took a misspelt name")
	}
}
