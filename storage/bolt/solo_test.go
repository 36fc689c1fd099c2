package bolt

import (
	"context"
	"strings"
	"testing"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

func TestCheckFindsSolvedIndexDamage(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	g := storetest.MustCreate(t, s, storetest.Puzzle(storage.Kind("tictactoe"), "alice"))
	g.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, g, storage.Result{MovesUsed: 1}); err != nil {
		t.Fatal(err)
	}
	key := append(solvedPrefix(storage.User("alice"), storage.Kind("tictactoe")), g.ID...)
	for _, tc := range []struct {
		damage func(*bbolt.Bucket) error
		want   string
	}{
		{func(b *bbolt.Bucket) error { return b.Delete(key) }, "index idx_solved: missing entry"},
		{func(b *bbolt.Bucket) error {
			if err := b.Put(key, nil); err != nil {
				return err
			}
			return b.Put(append(solvedPrefix(storage.User("bob"), storage.Kind("tictactoe")), g.ID...), nil)
		}, "index idx_solved: stray entry"},
	} {
		if err := s.db.Update(func(tx *bbolt.Tx) error { return tc.damage(tx.Bucket(bucketSolved)) }); err != nil {
			t.Fatal(err)
		}
		problems, err := s.Check(ctx)
		if err != nil || len(problems) != 1 || !strings.HasPrefix(problems[0], tc.want) {
			t.Fatalf("Check = %q, %v; want one problem %q", problems, err, tc.want)
		}
	}
	// Repair, for the Check at the end of the test.
	if err := s.db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketSolved).Delete(append(solvedPrefix(storage.User("bob"), storage.Kind("tictactoe")), g.ID...))
	}); err != nil {
		t.Fatal(err)
	}
}
