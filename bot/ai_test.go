package bot_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// playAI starts a game against an AI as user and returns it once its board
// is saved.
func playAI(t testing.TB, h *harness, user string, opts ...discordtest.Option) (*storage.Game, discordtest.Message) {
	t.Helper()
	_, m := h.command(user, "play", opts...)
	if m.Ephemeral() {
		t.Fatalf("/play refused: %s", m.Content)
	}
	g := h.waitGame(h.latestGame(user).ID, "the board to be saved", func(g *storage.Game) bool { return g.MessageID != "" })
	return g, m
}

// aiHold holds the AI mid-turn, as a search that is still thinking: a
// worker that claimed a turn and loaded its game waits there, before it
// searches, until release is closed. held gets each game so held. Tests use
// it instead of a long move time, which a loaded machine can use up before
// the test gets to act.
type aiHold struct {
	storage.Store
	held    chan storage.GameID
	release chan struct{}
	once    sync.Once

	mu      sync.Mutex
	claimed map[string]bool         // AI claim keys taken
	loading map[storage.GameID]bool // games whose next load is the worker's
}

func newAIHold() *aiHold {
	return &aiHold{held: make(chan storage.GameID, 16), release: make(chan struct{}), claimed: map[string]bool{}, loading: map[storage.GameID]bool{}}
}

// withAIHold makes every bot of the harness use hold around its store.
func withAIHold(hold *aiHold) option {
	return withStoreWrapped(func(s storage.Store) storage.Store { hold.Store = s; return hold })
}

func (s *aiHold) Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	ok, err := s.Store.Claim(ctx, key, owner, ttl)
	if parts := strings.Split(key, "/"); ok && err == nil && len(parts) == 3 && parts[0] == "ai" {
		s.mu.Lock()
		if !s.claimed[key] { // not a renewal
			s.claimed[key] = true
			s.loading[storage.GameID(parts[1])] = true
		}
		s.mu.Unlock()
	}
	return ok, err
}

func (s *aiHold) Game(ctx context.Context, id storage.GameID) (*storage.Game, error) {
	g, err := s.Store.Game(ctx, id)
	s.mu.Lock()
	hold := s.loading[id]
	delete(s.loading, id)
	s.mu.Unlock()
	if hold {
		select {
		case <-s.release: // released: it holds nothing any more
		default:
			s.held <- id
			<-s.release
		}
	}
	return g, err
}

// free lets the held turns go on, and the later ones pass; a test calls it
// as a cleanup too, so that a failure before it does not leave a worker
// held at shutdown.
func (s *aiHold) free() { s.once.Do(func() { close(s.release) }) }

// wait waits until the AI's turn in game id is held.
func (s *aiHold) wait(t *testing.T, id storage.GameID) {
	t.Helper()
	for {
		select {
		case got := <-s.held:
			if got == id {
				return
			}
		case <-time.After(waitTimeout()):
			t.Fatalf("the AI never took its turn in game %s", id)
		}
	}
}

func TestAITurnsPendingAtShutdownAreAnsweredAfterRestart(t *testing.T) {
	t.Parallel()
	hold := newAIHold()
	h := start(t, withClock(), withAIHold(hold), withConfig(func(c *bot.Config) { c.AI.SearchThreads = 1 }))
	t.Cleanup(hold.free)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	// The AI moves first in both games; with one search thread, busy with
	// the first, the second waits in the queue and says so.
	first, _ := playAI(t, h, alice, opt("game", "connect4"), opt("ai", "minimax"), opt("first", "opponent"), opt("movetime", 1.0))
	hold.wait(t, first.ID)
	second, m := playAI(t, h, bob, opt("game", "tictactoe"), opt("ai", "minimax"), opt("first", "opponent"))
	if !strings.Contains(embedText(m), "queued (#1)") {
		t.Errorf("the second AI turn should show its queue place; board says %q", embedText(m))
	}
	// Shut down while the first search runs: once the workers were told
	// to stop, it goes on.
	stopped := make(chan struct{})
	go func() { defer close(stopped); h.stop() }()
	for guard := time.Now().Add(waitTimeout()); !bot.AIStopped(h.bot); time.Sleep(time.Millisecond) {
		if time.Now().After(guard) {
			t.Fatal("the shutdown never stopped the AI workers")
		}
	}
	hold.free()
	<-stopped
	if g := h.game(first.ID); len(g.Moves) != 1 {
		t.Errorf("the running search should finish and commit at shutdown; game has moves %v", g.Moves)
	}
	if g := h.game(second.ID); len(g.Moves) != 0 || !g.AwaitingAI() {
		t.Fatalf("the queued AI turn should stay parked in storage; game is %+v", g)
	}
	h.run()
	g := h.waitGame(second.ID, "the resumed AI move", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	h.waitBoard(g.ID, "the AI's move on the board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+bob+">, your move")
	})
	// The boards posted before the restart still take moves.
	h.waitBoard(first.ID, "alice's turn on the old board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+alice+">, your move")
	})
	if r := h.move(alice, first.ID, "1"); r.Ephemeral() {
		t.Fatalf("a move on a board from before the restart: %q", r.Content)
	}
	h.waitGame(first.ID, "the AI's answer after the restart", func(g *storage.Game) bool { return len(g.Moves) == 3 })
}

