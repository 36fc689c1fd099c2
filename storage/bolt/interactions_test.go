package bolt

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

// TestDamagedInteractionRecord: a record of the interactions bucket whose
// value is not an 8-byte expiry is reported by Check, and taken as
// expired by FirstDelivery, which replaces it: a damaged record of an
// interaction blocks nobody.
func TestDamagedInteractionRecord(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	if err := s.db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketInteractions).Put([]byte("1300000000000000001"), []byte("bad"))
	}); err != nil {
		t.Fatal(err)
	}
	problems, err := s.Check(ctx)
	if err != nil || len(problems) != 1 || !strings.Contains(problems[0], `interactions/"1300000000000000001"`) {
		t.Fatalf("Check = %q, %v; want the damaged record named", problems, err)
	}
	if first, err := s.FirstDelivery(ctx, "1300000000000000001", time.Minute); !first || err != nil {
		t.Fatalf("FirstDelivery over a damaged record = %v, %v; want a first delivery", first, err)
	}
	if first, err := s.FirstDelivery(ctx, "1300000000000000001", time.Minute); first || err != nil {
		t.Fatalf("FirstDelivery again = %v, %v; want a duplicate", first, err)
	}
}
