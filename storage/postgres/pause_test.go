package postgres

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

// TestAPauseSchedulesNoDeadline: a tournament's pause writes its game
// without a deadline, so no job of the paused version is scheduled (the
// job of the version before finds a newer version and ends nothing), nor
// does the safety net schedule one; the resume schedules the job of the
// time left, from the resume.
func TestAPauseSchedulesNoDeadline(t *testing.T) {
	t.Parallel()
	clk := storetest.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	s, _ := openTest(t, clk.Now)
	ctx := context.Background()
	tr := &storage.Tournament{GuildID: "1", ChannelID: "c1", Creator: storage.User("ann"), Format: storage.FormatArena,
		Duration: time.Hour, Kind: "tictactoe", MoveTime: time.Minute}
	if err := s.CreateTournament(ctx, tr, storage.DefaultTournamentCaps); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"ann", "bob"} {
		if _, err := s.JoinTournament(ctx, tr.ID, storage.Entrant{Player: storage.Player{ID: storage.User(p)}}); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning)
	if err != nil {
		t.Fatal(err)
	}
	board := storage.Board{White: tr.Entrants[0].Player.ID, Black: tr.Entrants[1].Player.ID}
	g := &storage.Game{Kind: "tictactoe", Status: storage.StatusActive, GuildID: "1", ChannelID: "c1", Position: ".........x",
		Players: []storage.Player{{ID: board.White}, {ID: board.Black}}, Deadline: clk.Now().Add(time.Minute),
		Settings: storage.Settings{Tournament: tr.ID, TurnTime: time.Minute}}
	if tr, _, err = s.PairRound(ctx, tr.ID, tr.Version, storage.Round{Number: 1, Boards: []storage.Board{board}}, []*storage.Game{g}); err != nil {
		t.Fatal(err)
	}
	id := tr.Rounds[0].Boards[0].Game
	want := []deadlineJobRow{{id, 1, clk.Now().Add(time.Minute), "scheduled"}}
	if got := deadlineJobs(t, s); !slices.Equal(got, want) {
		t.Fatalf("the round's game has the jobs %+v, want %+v", got, want)
	}
	clk.Advance(20 * time.Second)
	if _, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentPaused); err != nil {
		t.Fatal(err)
	}
	if got := deadlineJobs(t, s); !slices.Equal(got, want) {
		t.Errorf("after the pause the jobs are %+v, want only the old version's %+v", got, want)
	}
	if n, err := s.ScheduleDeadlines(ctx, storage.Shards{}); err != nil || n != 0 {
		t.Errorf("the safety net scheduled %d jobs (%v) for the paused game", n, err)
	}
	clk.Advance(time.Hour)
	if _, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning); err != nil {
		t.Fatal(err)
	}
	want = append(want, deadlineJobRow{id, 3, clk.Now().Add(40 * time.Second), "scheduled"})
	if got := deadlineJobs(t, s); !slices.Equal(got, want) {
		t.Errorf("after the resume the jobs are %+v, want %+v", got, want)
	}
}
