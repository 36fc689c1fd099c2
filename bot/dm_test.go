package bot_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// Gambit installed to a user's account: its commands in the user's DM with
// the bot and in group DMs, where the bot is no member and may answer only
// through interactions (bot/reach.go).

// commandIn sends a slash command as a user in a channel and waits for the
// reply.
func (h *harness) commandIn(user, channel, name string, opts ...discordtest.Option) discordtest.Message {
	h.t.Helper()
	ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: user, ChannelID: channel, Name: name, Options: opts})
	if err != nil {
		h.t.Fatalf("/%s: %v", name, err)
	}
	m, err := ix.Reply(h.ctx())
	if err != nil {
		h.t.Fatalf("/%s: no reply: %v", name, err)
	}
	return readable(m)
}

// groupDM starts a bot and makes a group DM of new users named as given,
// which the bot is not in.
func groupDM(t *testing.T, names ...string) (*harness, discordtest.Channel, []string) {
	t.Helper()
	h := start(t)
	var ids []string
	for _, n := range names {
		ids = append(ids, h.srv.AddUser(n).ID)
	}
	ch, err := h.srv.AddGroupDM(ids...)
	if err != nil {
		t.Fatal(err)
	}
	return h, ch, ids
}

// noChannelRequests fails the test if the bot used a channel message
// route in a channel: where it is reached only through interactions,
// every board goes through interaction answers.
func noChannelRequests(t *testing.T, h *harness, channel string) {
	t.Helper()
	for _, r := range h.srv.Requests() {
		if strings.Contains(r.Path, "/channels/"+channel+"/") {
			t.Errorf("the bot called %s %s (status %d) in a channel it can reach only through interactions", r.Method, r.Route, r.Status)
		}
	}
}

// playOutAgainstAI plays alice's game against the AI to its end in its
// channel, clicking the first free cell of the board each turn, and
// returns the finished game. Every board is checked to show the game as
// stored, so the AI's replies reached it.
func playOutAgainstAI(t *testing.T, h *harness, alice string, id storage.GameID) *storage.Game {
	t.Helper()
	for range 9 {
		g := h.waitGame(id, "alice's turn (with the board's ID saved) or the end", func(g *storage.Game) bool {
			return !g.Status.Open() || g.Turn == 0 && !g.AwaitingAI() && g.MessageID != ""
		})
		if !g.Status.Open() {
			break
		}
		board := h.waitBoard(id, "the board to show alice's turn", func(m discordtest.Message) bool {
			_, ok := find(m, customid.Move, map[string]string{"ply": plyOf(g)})
			return ok
		})
		cid, _ := find(board, customid.Move, map[string]string{"ply": plyOf(g)})
		if r := h.click(alice, board.ID, cid); r.Ephemeral() {
			t.Fatalf("alice's move was refused: %q", r.Content)
		}
	}
	g := h.waitGame(id, "the game to end", func(g *storage.Game) bool { return !g.Status.Open() })
	h.waitBoard(id, "the final board", func(m discordtest.Message) bool {
		_, ok := find(m, customid.Move, nil)
		return !ok && len(g.Moves) >= 5
	})
	return g
}

// plyOf is the ply a game's current board carries.
func plyOf(g *storage.Game) string { return strconv.Itoa(len(g.Moves)) }

