package bot_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// gatedStore can hold CreateGame calls until a number of them have been
// made and then let them all go at once, so that each command has made
// whatever check it makes before any of their games is stored: the worst
// case for a check made apart from the create.
type gatedStore struct {
	storage.Store
	mu      sync.Mutex
	n       int           // calls to hold
	arrived int           // calls held so far
	open    chan struct{} // closed when n arrived; nil when not holding
}

// withGate makes the bot's store the gate's.
func withGate(gate *gatedStore) option {
	return withStoreWrapped(func(s storage.Store) storage.Store { gate.Store = s; return gate })
}

// hold makes the next n CreateGame calls wait for one another.
func (s *gatedStore) hold(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n, s.arrived, s.open = n, 0, make(chan struct{})
}

// held checks that all the held calls were made.
func (s *gatedStore) held(t *testing.T) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.arrived != s.n {
		t.Errorf("%d of the %d commands reached the store's CreateGame; the test expects all of them to", s.arrived, s.n)
	}
}

func (s *gatedStore) CreateGame(ctx context.Context, g *storage.Game, limits storage.Limits) error {
	s.mu.Lock()
	open := s.open
	if open != nil {
		if s.arrived++; s.arrived == s.n {
			close(open)
			s.open = nil
		}
	}
	s.mu.Unlock()
	if open != nil {
		select {
		case <-open:
		case <-time.After(waitTimeout()): // guards against a hang; held fails the test
		}
	}
	return s.Store.CreateGame(ctx, g, limits)
}

// TestConcurrentPlaysKeepTheCaps sends many /play commands from one member
// at once: exactly as many games as the caps allow are stored, and every
// other command is answered with the refusal. The stand-in runs on a
// manual clock, so a slow machine cannot make an answer late.
func TestConcurrentPlaysKeepTheCaps(t *testing.T) {
	t.Parallel()
	const maxGames, maxChallenges, aiPlays, challengePlays = 10, 3, 40, 20
	gate := &gatedStore{}
	h := start(t, withClock(), withGate(gate),
		withConfig(func(c *bot.Config) { c.Games.MaxPerUser, c.Games.MaxChallenges = maxGames, maxChallenges }))
	alice, carol, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("carol").ID, h.srv.AddUser("bob").ID

	// Alice asks for AI games and Carol challenges Bob, all at once.
	type play struct {
		user    string
		opts    []discordtest.Option
		refusal string // the refusal's wording when over the cap
	}
	var plays []play
	for range aiPlays {
		plays = append(plays, play{alice, []discordtest.Option{opt("game", "tictactoe"), opt("ai", "random")},
			"games and challenges open, the most Gambit allows"})
	}
	for range challengePlays {
		plays = append(plays, play{carol, []discordtest.Option{opt("game", "connect4"), opt("opponent", bob)},
			"challenges waiting for an answer, the most Gambit allows"})
	}
	gate.hold(len(plays))
	ixs := make([]*discordtest.Interaction, len(plays))
	var wg sync.WaitGroup
	begin := make(chan struct{})
	for i, p := range plays {
		wg.Go(func() {
			<-begin
			ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: p.user, Name: "play", Options: p.opts})
			if err != nil {
				t.Errorf("/play: %v", err)
			}
			ixs[i] = ix
		})
	}
	close(begin)
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}

	started := map[string]int{}
	for i, ix := range ixs {
		m, err := ix.Reply(h.ctx())
		switch {
		case err != nil:
			t.Errorf("/play %d of %s was not answered: %v", i, plays[i].user, err)
		case !m.Ephemeral():
			started[plays[i].user]++
		case !strings.Contains(m.Content, plays[i].refusal):
			t.Errorf("/play %d of %s was refused with %q, want %q", i, plays[i].user, m.Content, plays[i].refusal)
		}
	}
	gate.held(t)
	for _, c := range []struct {
		user string
		want int
	}{{alice, maxGames}, {carol, maxChallenges}} {
		if started[c.user] != c.want {
			t.Errorf("%d of the concurrent /play commands of %s showed a new game, want %d", started[c.user], c.user, c.want)
		}
		open, err := h.store.ActiveGames(h.ctx(), storage.User(c.user))
		if err != nil {
			t.Fatal(err)
		}
		if len(open) != c.want {
			t.Errorf("%s has %d open games stored, want %d", c.user, len(open), c.want)
		}
	}
}

// TestConcurrentRematchesKeepTheCap clicks Rematch on two finished boards
// at once when the member has room for one more game: one rematch starts,
// the other is refused.
func TestConcurrentRematchesKeepTheCap(t *testing.T) {
	t.Parallel()
	const maxGames = 3
	gate := &gatedStore{}
	h := start(t, withClock(), withGate(gate), withConfig(func(c *bot.Config) { c.Games.MaxPerUser = maxGames }))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	var ended []discordtest.Message
	for range 2 {
		g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
		resignByUI(t, h, alice, g.ID)
		ended = append(ended, h.board(g.ID))
	}
	for range maxGames - 1 {
		playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	}

	gate.hold(len(ended))
	for _, board := range ended {
		rematch, ok := find(board, customid.Rematch, nil)
		if !ok {
			t.Fatalf("no Rematch button on %+v", board.Components)
		}
		if _, err := h.srv.ClickButton(alice, board.ID, rematch); err != nil {
			t.Fatal(err)
		}
	}
	// Rematch answers first (deferring the update of the old board), so a
	// started rematch shows on its old board and a refusal comes as a
	// private follow-up.
	refused, err := h.waitMessage(h.ctx(), func(m discordtest.Message) bool {
		return m.Ephemeral() && strings.Contains(m.Content, "games and challenges open, the most Gambit allows")
	})
	if err != nil {
		t.Fatalf("no Rematch was refused with the cap's explanation: %v", err)
	}
	if _, err := h.waitMessage(h.ctx(), func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "A rematch was started below")
	}); err != nil {
		t.Fatalf("no Rematch started (refusal: %q): %v", refused.Content, err)
	}
	started := 0
	for _, board := range ended {
		if m, _ := h.message(board.ID); strings.Contains(m.Content, "A rematch was started below") {
			started++
		}
	}
	gate.held(t)
	if started != 1 {
		t.Errorf("%d of two concurrent Rematches started a game, want 1", started)
	}
	if open, err := h.store.ActiveGames(h.ctx(), storage.User(alice)); err != nil || len(open) != maxGames {
		t.Errorf("alice has %d open games (%v), want the cap of %d", len(open), err, maxGames)
	}
}
