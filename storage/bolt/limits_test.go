package bolt

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/gambitbot/gambit/storage"
)

// createLimited creates g within limits and returns the *LimitError it
// was refused with, or nil if it was created; any other error fails the
// test.
func createLimited(t *testing.T, s *Store, g *storage.Game, limits storage.Limits) *storage.LimitError {
	t.Helper()
	err := s.CreateGame(context.Background(), g, limits)
	var le *storage.LimitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &le) && errors.Is(err, storage.ErrLimit):
		if g.ID != "" {
			t.Errorf("a refused game was given id %s", g.ID)
		}
		return le
	}
	t.Fatalf("create game: %v", err)
	return nil
}

func challengeOf(a, b string) *storage.Game {
	g := userVsUser(storage.Kind("tictactoe"), a, b)
	g.Status = storage.StatusPending
	return g
}

func openCount(t *testing.T, s *Store, user string) int {
	t.Helper()
	open, err := s.ActiveGames(context.Background(), storage.User(user))
	if err != nil {
		t.Fatal(err)
	}
	return len(open)
}

func TestCreateGameLimits(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	limits := storage.Limits{MaxOpen: 3, MaxChallenges: 2}
	want := func(what string, got *storage.LimitError, limit storage.Limit, count, max int) {
		t.Helper()
		if got == nil || got.Limit != limit || got.Count != count || got.Max != max || got.Player != storage.User("alice") {
			t.Errorf("%s: refused with %+v, want alice's %s at %d of %d", what, got, limit, count, max)
		}
	}

	// Two waiting challenges are alice's most; a third is refused, an AI
	// game is not.
	for _, opp := range []string{"bob", "carol"} {
		if le := createLimited(t, s, challengeOf("alice", opp), limits); le != nil {
			t.Fatalf("challenge to %s: %v", opp, le)
		}
	}
	want("a third challenge", createLimited(t, s, challengeOf("alice", "bob"), limits), storage.LimitChallenges, 2, 2)
	if le := createLimited(t, s, userVsAI(storage.Kind("tictactoe"), "alice"), limits); le != nil {
		t.Fatalf("an AI game with 2 of 3 open: %v", le)
	}
	// Three open games are her most, whatever the new game is; the open cap
	// is named first.
	want("a fourth AI game", createLimited(t, s, userVsAI(storage.Kind("connect4"), "alice"), limits), storage.LimitOpen, 3, 3)
	want("a fourth game as a challenge", createLimited(t, s, challengeOf("alice", "dave"), limits), storage.LimitOpen, 3, 3)
	if n := openCount(t, s, "alice"); n != 3 {
		t.Errorf("alice has %d open games after the refusals, want 3", n)
	}

	// Only the challenger is counted: bob, challenged by alice, may start
	// games, and dave may challenge alice although she is at her cap.
	if le := createLimited(t, s, userVsAI(storage.Kind("tictactoe"), "bob"), limits); le != nil {
		t.Errorf("bob's game: %v", le)
	}
	if le := createLimited(t, s, challengeOf("dave", "alice"), limits); le != nil {
		t.Errorf("dave's challenge to alice: %v", le)
	}
	// That challenge counts among alice's open games, not her challenges.
	want("alice's game with a challenge to her open", createLimited(t, s, userVsAI(storage.Kind("tictactoe"), "alice"), limits), storage.LimitOpen, 4, 3)

	// Games that end free their places.
	open, err := s.ActiveGames(ctx, storage.User("alice"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range open[:2] { // her two challenges
		g.Status = storage.StatusDeclined
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if le := createLimited(t, s, challengeOf("alice", "erin"), limits); le != nil {
		t.Errorf("a challenge once two ended: %v", le)
	}

	// Zero limits are no caps.
	for range 5 {
		if le := createLimited(t, s, userVsAI(storage.Kind("tictactoe"), "alice"), storage.Limits{}); le != nil {
			t.Fatalf("a game without limits: %v", le)
		}
	}
}

// TestConcurrentCreateGameKeepsCaps races many creations by one member on
// a real database file: exactly as many as the cap allows are stored.
func TestConcurrentCreateGameKeepsCaps(t *testing.T) {
	s, _ := openTest(t)
	limits := storage.Limits{MaxOpen: 10, MaxChallenges: 3}
	race := func(n int, game func(i int) *storage.Game) (created, refused int) {
		t.Helper()
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			start = make(chan struct{})
		)
		for i := range n {
			g := game(i)
			wg.Go(func() {
				<-start
				err := s.CreateGame(context.Background(), g, limits)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					created++
				case errors.Is(err, storage.ErrLimit):
					refused++
				default:
					t.Errorf("create game: %v", err)
				}
			})
		}
		close(start)
		wg.Wait()
		return created, refused
	}

	// Challenges from alice to many members: 3 may wait at once.
	if c, r := race(20, func(int) *storage.Game { return challengeOf("alice", "bob") }); c != 3 || r != 17 {
		t.Errorf("20 concurrent challenges with a cap of 3: %d created, %d refused", c, r)
	}
	// AI games fill her open games up to 10, the challenges included.
	if c, r := race(40, func(int) *storage.Game { return userVsAI(storage.Kind("tictactoe"), "alice") }); c != 7 || r != 33 {
		t.Errorf("40 concurrent AI games with 3 of 10 open: %d created, %d refused", c, r)
	}
	if n := openCount(t, s, "alice"); n != 10 {
		t.Errorf("alice has %d open games, want the cap of 10", n)
	}
}
