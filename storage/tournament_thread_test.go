package storage

import (
	"testing"
	"time"
)

// TestIntoThreadMovesOnlyUnpostedOpenGames: a round's thread takes the
// open games whose board was not posted; a posted board and an ended
// game stay where they are, and a moved game is a new version.
func TestIntoThreadMovesOnlyUnpostedOpenGames(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	open := Game{ID: "g1", Kind: "tictactoe", Status: StatusActive, Version: 3, ChannelID: "c1", GuildID: "g",
		Players: []Player{{ID: User("a")}, {ID: User("b")}}, CreatedAt: now}
	moved, ok, err := IntoThread(&open, "t1", now.Add(time.Second))
	if err != nil || !ok || moved.ChannelID != "t1" || moved.Version != 4 || !moved.UpdatedAt.Equal(now.Add(time.Second)) {
		t.Errorf("an open game without a board: %+v, %v, %v", moved, ok, err)
	}
	posted := open
	posted.MessageID = "m1"
	ended := open
	ended.Status, ended.Result = StatusFinished, &Result{Winner: 0}
	for name, g := range map[string]Game{"posted": posted, "ended": ended} {
		if _, ok, err := IntoThread(&g, "t1", now); ok || err != nil {
			t.Errorf("a %s game moved: %v, %v", name, ok, err)
		}
	}
}

// TestTournamentBoardsChoices: the default and threads make threads,
// channel does not, and nothing else is a place.
func TestTournamentBoardsChoices(t *testing.T) {
	for _, c := range []struct {
		b              TournamentBoards
		valid, threads bool
	}{
		{TournamentBoardsDefault, true, true},
		{TournamentBoardsThreads, true, true},
		{TournamentBoardsChannel, true, false},
		{"forum", false, true},
	} {
		if c.b.Valid() != c.valid || c.valid && c.b.Threads() != c.threads {
			t.Errorf("%q: valid %v, threads %v", c.b, c.b.Valid(), c.b.Threads())
		}
	}
	if err := (GuildSettings{TournamentBoards: "forum"}).Validate(); err == nil {
		t.Error("an unknown place validated")
	}
}
