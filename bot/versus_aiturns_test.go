package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

// aiVsAI stores a new active game of kind between the strategies a
// (seat 0, first to move) and b in the stand-in's channel, with no board
// yet: the first AI turn posts it.
func aiVsAI(t *testing.T, h *harness, kind storage.Kind, a, b string) *storage.Game {
	t.Helper()
	g := storetest.UserVsAI(kind, "x")
	g.Players = []storage.Player{{ID: storage.AI(a), Name: a}, {ID: storage.AI(b), Name: b}}
	g.Settings = storage.Settings{MoveTime: 50 * time.Millisecond, Casual: true}
	g.GuildID, g.ChannelID, g.MessageID = h.srv.GuildID(), h.srv.ChannelID(), ""
	gm, err := catalog.Lookup(string(kind))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := gm.Start(games.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g.Position = pos.String()
	return storetest.MustCreate(t, h.db(), g)
}

// turnHold holds the AI turn of one ply, of any game, as its worker
// claims it, until free: a test stops the bot with that turn under way,
// without a long move time a loaded machine could use up first.
type turnHold struct {
	storage.Store
	ply     string
	held    chan struct{} // closed once the turn is held
	release chan struct{}
}

func newTurnHold(ply string) *turnHold {
	return &turnHold{ply: ply, held: make(chan struct{}), release: make(chan struct{})}
}

func (s *turnHold) wrap(st storage.Store) storage.Store { s.Store = st; return s }

func (s *turnHold) Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if parts := strings.Split(key, "/"); len(parts) == 3 && parts[0] == "ai" && parts[2] == s.ply {
		select {
		case <-s.held:
		default:
			close(s.held)
		}
		<-s.release
	}
	return s.Store.Claim(ctx, key, owner, ttl)
}

// free lets the held turn go on, and later ones pass.
func (s *turnHold) free() {
	select {
	case <-s.release:
	default:
		close(s.release)
	}
}

// TestTwoAIsPlayTheirGameToItsEndAcrossARestart: a game whose two sides
// are AI strategies plays itself on this process's workers (bbolt), each
// turn queuing the next; the bot stopped with a turn under way finishes
// that one and parks the next in the store, and the next start resumes
// it and plays the game to its end, its board posted and showing the
// result.
func TestTwoAIsPlayTheirGameToItsEndAcrossARestart(t *testing.T) {
	t.Parallel()
	hold := newTurnHold("2")
	h := start(t, withStoreWrapped(hold.wrap))
	t.Cleanup(hold.free)
	h.stop()
	g := aiVsAI(t, h, "connect4", "minimax", "mcts")
	h.run() // the start's sweep queues the first turn; each turn queues the next
	select {
	case <-hold.held:
	case <-time.After(waitTimeout()):
		t.Fatalf("the third turn never started; game is %+v\nlogs:\n%s", h.game(g.ID), h.logs.String())
	}
	stopped := make(chan struct{})
	go func() { defer close(stopped); h.stop() }()
	for guard := time.Now().Add(waitTimeout()); !bot.AIStopped(h.bot); time.Sleep(time.Millisecond) {
		if time.Now().After(guard) {
			t.Fatal("the shutdown never stopped the AI workers")
		}
	}
	hold.free()
	<-stopped
	if parked := h.game(g.ID); len(parked.Moves) != 3 || !parked.AwaitingAI() {
		t.Fatalf("after the stop the turn under way should be played and the next parked: %d moves, status %s, awaiting the AI %v",
			len(parked.Moves), parked.Status, parked.AwaitingAI())
	}
	h.run()
	end := h.waitGame(g.ID, "the game's end", func(g *storage.Game) bool { return !g.Status.Open() })
	if end.Status != storage.StatusFinished || end.Result == nil || len(end.Moves) < 7 {
		t.Fatalf("the game ended %s with result %+v after %d moves; want finished by the rules", end.Status, end.Result, len(end.Moves))
	}
	board := h.waitBoard(g.ID, "the result on the board", func(m discordtest.Message) bool {
		return strings.Contains(embedText(m), "wins") || strings.Contains(embedText(m), "Draw")
	})
	if board.ChannelID != h.srv.ChannelID() {
		t.Errorf("the board is in channel %s, want the game's", board.ChannelID)
	}
}
