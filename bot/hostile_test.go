package bot_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// These tests play a hostile client: one that sends custom IDs the bot
// never drew (a tampered client can put any custom ID in a component
// interaction), clicks for games it is not in, and fills command options
// outside their ranges.

// tampered returns a copy of a message snapshot whose only component is
// one of the given type with the given custom ID: what a doctored client
// shows before it clicks. The stand-in delivers the click on the real
// message, as Discord would.
func tampered(m discordtest.Message, typ discordgo.ComponentType, customID string) discordtest.Message {
	c := discordtest.Component{Type: typ, CustomID: customID}
	if typ == discordgo.ButtonComponent {
		c.Style, c.Label = int(discordgo.PrimaryButton), "tampered"
	}
	m.Components = []discordtest.Component{{Type: discordgo.ActionsRowComponent, Components: []discordtest.Component{c}}}
	return m
}

// gameState is what a refused interaction must leave as it was.
func gameState(h *harness, id storage.GameID) string {
	h.t.Helper()
	g := h.game(id)
	return fmt.Sprintf("version %d status %s turn %d moves %v position %q message %s deadline %v",
		g.Version, g.Status, g.Turn, g.Moves, g.Position, g.MessageID, g.Deadline.UnixNano())
}

// snapshot records the state of games, the open games of users and the
// versions of messages, to check that hostile interactions change none.
type snapshot struct {
	games    map[storage.GameID]string
	open     map[string]int
	messages map[string]int
}

func takeSnapshot(h *harness, games []storage.GameID, users []string, messages []string) snapshot {
	h.t.Helper()
	s := snapshot{games: map[storage.GameID]string{}, open: map[string]int{}, messages: map[string]int{}}
	for _, id := range games {
		s.games[id] = gameState(h, id)
	}
	for _, u := range users {
		open, err := h.store.ActiveGames(context.Background(), storage.User(u))
		if err != nil {
			h.t.Fatal(err)
		}
		s.open[u] = len(open)
	}
	for _, id := range messages {
		m, ok := h.message(id)
		if !ok {
			h.t.Fatalf("no message %s", id)
		}
		s.messages[id] = m.Version
	}
	return s
}

// unchanged fails the test if anything recorded in s changed.
func (s snapshot) unchanged(h *harness, what string) {
	h.t.Helper()
	for id, before := range s.games {
		if now := gameState(h, id); now != before {
			h.t.Fatalf("%s changed game %s:\n before %s\n after  %s", what, id, before, now)
		}
	}
	for u, before := range s.open {
		open, err := h.store.ActiveGames(context.Background(), storage.User(u))
		if err != nil || len(open) != before {
			h.t.Fatalf("%s changed the open games of %s: %d before, %d now (%v)", what, u, before, len(open), err)
		}
	}
	for id, before := range s.messages {
		if m, _ := h.message(id); m.Version != before || m.Deleted {
			h.t.Fatalf("%s edited message %s", what, id)
		}
	}
}

// refused checks that a reply is an ephemeral message containing want.
func refused(t *testing.T, what string, m discordtest.Message, want string) {
	t.Helper()
	if !m.Ephemeral() || !strings.Contains(m.Content, want) {
		t.Errorf("%s: reply %q (ephemeral %v), want an ephemeral one containing %q", what, m.Content, m.Ephemeral(), want)
	}
}

