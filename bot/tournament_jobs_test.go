package bot_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/storage"
)

// tournamentJobSpy is a bot.TournamentJobs that records the shards it is
// asked to schedule.
type tournamentJobSpy struct{ asked chan storage.Shards }

func (s *tournamentJobSpy) ScheduleTournaments(_ context.Context, shards storage.Shards) (int, error) {
	s.asked <- shards
	return 0, nil
}

// tickCounter is a store that counts the timers' ticks (each looks for
// the due games) and their lists of the open tournaments.
type tickCounter struct {
	storage.Store
	ticks, listed atomic.Int64
	ticked        chan struct{} // receives on each tick, if ready
}

func (c *tickCounter) DueGames(ctx context.Context, shards storage.Shards) ([]*storage.Game, error) {
	c.ticks.Add(1)
	select {
	case c.ticked <- struct{}{}:
	default:
	}
	return c.Store.DueGames(ctx, shards)
}

func (c *tickCounter) OpenTournaments(ctx context.Context, shards storage.Shards) ([]*storage.Tournament, error) {
	c.listed.Add(1)
	return c.Store.OpenTournaments(ctx, shards)
}

// TestTournamentJobsReplaceTheTimers: a bot whose tournaments are jobs of
// a shared queue schedules, at start, the jobs missing for the
// tournaments of its shards, and its timers no longer poll them: a
// tournament past its start time waits for its job, which starts it.
func TestTournamentJobsReplaceTheTimers(t *testing.T) {
	t.Parallel()
	spy := &tournamentJobSpy{asked: make(chan storage.Shards, 8)}
	jobs := withConfig(func(c *bot.Config) { c.Games.Tournaments = spy })
	h := start(t, withClock(), jobs)
	select {
	case got := <-spy.asked:
		if got.Count != 1 || !slices.Equal(got.IDs, []int{0}) {
			t.Errorf("scheduled the tournaments of shards %+v, want shard 0 of 1", got)
		}
	case <-time.After(waitTimeout()):
		t.Fatal("the tournaments' jobs were not scheduled at start")
	}
	ctx := context.Background()
	tr := &storage.Tournament{GuildID: h.srv.GuildID(), ChannelID: h.srv.ChannelID(), Creator: storage.User(h.srv.AddUser("alice").ID),
		Name: "Friday", Format: storage.FormatSwiss, SwissRounds: 1, Kind: "tictactoe", MoveTime: time.Minute, StartAt: h.clock.Now().Add(time.Minute)}
	if err := h.store.CreateTournament(ctx, tr, storage.DefaultTournamentCaps); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"alice", "bob"} {
		if _, err := h.store.JoinTournament(ctx, tr.ID, storage.Entrant{Player: storage.Player{ID: storage.User(h.srv.AddUser(name).ID), Name: name}}); err != nil {
			t.Fatal(err)
		}
	}
	h.clock.Advance(time.Minute)
	stored := func() *storage.Tournament {
		t.Helper()
		got, err := h.store.Tournament(ctx, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	counter := &tickCounter{ticked: make(chan struct{})}
	h.another(func(c *bot.Config) { c.Games.Tournaments = spy }, func(s storage.Store) storage.Store { counter.Store = s; return counter })
	for guard := time.After(waitTimeout()); counter.ticks.Load() < 3; {
		select {
		case <-guard:
			t.Fatal("the timers did not tick")
		case <-spy.asked: // the other bot's start
		case <-counter.ticked:
		}
	}
	if n := counter.listed.Load(); n != 0 {
		t.Errorf("the timers listed the open tournaments %d times in %d ticks, want never", n, counter.ticks.Load())
	}
	if got := stored(); got.Status != storage.TournamentAnnounced {
		t.Fatalf("after the ticks the tournament is %v, want announced: its job starts it", got.Status)
	}

	if err := h.bot.AdvanceTournament(ctx, tr.ID, tr.StartAt.Add(time.Second)); !errors.Is(err, bot.ErrNotDue) {
		t.Errorf("a job due a second from now: %v, want ErrNotDue", err)
	}
	if err := h.bot.AdvanceTournament(ctx, tr.ID, tr.StartAt); err != nil {
		t.Fatal(err)
	}
	if got := stored(); got.Status != storage.TournamentRunning || len(got.Rounds) != 1 {
		t.Fatalf("after its job the tournament is %v with %d rounds, want running, round 1 paired", got.Status, len(got.Rounds))
	}
	if err := h.bot.AdvanceTournament(ctx, "99999999", tr.StartAt); err != nil {
		t.Errorf("the job of a tournament that is gone: %v, want nothing to do", err)
	}
}
