package bot_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// claimSpy watches one process's claims: who took which AI turn, and each
// sweep for AI turns. With stall set, the process freezes
// right after taking an AI turn's claim, holding it without renewing — a
// process that queued a turn and died — until unstall is closed.
type claimSpy struct {
	storage.Store
	stall   bool
	unstall chan struct{}

	mu     sync.Mutex
	taken  map[string]int // AI claim key → claims that succeeded
	sweeps chan struct{}  // a value per sweep (a listing of the games awaiting the AI)
}

func newClaimSpy(s storage.Store, stall bool) *claimSpy {
	return &claimSpy{Store: s, stall: stall, unstall: make(chan struct{}), taken: map[string]int{}, sweeps: make(chan struct{}, 1000)}
}

func (c *claimSpy) Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	ok, err := c.Store.Claim(ctx, key, owner, ttl)
	if ok && strings.HasPrefix(key, "ai/") {
		c.mu.Lock()
		c.taken[key]++
		c.mu.Unlock()
		if c.stall {
			<-c.unstall
		}
	}
	return ok, err
}

func (c *claimSpy) AwaitingAI(ctx context.Context, shards storage.Shards) ([]*storage.Game, error) {
	games, err := c.Store.AwaitingAI(ctx, shards)
	select {
	case c.sweeps <- struct{}{}:
	default:
	}
	return games, err
}

func (c *claimSpy) claimed(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.taken[key]
}

// waitSweeps waits until the process has swept for AI turns n more times.
func (c *claimSpy) waitSweeps(t *testing.T, n int) {
	t.Helper()
	for len(c.sweeps) > 0 {
		<-c.sweeps
	}
	for range n {
		select {
		case <-c.sweeps:
		case <-time.After(waitTimeout()):
			t.Fatal("the bot stopped sweeping for AI turns")
		}
	}
}

// TestAITurnOfADeadProcessIsPlayedOnceByAnother: process A queues an AI
// turn and dies holding its claim; process B, sharing the store, leaves
// the turn alone while the claim lives and plays it, once, when it has
// expired.
func TestAITurnOfADeadProcessIsPlayedOnceByAnother(t *testing.T) {
	t.Parallel()
	var deadSpy *claimSpy
	h := start(t, withClock(), withConfig(func(c *bot.Config) {
		c.Shards.Instance, c.Shards.ClaimTTL = "process-a", time.Minute
	}), withStoreWrapped(func(s storage.Store) storage.Store { deadSpy = newClaimSpy(s, true); return deadSpy }))
	defer close(deadSpy.unstall) // lets A's frozen worker go, so that it can stop
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"), opt("first", "opponent"))
	key := bot.AIClaim(g.ID, 0)
	deadline := time.Now().Add(waitTimeout())
	for deadSpy.claimed(key) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("process A never claimed the AI turn")
		}
		time.Sleep(5 * time.Millisecond)
	}

	var liveSpy *claimSpy
	h.another(func(c *bot.Config) { c.Shards.Instance, c.Shards.ClaimTTL = "process-b", 30*time.Second },
		func(s storage.Store) storage.Store { liveSpy = newClaimSpy(s, false); return liveSpy })
	// Past B's grace for a turn just queued, within A's claim: B must
	// leave the turn to A.
	h.clock.Advance(40 * time.Second)
	liveSpy.waitSweeps(t, 3)
	if got := h.game(g.ID); len(got.Moves) != 0 || liveSpy.claimed(key) != 0 {
		t.Fatalf("process B took a turn process A holds: moves %v, B's claims %d", got.Moves, liveSpy.claimed(key))
	}
	// A's claim runs out: B plays the turn and shows it.
	h.clock.Advance(30 * time.Second)
	h.waitGame(g.ID, "process B to play the dead process's AI turn", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	h.waitBoard(g.ID, "the AI's move on the board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+alice+">, your move")
	})
	liveSpy.waitSweeps(t, 3)
	if got := h.game(g.ID); len(got.Moves) != 1 || liveSpy.claimed(key) != 1 {
		t.Fatalf("the turn was not played exactly once: moves %v, B's claims %d", got.Moves, liveSpy.claimed(key))
	}
	// B releases its claim once the move is shown.
	for deadline := time.Now().Add(waitTimeout()); ; time.Sleep(5 * time.Millisecond) {
		left, err := h.store.Claims(context.Background(), "ai/")
		if err != nil {
			t.Fatal(err)
		}
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("process B kept its claim after playing the turn: %v", left)
		}
	}
}
