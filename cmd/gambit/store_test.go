package main

import (
	"context"
	"testing"

	"github.com/gambitbot/gambit/storage/postgres"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
)

// TestConnectionBudget: each kind of process gets the connections its
// work needs by default — interactions, a connection per job it runs and
// River's own, one fewer behind PgBouncer, where River does not listen —
// and GAMBIT_DB_MAX_CONNS and GAMBIT_DB_POOLER set the pool PostgreSQL is
// opened with; bad values are refused by name.
func TestConnectionBudget(t *testing.T) {
	for _, tc := range []struct {
		name   string
		role   storeRole
		pooler postgres.Pooler
		want   int32
	}{
		{"db command", storeRole{}, postgres.PoolerNone, 4},
		{"bot leaving AI turns to workers", storeRole{interactions: true}, postgres.PoolerNone, 10},
		{"bot playing 4 threads' turns and 2 deadlines", storeRole{interactions: true, jobs: 6}, postgres.PoolerNone, 10 + 6 + 2 + 1},
		{"worker of 8 threads and 2 deadlines", storeRole{jobs: 10}, postgres.PoolerNone, 10 + 2 + 1},
		{"worker behind PgBouncer", storeRole{jobs: 10}, postgres.PoolerPgBouncer, 10 + 2},
	} {
		if got := connBudget(tc.role, tc.pooler); got != tc.want {
			t.Errorf("%s: %d connections, want %d", tc.name, got, tc.want)
		}
	}

	url := pgtest.URL(t)
	ctx := context.Background()
	open := func(role storeRole) *postgres.Store {
		t.Helper()
		s, err := openStore(ctx, url, "", serving, role)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s.(*postgres.Store)
	}
	t.Setenv(envDBMaxConns, "")
	t.Setenv(envDBPooler, "")
	if s := open(storeRole{jobs: 3}); s.Pool().Config().MaxConns != 6 || s.PollOnly() {
		t.Errorf("a worker of 3 jobs: %d connections, poll only %v; want 6, false", s.Pool().Config().MaxConns, s.PollOnly())
	}
	t.Setenv(envDBPooler, "pgbouncer")
	if s := open(storeRole{jobs: 3}); s.Pool().Config().MaxConns != 5 || !s.PollOnly() {
		t.Errorf("a worker of 3 jobs behind PgBouncer: %d connections, poll only %v; want 5, true", s.Pool().Config().MaxConns, s.PollOnly())
	}
	t.Setenv(envDBMaxConns, "7")
	if s := open(storeRole{interactions: true}); s.Pool().Config().MaxConns != 7 {
		t.Errorf("%s=7: %d connections", envDBMaxConns, s.Pool().Config().MaxConns)
	}
	for _, bad := range [][2]string{{envDBMaxConns, "1"}, {envDBMaxConns, "many"}, {envDBPooler, "pgpool"}} {
		t.Setenv(envDBMaxConns, "")
		t.Setenv(envDBPooler, "")
		t.Setenv(bad[0], bad[1])
		if _, err := openStore(ctx, url, "", serving, storeRole{}); err == nil {
			t.Errorf("%s=%s was accepted", bad[0], bad[1])
		}
	}
}