func TestTamperedCustomIDsAreRejectedWithoutTouchingAnyGame(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol, dave := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID, h.srv.AddUser("dave").ID
	// Alice is to move, at ply 0, in all three games.
	a := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	b := challengeAndAccept(t, h, alice, carol, storage.Kind("connect4"))
	c := challengeAndAccept(t, h, alice, dave, storage.Kind("adjacency"))
	boardA, boardB, boardC := h.board(a.ID), h.board(b.ID), h.board(c.ID)
	snap := takeSnapshot(h, []storage.GameID{a.ID, b.ID, c.ID}, []string{alice, bob, carol, dave},
		[]string{boardA.ID, boardB.ID, boardC.ID})

	const (
		outOfDate  = "out of date"
		notLegal   = "not a legal move"
		oldVersion = "older version of Gambit"
		notYours   = "not your game"
	)
	long := strings.Repeat("9", customid.MaxLen-len(customid.Move.Build(string(a.ID), "0", "x"))+1)
	for _, tc := range []struct {
		what   string
		user   string
		on     discordtest.Message
		typ    discordgo.ComponentType
		id     string
		values []string
		want   string
	}{
		// Another game's ID on this board: alice may move in game b, but
		// not from game a's board.
		{"another game's move on this board", alice, boardA, discordgo.ButtonComponent, customid.Move.Build(string(b.ID), "0", "4"), nil, outOfDate},
		{"another game's move, by its non-player", bob, boardA, discordgo.ButtonComponent, customid.Move.Build(string(b.ID), "0", "4"), nil, notYours},
		{"another game's pick on this board", alice, boardA, discordgo.SelectMenuComponent, customid.Pick.Build(string(c.ID), "0", "0"), []string{"c3"}, outOfDate},
		{"a game that does not exist", alice, boardA, discordgo.ButtonComponent, customid.Move.Build("nosuchgame", "0", "5"), nil, "does not exist"},
		{"a dotted game ID", alice, boardA, discordgo.ButtonComponent, customid.Move.Build("..", "0", "5"), nil, "does not exist"},
		// Cells off the board, garbage and taken.
		{"cell 99", alice, boardA, discordgo.ButtonComponent, customid.Move.Build(string(a.ID), "0", "99"), nil, notLegal},
		{"cell z9", alice, boardA, discordgo.ButtonComponent, customid.Move.Build(string(a.ID), "0", "z9"), nil, notLegal},
		{"cell 0", alice, boardA, discordgo.ButtonComponent, customid.Move.Build(string(a.ID), "0", "0"), nil, notLegal},
		{"cell -1", alice, boardA, discordgo.ButtonComponent, customid.Move.Build(string(a.ID), "0", "-1"), nil, notLegal},
		{"a full-width digit", alice, boardA, discordgo.ButtonComponent, customid.Move.Build(string(a.ID), "0", "５"), nil, notLegal},
		{"a very long cell", alice, boardA, discordgo.ButtonComponent, customid.Move.Build(string(a.ID), "0", long), nil, notLegal},
		{"an empty cell", alice, boardA, discordgo.ButtonComponent, "v1/move/" + string(a.ID) + "/0/", nil, oldVersion},
		{"column 8", alice, boardB, discordgo.ButtonComponent, customid.Move.Build(string(b.ID), "0", "8"), nil, notLegal},
		{"column 0", alice, boardB, discordgo.ButtonComponent, customid.Move.Build(string(b.ID), "0", "0"), nil, notLegal},
		{"column 44", alice, boardB, discordgo.ButtonComponent, customid.Move.Build(string(b.ID), "0", "44"), nil, notLegal},
		{"pick i9", alice, boardC, discordgo.SelectMenuComponent, customid.Pick.Build(string(c.ID), "0", "0"), []string{"i9"}, notLegal},
		{"pick a0", alice, boardC, discordgo.SelectMenuComponent, customid.Pick.Build(string(c.ID), "0", "0"), []string{"a0"}, notLegal},
		{"pick 99", alice, boardC, discordgo.SelectMenuComponent, customid.Pick.Build(string(c.ID), "0", "0"), []string{"99"}, notLegal},
		{"pick a taken cell", alice, boardC, discordgo.SelectMenuComponent, customid.Pick.Build(string(c.ID), "0", "0"), []string{"a1"}, notLegal},
		{"pick a very long value", alice, boardC, discordgo.SelectMenuComponent, customid.Pick.Build(string(c.ID), "0", "0"), []string{strings.Repeat("c3", 50)}, notLegal},
		{"pick nothing", alice, boardC, discordgo.SelectMenuComponent, customid.Pick.Build(string(c.ID), "0", "0"), nil, notLegal},
		{"pick two cells", alice, boardC, discordgo.SelectMenuComponent, customid.Pick.Build(string(c.ID), "0", "0"), []string{"c3", "d4"}, notLegal},
		{"a cell in an adjacency move button", alice, boardC, discordgo.ButtonComponent, customid.Move.Build(string(c.ID), "0", "i9"), nil, notLegal},
		// Plies that are not the board's.
		{"ply -1", alice, boardA, discordgo.ButtonComponent, customid.Move.Build(string(a.ID), "-1", "5"), nil, outOfDate},
		{"a huge ply", alice, boardA, discordgo.ButtonComponent, customid.Move.Build(string(a.ID), "99999999999999999999999", "5"), nil, outOfDate},
		{"a non-numeric ply", alice, boardA, discordgo.ButtonComponent, customid.Move.Build(string(a.ID), "abc", "5"), nil, outOfDate},
		{"ply 00", alice, boardA, discordgo.ButtonComponent, customid.Move.Build(string(a.ID), "00", "5"), nil, outOfDate},
		{"a future ply", alice, boardA, discordgo.ButtonComponent, customid.Move.Build(string(a.ID), "1", "5"), nil, outOfDate},
		// Shapes no route has.
		{"version v9", alice, boardA, discordgo.ButtonComponent, "v9/move/" + string(a.ID) + "/0/5", nil, oldVersion},
		{"version v2 accept", bob, boardA, discordgo.ButtonComponent, "v2/accept/" + string(a.ID), nil, oldVersion},
		{"an upper-case version", alice, boardA, discordgo.ButtonComponent, "V1/move/" + string(a.ID) + "/0/5", nil, oldVersion},
		{"an unknown action", alice, boardA, discordgo.ButtonComponent, "v1/win/" + string(a.ID), nil, oldVersion},
		{"an extra segment", alice, boardA, discordgo.ButtonComponent, customid.Move.Build(string(a.ID), "0", "5") + "/extra", nil, oldVersion},
		{"a trailing slash", alice, boardA, discordgo.ButtonComponent, customid.Accept.Build(string(a.ID)) + "/", nil, oldVersion},
		{"a missing segment", alice, boardA, discordgo.ButtonComponent, "v1/move/" + string(a.ID) + "/0", nil, oldVersion},
		{"resign confirmed with no", alice, boardA, discordgo.ButtonComponent, customid.Resign.Build(string(a.ID), "0") + "/no", nil, oldVersion},
		{"resign with an extra segment", alice, boardA, discordgo.ButtonComponent, customid.ResignConfirm.Build(string(a.ID), "0") + "/now", nil, oldVersion},
		{"an empty custom ID", alice, boardA, discordgo.ButtonComponent, "", nil, oldVersion},
		{"a lone slash", alice, boardA, discordgo.ButtonComponent, "/", nil, oldVersion},
		// Answers to a challenge that was accepted already.
		{"accept an active game", bob, boardA, discordgo.ButtonComponent, customid.Accept.Build(string(a.ID)), nil, "no longer open"},
		{"decline an active game", bob, boardA, discordgo.ButtonComponent, customid.Decline.Build(string(a.ID)), nil, "no longer open"},
		{"withdraw an active game", alice, boardA, discordgo.ButtonComponent, customid.Decline.Build(string(a.ID)), nil, "no longer open"},
		{"rematch an active game", alice, boardA, discordgo.ButtonComponent, customid.Rematch.Build(string(a.ID)), nil, "not over"},
	} {
		r := h.clickSeen(tc.user, tampered(tc.on, tc.typ, tc.id), tc.id, tc.values...)
		refused(t, tc.what, r, tc.want)
		snap.unchanged(h, tc.what)
	}

	// Another user's ID in the erase-my-data button: carol's own prompt,
	// doctored to erase alice's data.
	_, prompt := h.command(carol, "privacy", discordtest.Option{Name: "delete"})
	if !prompt.Ephemeral() {
		t.Fatalf("/privacy delete answered %q in public", prompt.Content)
	}
	for _, user := range []string{alice, "0", "nobody", strings.Repeat("1", 40)} {
		id := customid.PrivacyDelete.Build(user)
		r := h.clickSeen(carol, tampered(prompt, discordgo.ButtonComponent, id), id)
		refused(t, "erasing the data of "+user, r, "someone else's data")
		snap.unchanged(h, "erasing the data of "+user)
	}
	for _, p := range []string{alice, carol} {
		if games, err := h.store.ActiveGames(context.Background(), storage.User(p)); err != nil || len(games) == 0 {
			t.Errorf("%s's games after a tampered erase: %v, %v", p, games, err)
		}
	}

	// The games still work: nothing was locked or half done.
	if r := h.move(alice, a.ID, "5"); r.Ephemeral() {
		t.Fatalf("a real move after the tampered clicks was refused: %q", r.Content)
	}
	if g := h.game(a.ID); len(g.Moves) != 1 || g.Moves[0] != "5" {
		t.Errorf("game %s moves %v, want [5]", a.ID, g.Moves)
	}
}

