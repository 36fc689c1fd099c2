package bolt

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// openTest opens a store in a fresh temporary directory and closes it
// (checking its invariants) at the end of the test. The tests of the
// Store's behaviour are the conformance suite (conformance_test.go); these
// helpers serve the tests of bbolt internals.
func openTest(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "gambit.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if problems, err := s.Check(context.Background()); err != nil || len(problems) > 0 {
			t.Errorf("Check at end of test: %v %q", err, problems)
		}
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// TestOpenDropsClaims: one process holds a bbolt file, so the claims in
// it when it is opened were taken by a process that is gone; the AI turns
// they held must be played at once, not after their claims expire.
func TestOpenDropsClaims(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gambit.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if ok, err := s.Claim(ctx, "ai/x", "dead", time.Hour); !ok || err != nil {
		t.Fatalf("Claim = %v, %v", ok, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path, nil); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, err := s.Claims(ctx, ""); len(got) != 0 || err != nil {
		t.Fatalf("claims after reopening: %v, %v", got, err)
	}
	if ok, err := s.Claim(ctx, "ai/x", "alive", time.Hour); !ok || err != nil {
		t.Fatalf("the claim of the previous process still holds: %v, %v", ok, err)
	}
}