func TestRegistrationInstallsToUsersAndServers(t *testing.T) {
	t.Parallel()
	h := start(t)
	everywhere := []int{0, 1, 2}
	var names []string
	for _, c := range h.srv.Commands("") {
		names = append(names, c.Name)
		wantContexts, wantInstalls := everywhere, []int{0, 1}
		if c.Name == "settings" || c.Name == "tournament" { // a server's alone
			wantContexts, wantInstalls = []int{0}, []int{0}
		}
		if !slices.Equal(c.Contexts, wantContexts) || !slices.Equal(c.IntegrationTypes, wantInstalls) {
			t.Errorf("%s: contexts %v, integration_types %v; want %v and %v", c.Name, c.Contexts, c.IntegrationTypes, wantContexts, wantInstalls)
		}
		if c.Name == "Challenge to a game" && c.Type != discordgo.UserApplicationCommand {
			t.Errorf("%s has type %d, want a user command", c.Name, c.Type)
		}
	}
	for _, want := range []string{"challenge", "Challenge to a game", "play", "puzzle", "help", "games", "stats", "privacy", "move", "leaderboard"} {
		if !slices.Contains(names, want) {
			t.Errorf("command %q is not registered (have %v)", want, names)
		}
	}
}

func TestPlayTheAIInADirectMessage(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	dm, err := h.srv.AddDM(alice)
	if err != nil {
		t.Fatal(err)
	}
	m := h.commandIn(alice, dm.ID, "play", opt("game", "tictactoe"), opt("ai", "random"), opt("first", "opponent"))
	if m.Ephemeral() || m.ChannelID != dm.ID {
		t.Fatalf("/play in a DM answered %+v, want the board in the DM", m)
	}
	g := h.latestGame(alice)
	if g.GuildID != "" || g.ChannelID != dm.ID {
		t.Errorf("game stored in guild %q channel %q, want no guild and the DM", g.GuildID, g.ChannelID)
	}
	g = playOutAgainstAI(t, h, alice, g.ID)
	if len(g.Moves) < 5 || g.Result == nil {
		t.Fatalf("game ended as %+v", g)
	}
}

func TestPlayTheAIInAGroupDMThroughInteractionsOnly(t *testing.T) {
	t.Parallel()
	h, ch, ids := groupDM(t, "alice", "bob")
	alice := ids[0]
	m := h.commandIn(alice, ch.ID, "play", opt("game", "tictactoe"), opt("ai", "random"), opt("first", "opponent"))
	if m.Ephemeral() || m.ChannelID != ch.ID {
		t.Fatalf("/play in a group DM answered %+v, want the board there", m)
	}
	g := h.latestGame(alice)
	// The AI moves first: its move reaches the board through /play's token.
	g = h.waitGame(g.ID, "the AI's first move", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	h.waitBoard(g.ID, "the AI's first move on the board", func(m discordtest.Message) bool {
		_, ok := find(m, customid.Move, map[string]string{"ply": "1"})
		return ok
	})
	// A typed move answers privately and edits the board through the
	// latest token that shows it; the AI's reply goes through it too.
	free := ""
	for _, c := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"} {
		if !slices.Contains(g.Moves, c) {
			free = c
			break
		}
	}
	if r := h.commandIn(alice, ch.ID, "move", opt("cell", free)); !r.Ephemeral() || !strings.Contains(r.Content, "You played") {
		t.Fatalf("/move answered %+v", r)
	}
	h.waitGame(g.ID, "the AI's reply to the typed move", func(g *storage.Game) bool { return len(g.Moves) >= 3 || !g.Status.Open() })
	h.waitBoard(g.ID, "the board to show the AI's reply", func(m discordtest.Message) bool {
		_, ok := find(m, customid.Move, map[string]string{"ply": "3"})
		return ok
	})
	g = playOutAgainstAI(t, h, alice, g.ID)
	if g.Result == nil {
		t.Fatalf("game ended as %+v", g)
	}
	noChannelRequests(t, h, ch.ID)
}

func TestPlayTheAIInAServerThatDidNotAddGambit(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	guild, ch, err := h.srv.AddForeignGuild("Elsewhere", alice)
	if err != nil {
		t.Fatal(err)
	}
	m := h.commandIn(alice, ch.ID, "play", opt("game", "tictactoe"), opt("ai", "random"))
	if m.Ephemeral() || m.ChannelID != ch.ID {
		t.Fatalf("/play answered %+v, want the board in the channel (no permission check: the bot is not there)", m)
	}
	g := h.latestGame(alice)
	if g.GuildID != guild.ID {
		t.Errorf("game stored in guild %q, want %q", g.GuildID, guild.ID)
	}
	if g = playOutAgainstAI(t, h, alice, g.ID); g.Result == nil {
		t.Fatalf("game ended as %+v", g)
	}
	noChannelRequests(t, h, ch.ID)
}

