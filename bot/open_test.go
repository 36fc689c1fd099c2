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

// postOpen has user post an open challenge to Tic-Tac-Toe and returns
// its message, its Accept (Take) button and the stored challenge.
func postOpen(t *testing.T, h *harness, user string, extra ...discordtest.Option) (discordtest.Message, string, *storage.Game) {
	t.Helper()
	_, m := h.command(user, "challenge", append([]discordtest.Option{opt("game", "tictactoe")}, extra...)...)
	if m.Ephemeral() || !strings.Contains(m.Content, "challenges anyone here to **Tic-Tac-Toe**") {
		t.Fatalf("open challenge message %q should be public and say anyone may accept", m.Content)
	}
	g := h.waitGame(h.latestGame(user).ID, "the challenge's board", func(g *storage.Game) bool { return g.MessageID != "" })
	if g.Status != storage.StatusPending || !g.OpenChallenge() || g.MessageID != m.ID {
		t.Fatalf("open challenge stored as %+v, want pending, open, on message %s", g, m.ID)
	}
	take, ok := find(m, customid.Take, nil)
	if !ok {
		t.Fatalf("no Accept button on %+v", m.Components)
	}
	return m, take, g
}

// openGames counts a user's open games.
func openGames(t *testing.T, h *harness, user string) int {
	t.Helper()
	open, err := h.store.ActiveGames(context.Background(), storage.User(user))
	if err != nil {
		t.Fatal(err)
	}
	return len(open)
}

