// Package pgtest gives tests a PostgreSQL schema of their own on the server
// named by GAMBIT_TEST_DATABASE_URL, so that tests of storage/postgres
// and of what uses it can run in parallel on one server.
//
// Without the variable the tests skip, saying so, except in CI (CI=true),
// where a missing server is a failure: .ci/run starts a throwaway cluster
// with .ci/postgres and sets the variable. PgBouncerURL does the same for
// a PgBouncer in front of that server (GAMBIT_TEST_PGBOUNCER_URL, started
// by .ci/pgbouncer).
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL is the variable naming the test server.
const EnvURL = "GAMBIT_TEST_DATABASE_URL"

// EnvPgBouncerURL is the variable naming a PgBouncer in transaction
// pooling mode in front of the test server.
const EnvPgBouncerURL = "GAMBIT_TEST_PGBOUNCER_URL"

// env returns the variable name, skipping the test without it (failing
// it in CI); start says how to start what it names.
func env(t testing.TB, name, start string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must run the PostgreSQL tests (.ci/run sets it)", name)
		}
		t.Skipf("%s is not set (a throwaway one: %s; see docs/contributing.md, \"The PostgreSQL store's tests\")", name, start)
	}
	return v
}

// random returns a fresh name beginning with prefix.
func random(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// admin runs sql on the test server, or fails the test.
func admin(t testing.TB, base, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to the server of %s: %v", EnvURL, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// PgBouncerURL creates an empty database on the test server and returns
// a URL of it through the PgBouncer of GAMBIT_TEST_PGBOUNCER_URL; the
// database is dropped when the test ends. (A database, not a schema as
// URL makes: PgBouncer does not pass a search_path on.)
func PgBouncerURL(t testing.TB) string {
	t.Helper()
	base := env(t, EnvURL, "export "+EnvURL+"=$(.ci/postgres start /tmp/gambit-pg)")
	bouncer := env(t, EnvPgBouncerURL, "export "+EnvPgBouncerURL+"=$(.ci/pgbouncer start /tmp/gambit-pgb $"+EnvURL+")")
	u, err := url.Parse(bouncer)
	if err != nil {
		t.Fatalf("%s: %v", EnvPgBouncerURL, err)
	}
	db := random("test_")
	admin(t, base, "CREATE DATABASE "+db)
	t.Cleanup(func() { admin(t, base, "DROP DATABASE "+db+" WITH (FORCE)") })
	u.Path = "/" + db
	return u.String()
}

// URL creates an empty schema on the test server and returns a URL whose
// search_path selects it; the schema is dropped when the test ends.
func URL(t testing.TB) string {
	t.Helper()
	base := env(t, EnvURL, "export "+EnvURL+"=$(.ci/postgres start /tmp/gambit-pg)")
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", EnvURL, err)
	}
	schema := random("test_")
	admin(t, base, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { admin(t, base, "DROP SCHEMA "+schema+" CASCADE") })
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