func TestATypedMoveAfterTheTokensExpiredPostsTheBoardAgain(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	ch, err := h.srv.AddGroupDM(alice, bob)
	if err != nil {
		t.Fatal(err)
	}
	old := h.commandIn(alice, ch.ID, "play", opt("game", "tictactoe"), opt("ai", "random"))
	g := h.latestGame(alice)
	h.clock.Advance(20 * time.Minute) // every token showing the board has expired
	if r := h.commandIn(alice, ch.ID, "move", opt("cell", "5")); !r.Ephemeral() {
		t.Fatalf("/move answered %+v", r)
	}
	g = h.waitGame(g.ID, "the board posted again", func(g *storage.Game) bool { return g.MessageID != old.ID && g.MessageID != "" })
	board := h.waitBoard(g.ID, "the AI's reply on the new board", func(m discordtest.Message) bool {
		_, ok := find(m, customid.Move, map[string]string{"ply": "2"})
		return ok
	})
	if board.Ephemeral() || board.ChannelID != ch.ID {
		t.Errorf("the board posted again is %+v, want a public message in the group DM", board)
	}
	noChannelRequests(t, h, ch.ID)
}

func TestAnEndTheBotCouldNotShowShowsAtTheNextClick(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	ch, err := h.srv.AddGroupDM(alice, bob)
	if err != nil {
		t.Fatal(err)
	}
	m := h.commandIn(alice, ch.ID, "challenge", opt("user", bob), opt("game", "connect4"))
	g := h.waitGame(h.latestGame(alice).ID, "the board's ID", func(g *storage.Game) bool { return g.MessageID != "" })
	// Past the challenge's expiry and every token's life at once: the
	// expiry cannot reach the board, which still offers Accept.
	h.clock.Advance(20 * time.Minute)
	h.waitGame(g.ID, "the challenge to expire", func(g *storage.Game) bool { return g.Status == storage.StatusExpired })
	h.waitLog("deadline passed")
	accept, ok := find(h.board(g.ID), customid.Accept, nil)
	if !ok {
		t.Fatal("the board lost its Accept button, though the bot cannot reach it")
	}
	r := h.click(bob, m.ID, accept) // the click's answer updates the board
	if _, ok := find(r, customid.Accept, nil); ok || r.ID != m.ID || !strings.Contains(r.Content, "expired") {
		t.Errorf("accepting the expired challenge answered %+v, want the board updated to show it expired", r)
	}
	if _, err := h.srv.WaitMessage(h.ctx(), func(m discordtest.Message) bool {
		return m.VisibleTo == bob && strings.Contains(m.Content, "has ended")
	}); err != nil {
		t.Errorf("bob was not told privately that the challenge had ended: %v", err)
	}
	noChannelRequests(t, h, ch.ID)
}

