package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// OpenChallenge returns a new open challenge of kind by user: pending,
// with Anyone in seat 1 and a deadline an hour after now.
func OpenChallenge(kind storage.Kind, user string, now time.Time) *storage.Game {
	g := UserVsAI(kind, user)
	g.Status = storage.StatusPending
	g.Players[1] = storage.Player{ID: storage.Anyone}
	g.Deadline = now.Add(time.Hour)
	return g
}

// taken returns a copy of the open challenge g started for member.
func taken(g *storage.Game, member string) *storage.Game {
	cp := *g
	cp.Players = []storage.Player{g.Players[0], {ID: storage.User(member), Name: member}}
	cp.Status = storage.StatusActive
	cp.Position = "start"
	cp.Deadline = time.Time{}
	return &cp
}

// testRacingTakesOfAnOpenChallenge has many members accept one open
// challenge at once: exactly one gets the game, the others are told it
// was taken and keep no game from it.
func testRacingTakesOfAnOpenChallenge(t *testing.T, o Opener) {
	ctx := context.Background()
	s, clk := openTest(t, o)
	g := MustCreate(t, s, OpenChallenge(storage.Kind("tictactoe"), "alice", clk.Now()))
	const n = 12
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		mine := taken(g, fmt.Sprintf("member%d", i))
		wg.Go(func() {
			<-start
			errs[i] = s.TakeChallenge(ctx, mine, storage.Limits{MaxOpen: 3})
		})
	}
	close(start)
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Errorf("member%d and member%d both took the challenge", winner, i)
		case err == nil:
			winner = i
		case !errors.Is(err, storage.ErrTaken):
			t.Errorf("member%d's take failed with %v, want ErrTaken", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("nobody took the challenge")
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := storage.User(fmt.Sprintf("member%d", winner))
	if got.Status != storage.StatusActive || got.Players[1].ID != want || got.Version != g.Version+1 {
		t.Errorf("stored as %s v%d with %s in seat 1, want active v%d with %s", got.Status, got.Version, got.Players[1].ID, g.Version+1, want)
	}
	for i := range n {
		open := openCount(t, s, fmt.Sprintf("member%d", i))
		if wantOpen := map[bool]int{true: 1, false: 0}[i == winner]; open != wantOpen {
			t.Errorf("member%d has %d open games, want %d", i, open, wantOpen)
		}
	}
	if n := openCount(t, s, "alice"); n != 1 {
		t.Errorf("alice has %d open games, want the one taken", n)
	}
}

// testOpenChallengeRules checks what an open challenge may become and who
// may take it: not its challenger, not once it ended, not a member at
// their cap (leaving it open for others), and only through TakeChallenge;
// and that it survives a restart.
func testOpenChallengeRules(t *testing.T, o Opener) {
	ctx := context.Background()
	s, clk := openTest(t, o)
	kind := storage.Kind("tictactoe")
	create := func() *storage.Game { return MustCreate(t, s, OpenChallenge(kind, "alice", clk.Now())) }

	// Anyone sits only in seat 1, and only of a challenge never accepted.
	bad := OpenChallenge(kind, "alice", clk.Now())
	bad.Players[0], bad.Players[1] = bad.Players[1], bad.Players[0]
	if err := s.CreateGame(ctx, bad, storage.Limits{}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a challenge by anyone: %v, want ErrInvalid", err)
	}
	bad = OpenChallenge(kind, "alice", clk.Now())
	bad.Status, bad.Deadline = storage.StatusActive, time.Time{}
	if err := s.CreateGame(ctx, bad, storage.Limits{}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("an active game against anyone: %v, want ErrInvalid", err)
	}

	g := create()
	if open := openCount(t, s, "alice"); open != 1 {
		t.Errorf("alice has %d open games with her open challenge, want 1", open)
	}
	// Nobody declines an open challenge, and UpdateGame fills no seat.
	declined := *g
	declined.Status = storage.StatusDeclined
	if err := s.UpdateGame(ctx, &declined); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("declining an open challenge: %v, want ErrInvalid", err)
	}
	if err := s.UpdateGame(ctx, taken(g, "bob")); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("UpdateGame filling seat 1: %v, want ErrInvalid", err)
	}
	if err := s.TakeChallenge(ctx, taken(g, "alice"), storage.Limits{}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("alice taking her own challenge: %v, want ErrInvalid", err)
	}

	// bob at his cap is refused and the challenge stays open.
	MustCreate(t, s, UserVsAI(kind, "bob"))
	err := s.TakeChallenge(ctx, taken(g, "bob"), storage.Limits{MaxOpen: 1})
	var le *storage.LimitError
	if !errors.As(err, &le) || le.Player != storage.User("bob") || le.Limit != storage.LimitOpen || le.Count != 1 {
		t.Errorf("bob taking with 1 of 1 open: %v, want his open-games cap", err)
	}

	// A restart between the post and the take changes nothing.
	s.Admin = s.reopen()
	if got, err := s.Game(ctx, g.ID); err != nil || !got.OpenChallenge() || got.Version != g.Version {
		t.Fatalf("after bob's refusal and a restart: %+v, %v; want the challenge open, unchanged", got, err)
	}
	mine := taken(g, "carol")
	if err := s.TakeChallenge(ctx, mine, storage.Limits{MaxOpen: 1}); err != nil {
		t.Fatalf("carol's take after a restart: %v", err)
	}
	if !mine.Deadline.IsZero() || mine.Version != g.Version+1 || mine.Players[1].ID != storage.User("carol") {
		t.Errorf("the taken challenge is %+v", mine)
	}
	if err := s.TakeChallenge(ctx, taken(g, "dave"), storage.Limits{}); !errors.Is(err, storage.ErrTaken) {
		t.Errorf("dave taking it after carol: %v, want ErrTaken", err)
	}

	// An ended challenge cannot be taken: expired or withdrawn, it is over.
	for _, end := range []storage.Status{storage.StatusExpired, storage.StatusWithdrawn, storage.StatusCancelled} {
		g := create()
		g.Status = end
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatalf("%s: %v", end, err)
		}
		if err := s.TakeChallenge(ctx, taken(g, "erin"), storage.Limits{}); !errors.Is(err, storage.ErrGameOver) {
			t.Errorf("taking a %s open challenge: %v, want ErrGameOver", end, err)
		}
	}
	if open := openCount(t, s, "erin"); open != 0 {
		t.Errorf("erin has %d open games after taking only ended challenges", open)
	}
}