func TestNonParticipantsCannotActForThePlayers(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	users := []string{alice, bob, carol}

	// A pending challenge: only bob may accept or decline it, only alice
	// withdraw it.
	_, challenge := h.command(alice, "play", opt("game", "tictactoe"), opt("opponent", bob))
	g := h.waitGame(h.latestGame(alice).ID, "the board", func(g *storage.Game) bool { return g.MessageID != "" })
	accept, _ := find(challenge, customid.Accept, nil)
	decline, _ := find(challenge, customid.Decline, nil)
	snap := takeSnapshot(h, []storage.GameID{g.ID}, users, []string{challenge.ID})
	refused(t, "a bystander's accept", h.click(carol, challenge.ID, accept), "not for you")
	snap.unchanged(h, "a bystander's accept")
	refused(t, "a bystander's decline", h.click(carol, challenge.ID, decline), "not for you")
	snap.unchanged(h, "a bystander's decline")
	refused(t, "the challenger's accept", h.click(alice, challenge.ID, accept), "your own challenge")
	snap.unchanged(h, "the challenger's accept")
	repost := customid.Repost.Build(string(g.ID))
	refused(t, "a bystander's re-post of a challenge", h.clickSeen(carol, tampered(challenge, discordgo.ButtonComponent, repost), repost), "Only the players")
	snap.unchanged(h, "a bystander's re-post of a challenge")
	if r := h.click(bob, challenge.ID, accept); r.Ephemeral() {
		t.Fatalf("bob could not accept: %q", r.Content)
	}
	g = h.waitGame(g.ID, "the game to start", func(g *storage.Game) bool { return g.Status == storage.StatusActive })

	// An active game: carol can neither move, resign, re-post, rematch nor
	// answer it, with real buttons or tampered ones; bob cannot move for
	// alice.
	board := h.board(g.ID)
	snap = takeSnapshot(h, []storage.GameID{g.ID}, users, []string{board.ID})
	cell5, _, _ := moveControl(board, "5")
	refused(t, "a bystander's move", h.click(carol, board.ID, cell5), "not your game")
	snap.unchanged(h, "a bystander's move")
	refused(t, "a move out of turn", h.click(bob, board.ID, cell5), "not your turn")
	snap.unchanged(h, "a move out of turn")
	resign, _ := find(board, customid.Resign, nil)
	refused(t, "a bystander's resign", h.click(carol, board.ID, resign), "Only the players")
	snap.unchanged(h, "a bystander's resign")
	ply := fmt.Sprint(len(g.Moves))
	for _, id := range []string{
		customid.ResignConfirm.Build(string(g.ID), ply),
		customid.ResignConfirm.Build(string(g.ID), "999"),
		customid.ResignConfirm.Build(string(g.ID), "-1"),
	} {
		refused(t, "a bystander's forged "+id, h.clickSeen(carol, tampered(board, discordgo.ButtonComponent, id), id), "Only the players")
		snap.unchanged(h, "a bystander's forged "+id)
	}
	for _, tc := range []struct{ id, want string }{
		{customid.Repost.Build(string(g.ID)), "Only the players"},
		{customid.Rematch.Build(string(g.ID)), "Only the players"},
		{customid.Accept.Build(string(g.ID)), "no longer open"},
		{customid.Decline.Build(string(g.ID)), "no longer open"},
	} {
		refused(t, "a bystander's forged "+tc.id, h.clickSeen(carol, tampered(board, discordgo.ButtonComponent, tc.id), tc.id), tc.want)
		snap.unchanged(h, "a bystander's forged "+tc.id)
	}
	_, m := h.command(carol, "move", opt("cell", "5"), opt("game", string(g.ID)))
	refused(t, "a bystander's /move naming the game", m, "no game "+string(g.ID))
	snap.unchanged(h, "a bystander's /move")
	_, m = h.command(bob, "move", opt("cell", "5"))
	refused(t, "/move out of turn", m, "not your turn")
	snap.unchanged(h, "/move out of turn")

	// A finished game: no rematch, resign or re-post for a bystander.
	h.move(alice, g.ID, "5")
	now := h.board(g.ID)
	resign, _ = find(now, customid.Resign, nil)
	ask := h.click(bob, now.ID, resign)
	confirm, ok := find(ask, customid.ResignConfirm, nil)
	if !ok {
		t.Fatalf("Resign answered %q without a confirm button", ask.Content)
	}
	if r := h.click(bob, ask.ID, confirm); !strings.Contains(r.Content, "resigned") {
		t.Fatalf("bob's resignation answered %q", r.Content)
	}
	final := h.waitBoard(g.ID, "the Rematch button", func(m discordtest.Message) bool {
		_, ok := find(m, customid.Rematch, nil)
		return ok
	})
	rematch, _ := find(final, customid.Rematch, nil)
	snap = takeSnapshot(h, []storage.GameID{g.ID}, users, []string{final.ID})
	refused(t, "a bystander's rematch", h.click(carol, final.ID, rematch), "Only the players")
	snap.unchanged(h, "a bystander's rematch")
	for _, tc := range []struct{ id, want string }{
		{customid.ResignConfirm.Build(string(g.ID), fmt.Sprint(len(h.game(g.ID).Moves))), "Only the players"},
		{customid.Repost.Build(string(g.ID)), "Only the players"},
		{customid.Move.Build(string(g.ID), fmt.Sprint(len(h.game(g.ID).Moves)), "1"), "not your game"},
	} {
		refused(t, "a bystander's forged "+tc.id, h.clickSeen(carol, tampered(final, discordgo.ButtonComponent, tc.id), tc.id), tc.want)
		snap.unchanged(h, "a bystander's forged "+tc.id)
	}
	if g := h.game(g.ID); g.Status != storage.StatusFinished || g.Result == nil || g.Result.Winner != 0 {
		t.Errorf("the game ended as %s %+v, want alice (seat 0) winning by bob's resignation", g.Status, g.Result)
	}
}

