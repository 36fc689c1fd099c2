package bolt

import (
	"context"
	"path/filepath"
	"testing"
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
