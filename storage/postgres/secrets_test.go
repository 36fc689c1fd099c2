package postgres

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
)

// TestReplicasStartingTogetherShareOneKey: four processes open a new
// database at once, each asking for the daily key as a first start does:
// all four get the same one, and a fifth started later does too.
func TestReplicasStartingTogetherShareOneKey(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	ctx := context.Background()
	const n = 4
	keys := make([][]byte, n)
	errs := make([]error, n)
	begin := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		s, err := Open(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		wg.Go(func() {
			<-begin
			keys[i], errs[i] = s.Secret(ctx, storage.DailyKey)
		})
	}
	close(begin)
	wg.Wait()
	later, err := Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer later.Close()
	want, err := later.Secret(ctx, storage.DailyKey)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if errs[i] != nil || !bytes.Equal(keys[i], want) {
			t.Errorf("process %d got the key %x, %v; the later one %x", i, keys[i], errs[i], want)
		}
	}
}
