package bolt

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// puzzle returns a new solo game of user. The kind is a duel's: storage
// knows a puzzle by its one player, not by its kind.
func puzzle(kind storage.Kind, user string) *storage.Game {
	return &storage.Game{
		Kind:     kind,
		Status:   storage.StatusActive,
		Players:  []storage.Player{{ID: storage.User(user), Name: user}},
		Start:    "X.O.X.O..",
		Position: "X.O.X.O..",
		GuildID:  "g1", ChannelID: "c1", MessageID: "m1",
	}
}

// ratingKeys counts the keys under the ratings and rank buckets.
func ratingKeys(t *testing.T, s *Store) int {
	t.Helper()
	n := 0
	if err := s.db.View(func(tx *bbolt.Tx) error {
		for _, root := range [][]byte{bucketRatings, bucketRank} {
			if err := tx.Bucket(root).ForEachBucket(func(name []byte) error {
				n += tx.Bucket(root).Bucket(name).Stats().KeyN
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSoloPuzzleFromStartToSolved(t *testing.T) {
	ctx := context.Background()
	s, clk := openTest(t)
	alice := storage.User("alice")
	g := mustCreate(t, s, puzzle(storage.Kind("tictactoe"), "alice"))
	if active, err := s.ActiveGames(ctx, alice); err != nil || !slices.Equal(ids(active), []storage.GameID{g.ID}) {
		t.Fatalf("active games: %v, %v", ids(active), err)
	}
	if pending, active, err := s.CountOpen(ctx); err != nil || pending != 0 || active != 1 {
		t.Fatalf("CountOpen = %d, %d, %v; want 0, 1", pending, active, err)
	}

	for i, m := range []string{"2", "4"} {
		clk.advance(time.Minute)
		g.Moves = append(g.Moves, m)
		g.Last = &storage.LastMove{Move: m}
		g.Turn = g.Next(g.Turn)
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
	}
	if g.Turn != 0 || g.Version != 3 {
		t.Fatalf("after two moves: turn %d version %d, want 0 and 3", g.Turn, g.Version)
	}
	if due, err := s.DueGames(ctx); err != nil || len(due) != 0 {
		t.Fatalf("due games: %v, %v", ids(due), err)
	}

	g.Status = storage.StatusFinished
	changes, err := s.FinishGame(ctx, g, storage.Result{Winner: 0, Reason: "solved", MovesUsed: 2, Optimal: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 0 || ratingKeys(t, s) != 0 {
		t.Fatalf("a solved puzzle was rated: %d changes, %d rating keys", len(changes), ratingKeys(t, s))
	}
	if _, err := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), alice, 1); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("rank after a puzzle: %v, want ErrNotFound", err)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Solved() || got.Result.MovesUsed != 2 || got.Result.Optimal != 2 || got.Start != "X.O.X.O.." || len(got.Players) != 1 {
		t.Fatalf("loaded %+v with result %+v", got, got.Result)
	}
	if active, err := s.ActiveGames(ctx, alice); err != nil || len(active) != 0 {
		t.Fatalf("active games after solving: %v, %v", ids(active), err)
	}
	if h, err := s.History(ctx, alice, 10); err != nil || !slices.Equal(ids(h), []storage.GameID{g.ID}) {
		t.Fatalf("history: %v, %v", ids(h), err)
	}
	if solved, err := s.Solved(ctx, alice, storage.Kind("tictactoe"), 10); err != nil || !slices.Equal(ids(solved), []storage.GameID{g.ID}) {
		t.Fatalf("solved tictactoe puzzles: %v, %v", ids(solved), err)
	}
	if solved, err := s.Solved(ctx, alice, storage.Kind("connect4"), 10); err != nil || len(solved) != 0 {
		t.Fatalf("solved connect4 puzzles: %v, %v", ids(solved), err)
	}
}

func TestAbandonedPuzzleIsHistoryButNotSolved(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	alice := storage.User("alice")
	solved := mustCreate(t, s, puzzle(storage.Kind("connect4"), "alice"))
	solved.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, solved, storage.Result{Winner: 0, MovesUsed: 9}); err != nil {
		t.Fatal(err)
	}
	g := mustCreate(t, s, puzzle(storage.Kind("connect4"), "alice"))
	g.Moves = []string{"4"}
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	// A gave-up puzzle finished as if solved is refused.
	g.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: storage.Nobody, Reason: "gave up"}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("finishing a puzzle with winner Nobody: %v, want ErrInvalid", err)
	}
	g.Status = storage.StatusForfeited
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: 0, Reason: "timeout"}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("forfeiting a puzzle: %v, want ErrInvalid", err)
	}
	g.Status = storage.StatusAbandoned
	changes, err := s.FinishGame(ctx, g, storage.Result{Winner: storage.Nobody, Reason: "gave up", MovesUsed: 1})
	if err != nil || len(changes) != 0 {
		t.Fatalf("abandoning: %v changes, %v", changes, err)
	}
	if err := s.UpdateGame(ctx, g); !errors.Is(err, storage.ErrGameOver) {
		t.Fatalf("a move after abandoning: %v, want ErrGameOver", err)
	}
	if h, err := s.History(ctx, alice, 10); err != nil || !slices.Equal(ids(h), []storage.GameID{g.ID, solved.ID}) {
		t.Fatalf("history: %v, %v; want the abandoned and the solved puzzle", ids(h), err)
	}
	if list, err := s.Solved(ctx, alice, storage.Kind("connect4"), 10); err != nil || !slices.Equal(ids(list), []storage.GameID{solved.ID}) {
		t.Fatalf("solved puzzles: %v, %v; want only %s", ids(list), err, solved.ID)
	}
	if ratingKeys(t, s) != 0 {
		t.Fatal("an abandoned puzzle was rated")
	}
}

func TestSolvedListsNewestFirstWithLimit(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	var want []storage.GameID
	for range 3 {
		g := mustCreate(t, s, puzzle(storage.Kind("tictactoe"), "alice"))
		g.Status = storage.StatusFinished
		if _, err := s.FinishGame(ctx, g, storage.Result{MovesUsed: 3}); err != nil {
			t.Fatal(err)
		}
		want = append([]storage.GameID{g.ID}, want...)
	}
	// Another player's solution is not alice's.
	bob := mustCreate(t, s, puzzle(storage.Kind("tictactoe"), "bob"))
	bob.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, bob, storage.Result{MovesUsed: 3}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Solved(ctx, storage.User("alice"), storage.Kind("tictactoe"), 2)
	if err != nil || !slices.Equal(ids(got), want[:2]) {
		t.Fatalf("Solved(limit 2) = %v, %v; want %v", ids(got), err, want[:2])
	}
}

func TestPuzzleRulesInTheStore(t *testing.T) {
	ctx := context.Background()
	s, clk := openTest(t)
	for name, g := range map[string]*storage.Game{
		"a challenge": func() *storage.Game {
			g := puzzle(storage.Kind("tictactoe"), "alice")
			g.Status = storage.StatusPending
			return g
		}(),
		"a deadline": func() *storage.Game {
			g := puzzle(storage.Kind("tictactoe"), "alice")
			g.Deadline = clk.now().Add(time.Hour)
			return g
		}(),
		"an AI player": {Kind: storage.Kind("tictactoe"), Status: storage.StatusActive, Players: []storage.Player{{ID: storage.AI("minimax")}}},
		"no player":    {Kind: storage.Kind("tictactoe"), Status: storage.StatusActive},
		"three players": func() *storage.Game {
			g := userVsUser(storage.Kind("tictactoe"), "alice", "bob")
			g.Players = append(g.Players, storage.Player{ID: storage.User("carol")})
			return g
		}(),
	} {
		if err := s.CreateGame(ctx, g, storage.Limits{}); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("creating a puzzle with %s: %v, want ErrInvalid", name, err)
		}
	}
	// A puzzle counts against its player's open games like a duel.
	mustCreate(t, s, puzzle(storage.Kind("tictactoe"), "alice"))
	if err := s.CreateGame(ctx, puzzle(storage.Kind("tictactoe"), "alice"), storage.Limits{MaxOpen: 1}); !errors.Is(err, storage.ErrLimit) {
		t.Fatalf("a second puzzle over a cap of 1: %v, want ErrLimit", err)
	}
	// A duel cannot become a puzzle, nor a puzzle a duel.
	g := mustCreate(t, s, userVsAI(storage.Kind("tictactoe"), "bob"))
	g.Players = g.Players[:1]
	if err := s.UpdateGame(ctx, g); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("dropping a duel's second player: %v, want ErrInvalid", err)
	}
	// A duel cannot be abandoned.
	g, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	g.Status = storage.StatusAbandoned
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: storage.Nobody}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("abandoning a duel: %v, want ErrInvalid", err)
	}
}

