package bot_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/storage"
)

// deadlineSpy is a bot.Deadlines that records the shards it is asked to
// schedule.
type deadlineSpy struct{ asked chan storage.Shards }

func (d *deadlineSpy) ScheduleDeadlines(_ context.Context, shards storage.Shards) (int, error) {
	d.asked <- shards
	return 0, nil
}

// TestDeadlineJobsAreScheduledAtStart: a bot whose deadlines are jobs of a
// shared queue schedules, at start, the jobs missing for the games of its
// shards — its safety net for games saved before their deadlines were
// jobs — and ends a game whose job runs, once its deadline passed.
func TestDeadlineJobsAreScheduledAtStart(t *testing.T) {
	t.Parallel()
	spy := &deadlineSpy{asked: make(chan storage.Shards, 8)}
	h := start(t, withClock(), withConfig(func(c *bot.Config) { c.Games.Deadlines = spy }))
	select {
	case got := <-spy.asked:
		if got.Count != 1 || !slices.Equal(got.IDs, []int{0}) {
			t.Errorf("scheduled the deadlines of shards %+v, want shard 0 of 1", got)
		}
	case <-time.After(waitTimeout()):
		t.Fatal("the deadlines were not scheduled at start")
	}
	g := &storage.Game{
		Kind: "connect4", Status: storage.StatusPending,
		Players: []storage.Player{{ID: storage.User(h.srv.AddUser("ann").ID)}, {ID: storage.User(h.srv.AddUser("bob").ID)}},
		GuildID: h.srv.GuildID(), ChannelID: h.srv.ChannelID(),
		Deadline: h.clock.Now().Add(time.Minute),
	}
	if err := h.store.CreateGame(context.Background(), g, storage.Limits{}); err != nil {
		t.Fatal(err)
	}
	if err := h.bot.EndDeadline(context.Background(), g.ID, g.Version); !errors.Is(err, bot.ErrNotDue) {
		t.Errorf("the job run before the deadline: %v, want ErrNotDue", err)
	}
	h.clock.Advance(time.Minute)
	if err := h.bot.EndDeadline(context.Background(), g.ID, g.Version); err != nil {
		t.Fatal(err)
	}
	if got, err := h.store.Game(context.Background(), g.ID); err != nil || got.Status != storage.StatusExpired {
		t.Errorf("after its job the challenge is %v (%v), want expired", got.Status, err)
	}
}
