package bolt

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// play finishes a new game between a and b in guild g1 with the given winner.
func play(t testing.TB, s *Store, kind storage.Kind, a, b storage.PlayerID, winner int) []storage.RatingChange {
	t.Helper()
	ctx := context.Background()
	g := &storage.Game{Kind: kind, Status: storage.StatusActive, GuildID: "g1",
		Players: []storage.Player{{ID: a}, {ID: b}}}
	mustCreate(t, s, g)
	g.Status = storage.StatusFinished
	changes, err := s.FinishGame(ctx, g, storage.Result{Winner: winner})
	if err != nil {
		t.Fatal(err)
	}
	return changes
}

func TestFinishRatesBothLadders(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	alice, bot := storage.User("alice"), storage.AI("minimax")
	changes := play(t, s, storage.Kind("connect4"), alice, bot, 0)
	if len(changes) != 4 {
		t.Fatalf("%d rating changes, want 4 (2 players × global and guild ladders)", len(changes))
	}
	for _, c := range changes {
		won := c.After.Player == alice
		if won != (c.After.Rating > 1500) || c.After.Games != 1 || c.Before.Games != 0 {
			t.Fatalf("change in %s: %+v → %+v", c.Ladder, c.Before, c.After)
		}
	}
	for _, l := range []storage.Ladder{storage.Global(storage.Kind("connect4")), {Kind: storage.Kind("connect4"), Guild: "g1"}} {
		v, err := s.Rank(ctx, l, alice, 1)
		if err != nil {
			t.Fatal(err)
		}
		if v.Player.Rating.Wins != 1 || !v.Player.Rating.Provisional() || v.Player.Rank != 0 {
			t.Fatalf("alice in %s: %+v, want one provisional win", l, v.Player)
		}
	}
	if _, err := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), alice, 1); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("rank in an unplayed ladder: %v, want ErrNotFound", err)
	}
	if top, err := s.Leaderboard(ctx, storage.Global(storage.Kind("connect4")), 10); err != nil || len(top) != 0 {
		t.Fatalf("leaderboard with only provisional ratings: %v, %v", top, err)
	}
}

