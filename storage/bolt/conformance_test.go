package bolt

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

// TestConformance runs the store conformance suite on bbolt files.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t testing.TB, now func() time.Time) (storage.Admin, func() storage.Admin) {
		path := filepath.Join(t.TempDir(), "gambit.db")
		var s *Store
		open := func() storage.Admin {
			var err error
			if s, err = Open(path, &Options{Clock: now, AIRatings: storetest.AIRatings}); err != nil {
				t.Fatal(err)
			}
			return s
		}
		open()
		return s, func() storage.Admin {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			return open()
		}
	})
}
