package aiqueue

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/storage"
)

// turnLog is a Player that plays each turn with a bot and keeps the
// turns it was given.
type turnLog struct {
	b     *bot.Bot
	mu    sync.Mutex
	turns []bot.AITurn
}

func (l *turnLog) PlayAI(ctx context.Context, t bot.AITurn) error {
	l.mu.Lock()
	l.turns = append(l.turns, t)
	l.mu.Unlock()
	return l.b.PlayAI(ctx, t)
}

// TestTwoAIsPlayTheirGameThroughTheQueue: a game whose two sides are AI
// strategies plays itself through River on PostgreSQL: the worker that
// plays a turn queues the next, for the same owner and within the
// game's move time, until the game ends by the rules, its board posted
// once in the channel.
func TestTwoAIsPlayTheirGameThroughTheQueue(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	g := versusGame(t, r)

	b, err := bot.New(bot.Config{
		Token: r.ds.Token(), REST: bot.RESTConfig{APIURL: r.ds.URL()}, Shards: bot.ShardConfig{Instance: "worker-b"}, AI: bot.AIConfig{Queue: r.queue()},
		Timers: bot.TimerConfig{ProgressInterval: time.Hour, TickInterval: time.Millisecond}, Logger: slog.New(slog.DiscardHandler),
	}, r.store)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.PrepareWorker(); err != nil {
		t.Fatal(err)
	}
	played := &turnLog{b: b}
	r.worker("worker-b", played)
	first := bot.AITurn{Game: g.ID, Ply: 0, Owner: "user:starter", Deadline: time.Now().Add(g.Settings.MoveTime), MoveTime: g.Settings.MoveTime, Queued: time.Now()}
	if err := r.queue().EnqueueAI(context.Background(), first); err != nil {
		t.Fatal(err)
	}
	end := waitEnd(t, r, g.ID)
	if end.Status != storage.StatusFinished || end.Result == nil || len(end.Moves) < 7 {
		t.Fatalf("the game ended %s with result %+v after %d moves; want finished by the rules", end.Status, end.Result, len(end.Moves))
	}
	played.mu.Lock()
	defer played.mu.Unlock()
	if len(played.turns) != len(end.Moves) {
		t.Errorf("%d turns worked for %d moves, want one each", len(played.turns), len(end.Moves))
	}
	for i, turn := range played.turns {
		if turn.Ply != i || turn.Owner != first.Owner || turn.MoveTime != g.Settings.MoveTime || turn.Deadline.After(turn.Queued.Add(turn.MoveTime)) {
			t.Errorf("turn %d: ply %d for %s, move time %v, searching until %v after its queueing; want ply %d for %s within %v",
				i, turn.Ply, turn.Owner, turn.MoveTime, turn.Deadline.Sub(turn.Queued), i, first.Owner, g.Settings.MoveTime)
		}
	}
	if msgs := r.ds.Messages(r.ds.ChannelID()); len(msgs) != 1 {
		t.Errorf("%d messages in the channel, want the board", len(msgs))
	}
}

// versusGame stores a new game of Connect Four between two AIs in the
// rig's channel, minimax moving first.
func versusGame(t *testing.T, r *rig) *storage.Game {
	t.Helper()
	g := *r.game
	g.ID, g.Version, g.Moves, g.Last = "", 0, nil, nil
	g.Players = []storage.Player{{ID: storage.AI("minimax"), Name: "minimax"}, {ID: storage.AI("mcts"), Name: "mcts"}}
	g.Turn = 0
	g.Settings.MoveTime, g.Settings.Casual = 50*time.Millisecond, true
	if err := r.store.CreateGame(context.Background(), &g, storage.Limits{}); err != nil {
		t.Fatal(err)
	}
	return &g
}

// waitEnd waits until game id has ended.
func waitEnd(t *testing.T, r *rig, id storage.GameID) *storage.Game {
	t.Helper()
	for guard := time.Now().Add(waitLimit); ; time.Sleep(10 * time.Millisecond) {
		g, err := r.store.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if !g.Status.Open() {
			return g
		}
		if time.Now().After(guard) {
			t.Fatalf("the game never ended: %d moves, %s", len(g.Moves), g.Status)
		}
	}
}