// publicCount counts the messages of the default channel everyone sees.
func publicCount(h *harness) int {
	n := 0
	for _, m := range h.messages(h.srv.ChannelID()) {
		if !m.Ephemeral() {
			n++
		}
	}
	return n
}

func TestOptionsOutOfRangeAreRefusedAndCreateNothing(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID

	// The stand-in, like Discord's client and API, refuses a value that is
	// not one of an option's choices or not of its type: such a value never
	// reaches the bot, so only the refusal is checked here. It does not
	// check min_value, max_value or max_length, which Discord's client
	// enforces but a hostile request need not: those reach the bot.
	for _, opts := range [][]discordtest.Option{
		{opt("game", "chess")},
		{opt("game", "tictactoe"), opt("first", "sideways")},
		{opt("game", "adjacency"), opt("rounds", 2.5)},
		{opt("game", "adjacency"), opt("rounds", "8")},
		{opt("game", "adjacency"), opt("movetime", "fast")},
	} {
		if _, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: alice, Name: "play", Options: opts}); err == nil {
			t.Errorf("the stand-in delivered /play %+v", opts)
		}
	}
	// NaN and infinities cannot be written in JSON; 1e308 seconds is the
	// nearest a request gets (its nanoseconds overflow an int64).
	for _, tc := range []struct {
		opts []discordtest.Option
		want string
	}{
		{[]discordtest.Option{opt("game", "adjacency"), opt("rounds", 1)}, "rounds must be between 2 and 28"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("rounds", 29)}, "rounds must be between 2 and 28"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("rounds", 0)}, "rounds must be between 2 and 28"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("rounds", -5)}, "rounds must be between 2 and 28"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("rounds", int64(1e12))}, "rounds must be between 2 and 28"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("rounds", int64(math.MaxInt64))}, "Option rounds must be a whole number"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("movetime", 0)}, "movetime must be between 0.1 and 60 seconds"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("movetime", -1)}, "movetime must be between 0.1 and 60 seconds"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("movetime", 61)}, "movetime must be between 0.1 and 60 seconds"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("movetime", 60.001)}, "movetime must be between 0.1 and 60 seconds"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("movetime", 0.05)}, "movetime must be between 0.1 and 60 seconds"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("movetime", 1e308)}, "movetime must be between 0.1 and 60 seconds"},
		{[]discordtest.Option{opt("game", "adjacency"), opt("movetime", -1e308)}, "movetime must be between 0.1 and 60 seconds"},
		{[]discordtest.Option{opt("game", "connect4"), opt("rounds", 1)}, "rounds applies to Adjacency only"},
	} {
		public := publicCount(h)
		_, m := h.command(alice, "play", tc.opts...)
		refused(t, fmt.Sprintf("/play %+v", tc.opts), m, tc.want)
		if publicCount(h) != public {
			t.Errorf("/play %+v posted in the channel", tc.opts)
		}
	}
	if games, err := h.store.ActiveGames(context.Background(), storage.User(alice)); err != nil || len(games) != 0 {
		t.Errorf("refused /play commands created games: %+v (%v)", games, err)
	}

	for _, tc := range []struct {
		opts []discordtest.Option
		want string
	}{
		{[]discordtest.Option{opt("movetime", 0)}, "movetime must be between 0.1 and 60 seconds"},
		{[]discordtest.Option{opt("movetime", 61)}, "movetime must be between 0.1 and 60 seconds"},
		{[]discordtest.Option{opt("movetime", 1e308)}, "movetime must be between 0.1 and 60 seconds"},
		{[]discordtest.Option{opt("turn-timeout", 0)}, "turn-timeout must be between 1 and 336 hours"},
		{[]discordtest.Option{opt("turn-timeout", 337)}, "turn-timeout must be between 1 and 336 hours"},
		{[]discordtest.Option{opt("turn-timeout", -1)}, "turn-timeout must be between 1 and 336 hours"},
		{[]discordtest.Option{opt("turn-timeout", int64(1e12))}, "turn-timeout must be between 1 and 336 hours"},
		{[]discordtest.Option{opt("games", "chess")}, "Unknown game \"chess\""},
		{[]discordtest.Option{opt("games", "connect4,chess")}, "Unknown game \"chess\""},
		{[]discordtest.Option{opt("games", "all,tictactoe")}, "\"all\" means every game: write it alone"},
		// One bad option refuses the others with it.
		{[]discordtest.Option{opt("movetime", 5), opt("turn-timeout", 2), opt("games", "go")}, "Unknown game \"go\""},
	} {
		_, m := h.command(alice, "settings", tc.opts...)
		refused(t, fmt.Sprintf("/settings %+v", tc.opts), m, tc.want)
	}
	if s, err := h.store.GuildSettings(context.Background(), h.srv.GuildID()); err != nil || s.MoveTime != 0 || s.TurnTimeout != 0 || s.AllowedGames != nil {
		t.Errorf("refused /settings stored %+v (%v)", s, err)
	}

	// /move with cells that are no cells, in a game of alice's.
	bob := h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("connect4"))
	snap := takeSnapshot(h, []storage.GameID{g.ID}, []string{alice, bob}, []string{g.MessageID})
	for _, cell := range []string{"0", "8", "99", "z9", "٤", "", " ", "-1", "4 4", "4444444444"} {
		_, m := h.command(alice, "move", opt("cell", cell))
		refused(t, fmt.Sprintf("/move cell:%q", cell), m, "not a legal move")
		snap.unchanged(h, fmt.Sprintf("/move cell:%q", cell))
	}
	for _, game := range []string{"nosuchgame", "..", strings.Repeat("x", 32), "<@" + bob + ">"} {
		_, m := h.command(alice, "move", opt("cell", "4"), opt("game", game))
		refused(t, fmt.Sprintf("/move game:%q", game), m, "You have no game")
		snap.unchanged(h, fmt.Sprintf("/move game:%q", game))
	}
}

