package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// testCorruptOpenGameIsSkipped: one open game whose record no longer
// decodes is left out of OpenGames, CountOpen, AwaitingAI and DueGames and
// named in a *storage.SkippedError; every other open game is listed and
// counted. Before, the first bad record failed the whole listing: the
// boards of every game went unrefreshed at start, the open-games metrics
// stopped, and so did the resumption of AI turns and the deadlines.
func testCorruptOpenGameIsSkipped(t *testing.T, o Opener, rewrite Rewriter) {
	ctx := context.Background()
	s, clk := openTest(t, o)
	// The bad game awaits the AI and is past its deadline, as are one
	// good game each.
	bad := UserVsAI(storage.Kind("tictactoe"), "alice")
	bad.Turn, bad.Deadline = 1, clk.Now().Add(-time.Minute)
	MustCreate(t, s, bad)
	challenge := UserVsUser(storage.Kind("connect4"), "bob", "carol")
	challenge.Status, challenge.Deadline = storage.StatusPending, clk.Now().Add(-time.Minute)
	MustCreate(t, s, challenge)
	good := UserVsAI(storage.Kind("connect4"), "dave")
	good.Turn = 1
	MustCreate(t, s, good)
	restore := rewrite(t, s.Admin, bad.ID, []byte(`{"version": "x"}`))
	names := func(what string, err error) {
		t.Helper()
		var skipped *storage.SkippedError
		if !errors.As(err, &skipped) || !errors.Is(err, storage.ErrCorrupt) || len(skipped.Games) != 1 || skipped.Games[0].ID != bad.ID {
			t.Errorf("%s: %v; want a *storage.SkippedError naming game %s alone", what, err, bad.ID)
		}
	}

	all, err := s.OpenGames(ctx, storage.Shards{}, nil)
	names("OpenGames", err)
	if want := []storage.GameID{challenge.ID, good.ID}; !slices.Equal(IDs(all), want) {
		t.Errorf("OpenGames with a corrupt record listed %v, want the others: %v", IDs(all), want)
	}
	mine, err := s.OpenGames(ctx, storage.Shards{}, func(g *storage.Game) bool { return g.Players[0].ID == storage.User("dave") })
	names("OpenGames with a filter", err)
	if want := []storage.GameID{good.ID}; !slices.Equal(IDs(mine), want) {
		t.Errorf("OpenGames of dave with a corrupt record elsewhere listed %v, want %v", IDs(mine), want)
	}
	// A store may count from columns beside the records, without reading
	// the bad one; one that reads it must skip it and say so.
	pending, active, err := s.CountOpen(ctx)
	if err != nil {
		names("CountOpen", err)
	}
	if wantActive := map[bool]int{true: 1, false: 2}[err != nil]; pending != 1 || active != wantActive {
		t.Errorf("CountOpen with a corrupt record = %d pending, %d active, %v; want 1, %d", pending, active, err, wantActive)
	}

	ai, err := s.AwaitingAI(ctx, storage.Shards{})
	names("AwaitingAI", err)
	if want := []storage.GameID{good.ID}; !slices.Equal(IDs(ai), want) {
		t.Errorf("AwaitingAI with a corrupt record listed %v, want the others: %v", IDs(ai), want)
	}
	due, err := s.DueGames(ctx, storage.Shards{})
	names("DueGames", err)
	if want := []storage.GameID{challenge.ID}; !slices.Equal(IDs(due), want) {
		t.Errorf("DueGames with a corrupt record listed %v, want the others: %v", IDs(due), want)
	}

	restore()
	if all, err := s.OpenGames(ctx, storage.Shards{}, nil); err != nil || len(all) != 3 {
		t.Errorf("OpenGames once the record is restored: %v, %v; want the 3 open games", IDs(all), err)
	}
}
