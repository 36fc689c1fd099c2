package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/gambitbot/gambit/storage"
)

// sameJSON reports whether a and b are the same JSON value (PostgreSQL's
// jsonb does not keep the spacing).
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// testReviews checks an ended duel's review: none at first; kept, it
// reads back after a restart at its version and at later ones (a rematch
// claim), not at an earlier one; a new one replaces it; a review of an
// open game, a solo puzzle, a missing game, a version the game has not
// reached or of data that is not JSON is refused.
func testReviews(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	g := finished(t, s)
	if _, err := s.Review(ctx, g.ID, g.Version); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("review before any: %v, want ErrNotFound", err)
	}
	data := json.RawMessage(`{"moves":[{"move":"5","label":0}]}`)
	if err := s.PutReview(ctx, &storage.Review{Game: g.ID, Version: g.Version, Data: data}); err != nil {
		t.Fatal(err)
	}
	if err := s.ClaimRematch(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	s.Admin = s.reopen()
	for _, v := range []uint64{g.Version, g.Version + 1} {
		r, err := s.Review(ctx, g.ID, v)
		if err != nil || r.Game != g.ID || r.Version != g.Version || !sameJSON(r.Data, data) || r.CreatedAt.IsZero() {
			t.Fatalf("review at version %d after a restart: %+v, %v; want the one kept", v, r, err)
		}
	}
	if _, err := s.Review(ctx, g.ID, g.Version-1); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("review at a version before it was made: %v, want ErrNotFound", err)
	}
	newer := json.RawMessage(`{"moves":[]}`)
	if err := s.PutReview(ctx, &storage.Review{Game: g.ID, Version: g.Version + 1, Data: newer}); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Review(ctx, g.ID, g.Version+1); err != nil || !sameJSON(r.Data, newer) || r.Version != g.Version+1 {
		t.Errorf("the replaced review: %+v, %v", r, err)
	}

	open := MustCreate(t, s, UserVsUser("connect4", "carol", "dan"))
	for name, c := range map[string]struct {
		r    storage.Review
		want error
	}{
		"an open game":          {storage.Review{Game: open.ID, Version: open.Version, Data: data}, storage.ErrInvalid},
		"a version to come":     {storage.Review{Game: g.ID, Version: g.Version + 2, Data: data}, storage.ErrInvalid},
		"no game":               {storage.Review{Game: "nosuchgame", Version: 1, Data: data}, storage.ErrNotFound},
		"data that is not JSON": {storage.Review{Game: g.ID, Version: g.Version, Data: json.RawMessage(`{`)}, storage.ErrInvalid},
		"version 0":             {storage.Review{Game: g.ID, Data: data}, storage.ErrInvalid},
	} {
		if err := s.PutReview(ctx, &c.r); !errors.Is(err, c.want) {
			t.Errorf("review of %s: %v, want %v", name, err, c.want)
		}
	}
	puzzle := MustCreate(t, s, &storage.Game{Kind: "8puzzle", Status: storage.StatusActive, Players: []storage.Player{{ID: storage.User("erin")}}})
	puzzle.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, puzzle, storage.Result{Winner: 0, MovesUsed: 3}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutReview(ctx, &storage.Review{Game: puzzle.ID, Version: puzzle.Version, Data: data}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("review of a solved puzzle: %v, want ErrInvalid", err)
	}
}
