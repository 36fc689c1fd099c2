package bot_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

func TestChallengesCanBeDeclinedAndExpire(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID

	_, m := h.command(alice, "play", opt("game", "connect4"), opt("opponent", bob))
	g := h.waitGame(h.latestGame(alice).ID, "the board", func(g *storage.Game) bool { return g.MessageID != "" })
	decline, _ := find(m, customid.Decline, nil)
	if r := h.click(carol, m.ID, decline); !r.Ephemeral() || !strings.Contains(r.Content, "not for you") {
		t.Errorf("a bystander's decline: %q, want an ephemeral refusal", r.Content)
	}
	r := h.click(bob, m.ID, decline)
	if r.Ephemeral() || !strings.Contains(r.Content+embedText(r), "declined") || len(controls(r)) != 0 {
		t.Errorf("declined challenge shows %q %q with %d components", r.Content, embedText(r), len(controls(r)))
	}
	if g = h.game(g.ID); g.Status != storage.StatusDeclined {
		t.Errorf("declined challenge stored as %s", g.Status)
	}

	_, m = h.command(alice, "play", opt("game", "tictactoe"), opt("opponent", bob))
	g = h.waitGame(h.latestGame(alice).ID, "the board", func(g *storage.Game) bool { return g.MessageID != "" })
	h.clock.Advance(4 * time.Minute)
	time.Sleep(100 * time.Millisecond) // several ticks: nothing may expire yet
	if got := h.game(g.ID).Status; got != storage.StatusPending {
		t.Fatalf("challenge %s after 4 of 5 minutes", got)
	}
	h.clock.Advance(2 * time.Minute)
	expired := h.waitBoard(g.ID, "the expiry notice", func(m discordtest.Message) bool {
		return strings.Contains(m.Content+embedText(m), "expired") && len(controls(m)) == 0
	})
	if expired.ID != m.ID {
		t.Errorf("expiry posted a new message instead of editing the challenge")
	}
	if g = h.game(g.ID); g.Status != storage.StatusExpired {
		t.Errorf("expired challenge stored as %s", g.Status)
	}
	accept, _ := find(m, customid.Accept, nil)
	if r := h.clickSeen(bob, m, accept); !r.Ephemeral() {
		t.Errorf("accepting an expired challenge from the old message: %q", r.Content)
	}
}

// TestAWithdrawnChallengeSaysWithdrawn: the challenger's Decline withdraws
// the challenge, and the board, later answers and any redraw from the
// store say so rather than "declined".
func TestAWithdrawnChallengeSaysWithdrawn(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	_, m := h.command(alice, "play", opt("game", "connect4"), opt("opponent", bob))
	g := h.waitGame(h.latestGame(alice).ID, "the board", func(g *storage.Game) bool { return g.MessageID != "" })
	decline, _ := find(m, customid.Decline, nil)
	r := h.click(alice, m.ID, decline)
	if text := r.Content + embedText(r); r.Ephemeral() || !strings.Contains(text, "withdrawn") || strings.Contains(text, "declined") {
		t.Errorf("the withdrawn challenge shows %q", text)
	}
	if g = h.game(g.ID); g.Status != storage.StatusWithdrawn {
		t.Errorf("the withdrawn challenge is stored as %s", g.Status)
	}
	accept, _ := find(m, customid.Accept, nil)
	if r := h.clickSeen(bob, m, accept); !strings.Contains(r.Content, "it was withdrawn") {
		t.Errorf("accepting the withdrawn challenge: %q", r.Content)
	}
}

// embedText joins the titles, descriptions and fields of a message's
// embeds.
func embedText(m discordtest.Message) string {
	var b strings.Builder
	for _, e := range readable(m).Embeds {
		b.WriteString(e.Title + "\n" + e.Description + "\n")
		for _, f := range e.Fields {
			b.WriteString(f.Name + " " + f.Value + "\n")
		}
		if e.Footer != nil {
			b.WriteString(e.Footer.Text + "\n")
		}
	}
	return b.String()
}

