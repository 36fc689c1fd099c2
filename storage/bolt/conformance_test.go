package bolt

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"go.etcd.io/bbolt"

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
	}, rewriteRecord)
}

// rewriteRecord replaces the record of game id with record, in the
// current record format, for storetest.
func rewriteRecord(t testing.TB, s storage.Admin, id storage.GameID, record []byte) (restore func()) {
	db := s.(*Store).db
	var old []byte
	put := func(data []byte) {
		if err := db.Update(func(tx *bbolt.Tx) error {
			games := tx.Bucket(bucketGames)
			if old == nil {
				old = bytes.Clone(games.Get([]byte(id)))
			}
			return games.Put([]byte(id), data)
		}); err != nil {
			t.Fatal(err)
		}
	}
	put(append([]byte{recordV1}, record...))
	return func() { put(old) }
}
