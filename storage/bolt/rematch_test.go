package bolt

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gambitbot/gambit/storage"
)

// finished creates a game and finishes it, for rematch claims.
func finished(t *testing.T, s *Store) *storage.Game {
	t.Helper()
	g := mustCreate(t, s, userVsUser(storage.Kind("tictactoe"), "alice", "bob"))
	g.Status = storage.StatusFinished
	if _, err := s.FinishGame(context.Background(), g, storage.Result{Winner: 0, Reason: "resigned"}); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestClaimRematchOnce checks that a rematch is claimed once, that a
// release lets it be claimed again, and that only ended games take a
// claim.
func TestClaimRematchOnce(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	g := finished(t, s)
	if err := s.ClaimRematch(ctx, g.ID); err != nil {
		t.Fatalf("first claim: %v", err)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil || !got.Rematched || got.Version != g.Version+1 {
		t.Fatalf("after the claim: %+v (%v), want rematched at version %d", got, err, g.Version+1)
	}
	if err := s.ClaimRematch(ctx, g.ID); !errors.Is(err, storage.ErrRematchTaken) {
		t.Fatalf("second claim: %v, want ErrRematchTaken", err)
	}
	if err := s.ReleaseRematch(ctx, g.ID); err != nil {
		t.Fatalf("release: %v", err)
	}
	if err := s.ReleaseRematch(ctx, g.ID); err != nil {
		t.Fatalf("releasing an unclaimed game: %v", err)
	}
	if got, _ := s.Game(ctx, g.ID); got.Rematched || got.Version != g.Version+2 {
		t.Fatalf("after the release: %+v, want unclaimed at version %d", got, g.Version+2)
	}
	if err := s.ClaimRematch(ctx, g.ID); err != nil {
		t.Fatalf("claim after a release: %v", err)
	}

	open := mustCreate(t, s, userVsUser(storage.Kind("tictactoe"), "alice", "bob"))
	if err := s.ClaimRematch(ctx, open.ID); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("claiming an active game: %v, want ErrInvalid", err)
	}
	if err := s.ClaimRematch(ctx, "zzzzzzzz"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("claiming a missing game: %v, want ErrNotFound", err)
	}
}

// TestRacingRematchClaims claims one game's rematch from many goroutines
// at once: exactly one wins.
func TestRacingRematchClaims(t *testing.T) {
	s, _ := openTest(t)
	g := finished(t, s)
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = s.ClaimRematch(context.Background(), g.ID) })
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, storage.ErrRematchTaken):
			t.Errorf("a racing claim failed with %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d of %d racing claims won, want 1", won, n)
	}
}

// TestRematchClaimSurvivesReopening checks that a claim is durable: the
// store opened again refuses a second one.
func TestRematchClaimSurvivesReopening(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gambit.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := finished(t, s)
	if err := s.ClaimRematch(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path, nil); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.ClaimRematch(ctx, g.ID); !errors.Is(err, storage.ErrRematchTaken) {
		t.Fatalf("a claim after reopening: %v, want ErrRematchTaken", err)
	}
	if problems, err := s.Check(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("check: %v %v", problems, err)
	}
}
