package storetest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// claim claims key for owner or fails the test, returning whether owner
// holds it.
func claim(t *testing.T, s storage.Store, key, owner string, ttl time.Duration) bool {
	t.Helper()
	ok, err := s.Claim(context.Background(), key, owner, ttl)
	if err != nil {
		t.Fatalf("Claim(%s, %s): %v", key, owner, err)
	}
	return ok
}

// claims lists the live claims under prefix or fails the test.
func claims(t *testing.T, s storage.Store, prefix string) map[string]string {
	t.Helper()
	m, err := s.Claims(context.Background(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func testClaimsExpire(t *testing.T, o Opener) {
	s, clk := openTest(t, o)
	ctx := context.Background()
	const key = "ai/abc"
	if !claim(t, s, key, "p1", 10*time.Second) {
		t.Fatal("a free key was not taken")
	}
	if claim(t, s, key, "p2", 10*time.Second) {
		t.Fatal("a held key was taken by another owner")
	}
	clk.Advance(8 * time.Second)
	if !claim(t, s, key, "p1", 10*time.Second) {
		t.Fatal("the holder could not renew its claim")
	}
	clk.Advance(8 * time.Second) // 16 s after the first claim, 8 s after the renewal
	if claim(t, s, key, "p2", 10*time.Second) {
		t.Fatal("a renewed claim was taken before its new expiry")
	}
	if got, want := claims(t, s, "ai/"), map[string]string{key: "p1"}; !maps.Equal(got, want) {
		t.Fatalf("Claims = %v, want %v", got, want)
	}
	clk.Advance(2 * time.Second) // exactly at the expiry
	if got := claims(t, s, "ai/"); len(got) != 0 {
		t.Fatalf("Claims lists an expired claim: %v", got)
	}
	if !claim(t, s, key, "p2", 10*time.Second) {
		t.Fatal("an expired claim could not be taken")
	}
	if claim(t, s, key, "p1", 10*time.Second) {
		t.Fatal("the former holder took back a claim it had lost")
	}

	// Release by another owner changes nothing; by the holder it frees
	// the key at once.
	if err := s.Release(ctx, key, "p1"); err != nil {
		t.Fatal(err)
	}
	if claim(t, s, key, "p3", time.Second) {
		t.Fatal("a release by a non-holder freed the claim")
	}
	if err := s.Release(ctx, key, "p2"); err != nil {
		t.Fatal(err)
	}
	if !claim(t, s, key, "p3", time.Second) {
		t.Fatal("a released claim could not be taken")
	}
	if err := s.Release(ctx, "never/claimed", "p1"); err != nil {
		t.Fatalf("releasing a key nobody claimed: %v", err)
	}

	// Claims lists by prefix, and keys are independent of each other.
	claim(t, s, "shard/4/0", "p1", time.Minute)
	claim(t, s, "shard/4/1", "p2", time.Minute)
	claim(t, s, "shard/40/1", "p2", time.Minute)
	if got, want := claims(t, s, "shard/4/"), map[string]string{"shard/4/0": "p1", "shard/4/1": "p2"}; !maps.Equal(got, want) {
		t.Fatalf("Claims(shard/4/) = %v, want %v", got, want)
	}

	for _, bad := range []struct {
		key, owner string
		ttl        time.Duration
	}{{"", "p1", time.Second}, {"k", "", time.Second}, {"k", "p1", 0}} {
		if _, err := s.Claim(ctx, bad.key, bad.owner, bad.ttl); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("Claim(%q, %q, %v) = %v, want ErrInvalid", bad.key, bad.owner, bad.ttl, err)
		}
	}
}

func testRacingClaims(t *testing.T, o Opener) {
	s, _ := openTest(t, o)
	const racers = 8
	for round := range 5 {
		key := fmt.Sprintf("ai/g%d", round)
		var wg sync.WaitGroup
		won := make(chan string, racers)
		for i := range racers {
			wg.Go(func() {
				owner := fmt.Sprintf("p%d", i)
				ok, err := s.Claim(context.Background(), key, owner, time.Minute)
				if err != nil {
					t.Error(err)
				}
				if ok {
					won <- owner
				}
			})
		}
		wg.Wait()
		close(won)
		var winners []string
		for w := range won {
			winners = append(winners, w)
		}
		if len(winners) != 1 {
			t.Fatalf("round %d: %d owners took one claim: %v", round, len(winners), winners)
		}
		if got := claims(t, s, key); got[key] != winners[0] {
			t.Fatalf("round %d: the claim is held by %q, but %q won it", round, got[key], winners[0])
		}
	}
}

// testDeleteUserDropsTheirClaims: DeleteUser deletes the claims keyed to
// the user (a last key segment of their ID) and no others.
func testDeleteUserDropsTheirClaims(t *testing.T, o Opener) {
	s, _ := openTest(t, o)
	for _, key := range []string{"review/member/alice", "review/member/malice", "review/member/alice2", "ai/alice/1", "alice"} {
		if !claim(t, s, key, "p1", time.Hour) {
			t.Fatalf("a free key %s was not taken", key)
		}
	}
	if _, err := s.DeleteUser(context.Background(), "alice"); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"review/member/malice": "p1", "review/member/alice2": "p1", "ai/alice/1": "p1", "alice": "p1"}
	if got := claims(t, s, ""); !maps.Equal(got, want) {
		t.Fatalf("claims after DeleteUser(alice) = %v, want %v", got, want)
	}
}
