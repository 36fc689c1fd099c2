// Package pgtest gives tests a PostgreSQL schema of their own on the server
// named by GAMBIT_TEST_DATABASE_URL, so that tests of storage/postgres
// and of what uses it can run in parallel on one server.
//
// Without the variable the tests skip, saying so, except in CI (CI=true),
// where a missing server is a failure: .ci/run starts a throwaway cluster
// with .ci/postgres and sets the variable.
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

// URL creates an empty schema on the test server and returns a URL whose
// search_path selects it; the schema is dropped when the test ends.
func URL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvURL)
	if base == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must run the PostgreSQL tests (.ci/run starts a server with .ci/postgres)", EnvURL)
		}
		t.Skipf("no PostgreSQL server: set %s (a throwaway one: export %s=$(.ci/postgres start /tmp/gambit-pg); see docs/contributing.md, \"The PostgreSQL store's tests\")", EnvURL, EnvURL)
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", EnvURL, err)
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	schema := "test_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to the server of %s: %v", EnvURL, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema %s: %v", schema, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