// TestLeaderboardAndRank settles a small ladder: players who beat the AI
// more often rank higher, provisional players stay off the board.
func TestLeaderboardAndRank(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	kind := storage.Kind("adjacency")
	l := storage.Global(kind)
	bot := storage.AI("minimax")
	// Player p<i> beats the bot in i of every 5 games, 25 games each, so the
	// ratings settle in the order p4 > p3 > p2 > p1 > p0.
	for round := range 25 {
		for i := range 5 {
			winner := 1
			if round%5 < i {
				winner = 0
			}
			play(t, s, kind, storage.User(fmt.Sprintf("p%d", i)), bot, winner)
		}
	}
	newcomer := storage.User("newcomer")
	play(t, s, kind, newcomer, bot, 0)

	top, err := s.Leaderboard(ctx, l, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(top) != 3 || top[0].Rank != 1 || top[2].Rank != 3 || top[0].Rating.Player != storage.User("p4") {
		t.Fatalf("top 3: %+v", top)
	}
	all, _ := s.Leaderboard(ctx, l, 100)
	// p1…p4 and the bot. Not the newcomer, nor p0: losing every game to a
	// much stronger opponent says little, so p0's deviation stays above 110.
	if len(all) != 5 {
		t.Fatalf("leaderboard has %d entries, want 5", len(all))
	}
	for i := 1; i < len(all); i++ {
		if all[i].Rating.Rating > all[i-1].Rating.Rating || all[i].Rank != i+1 {
			t.Fatalf("leaderboard out of order at %d: %+v", i, all)
		}
	}
	for i, st := range all {
		if st.Rating.Player == newcomer || st.Rating.Provisional() {
			t.Fatalf("provisional rating on the leaderboard: %+v", st)
		}
		v, err := s.Rank(ctx, l, st.Rating.Player, 2)
		if err != nil {
			t.Fatal(err)
		}
		if v.Player.Rank != i+1 {
			t.Fatalf("%s ranks %d, leaderboard says %d", st.Rating.Player, v.Player.Rank, i+1)
		}
		wantAbove, wantBelow := min(i, 2), min(len(all)-i-1, 2)
		if len(v.Above) != wantAbove || len(v.Below) != wantBelow {
			t.Fatalf("%s has %d above and %d below, want %d and %d", st.Rating.Player, len(v.Above), len(v.Below), wantAbove, wantBelow)
		}
		for j, n := range v.Above {
			if n != all[i-wantAbove+j] {
				t.Fatalf("neighbour above %d of %s: %+v, want %+v", j, st.Rating.Player, n, all[i-wantAbove+j])
			}
		}
		for j, n := range v.Below {
			if n != all[i+1+j] {
				t.Fatalf("neighbour below %d of %s: %+v, want %+v", j, st.Rating.Player, n, all[i+1+j])
			}
		}
	}
	v, _ := s.Rank(ctx, l, newcomer, 2)
	if v.Player.Rank != 0 || len(v.Above)+len(v.Below) != 0 || !v.Player.Rating.Provisional() {
		t.Fatalf("newcomer's view %+v: want provisional, unranked", v)
	}
}

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

func TestDeleteUser(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	alice, bob := storage.User("alice"), storage.User("bob")
	finished := mustCreate(t, s, userVsUser(storage.Kind("tictactoe"), "alice", "bob"))
	finished.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, finished, storage.Result{Winner: 0}); err != nil {
		t.Fatal(err)
	}
	open := mustCreate(t, s, userVsAI(storage.Kind("connect4"), "alice"))
	kept := mustCreate(t, s, userVsAI(storage.Kind("connect4"), "bob"))
	bobBefore, _ := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), bob, 0)

	rep, err := s.DeleteUser(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Removed) != 1 || rep.Removed[0].ID != open.ID || rep.Anonymised != 1 || rep.Ratings != 2 {
		t.Fatalf("report %+v: want the open game removed, 1 game anonymised, 2 ratings removed", rep)
	}
	if _, err := s.Game(ctx, open.ID); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("alice's open game still loads: %v", err)
	}
	g, err := s.Game(ctx, finished.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g.Players[0] != (storage.Player{ID: storage.Anonymous}) || g.Players[1].ID != bob || g.Version != finished.Version+1 {
		t.Fatalf("finished game after deletion: players %+v version %d", g.Players, g.Version)
	}
	if h, _ := s.History(ctx, bob, 0); len(h) != 1 || h[0].ID != finished.ID {
		t.Fatalf("bob lost the game from his history: %v", ids(h))
	}
	if h, _ := s.History(ctx, alice, 0); len(h) != 0 {
		t.Fatalf("alice still has history %v", ids(h))
	}
	if _, err := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), alice, 0); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("alice is still rated: %v", err)
	}
	bobAfter, _ := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), bob, 0)
	if bobAfter.Player.Rating != bobBefore.Player.Rating {
		t.Fatal("deleting alice changed bob's rating")
	}
	if _, err := s.Game(ctx, kept.ID); err != nil {
		t.Fatalf("bob's game went with alice: %v", err)
	}
}

// TestRatingsNeverCountTwice replays a stale FinishGame after a successful
// one: it fails and the ratings stay as they were.
func TestRatingsNeverCountTwice(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	g := mustCreate(t, s, userVsAI(storage.Kind("tictactoe"), "alice"))
	retry := *g
	g.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: 0}); err != nil {
		t.Fatal(err)
	}
	retry.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, &retry, storage.Result{Winner: 0}); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("replayed finish: %v, want ErrConflict", err)
	}
	v, _ := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), storage.User("alice"), 0)
	if v.Player.Rating.Games != 1 {
		t.Fatalf("alice has %d rated games, want 1", v.Player.Rating.Games)
	}
}

func TestCorruptRatingIsNamed(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	play(t, s, storage.Kind("tictactoe"), storage.User("alice"), storage.AI("minimax"), 0)
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
