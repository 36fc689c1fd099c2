package bolt

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// TestCancelledGamesLeaveEveryIndex cancels a pending challenge and an
// active game awaiting the AI: both leave the open, AI and deadline
// indexes, enter no history, change no rating, and stay cancelled.
func TestCancelledGamesLeaveEveryIndex(t *testing.T) {
	ctx := context.Background()
	s, clk := openTest(t)
	alice := storage.User("alice")

	challenge := userVsUser(storage.Kind("connect4"), "alice", "bob")
	challenge.Status = storage.StatusPending
	challenge.Deadline = clk.now().Add(5 * time.Minute)
	mustCreate(t, s, challenge)
	ai := userVsAI(storage.Kind("tictactoe"), "alice")
	ai.Turn = 1 // the AI to move
	mustCreate(t, s, ai)
	human := userVsUser(storage.Kind("tictactoe"), "alice", "bob")
	human.Deadline = clk.now().Add(time.Hour)
	mustCreate(t, s, human)
	if waiting, _ := s.AwaitingAI(ctx); !slices.Equal(ids(waiting), []storage.GameID{ai.ID}) {
		t.Fatalf("awaiting AI before cancelling: %v", ids(waiting))
	}

	clk.advance(time.Minute)
	for _, g := range []*storage.Game{challenge, ai, human} {
		before := g.Version
		g.Status = storage.StatusCancelled
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatalf("cancelling game %s: %v", g.ID, err)
		}
		if g.Version != before+1 || !g.Deadline.IsZero() || g.Result != nil || !g.UpdatedAt.Equal(clk.now()) {
			t.Fatalf("cancelled game %s: version %d (was %d), deadline %v, result %v", g.ID, g.Version, before, g.Deadline, g.Result)
		}
		got, err := s.Game(ctx, g.ID)
		if err != nil || got.Status != storage.StatusCancelled || got.Version != g.Version {
			t.Fatalf("stored game %s after cancelling: %+v, %v", g.ID, got, err)
		}
	}

	for _, p := range []storage.PlayerID{alice, storage.User("bob"), storage.AI("minimax")} {
		if open, err := s.ActiveGames(ctx, p); err != nil || len(open) != 0 {
			t.Errorf("open games of %s after cancelling: %v, %v", p, ids(open), err)
		}
		if hist, err := s.History(ctx, p, 0); err != nil || len(hist) != 0 {
			t.Errorf("history of %s after cancelling: %v, %v", p, ids(hist), err)
		}
		if _, err := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), p, 0); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("%s is rated after a cancelled game: %v", p, err)
		}
	}
	if waiting, _ := s.AwaitingAI(ctx); len(waiting) != 0 {
		t.Errorf("awaiting AI after cancelling: %v", ids(waiting))
	}
	clk.advance(2 * time.Hour)
	if due, _ := s.DueGames(ctx); len(due) != 0 {
		t.Errorf("due after cancelling: %v", ids(due))
	}
	if p, a, err := s.CountOpen(ctx); err != nil || p != 0 || a != 0 {
		t.Errorf("CountOpen after cancelling = %d, %d, %v; want none", p, a, err)
	}
	if st, err := s.Stats(ctx); err != nil || st.Games[storage.StatusCancelled] != 3 {
		t.Errorf("Stats counts %v cancelled games (%v), want 3", st.Games, err)
	}

	// Cancelled is final.
	ai.Status = storage.StatusActive
	if err := s.UpdateGame(ctx, ai); !errors.Is(err, storage.ErrGameOver) {
		t.Errorf("reviving a cancelled game: %v, want ErrGameOver", err)
	}
	ai.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, ai, storage.Result{Winner: 0}); !errors.Is(err, storage.ErrGameOver) {
		t.Errorf("finishing a cancelled game: %v, want ErrGameOver", err)
	}
	if rep, err := s.DeleteUser(ctx, "alice"); err != nil || len(rep.Removed) != 0 || rep.Anonymised != 0 {
		t.Errorf("deleting alice touched cancelled games: %+v, %v", rep, err)
	}
}

// TestOnlyOpenGamesCanBeCancelled checks the status rules around
// cancelling: FinishGame cannot cancel, ended games cannot be cancelled.
func TestOnlyOpenGamesCanBeCancelled(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	g := mustCreate(t, s, userVsAI(storage.Kind("tictactoe"), "alice"))
	g.Status = storage.StatusCancelled
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: 0}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("cancelling through FinishGame: %v, want ErrInvalid", err)
	}
	g.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: storage.Draw}); err != nil {
		t.Fatal(err)
	}
	g.Status = storage.StatusCancelled
	if err := s.UpdateGame(ctx, g); !errors.Is(err, storage.ErrGameOver) {
		t.Fatalf("cancelling a finished game: %v, want ErrGameOver", err)
	}
	if hist, _ := s.History(ctx, storage.User("alice"), 0); !slices.Equal(ids(hist), []storage.GameID{g.ID}) {
		t.Fatalf("history of alice %v, want the finished game", ids(hist))
	}
}

// TestOpenGames lists the pending and active games one filter keeps (here
// those of one guild), oldest first and each once, and no ended games.
func TestOpenGames(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	inGuild := func(g *storage.Game, guild string) *storage.Game {
		g.GuildID = guild
		return mustCreate(t, s, g)
	}
	challenge := userVsUser(storage.Kind("connect4"), "alice", "bob")
	challenge.Status = storage.StatusPending
	inGuild(challenge, "g1")
	human := inGuild(userVsUser(storage.Kind("tictactoe"), "alice", "bob"), "g1")
	inGuild(userVsAI(storage.Kind("tictactoe"), "carol"), "g2")
	ai := inGuild(userVsAI(storage.Kind("adjacency"), "carol"), "g1")
	finished := inGuild(userVsAI(storage.Kind("tictactoe"), "dave"), "g1")
	finished.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, finished, storage.Result{Winner: 1}); err != nil {
		t.Fatal(err)
	}
	// A prefix of a guild id is another guild.
	inGuild(userVsAI(storage.Kind("tictactoe"), "erin"), "g")

	inG1 := func(g *storage.Game) bool { return g.GuildID == "g1" }
	got, err := s.OpenGames(ctx, inG1)
	if err != nil {
		t.Fatal(err)
	}
	if want := []storage.GameID{challenge.ID, human.ID, ai.ID}; !slices.Equal(ids(got), want) {
		t.Fatalf("open games of g1 %v, want %v", ids(got), want)
	}
	if got[0].Status != storage.StatusPending || got[1].Version != human.Version {
		t.Fatalf("listed games are not the stored ones: %+v", got)
	}
	if got, err := s.OpenGames(ctx, func(g *storage.Game) bool { return g.GuildID == "g3" }); err != nil || len(got) != 0 {
		t.Fatalf("open games of a guild without games: %v, %v", ids(got), err)
	}
	if all, err := s.OpenGames(ctx, nil); err != nil || len(all) != 5 {
		t.Fatalf("all open games: %v, %v; want the 5 open ones", ids(all), err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.OpenGames(cctx, inG1); !errors.Is(err, context.Canceled) {
		t.Fatalf("with a cancelled context: %v", err)
	}

	human.Status = storage.StatusCancelled
	if err := s.UpdateGame(ctx, human); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.OpenGames(ctx, inG1); !slices.Equal(ids(got), []storage.GameID{challenge.ID, ai.ID}) {
		t.Fatalf("open games of g1 after cancelling one: %v", ids(got))
	}
}