func TestAPanicInAHandlerIsRecoveredWithAnApology(t *testing.T) {
	t.Parallel()
	h := start(t, withBot(bot.PanicRoute))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	_, challenge := h.command(alice, "play", opt("game", "connect4"), opt("opponent", bob))
	g := h.waitGame(h.latestGame(alice).ID, "the board", func(g *storage.Game) bool { return g.MessageID != "" })
	snap := takeSnapshot(h, []storage.GameID{g.ID}, []string{alice, bob}, []string{challenge.ID})

	id := bot.PanicPattern.Build("1")
	ix, err := h.srv.ClickSeen(alice, tampered(challenge, discordgo.ButtonComponent, id), id)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ix.Reply(h.ctx())
	if err != nil {
		t.Fatalf("no answer to the click whose handler panicked: %v", err)
	}
	if !r.Ephemeral() || !strings.Contains(r.Content, "Sorry") || !strings.Contains(r.Content, "something broke") {
		t.Errorf("the answer to a panic: %q (ephemeral %v), want an ephemeral apology", r.Content, r.Ephemeral())
	}
	h.waitLog("panic in interaction handler")
	var line string
	for _, l := range strings.Split(h.logs.String(), "\n") {
		if strings.Contains(l, "panic in interaction handler") {
			line = l
		}
	}
	if !strings.Contains(line, "interaction="+ix.ID) || !strings.Contains(line, "test panic") || !strings.Contains(line, "level=ERROR") {
		t.Errorf("the panic's log line %q lacks the level, the interaction ID %s or the panic value", line, ix.ID)
	}
	snap.unchanged(h, "the panicking handler")

	// The bot keeps serving: a command and a real click both work.
	_, help := h.command(bob, "help")
	if !help.Ephemeral() || strings.Contains(help.Content, "Sorry") || help.Content+embedText(help) == "" {
		t.Errorf("/help after the panic: %q %q", help.Content, embedText(help))
	}
	accept, _ := find(challenge, customid.Accept, nil)
	if board := h.click(bob, challenge.ID, accept); board.Ephemeral() {
		t.Errorf("accepting after the panic: %q", board.Content)
	}
	h.waitGame(g.ID, "the game to start", func(g *storage.Game) bool { return g.Status == storage.StatusActive })
}

// A ResignConfirm ID carries the ply of the board it was drawn for; a
// player's tampered confirmation with a ply the bot never drew
// (non-numeric, negative, huge, ahead of the game) is refused.
func TestAPlayersTamperedResignPlyIsRefused(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	board := h.board(g.ID)
	snap := takeSnapshot(h, []storage.GameID{g.ID}, []string{alice, bob}, []string{board.ID})
	for _, ply := range []string{"abc", "-1", "99999999999999999999", "7"} {
		id := customid.ResignConfirm.Build(string(g.ID), ply)
		r := h.clickSeen(alice, tampered(board, discordgo.ButtonComponent, id), id)
		if !r.Ephemeral() || r.Content == "" {
			t.Errorf("resigning with ply %s: reply %q (ephemeral %v), want an ephemeral refusal", ply, r.Content, r.Ephemeral())
		}
		snap.unchanged(h, "resigning with ply "+ply)
	}
}
