package bolt

import (
	"context"
	"errors"
	"testing"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

func TestRankKeyOrdersRatings(t *testing.T) {
	ratings := []float64{3000, 1500.5, 1500, 12, 0, -0.5, -400}
	for i := 1; i < len(ratings); i++ {
		hi := rankKey(storage.Rating{Player: "user:a", Rating: ratings[i-1]})
		lo := rankKey(storage.Rating{Player: "user:a", Rating: ratings[i]})
		if string(hi) >= string(lo) {
			t.Fatalf("rank key of %v does not sort before that of %v", ratings[i-1], ratings[i])
		}
	}
	a := rankKey(storage.Rating{Player: "user:a", Rating: 1500})
	b := rankKey(storage.Rating{Player: "user:b", Rating: 1500})
	if string(a) >= string(b) {
		t.Fatal("equal ratings are not ordered by player id")
	}
}

func TestCorruptRatingIsNamed(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	storetest.Play(t, s, storage.Kind("tictactoe"), storage.User("alice"), storage.AI("minimax"), 0)
	l := storage.Global(storage.Kind("tictactoe"))
	if err := s.db.Update(func(tx *bbolt.Tx) error {
		b, _ := ladderBucket(tx, bucketRatings, l, false)
		data := append([]byte{recordV1}, `{"player":"user:alice","rating":"oops"}`...)
		return b.Put([]byte("user:alice"), data)
	}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Rank(ctx, l, storage.User("alice"), 0)
	var re *storage.RecordError
	if !errors.As(err, &re) || re.Bucket != "ratings/tictactoe" || re.Key != "user:alice" || !errors.Is(err, storage.ErrCorrupt) {
		t.Fatalf("corrupt rating: %v, want a RecordError naming ratings/tictactoe user:alice", err)
	}
	problems, _ := s.Check(ctx)
	if len(problems) == 0 {
		t.Fatal("Check found nothing wrong with a corrupt rating")
	}
	// Leave a healthy file for the cleanup check.
	if err := s.db.Update(func(tx *bbolt.Tx) error {
		b, _ := ladderBucket(tx, bucketRatings, l, false)
		return b.Delete([]byte("user:alice"))
	}); err != nil {
		t.Fatal(err)
	}
}
