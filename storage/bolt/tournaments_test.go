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

// TestCorruptTournamentIsSkipped runs storetest's test of a corrupt
// tournament record on a bbolt file.
func TestCorruptTournamentIsSkipped(t *testing.T) {
	t.Parallel()
	storetest.CorruptTournamentIsSkipped(t, func(t testing.TB, now func() time.Time) (storage.Admin, func() storage.Admin) {
		s, err := Open(filepath.Join(t.TempDir(), "gambit.db"), &Options{Clock: now, AIRatings: storetest.AIRatings})
		if err != nil {
			t.Fatal(err)
		}
		return s, nil
	}, rewriteTournament)
}

// rewriteTournament replaces the record of tournament id with record, in
// the current record format.
func rewriteTournament(t testing.TB, s storage.Admin, id storage.TournamentID, record []byte) (restore func()) {
	db := s.(*Store).db
	var old []byte
	put := func(data []byte) {
		if err := db.Update(func(tx *bbolt.Tx) error {
			b := tx.Bucket(bucketTournaments)
			if old == nil {
				old = bytes.Clone(b.Get([]byte(id)))
			}
			return b.Put([]byte(id), data)
		}); err != nil {
			t.Fatal(err)
		}
	}
	put(append([]byte{recordV1}, record...))
	return func() { put(old) }
}