func TestDeleteUserAnonymisesPuzzles(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	open := mustCreate(t, s, puzzle(storage.Kind("tictactoe"), "alice"))
	solved := mustCreate(t, s, puzzle(storage.Kind("tictactoe"), "alice"))
	solved.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, solved, storage.Result{MovesUsed: 4}); err != nil {
		t.Fatal(err)
	}
	rep, err := s.DeleteUser(ctx, "alice")
	if err != nil || len(rep.Removed) != 1 || rep.Removed[0].ID != open.ID || rep.Anonymised != 1 {
		t.Fatalf("DeleteUser = %+v, %v", rep, err)
	}
	g, err := s.Game(ctx, solved.ID)
	if err != nil || g.Players[0].ID != storage.Anonymous || !g.Solved() {
		t.Fatalf("the solved puzzle after deletion: %+v, %v", g, err)
	}
	if list, err := s.Solved(ctx, storage.User("alice"), storage.Kind("tictactoe"), 0); err != nil || len(list) != 0 {
		t.Fatalf("alice's solved puzzles after deletion: %v, %v", ids(list), err)
	}
	// Check (at the end of the test) finds no stray solved-puzzle entry.
}

func TestCheckFindsSolvedIndexDamage(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	g := mustCreate(t, s, puzzle(storage.Kind("tictactoe"), "alice"))
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