// TestOpenChallengeGoesToTheFirstClick: /challenge without a member posts
// a challenge anyone but its challenger may accept. Two members clicking
// Accept at once: one gets the game, in the challenge's message, the other
// a private "too late" naming the winner, and no game.
func TestOpenChallengeGoesToTheFirstClick(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol, dave := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID, h.srv.AddUser("dave").ID
	m, take, g := postOpen(t, h, alice, opt("first", "opponent"))
	if r := h.click(alice, m.ID, take); !r.Ephemeral() || !strings.Contains(r.Content, "your open challenge") {
		t.Errorf("alice accepting her own open challenge: %q, want a private refusal", r.Content)
	}

	var (
		wg      sync.WaitGroup
		replies = map[string]discordtest.Message{}
		mu      sync.Mutex
	)
	var sent []*discordtest.Interaction
	for _, who := range []string{bob, carol} {
		ix, err := h.srv.ClickButton(who, m.ID, take)
		if err != nil {
			t.Fatal(err)
		}
		sent = append(sent, ix)
	}
	for i, who := range []string{bob, carol} {
		wg.Go(func() {
			r, err := sent[i].Reply(h.ctx())
			if err != nil {
				t.Errorf("%s's accept: no reply: %v", who, err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			replies[who] = readable(r)
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	g = h.waitGame(g.ID, "the game to start", func(g *storage.Game) bool { return g.Status == storage.StatusActive })
	winner, _ := g.Players[1].ID.UserID()
	loser := map[string]string{bob: carol, carol: bob}[winner]
	if loser == "" {
		t.Fatalf("seat 1 went to %s, neither bob nor carol", g.Players[1].ID)
	}
	if b := replies[winner]; b.Ephemeral() || b.ID != m.ID || !strings.Contains(b.Content, "<@"+winner+">, your move") {
		t.Errorf("the winner's accept: %+v, want the challenge turned into the board with their move", b)
	}
	late := "Too late: <@" + winner + "> accepted this challenge first."
	if r := replies[loser]; !r.Ephemeral() || !strings.Contains(r.Content, late) {
		t.Errorf("the loser's accept: %q, want a private %q", r.Content, late)
	}
	if n := openGames(t, h, loser); n != 0 {
		t.Errorf("the loser has %d open games, want none", n)
	}
	// Later clicks, on the message as it was, get the same answer.
	if r := h.clickSeen(dave, m, take); !r.Ephemeral() || !strings.Contains(r.Content, late) {
		t.Errorf("a later accept: %q, want a private %q", r.Content, late)
	}
	if g := h.game(g.ID); g.Players[1].ID != storage.User(winner) || g.Turn != 1 {
		t.Errorf("the game is %+v, want %s in seat 1 moving first", g, winner)
	}
}

// takenElsewhere is a store shared with another process that takes every
// open challenge for its member just before this process's take, as a
// click on another replica that wins the race would.
type takenElsewhere struct {
	storage.Store
	member string
}

func (s *takenElsewhere) TakeChallenge(ctx context.Context, g *storage.Game, limits storage.Limits) error {
	theirs, err := s.Game(ctx, g.ID)
	if err != nil {
		return err
	}
	theirs.Players = []storage.Player{theirs.Players[0], {ID: storage.User(s.member)}}
	theirs.Status, theirs.Position, theirs.Deadline = storage.StatusActive, g.Position, time.Time{}
	if err := s.Store.TakeChallenge(ctx, theirs, limits); err != nil {
		return err
	}
	return s.Store.TakeChallenge(ctx, g, limits)
}

// TestOpenChallengeTakenInAnotherProcess: when another process's click
// took the challenge between this process's load and its take, the store
// refuses the take and the member is told who was first; they keep no
// game.
func TestOpenChallengeTakenInAnotherProcess(t *testing.T) {
	t.Parallel()
	const carol = "3141592653"
	h := start(t, withStoreWrapped(func(s storage.Store) storage.Store { return &takenElsewhere{Store: s, member: carol} }))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	m, take, g := postOpen(t, h, alice)
	late := "Too late: <@" + carol + "> accepted this challenge first."
	if r := h.click(bob, m.ID, take); !r.Ephemeral() || !strings.Contains(r.Content, late) {
		t.Errorf("bob's accept lost to another process: %q, want a private %q", r.Content, late)
	}
	if g := h.game(g.ID); g.Status != storage.StatusActive || g.Players[1].ID != storage.User(carol) {
		t.Errorf("the challenge is %s with %s in seat 1, want active with carol", g.Status, g.Players[1].ID)
	}
	if n := openGames(t, h, bob); n != 0 {
		t.Errorf("bob has %d open games, want none", n)
	}
}

// TestOpenChallengeExpires: an open challenge nobody accepts expires after
// the challenge time as a targeted one does, its message saying so, and
// an Accept after that is refused.
func TestOpenChallengeExpires(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	m, take, g := postOpen(t, h, alice)
	h.clock.Advance(bot.DefaultChallengeTTL + time.Second)
	expired := h.waitBoard(g.ID, "the expiry notice", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "Challenge expired") && len(controls(m)) == 0
	})
	if expired.ID != m.ID {
		t.Errorf("expiry posted a new message instead of editing the challenge")
	}
	if g := h.game(g.ID); g.Status != storage.StatusExpired {
		t.Errorf("the challenge is %s, want expired", g.Status)
	}
	if r := h.clickSeen(bob, m, take); !r.Ephemeral() || !strings.Contains(r.Content, "not answered in time") {
		t.Errorf("accepting an expired open challenge: %q, want a private refusal", r.Content)
	}
	if n := openGames(t, h, bob); n != 0 {
		t.Errorf("bob has %d open games, want none", n)
	}
}

// TestOpenChallengeWithdrawn: only the challenger may withdraw an open
// challenge; once withdrawn nobody may accept it.
func TestOpenChallengeWithdrawn(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	m, take, g := postOpen(t, h, alice)
	withdraw, ok := find(m, customid.Decline, nil)
	if !ok {
		t.Fatalf("no Withdraw button on %+v", m.Components)
	}
	if r := h.click(bob, m.ID, withdraw); !r.Ephemeral() || !strings.Contains(r.Content, "Only <@"+alice+">, who posted this challenge, can withdraw it") {
		t.Errorf("bob withdrawing alice's open challenge: %q, want a private refusal", r.Content)
	}
	if r := h.click(alice, m.ID, withdraw); r.Ephemeral() || r.ID != m.ID || !strings.Contains(r.Content, "Challenge withdrawn") || len(controls(r)) != 0 {
		t.Errorf("alice withdrawing: %q with %d controls, want the message saying withdrawn, without buttons", r.Content, len(controls(r)))
	}
	if g := h.game(g.ID); g.Status != storage.StatusWithdrawn {
		t.Errorf("the challenge is %s, want withdrawn", g.Status)
	}
	if r := h.clickSeen(bob, m, take); !r.Ephemeral() || !strings.Contains(r.Content, "it was withdrawn") {
		t.Errorf("accepting a withdrawn open challenge: %q, want a private refusal", r.Content)
	}
}

// TestOpenChallengeSurvivesARestart: a challenge posted before a restart
// is accepted after it.
func TestOpenChallengeSurvivesARestart(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	m, take, g := postOpen(t, h, alice)
	h.stop()
	h.run()
	if r := h.click(bob, m.ID, take); r.Ephemeral() || r.ID != m.ID {
		t.Fatalf("accepting after a restart: %+v, want the board in the challenge's message", r)
	}
	if g := h.game(g.ID); g.Status != storage.StatusActive || g.Players[1].ID != storage.User(bob) {
		t.Errorf("after a restart the challenge is %s with %s in seat 1, want active with bob", g.Status, g.Players[1].ID)
	}
}

// TestOpenChallengeCaps: the challenger's caps count an open challenge as
// any challenge they sent; a member at their cap is told why they may not
// accept, and the challenge stays open for others.
func TestOpenChallengeCaps(t *testing.T) {
	t.Parallel()
	h := start(t, withConfig(func(c *bot.Config) { c.Games.MaxPerUser, c.Games.MaxChallenges = 2, 1 }))
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	m, take, g := postOpen(t, h, alice)
	if _, r := h.command(alice, "challenge", opt("game", "connect4")); !r.Ephemeral() || !strings.Contains(r.Content, "You have 1 challenge waiting for an answer") {
		t.Errorf("a second open challenge over the cap of 1: %q, want a private refusal", r.Content)
	}
	for range 2 {
		if _, r := h.command(bob, "play", opt("game", "tictactoe"), opt("ai", "random")); r.Ephemeral() {
			t.Fatalf("bob's AI game: %q", r.Content)
		}
	}
	if r := h.click(bob, m.ID, take); !r.Ephemeral() || !strings.Contains(r.Content, "You have 2 games and challenges open, the most Gambit allows") {
		t.Errorf("bob accepting at his cap: %q, want a private refusal naming the cap", r.Content)
	}
	if g := h.game(g.ID); !g.OpenChallenge() || g.Status != storage.StatusPending {
		t.Fatalf("after bob's refusal the challenge is %s, want still open", g.Status)
	}
	if r := h.click(carol, m.ID, take); r.Ephemeral() || r.ID != m.ID {
		t.Errorf("carol accepting after bob's refusal: %q", r.Content)
	}
}

// TestOpenChallengeNotInTheBotsDM: in a DM with Gambit nobody else could
// accept an open challenge, so none is posted there.
func TestOpenChallengeNotInTheBotsDM(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	dm, err := h.srv.AddDM(alice)
	if err != nil {
		t.Fatal(err)
	}
	r := h.commandIn(alice, dm.ID, "challenge", opt("game", "tictactoe"))
	if !r.Ephemeral() || !strings.Contains(r.Content, "nobody else could accept an open challenge here") {
		t.Errorf("an open challenge in the bot's DM: %q, want a private refusal", r.Content)
	}
	if n := openGames(t, h, alice); n != 0 {
		t.Errorf("alice has %d open games, want none", n)
	}
}
