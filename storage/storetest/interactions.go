package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// deliver records interaction id or fails the test, returning whether it
// was the first delivery.
func deliver(t *testing.T, s storage.Store, id string, ttl time.Duration) bool {
	t.Helper()
	first, err := s.FirstDelivery(context.Background(), id, ttl)
	if err != nil {
		t.Fatalf("FirstDelivery(%s): %v", id, err)
	}
	return first
}

// testInteractionsActOnce: an interaction is first delivered once until
// its record expires by the store's clock, then it may be again; IDs are
// independent; the record survives reopening; bad arguments are refused.
func testInteractionsActOnce(t *testing.T, o Opener) {
	s, clk := openTest(t, o)
	const ttl = 20 * time.Minute
	if !deliver(t, s, "1300000000000000001", ttl) {
		t.Fatal("a new interaction was not a first delivery")
	}
	if deliver(t, s, "1300000000000000001", ttl) {
		t.Fatal("an interaction was a first delivery twice")
	}
	if !deliver(t, s, "1300000000000000002", ttl) {
		t.Fatal("another interaction was not a first delivery")
	}
	s.Admin = s.reopen()
	clk.Advance(ttl - time.Second)
	if deliver(t, s, "1300000000000000001", ttl) {
		t.Fatal("an interaction was a first delivery again after reopening, before its record expired")
	}
	clk.Advance(time.Second) // exactly at the expiry
	if !deliver(t, s, "1300000000000000001", ttl) {
		t.Fatal("an interaction whose record expired was not taken as new")
	}
	if deliver(t, s, "1300000000000000001", ttl) {
		t.Fatal("the record taken over after its expiry does not hold")
	}
	ctx := context.Background()
	for _, bad := range []struct {
		id  string
		ttl time.Duration
	}{{"", ttl}, {"1", 0}, {"1", -time.Second}, {strings.Repeat("1", 201), ttl}, {"1\x002", ttl}} {
		if _, err := s.FirstDelivery(ctx, bad.id, bad.ttl); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("FirstDelivery(%q, %v) = %v, want ErrInvalid", bad.id, bad.ttl, err)
		}
	}
}

// testRacingDeliveries delivers one interaction from many goroutines at
// once, round after round: exactly one is the first delivery.
func testRacingDeliveries(t *testing.T, o Opener) {
	s, _ := openTest(t, o)
	const racers = 8
	for round := range 5 {
		id := fmt.Sprintf("14000000000000000%02d", round)
		var wg sync.WaitGroup
		var firsts atomic.Int32
		for range racers {
			wg.Go(func() {
				first, err := s.FirstDelivery(context.Background(), id, time.Minute)
				if err != nil {
					t.Error(err)
				}
				if first {
					firsts.Add(1)
				}
			})
		}
		wg.Wait()
		if n := firsts.Load(); n != 1 {
			t.Fatalf("round %d: %d of %d deliveries of one interaction were first, want exactly 1", round, n, racers)
		}
	}
}

// testExpiredDeliveriesAreSwept: the records of interactions that expired
// are deleted as new ones are recorded, so the store keeps about those of
// the last time to live, however many came before.
func testExpiredDeliveriesAreSwept(t *testing.T, o Opener) {
	s, clk := openTest(t, o)
	const ttl, old, live = time.Minute, 300, 100
	for i := range old {
		deliver(t, s, fmt.Sprintf("15%017d", i), ttl)
	}
	clk.Advance(ttl)
	for i := range live {
		if !deliver(t, s, fmt.Sprintf("16%017d", i), ttl) {
			t.Fatalf("interaction %d of the new ones was not a first delivery", i)
		}
	}
	// Every new record took up to 8 expired ones away: 300 expired
	// records are gone after 38 deliveries of the 100.
	st, err := s.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := st.Keys["interactions"]; n != live {
		t.Errorf("%d interaction records kept, want the %d live ones: the %d expired ones are not swept", n, live, old)
	}
}