func TestChallengeFromTheContextMenu(t *testing.T) {
	t.Parallel()
	h, ch, ids := groupDM(t, "alice", "bob")
	alice, bob := ids[0], ids[1]
	ix, err := h.srv.SendUserCommand(alice, ch.ID, "Challenge to a game", bob)
	if err != nil {
		t.Fatal(err)
	}
	picker, err := ix.Reply(h.ctx())
	if err != nil {
		t.Fatal(err)
	}
	pick, ok := find(picker, customid.ChallengePick, map[string]string{"user": bob})
	if !picker.Ephemeral() || !ok {
		t.Fatalf("the context menu answered %+v, want a game select only alice sees", picker)
	}
	m := h.click(alice, picker.ID, pick, "connect4")
	accept, ok := find(m, customid.Accept, nil)
	if m.Ephemeral() || !ok || !strings.Contains(m.Content, "<@"+bob+">") {
		t.Fatalf("choosing a game answered %+v, want a public challenge to bob", m)
	}
	g := h.latestGame(alice)
	if g.Kind != "connect4" || g.Status != storage.StatusPending || g.Players[1].ID != storage.User(bob) {
		t.Fatalf("challenge stored as %+v", g)
	}
	if board := h.click(bob, m.ID, accept); board.ID != m.ID || board.Ephemeral() {
		t.Fatalf("accepting answered %+v, want the challenge turned into the board", board)
	}
	h.waitGame(g.ID, "the game to start", func(g *storage.Game) bool { return g.Status == storage.StatusActive })
	noChannelRequests(t, h, ch.ID)
}

func TestChallengeCommandAcceptAndDecline(t *testing.T) {
	t.Parallel()
	h, ch, ids := groupDM(t, "alice", "bob", "carol")
	alice, bob, carol := ids[0], ids[1], ids[2]
	challenge := func() (discordtest.Message, *storage.Game) {
		t.Helper()
		m := h.commandIn(alice, ch.ID, "challenge", opt("user", bob), opt("game", "tictactoe"), opt("first", "opponent"))
		if m.Ephemeral() || !strings.Contains(m.Content, "<@"+bob+">") {
			t.Fatalf("/challenge answered %+v, want a public challenge to bob", m)
		}
		g := h.latestGame(alice)
		if g.Status != storage.StatusPending || g.Settings.First != "opponent" {
			t.Fatalf("challenge stored as %+v", g)
		}
		return m, g
	}

	m, g := challenge()
	accept, _ := find(m, customid.Accept, nil)
	if r := h.click(carol, m.ID, accept); !r.Ephemeral() || !strings.Contains(r.Content, "not for you") {
		t.Errorf("carol accepting bob's challenge was answered %+v, want a private refusal", r)
	}
	board := h.click(bob, m.ID, accept)
	g = h.waitGame(g.ID, "the game to start", func(g *storage.Game) bool { return g.Status == storage.StatusActive })
	if g.Turn != 1 {
		t.Errorf("bob (opponent) should move first, turn is %d", g.Turn)
	}
	cell, ok := find(board, customid.Move, nil)
	if !ok {
		t.Fatalf("no move on the board %+v", board)
	}
	if r := h.click(carol, board.ID, cell); !r.Ephemeral() || !strings.Contains(r.Content, "not your game") {
		t.Errorf("carol's click on alice and bob's board was answered %+v, want a private refusal", r)
	}
	if r := h.click(bob, board.ID, cell); r.Ephemeral() || r.ID != board.ID {
		t.Errorf("bob's move answered %+v, want the board updated", r)
	}

	m, g = challenge()
	decline, _ := find(m, customid.Decline, nil)
	h.click(bob, m.ID, decline)
	h.waitGame(g.ID, "the challenge to be declined", func(g *storage.Game) bool { return g.Status == storage.StatusDeclined })
	noChannelRequests(t, h, ch.ID)
}

func TestNoChallengeInTheBotsDM(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	dm, err := h.srv.AddDM(alice)
	if err != nil {
		t.Fatal(err)
	}
	if r := h.commandIn(alice, dm.ID, "challenge", opt("user", bob), opt("game", "tictactoe")); !r.Ephemeral() || !strings.Contains(r.Content, "nobody else could accept") {
		t.Errorf("/challenge in the bot's DM answered %+v, want a private explanation", r)
	}
	if r := h.commandIn(alice, dm.ID, "leaderboard", opt("game", "tictactoe")); r.Ephemeral() {
		t.Errorf("/leaderboard in a DM answered %+v, want the global ladder", r)
	}
}