func TestWrongClicksAndOptionsChangeNothing(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	before := h.board(g.ID)

	expectRefusal := func(what string, m discordtest.Message, want string) {
		t.Helper()
		if !m.Ephemeral() || !strings.Contains(m.Content, want) {
			t.Errorf("%s: reply %q (ephemeral %v), want an ephemeral one containing %q", what, m.Content, m.Ephemeral(), want)
		}
		if got := h.game(g.ID); len(got.Moves) != len(g.Moves) || got.Status != g.Status {
			t.Fatalf("%s changed the game: %+v", what, got)
		}
	}
	cell5, _, _ := moveControl(before, "5")
	expectRefusal("a bystander's click", h.click(carol, before.ID, cell5), "not your game")
	expectRefusal("an out-of-turn click", h.click(bob, before.ID, cell5), "not your turn")

	h.move(alice, g.ID, "5")
	g = h.game(g.ID)
	cell1, _, _ := moveControl(before, "1")
	expectRefusal("a click on the old board", h.clickSeen(bob, before, cell1), "out of date")

	_, m := h.command(bob, "move", opt("cell", "5"))
	expectRefusal("/move on a taken cell", m, "not a legal move")
	_, m = h.command(carol, "move", opt("cell", "1"))
	expectRefusal("/move without a game", m, "no game in progress")

	for _, tc := range []struct {
		opts []discordtest.Option
		want string
	}{
		{[]discordtest.Option{opt("game", "connect4"), opt("rounds", 5)}, "Adjacency only"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("ai", "seed004-minimax")}, "does not play"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("ai", "no-such-ai")}, "no AI called"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("opponent", carol)}, "cannot challenge yourself"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("opponent", h.srv.BotUser().ID)}, "is a bot"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("opponent", alice), opt("ai", "greedy")}, "not both"},
	} {
		_, m := h.command(carol, "play", tc.opts...)
		if !m.Ephemeral() || !strings.Contains(m.Content, tc.want) {
			t.Errorf("/play %+v: %q, want an ephemeral error containing %q", tc.opts, m.Content, tc.want)
		}
	}
	if games, _ := h.store.ActiveGames(t.Context(), storage.User(carol)); len(games) != 0 {
		t.Errorf("refused /play commands created games: %+v", games)
	}
}

func TestConcurrentClicksApplyExactlyOneMove(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("connect4"))
	board := h.board(g.ID)
	var replies [4]discordtest.Message
	var wg sync.WaitGroup
	for i := range replies {
		col := string(rune('1' + i))
		cid, _, _ := moveControl(board, col)
		wg.Go(func() { replies[i] = h.click(alice, board.ID, cid) })
	}
	wg.Wait()
	applied := 0
	for _, r := range replies {
		if !r.Ephemeral() {
			applied++
		}
	}
	if g = h.game(g.ID); applied != 1 || len(g.Moves) != 1 {
		t.Fatalf("%d clicks were answered as applied and %d moves stored, want exactly 1", applied, len(g.Moves))
	}
}

func TestMissingChannelPermissionsAreExplainedAtPlay(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	if err := h.srv.SetBotPermissions(h.srv.ChannelID(), discordgo.PermissionViewChannel|discordgo.PermissionReadMessageHistory); err != nil {
		t.Fatal(err)
	}
	_, m := h.command(alice, "play", opt("game", "tictactoe"))
	if !m.Ephemeral() || !strings.Contains(m.Content, "Send Messages") || !strings.Contains(m.Content, "Embed Links") {
		t.Errorf("/play without permissions: %q", m.Content)
	}
}

func TestADuplicateDeliveryHasOneEffect(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("connect4"))
	board := h.board(g.ID)
	cid, _, _ := moveControl(board, "4")
	ix, err := h.srv.ClickButton(alice, board.ID, cid)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Redeliver(); err != nil {
		t.Fatal(err)
	}
	if m, err := ix.Reply(h.ctx()); err != nil || m.Ephemeral() {
		t.Fatalf("the click's reply: %+v, %v", m, err)
	}
	h.waitLog("duplicate delivery")
	if g = h.game(g.ID); len(g.Moves) != 1 {
		t.Errorf("moves %v after one click delivered twice, want one", g.Moves)
	}
	for _, r := range h.srv.Requests() {
		if r.Status == 400 && strings.Contains(string(r.Response), "40060") {
			t.Errorf("the bot answered the interaction twice: %s %s", r.Method, r.Path)
		}
	}
}

func TestOneMemberCannotFloodTheServer(t *testing.T) {
	t.Parallel()
	h := start(t, withConfig(func(c *bot.Config) { c.Games.MaxPerUser, c.Games.MaxChallenges = 3, 2 }))
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	for _, opp := range []string{bob, carol} {
		if _, m := h.command(alice, "play", opt("game", "connect4"), opt("opponent", opp)); m.Ephemeral() {
			t.Fatalf("challenge: %q", m.Content)
		}
	}
	if _, m := h.command(alice, "play", opt("game", "connect4"), opt("opponent", bob)); !m.Ephemeral() || !strings.Contains(m.Content, "challenges waiting") {
		t.Errorf("a third waiting challenge: %q, want a refusal", m.Content)
	}
	if _, m := h.command(alice, "play", opt("game", "tictactoe"), opt("ai", "random")); m.Ephemeral() {
		t.Fatalf("an AI game within the cap: %q", m.Content)
	}
	if _, m := h.command(alice, "play", opt("game", "tictactoe"), opt("ai", "random")); !m.Ephemeral() || !strings.Contains(m.Content, "games and challenges open") {
		t.Errorf("a fourth open game: %q, want a refusal", m.Content)
	}
	if open, _ := h.store.ActiveGames(t.Context(), storage.User(alice)); len(open) != 3 {
		t.Errorf("alice has %d open games, want the cap of 3", len(open))
	}
	if _, m := h.command(bob, "play", opt("game", "tictactoe"), opt("ai", "random")); m.Ephemeral() {
		t.Errorf("another member is held back by alice's cap: %q", m.Content)
	}
}
