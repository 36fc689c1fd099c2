package postgres

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

// tournamentJobRow is a tournament's job as the database holds it.
type tournamentJobRow struct {
	Tournament storage.TournamentID
	At         time.Time
}

// tournamentJobs lists the tournaments' jobs, by tournament and time.
func tournamentJobs(t *testing.T, s *Store) []tournamentJobRow {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), `SELECT args->>'tournament', (args->>'at')::timestamptz
		FROM river_job WHERE kind = $1 AND queue = $2 ORDER BY args->>'tournament', (args->>'at')::timestamptz`, TournamentArgs{}.Kind(), TournamentQueue)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (j tournamentJobRow, err error) {
		err = r.Scan(&j.Tournament, &j.At)
		j.At = j.At.UTC()
		return j, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// swiss creates a Swiss of tic-tac-toe in s, starting at startAt (zero:
// when its creator starts it), with the members given.
func swiss(t *testing.T, s *Store, startAt time.Time, members ...string) *storage.Tournament {
	t.Helper()
	ctx := context.Background()
	tr := storetest.NewTournament(storage.FormatSwiss)
	tr.StartAt = startAt
	if err := s.CreateTournament(ctx, tr, storage.DefaultTournamentCaps); err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		var err error
		if tr, err = s.JoinTournament(ctx, tr.ID, storage.Entrant{Player: storage.Player{ID: storage.User(m), Name: m}}); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// TestTournamentChangesScheduleTheirAdvances: each change of a tournament
// that makes an advance due schedules its job in its transaction — the
// creation with a start time (at that time), the start (now) and an
// Arena's end, a board's game ending, a withdrawal and a player's
// deletion (now) — and the changes that make none due, or that are
// refused, schedule nothing.
func TestTournamentChangesScheduleTheirAdvances(t *testing.T) {
	t.Parallel()
	clk := storetest.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	s, _ := openTest(t, clk.Now)
	ctx := context.Background()

	startAt := clk.Now().Add(time.Hour)
	tr := swiss(t, s, startAt, "ann", "bob", "cid")
	want := []tournamentJobRow{{tr.ID, startAt}}
	if got := tournamentJobs(t, s); !slices.Equal(got, want) {
		t.Fatalf("after creating a Swiss with a start time and three joins, the jobs are %+v, want %+v", got, want)
	}
	var scheduled time.Time
	if err := s.pool.QueryRow(ctx, "SELECT scheduled_at FROM river_job WHERE kind = $1", TournamentArgs{}.Kind()).Scan(&scheduled); err != nil {
		t.Fatal(err)
	}
	if !scheduled.Equal(startAt) {
		t.Errorf("the start's job is scheduled at %v, want %v", scheduled, startAt)
	}
	if err := s.CreateTournament(ctx, storetest.NewTournament(storage.FormatSwiss), storage.TournamentCaps{MaxOpen: 1}); !errors.As(err, new(*storage.TournamentLimitError)) {
		t.Fatalf("a tournament over the cap: %v, want the cap's error", err)
	}
	later := swiss(t, s, time.Time{}, "ann")
	if got := tournamentJobs(t, s); !slices.Equal(got, want) {
		t.Fatalf("after a refused creation and one without a start time, the jobs are %+v, want %+v", got, want)
	}
	if _, err := s.SetTournamentStatus(ctx, later.ID, storage.TournamentRunning); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("starting with one player: %v, want ErrInvalid", err)
	}

	clk.Advance(time.Hour + time.Second)
	tr, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning)
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, tournamentJobRow{tr.ID, clk.Now()})
	if got := tournamentJobs(t, s); !slices.Equal(got, want) {
		t.Fatalf("after the start at its time, the jobs are %+v, want %+v (the refused start adds none)", got, want)
	}

	clk.Advance(time.Minute)
	r := storage.Round{Number: 1, Boards: []storage.Board{
		{White: storage.User("ann"), Black: storage.User("bob")}, {White: storage.User("cid")},
	}}
	game := &storage.Game{Kind: tr.Kind, Status: storage.StatusActive, GuildID: tr.GuildID, ChannelID: tr.ChannelID,
		Players: []storage.Player{{ID: storage.User("ann")}, {ID: storage.User("bob")}}, Settings: storage.Settings{MoveTime: time.Second, Tournament: tr.ID}}
	if tr, _, err = s.PairRound(ctx, tr.ID, tr.Version, r, []*storage.Game{game}); err != nil {
		t.Fatal(err)
	}
	want = append(want, tournamentJobRow{tr.ID, clk.Now().Add(storage.AnnounceGrace)}) // its pairings' announcement, if the pairing process stops first
	if got := tournamentJobs(t, s); !slices.Equal(got, want) {
		t.Fatalf("after the pairing, the jobs are %+v, want %+v", got, want)
	}
	g, err := s.Game(ctx, tr.Rounds[0].Boards[0].Game)
	if err != nil {
		t.Fatal(err)
	}
	stale := *g
	g.Moves = []string{"a"}
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	stale.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, &stale, storage.Result{Winner: 0}); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("ending the game at an old version: %v, want ErrConflict", err)
	}
	if got := tournamentJobs(t, s); !slices.Equal(got, want) {
		t.Fatalf("after a move and a refused end, the jobs are %+v, want %+v", got, want)
	}
	g.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: 0}); err != nil {
		t.Fatal(err)
	}
	want = append(want, tournamentJobRow{tr.ID, clk.Now()})
	if got := tournamentJobs(t, s); !slices.Equal(got, want) {
		t.Fatalf("after the board's game ended, the jobs are %+v, want %+v", got, want)
	}
	if _, _, err := s.RecordTournamentResult(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	if _, err := s.LeaveTournament(ctx, tr.ID, storage.User("cid")); err != nil {
		t.Fatal(err)
	}
	want = append(want, tournamentJobRow{tr.ID, clk.Now()})
	if got := tournamentJobs(t, s); !slices.Equal(got, want) {
		t.Fatalf("after the result and a withdrawal, the jobs are %+v, want %+v", got, want)
	}
	clk.Advance(time.Minute)
	if _, err := s.DeleteUser(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	want = append(want, tournamentJobRow{tr.ID, clk.Now()})
	if got := tournamentJobs(t, s); !slices.Equal(got, want) {
		t.Fatalf("after a player's data was deleted, the jobs are %+v, want %+v", got, want)
	}

	arena := storetest.NewTournament(storage.FormatArena)
	arena.GuildID = "g2"
	if err := s.CreateTournament(ctx, arena, storage.DefaultTournamentCaps); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"ann", "bob"} {
		if _, err := s.JoinTournament(ctx, arena.ID, storage.Entrant{Player: storage.Player{ID: storage.User(m), Name: m}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.SetTournamentStatus(ctx, arena.ID, storage.TournamentRunning); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetTournamentStatus(ctx, arena.ID, storage.TournamentPaused); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	if _, err := s.SetTournamentStatus(ctx, arena.ID, storage.TournamentRunning); err != nil {
		t.Fatal(err)
	}
	end := clk.Now().Add(arena.Duration - time.Minute)
	want = append(want, tournamentJobRow{arena.ID, clk.Now().Add(-time.Minute)}, tournamentJobRow{arena.ID, clk.Now()}, tournamentJobRow{arena.ID, end})
	if got := tournamentJobs(t, s); !slices.Equal(got, want) {
		t.Fatalf("after an Arena's start, pause and resumption, the jobs are %+v, want %+v (its end once)", got, want)
	}
}

// TestANoShowsReturnSchedulesAnAdvance: a no-show who joins a running
// tournament again is one more player to pair: the join schedules an
// advance now, as a withdrawal does.
func TestANoShowsReturnSchedulesAnAdvance(t *testing.T) {
	t.Parallel()
	clk := storetest.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	s, _ := openTest(t, clk.Now)
	ctx := context.Background()
	tr, err := s.SetTournamentStatus(ctx, swiss(t, s, time.Time{}, "ann", "bob", "cid").ID, storage.TournamentRunning)
	if err != nil {
		t.Fatal(err)
	}
	r := storage.Round{Number: 1, Boards: []storage.Board{{White: storage.User("ann"), Black: storage.User("bob")}, {White: storage.User("cid")}}}
	game := &storage.Game{Kind: tr.Kind, Status: storage.StatusActive, GuildID: tr.GuildID, ChannelID: tr.ChannelID,
		Players: []storage.Player{{ID: storage.User("ann")}, {ID: storage.User("bob")}}, Settings: storage.Settings{MoveTime: time.Second, Tournament: tr.ID}}
	if tr, _, err = s.PairRound(ctx, tr.ID, tr.Version, r, []*storage.Game{game}); err != nil {
		t.Fatal(err)
	}
	g, err := s.Game(ctx, tr.Rounds[0].Boards[0].Game)
	if err != nil {
		t.Fatal(err)
	}
	g.Status = storage.StatusForfeited // ann never moved
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: 1, Outcome: storage.TimedOut}); err != nil {
		t.Fatal(err)
	}
	if tr, _, err = s.RecordTournamentResult(ctx, g.ID); err != nil || tr.Entered(storage.User("ann")) {
		t.Fatalf("the no-show's result: %v (still entered: %v)", err, err == nil && tr.Entered(storage.User("ann")))
	}
	clk.Advance(time.Minute)
	before := tournamentJobs(t, s)
	if _, err := s.JoinTournament(ctx, tr.ID, storage.Entrant{Player: storage.Player{ID: storage.User("ann"), Name: "ann"}}); err != nil {
		t.Fatal(err)
	}
	if got, want := tournamentJobs(t, s), append(before, tournamentJobRow{tr.ID, clk.Now()}); !slices.Equal(got, want) {
		t.Errorf("after the no-show joined again, the jobs are %+v, want %+v", got, want)
	}
}

// TestScheduleTournamentsFillsTheGaps: ScheduleTournaments schedules, for
// the open tournaments of the shards given that have none — written
// before their advances were jobs — an announced one's start and a
// running one's advance now, and nothing the second time.
func TestScheduleTournamentsFillsTheGaps(t *testing.T) {
	t.Parallel()
	clk := storetest.NewClock(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	s, _ := openTest(t, clk.Now)
	ctx := context.Background()
	announced := swiss(t, s, clk.Now().Add(time.Hour), "ann")
	running := swiss(t, s, time.Time{}, "ann", "bob")
	if _, err := s.SetTournamentStatus(ctx, running.ID, storage.TournamentRunning); err != nil {
		t.Fatal(err)
	}
	elsewhere := storetest.NewTournament(storage.FormatSwiss)
	elsewhere.GuildID, elsewhere.StartAt = "4194304", clk.Now().Add(time.Hour) // shard 1 of 2
	if err := s.CreateTournament(ctx, elsewhere, storage.DefaultTournamentCaps); err != nil {
		t.Fatal(err)
	}
	// As if written by a build that had no tournament jobs.
	if _, err := s.pool.Exec(ctx, "DELETE FROM river_job"); err != nil {
		t.Fatal(err)
	}
	n, err := s.ScheduleTournaments(ctx, storage.Shards{Count: 2, IDs: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	want := []tournamentJobRow{{announced.ID, announced.StartAt}, {running.ID, clk.Now()}}
	if got := tournamentJobs(t, s); n != 2 || !slices.Equal(got, want) {
		t.Fatalf("scheduled %d: the jobs are %+v, want %+v", n, got, want)
	}
	clk.Advance(time.Second)
	if n, err := s.ScheduleTournaments(ctx, storage.Shards{Count: 2, IDs: []int{0}}); err != nil || n != 0 {
		t.Errorf("the second time, scheduled %d (%v), want none: the running one's advance waits", n, err)
	}
}
