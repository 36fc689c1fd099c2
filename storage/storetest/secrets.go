package storetest

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/gambitbot/gambit/storage"
)

// testSecrets checks Secret: the first call makes a secret of
// SecretSize bytes, every later one — after a restart too — returns it,
// another name has its own, and an empty name is refused.
func testSecrets(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	key, err := s.Secret(ctx, storage.DailyKey)
	if err != nil || len(key) != storage.SecretSize || bytes.Equal(key, make([]byte, storage.SecretSize)) {
		t.Fatalf("the first daily key: %x, %v; want %d random bytes", key, err, storage.SecretSize)
	}
	if again, err := s.Secret(ctx, storage.DailyKey); err != nil || !bytes.Equal(again, key) {
		t.Errorf("the daily key asked again: %x, %v; want %x", again, err, key)
	}
	other, err := s.Secret(ctx, "other")
	if err != nil || bytes.Equal(other, key) {
		t.Errorf("another secret: %x, %v; want its own", other, err)
	}
	if _, err := s.Secret(ctx, ""); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a secret without a name: %v, want ErrInvalid", err)
	}
	s.Admin = s.reopen()
	if again, err := s.Secret(ctx, storage.DailyKey); err != nil || !bytes.Equal(again, key) {
		t.Errorf("the daily key after a restart: %x, %v; want %x", again, err, key)
	}
}

// testRacingFirstSecrets asks a new store for its daily key from many
// goroutines at once, as processes starting together would: every one
// gets the same key.
func testRacingFirstSecrets(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	const n = 12
	keys := make([][]byte, n)
	errs := make([]error, n)
	begin := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-begin
			keys[i], errs[i] = s.Secret(ctx, storage.DailyKey)
		})
	}
	close(begin)
	wg.Wait()
	for i := range n {
		if errs[i] != nil || !bytes.Equal(keys[i], keys[0]) || len(keys[i]) != storage.SecretSize {
			t.Errorf("caller %d got %x, %v; caller 0 got %x", i, keys[i], errs[i], keys[0])
		}
	}
}
