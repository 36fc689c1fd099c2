package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// testTournamentPauseStopsClocks: a pause stops the clock of each game
// under way of the tournament in the transaction that pauses it — no
// deadline, so no due game and no deadline's job, the time left kept,
// the version bumped — and a resume gives the time left back from the
// resume; a game whose turn ran out before the pause keeps its
// deadline; a cancel of a paused tournament restarts its clocks.
func testTournamentPauseStopsClocks(t *testing.T, o Opener) {
	s, clk := openTest(t, o)
	ctx := context.Background()
	tr := startedTournament(t, s, storage.FormatArena, "alice", "bob", "carol", "dave")
	tr = pair(t, s, tr, storage.Board{White: storage.User("alice"), Black: storage.User("bob")},
		storage.Board{White: storage.User("carol"), Black: storage.User("dave")})
	live, late := mustGame(t, s, tr.Rounds[0].Boards[0].Game), mustGame(t, s, tr.Rounds[0].Boards[1].Game)
	live.Deadline = clk.Now().Add(time.Minute)
	late.Deadline = clk.Now().Add(10 * time.Second)
	for _, g := range []*storage.Game{live, late} {
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	clk.Advance(20 * time.Second) // late's turn has run out, not yet ended

	if _, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentPaused); err != nil {
		t.Fatal(err)
	}
	paused := mustGame(t, s, live.ID)
	if !paused.Paused || !paused.Deadline.IsZero() || paused.TurnLeft != 40*time.Second || paused.Version != live.Version+1 || paused.AwaitingAI() {
		t.Fatalf("the paused game: paused %v, deadline %v, %v left, version %d (was %d); want paused, no deadline, 40s left, a new version",
			paused.Paused, paused.Deadline, paused.TurnLeft, paused.Version, live.Version)
	}
	if g := mustGame(t, s, late.ID); g.Paused || !g.Deadline.Equal(late.Deadline) {
		t.Errorf("the game out of time at the pause: paused %v, deadline %v; want its deadline %v kept", g.Paused, g.Deadline, late.Deadline)
	}
	clk.Advance(time.Hour)
	due, err := s.DueGames(ctx, storage.Shards{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range due {
		if g.ID == live.ID {
			t.Errorf("the paused game is due an hour later: %+v", g)
		}
	}
	paused.Deadline = clk.Now() // nobody writes a paused game's clock but the tournament
	if err := s.UpdateGame(ctx, paused); err == nil {
		t.Error("a paused game took a deadline")
	}

	if _, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning); err != nil {
		t.Fatal(err)
	}
	resumed := mustGame(t, s, live.ID)
	if resumed.Paused || resumed.TurnLeft != 0 || !resumed.Deadline.Equal(clk.Now().Add(40*time.Second)) {
		t.Errorf("the resumed game: paused %v, %v left, deadline %v; want its 40s from now, %v", resumed.Paused, resumed.TurnLeft, resumed.Deadline, clk.Now().Add(40*time.Second))
	}

	if _, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentPaused); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour)
	if _, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentCancelled); err != nil {
		t.Fatal(err)
	}
	if g := mustGame(t, s, live.ID); g.Paused || !g.Deadline.Equal(clk.Now().Add(40*time.Second)) {
		t.Errorf("the game of the cancelled paused tournament: paused %v, deadline %v; want its clock running again", g.Paused, g.Deadline)
	}
}

// mustGame loads game id.
func mustGame(tb testing.TB, s storage.Store, id storage.GameID) *storage.Game {
	tb.Helper()
	g, err := s.Game(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}