func TestAIMoveAfterTheTokenExpiredEditsThroughTheChannel(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	h.move(alice, g.ID, "5")
	h.waitGame(g.ID, "the AI's reply", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	board := h.waitBoard(g.ID, "the AI's reply on the board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "your move")
	})
	// Fifteen minutes later the clicking interaction's token is dead: the
	// AI's answer to the next move must reach the board another way.
	h.clock.Advance(16 * time.Minute)
	g = h.game(g.ID)
	cell := ""
	for _, c := range []string{"1", "2", "3", "4", "6", "7", "8", "9"} {
		if _, _, ok := moveControl(board, c); ok {
			cell = c
			break
		}
	}
	if _, r := h.command(alice, "move", opt("cell", cell)); !r.Ephemeral() || !strings.Contains(r.Content, "You played") {
		t.Fatalf("/move %s: %q", cell, r.Content)
	}
	h.waitGame(g.ID, "the AI's second reply", func(g *storage.Game) bool { return len(g.Moves) == 4 || !g.Status.Open() })
	var viaChannel bool
	for _, r := range h.srv.Requests() {
		if r.Method == http.MethodPatch && r.Route == "/channels/{channel_id}/messages/{message_id}" && r.Status == http.StatusOK {
			viaChannel = true
		}
	}
	if !viaChannel {
		t.Error("no board edit went through the channel message endpoint")
	}
}

func TestADeletedBoardIsPostedAgain(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	g, m := playAI(t, h, alice, opt("game", "connect4"), opt("ai", "random"))
	if err := h.srv.DeleteMessage(m.ID); err != nil {
		t.Fatal(err)
	}
	if _, r := h.command(alice, "move", opt("cell", "4")); !r.Ephemeral() || !strings.Contains(r.Content, "You played 4") {
		t.Fatalf("/move: %q", r.Content)
	}
	g = h.waitGame(g.ID, "a new board message", func(g *storage.Game) bool { return g.MessageID != m.ID && len(g.Moves) == 2 })
	h.waitBoard(g.ID, "the AI's move on the new board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "your move")
	})
}

func TestGamesSurviveRateLimitsAndAGatewayDrop(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	h.srv.InjectFault(discordtest.Fault{
		Method: http.MethodPost, Route: "/interactions/{interaction_id}/{interaction_token}/callback",
		Status: http.StatusTooManyRequests, RetryAfter: 100 * time.Millisecond, Times: 2,
	})
	if m := h.move(alice, g.ID, "5"); m.Ephemeral() {
		t.Fatalf("move after rate limits: %q", m.Content)
	}
	if n := h.srv.CloseGateway(4000); n == 0 {
		t.Fatal("no gateway connection to drop")
	}
	if m := h.move(bob, g.ID, "1"); m.Ephemeral() {
		t.Fatalf("move after the gateway drop: %q", m.Content)
	}
	if g = h.game(g.ID); strings.Join(g.Moves, "") != "51" {
		t.Errorf("moves %v, want [5 1] applied once each", g.Moves)
	}
}

func TestARestartRefreshesABoardLeftBehindByACrash(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	h.stop()
	// A crash after the commit of alice's move and before its reply: the
	// store has the move, the board does not.
	g.Moves = append(g.Moves, "5")
	g.Position = "....x.... o"
	g.Turn = 1
	g.Deadline = time.Now().Add(time.Hour)
	if err := h.store.UpdateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	h.run()
	board := h.waitBoard(g.ID, "the board to show the stored move", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+bob+">, your move")
	})
	if _, _, ok := moveControl(board, "5"); ok {
		t.Error("the refreshed board still offers the taken cell 5")
	}
	if r := h.move(bob, g.ID, "1"); r.Ephemeral() {
		t.Fatalf("bob's move on the refreshed board: %q", r.Content)
	}
}

// TestThinkingShowsTimeWithoutANewDepth: a search that reports no depth
// (or none: the depth reported before the last edit) still shows on the board that it is
// alive, once per progress interval of the bot's clock. The clock moves
// on a second at a time until the board says so: the search may start
// after the first step.
func TestThinkingShowsTimeWithoutANewDepth(t *testing.T) {
	t.Parallel()
	h := start(t, withClock(), withConfig(func(c *bot.Config) { c.Timers.ProgressInterval = 2 * time.Second }))
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "annealing"), opt("first", "opponent"), opt("movetime", 5.0))
	deadline := time.Now().Add(waitTimeout())
	for {
		text := embedText(h.board(g.ID))
		if strings.Contains(text, "is thinking… (") {
			if !regexp.MustCompile(`is thinking… \((depth [0-9]+ · )?([0-9.]+[kMG]? positions · )?[0-9]+s\)`).MatchString(text) {
				t.Errorf("the board shows %q, want the time so far", text)
			}
			break
		}
		if len(h.game(g.ID).Moves) > 0 || time.Now().After(deadline) {
			t.Fatalf("the search never showed its time; the board shows %q", text)
		}
		h.clock.Advance(time.Second)
		time.Sleep(20 * time.Millisecond)
	}
}
