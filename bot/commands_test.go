package bot_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// askChoices sends an autocomplete request of a command as a user (in the
// default channel if channel is "") and returns the bot's choices.
func askChoices(t *testing.T, h *harness, user, channel, command string, opts ...discordtest.Option) []discordtest.Choice {
	t.Helper()
	ix, err := h.srv.SendAutocomplete(discordtest.SlashCommand{UserID: user, ChannelID: channel, Name: command, Options: opts})
	if err != nil {
		t.Fatalf("autocomplete /%s: %v", command, err)
	}
	r, err := ix.Response(h.ctx())
	if err != nil {
		t.Fatalf("autocomplete /%s: no response: %v", command, err)
	}
	if r.Type != discordgo.InteractionApplicationCommandAutocompleteResult {
		t.Fatalf("autocomplete /%s answered with response type %d", command, r.Type)
	}
	return r.Choices
}

// focused is an option being typed in an autocomplete request.
func focused(name, typed string) discordtest.Option {
	return discordtest.Option{Name: name, Value: typed, Focused: true}
}

// choiceValues returns the values of autocomplete choices, in order.
func choiceValues(cs []discordtest.Choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = fmt.Sprint(c.Value)
	}
	return out
}

// sortedCopy returns a sorted copy of s.
func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// cellButtonOf returns the button of a Tic-Tac-Toe cell on a board,
// enabled or not.
func cellButtonOf(m discordtest.Message, cell string) (discordtest.Component, bool) {
	for _, c := range components(m) {
		if p, ok := customid.Move.Match(c.CustomID); ok && p["cell"] == cell {
			return c, true
		}
	}
	return discordtest.Component{}, false
}

// markedWith reports whether a Tic-Tac-Toe cell is shown taken by mark.
func markedWith(m discordtest.Message, cell, mark string) bool {
	c, ok := cellButtonOf(m, cell)
	return ok && c.Disabled && c.Emoji != nil && c.Emoji.Name == mark
}

// forgedClick returns a snapshot of a message the user can see that carries
// a button with customID: what a modified client could send. The bot must
// not trust that a component came from the clicking user's own message.
func forgedClick(m discordtest.Message, customID string) discordtest.Message {
	m.Components = []discordtest.Component{{
		Type: discordgo.ActionsRowComponent,
		Components: []discordtest.Component{{
			Type: discordgo.ButtonComponent, Style: int(discordgo.DangerButton), Label: "forged", CustomID: customID,
		}},
	}}
	return m
}

// publicMessages returns the messages of a channel everyone sees.
func publicMessages(h *harness, channel string) []discordtest.Message {
	var out []discordtest.Message
	for _, m := range h.messages(channel) {
		if !m.Ephemeral() {
			out = append(out, m)
		}
	}
	return out
}

// resignByUI resigns a game as a user through the Resign button and its
// confirmation, and returns the finished game once its board shows it.
func resignByUI(t *testing.T, h *harness, user string, id storage.GameID) *storage.Game {
	t.Helper()
	board := h.board(id)
	resign, ok := find(board, customid.Resign, nil)
	if !ok {
		t.Fatalf("game %s: no Resign button on %+v", id, board.Components)
	}
	ask := h.click(user, board.ID, resign)
	confirm, ok := find(ask, customid.ResignConfirm, map[string]string{"game": string(id)})
	if !ok || !ask.Ephemeral() {
		t.Fatalf("game %s: Resign answered %q (ephemeral %v) without a confirm button", id, ask.Content, ask.Ephemeral())
	}
	if r := h.click(user, ask.ID, confirm); !strings.Contains(r.Content, "resigned") && !strings.Contains(r.Content, "menyerah") {
		t.Fatalf("game %s: confirming the resignation answered %q", id, r.Content)
	}
	g := h.waitGame(id, "the resignation", func(g *storage.Game) bool { return g.Status.Ended() })
	// A tournament pairs its players' next game: its ended board has no
	// Rematch, only its Resign gone.
	tournament := g.Settings.Tournament != ""
	ended := h.waitBoard(id, "the result on the board", func(m discordtest.Message) bool {
		_, rematch := find(m, customid.Rematch, nil)
		_, resign := find(m, customid.Resign, nil)
		return rematch || tournament && !resign
	})
	if _, rematch := find(ended, customid.Rematch, nil); tournament && rematch {
		t.Errorf("game %s: a tournament's ended board offers a Rematch", id)
	}
	return g
}

// countRequests counts the requests the stand-in answered with a method and
// route.
func countRequests(h *harness, method, route string) int {
	n := 0
	for _, r := range h.srv.Requests() {
		if r.Method == method && r.Route == route {
			n++
		}
	}
	return n
}

func TestPlayAutocompleteOffersTheAIsOfTheChosenGame(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID

	got := askChoices(t, h, alice, "", "play", opt("game", "adjacency"), focused("ai", "gen"))
	var want []string
	byName := map[string]strategies.Info{}
	for _, i := range strategies.ForGame("adjacency") {
		if strings.Contains(i.Name, "gen") {
			want = append(want, i.Name)
			byName[i.Name] = i
		}
	}
	if len(want) == 0 {
		t.Fatal("no adjacency strategy has gen in its name: the test needs another prefix")
	}
	if g := sortedCopy(choiceValues(got)); !slices.Equal(g, sortedCopy(want)) {
		t.Errorf("ai choices for adjacency/gen: %v, want %v", g, want)
	}
	for _, c := range got {
		i := byName[fmt.Sprint(c.Value)]
		if want := i.Label("adjacency"); c.Name != want {
			t.Errorf("choice %q should be the display name, difficulty and blurb, whole: %q", c.Name, want)
		}
	}

	var adjacencyOnly []string
	for _, i := range strategies.All() {
		if i.Supports("adjacency") && !i.Supports("connect4") {
			adjacencyOnly = append(adjacencyOnly, i.Name)
		}
	}
	if len(adjacencyOnly) == 0 {
		t.Fatal("no Adjacency-only strategy to check")
	}
	got = askChoices(t, h, alice, "", "play", opt("game", "connect4"), focused("ai", ""))
	var connect4 []string
	for _, i := range strategies.ForGame("connect4") {
		connect4 = append(connect4, i.Name)
	}
	if g := sortedCopy(choiceValues(got)); !slices.Equal(g, sortedCopy(connect4)) {
		t.Errorf("ai choices for connect4: %v, want %v", g, connect4)
	}
	for _, name := range adjacencyOnly {
		if slices.Contains(choiceValues(got), name) {
			t.Errorf("the Adjacency-only %s is offered for connect4", name)
		}
	}
	// A prefix that matches Adjacency-only strategies too.
	got = askChoices(t, h, alice, "", "play", opt("game", "connect4"), focused("ai", "seed"))
	for _, v := range choiceValues(got) {
		if i, err := strategies.Lookup(v); err != nil || !i.Supports("connect4") || !strings.Contains(v, "seed") {
			t.Errorf("connect4/seed offers %s", v)
		}
	}
	if len(got) == 0 {
		t.Error("connect4/seed offers nothing, want the seed strategies that play connect4")
	}
}

func TestMoveAutocompleteAndATypedMove(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	g, board := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	all := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	if got := choiceValues(askChoices(t, h, alice, "", "move", focused("cell", ""))); !slices.Equal(got, all) {
		t.Errorf("cell choices on an empty board: %v, want %v", got, all)
	}

	_, r := h.command(alice, "move", opt("cell", "5"))
	if !r.Ephemeral() || !strings.Contains(r.Content, "You played 5") {
		t.Fatalf("/move cell:5 answered %q (ephemeral %v)", r.Content, r.Ephemeral())
	}
	g = h.waitGame(g.ID, "the AI's reply", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	if g.Moves[0] != "5" || g.MessageID != board.ID {
		t.Fatalf("after /move the game has moves %v on message %s, want 5 first on the board %s", g.Moves, g.MessageID, board.ID)
	}
	h.waitBoard(g.ID, "both moves on the board", func(m discordtest.Message) bool {
		return markedWith(m, "5", "❌") && markedWith(m, g.Moves[1], "🔵") && strings.Contains(m.Content, "your move")
	})
	if n := len(publicMessages(h, h.srv.ChannelID())); n != 1 {
		t.Errorf("the channel has %d public messages, want only the board (edited, not posted again)", n)
	}

	var empty []string
	for _, c := range all {
		if !slices.Contains(g.Moves, c) {
			empty = append(empty, c)
		}
	}
	if got := choiceValues(askChoices(t, h, alice, "", "move", focused("cell", ""))); !slices.Equal(got, empty) {
		t.Errorf("cell choices: %v, want the empty cells %v", got, empty)
	}
	if got := choiceValues(askChoices(t, h, alice, "", "move", focused("cell", empty[0]))); !slices.Equal(got, empty[:1]) {
		t.Errorf("cell choices for %q: %v, want %v", empty[0], got, empty[:1])
	}
	if got := askChoices(t, h, alice, "", "move", focused("cell", "5")); len(got) != 0 {
		t.Errorf("cell choices for the taken 5: %v, want none", choiceValues(got))
	}

	// A second game here and one in another channel.
	second, _ := playAI(t, h, alice, opt("game", "connect4"), opt("ai", "random"))
	other, err := h.srv.AddChannel(h.srv.GuildID(), "elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: alice, ChannelID: other.ID, Name: "play",
		Options: []discordtest.Option{opt("game", "tictactoe"), opt("ai", "random")}})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := ix.Reply(h.ctx()); err != nil || m.Ephemeral() {
		t.Fatalf("/play in another channel: %q %v", m.Content, err)
	}
	h.waitGame(h.latestGame(alice).ID, "the third board", func(g *storage.Game) bool { return g.MessageID != "" })

	gameChoices := askChoices(t, h, alice, "", "move", opt("cell", "1"), focused("game", ""))
	if got, want := sortedCopy(choiceValues(gameChoices)), sortedCopy([]string{string(g.ID), string(second.ID)}); !slices.Equal(got, want) {
		t.Errorf("game choices here: %v, want %v (not the game of the other channel)", got, want)
	}
	for _, c := range gameChoices {
		kind := map[string]string{string(g.ID): "tictactoe", string(second.ID): "connect4"}[fmt.Sprint(c.Value)]
		if !strings.Contains(c.Name, kind) || !strings.Contains(c.Name, "your move") {
			t.Errorf("game choice %q should name the game %s and that it is alice's move", c.Name, kind)
		}
	}
	if got := choiceValues(askChoices(t, h, alice, "", "move", opt("cell", "1"), focused("game", string(second.ID)))); !slices.Equal(got, []string{string(second.ID)}) {
		t.Errorf("game choices for %q: %v", second.ID, got)
	}
	// With the game named, the cells are those of that game.
	columns := []string{"1", "2", "3", "4", "5", "6", "7"}
	if got := choiceValues(askChoices(t, h, alice, "", "move", focused("cell", ""), opt("game", string(second.ID)))); !slices.Equal(got, columns) {
		t.Errorf("cell choices of the Connect Four game: %v, want %v", got, columns)
	}
	_, r = h.command(alice, "move", opt("cell", "4"), opt("game", string(second.ID)))
	if !r.Ephemeral() || !strings.Contains(r.Content, "You played 4") {
		t.Fatalf("/move cell:4 game:%s answered %q", second.ID, r.Content)
	}
	h.waitGame(second.ID, "the move in the named game", func(g *storage.Game) bool { return len(g.Moves) >= 1 && g.Moves[0] == "4" })
	if got := h.game(g.ID); len(got.Moves) != 2 {
		t.Errorf("the other game changed: %v", got.Moves)
	}
}

func TestResignNeedsConfirmationAndOnlyPlayersMayResign(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	h.move(alice, g.ID, "5")
	g = h.game(g.ID)
	board := h.board(g.ID)
	resign, ok := find(board, customid.Resign, nil)
	if !ok {
		t.Fatalf("no Resign button on %+v", board.Components)
	}
	unchanged := func(what string) {
		t.Helper()
		if got := h.game(g.ID); got.Status != storage.StatusActive || got.Version != g.Version {
			t.Fatalf("%s changed the game: %+v", what, got)
		}
	}

	if r := h.click(carol, board.ID, resign); !r.Ephemeral() || !strings.Contains(r.Content, "Only the players") {
		t.Errorf("a bystander's Resign: %q (ephemeral %v)", r.Content, r.Ephemeral())
	}
	unchanged("a bystander's Resign")
	confirmID := customid.ResignConfirm.Build(string(g.ID), fmt.Sprint(len(g.Moves)))
	if r := h.clickSeen(carol, forgedClick(board, confirmID), confirmID); !r.Ephemeral() || !strings.Contains(r.Content, "Only the players") {
		t.Errorf("a bystander's forged confirmation: %q (ephemeral %v)", r.Content, r.Ephemeral())
	}
	unchanged("a bystander's forged confirmation")

	// Bob resigns although it is his turn; asking alone changes nothing.
	ask := h.click(bob, board.ID, resign)
	confirm, ok := find(ask, customid.ResignConfirm, nil)
	if !ask.Ephemeral() || !ok || !strings.Contains(ask.Content, "Resign this game?") {
		t.Fatalf("Resign answered %q (ephemeral %v, confirm button %v)", ask.Content, ask.Ephemeral(), ok)
	}
	unchanged("asking to resign")
	if r := h.click(bob, ask.ID, confirm); !strings.Contains(r.Content, "You resigned") {
		t.Errorf("confirming answered %q", r.Content)
	}
	g = h.game(g.ID)
	if g.Status != storage.StatusFinished || g.Result == nil || g.Result.Winner != 0 || g.Result.Outcome != storage.Resigned {
		t.Fatalf("after bob resigned the game is %s with %+v, want finished, alice (seat 0) winning, reason resigned", g.Status, g.Result)
	}
	final := h.waitBoard(g.ID, "the result on the board", func(m discordtest.Message) bool {
		text := embedText(m)
		return strings.Contains(text, "<@"+alice+"> wins") && strings.Contains(text, "<@"+bob+"> resigned")
	})
	if _, ok := find(final, customid.Rematch, nil); !ok {
		t.Errorf("the finished board has no Rematch button: %+v", final.Components)
	}
	if _, _, ok := moveControl(final, "1"); ok {
		t.Error("the finished board still offers moves")
	}
	if _, ok := find(final, customid.Resign, nil); ok {
		t.Error("the finished board still offers Resign")
	}
	// A second confirmation from the old prompt changes nothing.
	version := g.Version
	if r := h.clickSeen(bob, ask, confirm); !r.Ephemeral() || !strings.Contains(r.Content, "over") {
		t.Errorf("confirming again: %q", r.Content)
	}
	if got := h.game(g.ID); got.Version != version || got.Result.Winner != 0 {
		t.Errorf("a second confirmation changed the game: %+v", got)
	}
	for p, wins := range map[string]int{alice: 1, bob: 0} {
		rv, err := h.store.Rank(context.Background(), storage.Global(storage.Kind("tictactoe")), storage.User(p), 0)
		if err != nil || rv.Player.Rating.Games != 1 || rv.Player.Rating.Wins != wins {
			t.Errorf("rating of %s after the resignation: %+v, %v", p, rv.Player.Rating, err)
		}
	}
}

func TestRematchAgainstAnAIStartsOnceWithColoursSwapped(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	old, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	if old.Turn != 0 {
		t.Fatalf("alice should move first, turn is seat %d", old.Turn)
	}
	resignByUI(t, h, alice, old.ID)
	oldBoard := h.board(old.ID)
	rematch, ok := find(oldBoard, customid.Rematch, nil)
	if !ok {
		t.Fatalf("no Rematch button on %+v", oldBoard.Components)
	}

	// The answer is the old board, retired; the new board follows it.
	r := h.click(alice, oldBoard.ID, rematch)
	if _, offered := find(r, customid.Rematch, nil); r.Ephemeral() || r.ID != oldBoard.ID || offered || !strings.Contains(r.Content, "rematch was started") {
		t.Fatalf("Rematch answered %q (ephemeral %v, Rematch offered %v), want the old board retired", r.Content, r.Ephemeral(), offered)
	}
	g := h.waitGame(h.latestGame(alice).ID, "the rematch board", func(g *storage.Game) bool { return g.MessageID != "" })
	if m, ok := h.message(g.MessageID); !ok || m.Ephemeral() || m.ID == oldBoard.ID {
		t.Fatalf("the rematch board %q is not a new public message", g.MessageID)
	}
	if g.ID == old.ID || g.Kind != storage.Kind("tictactoe") || g.Players[0].ID != storage.User(alice) || g.Players[1].ID != storage.AI("random") {
		t.Fatalf("rematch stored as %+v", g)
	}
	if g.Settings.First != "opponent" {
		t.Errorf("rematch first mover setting %q, want opponent (the AI moves first this time)", g.Settings.First)
	}
	g = h.waitGame(g.ID, "the AI's first move", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	if g.Status != storage.StatusActive || g.Turn != 0 {
		t.Errorf("after the AI's first move the rematch is %s with seat %d to move", g.Status, g.Turn)
	}
	h.waitBoard(g.ID, "alice's turn on the rematch board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+alice+">, your move") && markedWith(m, g.Moves[0], "❌")
	})

	again := h.clickSeen(alice, oldBoard, rematch)
	if !again.Ephemeral() || !strings.Contains(again.Content, "already") {
		t.Errorf("a second Rematch answered %q (ephemeral %v), want an ephemeral refusal", again.Content, again.Ephemeral())
	}
	open, err := h.store.ActiveGames(context.Background(), storage.User(alice))
	if err != nil || len(open) != 1 || open[0].ID != g.ID {
		t.Errorf("open games after two Rematch clicks: %d (%v), want only %s", len(open), err, g.ID)
	}
	if n := len(publicMessages(h, h.srv.ChannelID())); n != 2 {
		t.Errorf("%d public messages, want the old board and one rematch board", n)
	}
}

// TestRematchButtonIsRetired checks that a Rematch leaves no working
// Rematch button behind, also across a restart of the bot.
func TestRematchButtonIsRetired(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	old, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	resignByUI(t, h, alice, old.ID)
	oldBoard := h.board(old.ID)
	rematch, _ := find(oldBoard, customid.Rematch, nil)
	h.click(alice, oldBoard.ID, rematch)
	first := h.waitGame(h.latestGame(alice).ID, "the rematch board", func(g *storage.Game) bool { return g.MessageID != "" })
	retired := h.waitBoard(old.ID, "the rematch notice", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "rematch was started")
	})
	if _, ok := find(retired, customid.Rematch, nil); ok {
		t.Errorf("the old board still offers Rematch after a rematch started: %+v", retired.Components)
	}
	h.stop()
	h.run()
	// The in-memory guard is gone after a restart: whatever the old board
	// still offers must not start a second rematch.
	if cur, _ := h.message(oldBoard.ID); func() bool { _, ok := find(cur, customid.Rematch, nil); return ok }() {
		if r := h.click(alice, cur.ID, rematch); !r.Ephemeral() {
			t.Errorf("after a restart Rematch on the old board answered %q", r.Content)
		}
	}
	if open, _ := h.store.ActiveGames(context.Background(), storage.User(alice)); len(open) != 1 || open[0].ID != first.ID {
		t.Errorf("after a restart a second rematch started: %d open games", len(open))
	}
}

// TestARefusedRematchCanBeAskedAgain checks that a Rematch refused because
// the server no longer allows the game does not count as started.
func TestARefusedRematchCanBeAskedAgain(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	old, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	resignByUI(t, h, alice, old.ID)
	board := h.board(old.ID)
	rematch, _ := find(board, customid.Rematch, nil)

	h.command(alice, "settings", opt("games", "connect4"))
	if r := h.click(alice, board.ID, rematch); !r.Ephemeral() || !strings.Contains(r.Content, "no longer allowed") {
		t.Fatalf("Rematch of a game the server no longer allows answered %q", r.Content)
	}
	if open, _ := h.store.ActiveGames(context.Background(), storage.User(alice)); len(open) != 0 {
		t.Fatalf("a refused Rematch started a game")
	}
	h.command(alice, "settings", opt("games", "all"))
	if r := h.clickSeen(alice, board, rematch); r.Ephemeral() {
		t.Errorf("Rematch once the game is allowed again answered %q, want a new game", r.Content)
	}
}

func TestRematchBetweenUsersChallengesTheOtherPlayer(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	old := challengeAndAccept(t, h, alice, bob, storage.Kind("connect4"))
	h.move(alice, old.ID, "4")
	resignByUI(t, h, alice, old.ID)
	board := h.board(old.ID)
	rematch, _ := find(board, customid.Rematch, nil)

	ratings := embedText(board)
	if i := strings.Index(ratings, "Rating changes"); i < 0 {
		t.Fatalf("the ended board shows no rating changes: %q", ratings)
	} else {
		ratings = ratings[i:]
	}
	if r := h.click(bob, board.ID, rematch); r.Ephemeral() || r.ID != board.ID {
		t.Fatalf("bob's Rematch answered %q (ephemeral %v), want the old board updated", r.Content, r.Ephemeral())
	}
	// The old board keeps its rating changes.
	h.waitBoard(old.ID, "the old board without its Rematch button", func(m discordtest.Message) bool {
		_, ok := find(m, customid.Rematch, nil)
		return !ok && strings.Contains(m.Content, "A rematch was started below")
	})
	if now := embedText(h.board(old.ID)); !strings.Contains(now, ratings) {
		t.Errorf("the rematch took the rating changes off the old board: %q, want %q in it", now, ratings)
	}
	r, err := h.waitMessage(h.ctx(), func(m discordtest.Message) bool {
		_, ok := find(m, customid.Accept, nil)
		return ok && m.ID != board.ID
	})
	if err != nil || r.Ephemeral() || !strings.Contains(r.Content, "<@"+alice+">") {
		t.Fatalf("bob's Rematch posted %q (ephemeral %v, %v), want a public challenge to alice", r.Content, r.Ephemeral(), err)
	}
	accept, ok := find(r, customid.Accept, nil)
	if !ok {
		t.Fatalf("the rematch challenge has no Accept button: %+v", r.Components)
	}
	g := h.waitGame(h.latestGame(bob).ID, "the challenge message", func(g *storage.Game) bool { return g.MessageID != "" })
	if g.Status != storage.StatusPending || g.Kind != storage.Kind("connect4") || g.MessageID != r.ID ||
		g.Players[0].ID != storage.User(bob) || g.Players[1].ID != storage.User(alice) {
		t.Fatalf("rematch stored as %+v, want bob challenging alice to connect4", g)
	}
	if b := h.click(alice, r.ID, accept); b.Ephemeral() {
		t.Fatalf("alice could not accept the rematch: %q", b.Content)
	}
	g = h.waitGame(g.ID, "the rematch to start", func(g *storage.Game) bool { return g.Status == storage.StatusActive })
	if g.Players[g.Turn].ID != storage.User(bob) {
		t.Errorf("alice moved first last time; in the rematch %s is to move, want bob", g.Players[g.Turn].ID)
	}
}

func TestAnUnplayedTurnForfeitsAfterTheTurnTimeout(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	if want := h.clock.Now().Add(bot.DefaultTurnTimeout); !g.Deadline.Equal(want) {
		t.Errorf("turn deadline %v, want %v", g.Deadline, want)
	}
	h.clock.Advance(bot.DefaultTurnTimeout - time.Minute)
	time.Sleep(100 * time.Millisecond) // several ticks: nothing may happen yet
	if got := h.game(g.ID); got.Status != storage.StatusActive {
		t.Fatalf("the game is %s a minute before the timeout", got.Status)
	}
	h.clock.Advance(2 * time.Minute)
	g = h.waitGame(g.ID, "the forfeit", func(g *storage.Game) bool { return g.Status != storage.StatusActive })
	if g.Status != storage.StatusForfeited || g.Result == nil || g.Result.Winner != 1 || g.Result.Outcome != storage.TimedOut {
		t.Fatalf("timed-out game is %s with %+v, want forfeited, bob (seat 1) winning on timeout", g.Status, g.Result)
	}
	board := h.waitBoard(g.ID, "the forfeit on the board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+alice+"> ran out of time") && strings.Contains(embedText(m), "forfeited on time")
	})
	if _, _, ok := moveControl(board, "1"); ok {
		t.Error("the forfeited board still offers moves")
	}
	if _, ok := find(board, customid.Rematch, nil); !ok {
		t.Error("the forfeited board has no Rematch button")
	}
	for _, l := range []storage.Ladder{storage.Global(storage.Kind("tictactoe")), {Kind: storage.Kind("tictactoe"), Guild: h.srv.GuildID()}} {
		for p, wins := range map[string]int{alice: 0, bob: 1} {
			rv, err := h.store.Rank(context.Background(), l, storage.User(p), 0)
			if err != nil || rv.Player.Rating.Games != 1 || rv.Player.Rating.Wins != wins {
				t.Errorf("%s rating of %s after the forfeit: %+v, %v", l, p, rv.Player.Rating, err)
			}
		}
	}
	if !strings.Contains(embedText(board), "Rating changes") {
		t.Errorf("the forfeited board shows no rating changes: %q", embedText(board))
	}
}

// TestLeaderboardAfterOneGameAgainstAnAI starts from an empty ladder; after
// one game against an AI the AI's rating is still its calibrated one, the
// player's moved, and /leaderboard ranks the player first, provisional,
// and lists the AI apart below.
func TestLeaderboardAfterOneGameAgainstAnAI(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	for _, tc := range []struct {
		scope []discordtest.Option
		where string
	}{
		{nil, "this server"},
		{[]discordtest.Option{opt("scope", "server")}, "this server"},
		{[]discordtest.Option{opt("scope", "global")}, "global"},
	} {
		_, m := h.command(alice, "leaderboard", append([]discordtest.Option{opt("game", "connect4")}, tc.scope...)...)
		if m.Ephemeral() || len(m.Embeds) != 1 {
			t.Fatalf("/leaderboard %v: ephemeral %v with %d embeds, want one public embed", tc.scope, m.Ephemeral(), len(m.Embeds))
		}
		e := m.Embeds[0]
		if !strings.Contains(e.Title, "Connect Four") || !strings.Contains(e.Title, tc.where) {
			t.Errorf("/leaderboard %v: title %q, want Connect Four and %q", tc.scope, e.Title, tc.where)
		}
		if !strings.Contains(e.Description, "No rated games yet") || !strings.Contains(e.Description, "/play game:connect4") {
			t.Errorf("/leaderboard %v on an empty ladder: %q", tc.scope, e.Description)
		}
		if len(e.Fields) != 0 {
			t.Errorf("/leaderboard %v shows a place for a player without rating: %+v", tc.scope, e.Fields[0])
		}
	}

	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	resignByUI(t, h, alice, g.ID)
	rv, err := h.store.Rank(context.Background(), storage.Global(storage.Kind("tictactoe")), storage.User(alice), 2)
	if err != nil || rv.Player.Rank != 0 || !rv.Player.Rating.Provisional() || rv.Player.Rating.Games != 1 || rv.Player.Rating.Rating >= 1500 {
		t.Fatalf("alice's standing after one lost game: %+v, %v; want provisional, rank 0, below 1500", rv, err)
	}
	calibrated, _ := strategies.Rating("tictactoe", "random")
	ai, err := h.store.Rank(context.Background(), storage.Global(storage.Kind("tictactoe")), storage.AI("random"), 0)
	if r := ai.Player.Rating; err != nil || r.Rating != calibrated || r.Deviation != storage.AIDeviation || r.Wins != 1 || ai.Player.Rank != 1 {
		t.Fatalf("random's standing after one game: %+v, %v; want its calibrated %v, fixed, ranked first", ai.Player, err, calibrated)
	}
	for _, scope := range []string{"server", "global"} {
		_, m := h.command(alice, "leaderboard", opt("game", "tictactoe"), opt("scope", scope))
		if m.Ephemeral() || len(m.Embeds) != 1 {
			t.Fatalf("/leaderboard scope:%s: ephemeral %v with %d embeds", scope, m.Ephemeral(), len(m.Embeds))
		}
		e := m.Embeds[0]
		lines := strings.Split(e.Description, "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[0], "🥇 <@"+alice+"> · **") || !strings.Contains(lines[0], "?** · 0–1–0") ||
			!strings.Contains(lines[1], "AIs") ||
			!strings.HasPrefix(lines[2], "🤖 Random") || !strings.Contains(lines[2], fmt.Sprintf("**%.0f (fixed)** · 1–0–0", calibrated)) {
			t.Errorf("scope %s: leaderboard %q, want alice ranked first, provisional, and the AI apart below", scope, e.Description)
		}
		if !strings.Contains(e.Footer.Text, "? = provisional: settles after about a dozen games") {
			t.Errorf("scope %s: footer %q does not explain '?'", scope, e.Footer.Text)
		}
		if len(e.Fields) != 1 || e.Fields[0].Name != "Your place" {
			t.Fatalf("scope %s: fields %+v, want alice's place", scope, e.Fields)
		}
		place := e.Fields[0].Value
		if !strings.Contains(place, "👉") || !strings.Contains(place, "<@"+alice+">") || !strings.Contains(place, "?") ||
			!strings.Contains(place, "0–1–0") || !strings.Contains(place, "provisional (1 rated game so far)") {
			t.Errorf("scope %s: alice's place %q, want her provisional rating, record 0–1–0 and 1 rated game", scope, place)
		}
	}
}

func TestStatsShowRatingsAndRecentGames(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	h.move(alice, g.ID, "5")
	resignByUI(t, h, alice, g.ID)

	field := func(m discordtest.Message, name string) string {
		t.Helper()
		if len(m.Embeds) != 1 {
			t.Fatalf("/stats answered %d embeds", len(m.Embeds))
		}
		for _, f := range m.Embeds[0].Fields {
			if f.Name == name {
				return f.Value
			}
		}
		t.Fatalf("/stats has no field %q: %+v", name, m.Embeds[0].Fields)
		return ""
	}
	_, m := h.command(alice, "stats")
	if !m.Ephemeral() {
		t.Error("/stats should answer ephemerally")
	}
	if d := m.Embeds[0].Description; !strings.Contains(d, "<@"+alice+">") {
		t.Errorf("/stats of alice describes %q", d)
	}
	ttt := field(m, "Tic-Tac-Toe")
	if !strings.Contains(ttt, "Rating **") || !strings.Contains(ttt, "provisional") || !strings.Contains(ttt, "0–1–0 in 1 game") {
		t.Errorf("alice's Tic-Tac-Toe rating: %q", ttt)
	}
	if !strings.Contains(ttt, "Lost to <@"+bob+">") || !strings.Contains(ttt, "by resignation") {
		t.Errorf("alice's recent Tic-Tac-Toe games: %q, want the loss to bob by resignation", ttt)
	}
	if c4 := field(m, "Connect Four"); !strings.Contains(c4, "Not played yet") {
		t.Errorf("alice's Connect Four: %q, want not played yet", c4)
	}

	_, m = h.command(alice, "stats", opt("user", bob))
	if !m.Ephemeral() || !strings.Contains(m.Embeds[0].Description, "<@"+bob+">") {
		t.Errorf("/stats user:bob: ephemeral %v, %q", m.Ephemeral(), m.Embeds[0].Description)
	}
	ttt = field(m, "Tic-Tac-Toe")
	if !strings.Contains(ttt, "1–0–0 in 1 game") || !strings.Contains(ttt, "Won against <@"+alice+">") {
		t.Errorf("bob's Tic-Tac-Toe: %q, want a win against alice", ttt)
	}
}

func TestGamesListsOpenGamesAndRepostsABoard(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID

	if _, m := h.command(carol, "games"); !m.Ephemeral() || !strings.Contains(m.Content, "no games") {
		t.Errorf("/games without games: %q (ephemeral %v)", m.Content, m.Ephemeral())
	}
	_, challenge := h.command(alice, "play", opt("game", "connect4"), opt("opponent", bob))
	pending := h.waitGame(h.latestGame(alice).ID, "the challenge", func(g *storage.Game) bool { return g.MessageID != "" })
	g, oldBoard := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))

	_, list := h.command(alice, "games")
	if !list.Ephemeral() || len(list.Embeds) != 1 {
		t.Fatalf("/games: ephemeral %v, %d embeds", list.Ephemeral(), len(list.Embeds))
	}
	lines := strings.Split(list.Embeds[0].Description, "\n")
	if len(lines) != 2 {
		t.Fatalf("/games lists %q, want two games", lines)
	}
	link := func(messageID string) string {
		return fmt.Sprintf("(https://discord.com/channels/%s/%s/%s)", h.srv.GuildID(), h.srv.ChannelID(), messageID)
	}
	for i, want := range []struct {
		g     *storage.Game
		msg   string
		state string
	}{{pending, challenge.ID, "waiting for an answer"}, {g, oldBoard.ID, "**your move**"}} {
		title := gameOf(t, want.g.Kind).Title // the game as players read it, not its ID
		if l := lines[i]; !strings.Contains(l, string(want.g.ID)) || !strings.Contains(l, " "+title+" ") ||
			!strings.Contains(l, want.state) || !strings.Contains(l, link(want.msg)) {
			t.Errorf("/games line %d: %q, want %s (%s), %q and a link to its board", i+1, l, want.g.ID, title, want.state)
		}
	}
	if _, ok := find(list, customid.Repost, map[string]string{"game": string(pending.ID)}); ok {
		t.Error("/games offers to re-post a challenge")
	}
	repost, ok := find(list, customid.Repost, map[string]string{"game": string(g.ID)})
	if !ok {
		t.Fatalf("/games has no Re-post button for %s: %+v", g.ID, list.Components)
	}
	_, bobs := h.command(bob, "games")
	if d := bobs.Embeds[0].Description; !strings.Contains(d, string(pending.ID)) || strings.Contains(d, string(g.ID)) {
		t.Errorf("bob's /games: %q, want only alice's challenge", d)
	}

	if r := h.click(alice, list.ID, repost); !r.Ephemeral() || !strings.Contains(r.Content, "posted again") {
		t.Errorf("Re-post answered %q", r.Content)
	}
	g = h.game(g.ID)
	if g.MessageID == oldBoard.ID || g.MessageID == "" {
		t.Fatalf("after Re-post the board is still message %q", g.MessageID)
	}
	newBoard := h.board(g.ID)
	if newBoard.Ephemeral() || newBoard.ChannelID != h.srv.ChannelID() {
		t.Errorf("the re-posted board is ephemeral %v in channel %s", newBoard.Ephemeral(), newBoard.ChannelID)
	}
	if _, _, ok := moveControl(newBoard, "5"); !ok {
		t.Errorf("the re-posted board offers no moves: %+v", newBoard.Components)
	}
	retired, _ := h.message(oldBoard.ID)
	if len(controls(retired)) != 0 || !strings.Contains(retired.Content, "This board moved") || !strings.Contains(retired.Content, g.MessageID) {
		t.Errorf("the old board shows %q with %d components, want a link to the new one and no buttons", retired.Content, len(controls(retired)))
	}
	cell5, _, _ := moveControl(oldBoard, "5")
	if r := h.clickSeen(alice, oldBoard, cell5); !r.Ephemeral() || !strings.Contains(r.Content, "out of date") {
		t.Errorf("a move on the old board answered %q", r.Content)
	}
	if m := h.move(alice, g.ID, "5"); m.Ephemeral() || m.ID != g.MessageID {
		t.Fatalf("a move on the new board answered %q on message %s", m.Content, m.ID)
	}
	g = h.waitGame(g.ID, "the AI's reply", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	h.waitBoard(g.ID, "the AI's reply on the new board", func(m discordtest.Message) bool {
		return markedWith(m, "5", "❌") && markedWith(m, g.Moves[1], "🔵")
	})
	if still, _ := h.message(oldBoard.ID); still.Version != retired.Version {
		t.Errorf("the old board was edited again: %q", still.Content)
	}

	resignByUI(t, h, alice, g.ID)
	finished := h.game(g.ID)
	if r := h.clickSeen(alice, list, repost); !r.Ephemeral() || !strings.Contains(r.Content, "over") {
		t.Errorf("re-posting a finished game answered %q", r.Content)
	}
	if got := h.game(g.ID); got.MessageID != finished.MessageID {
		t.Errorf("re-posting a finished game moved its board to %s", got.MessageID)
	}
	if r := h.clickSeen(carol, forgedClick(newBoard, repost), repost); !r.Ephemeral() || !strings.Contains(r.Content, "Only the players") {
		t.Errorf("a bystander's forged Re-post answered %q", r.Content)
	}
}

// TestRepostWhileTheAIThinks re-posts a board while the AI searches: the
// AI's progress and move belong on the new board.
func TestRepostWhileTheAIThinks(t *testing.T) {
	t.Parallel()
	hold := newAIHold()
	h := start(t, withClock(), withAIHold(hold))
	t.Cleanup(hold.free)
	alice := h.srv.AddUser("alice").ID
	g, oldBoard := playAI(t, h, alice, opt("game", "adjacency"), opt("ai", "minimax"), opt("rounds", 28),
		opt("first", "opponent"), opt("movetime", 1.5))
	// The AI has taken its turn and thinks until the re-post is done.
	hold.wait(t, g.ID)
	_, list := h.command(alice, "games")
	repost, ok := find(list, customid.Repost, map[string]string{"game": string(g.ID)})
	if !ok {
		t.Fatalf("no Re-post button: %+v", list.Components)
	}
	h.click(alice, list.ID, repost)
	if got := h.game(g.ID); len(got.Moves) != 0 {
		t.Fatal("the AI moved before the re-post")
	}
	hold.free()
	h.waitGame(g.ID, "the AI's move", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	h.waitBoard(g.ID, "the AI's move on the new board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+alice+">, your move")
	})
	if old, _ := h.message(oldBoard.ID); len(controls(old)) != 0 || !strings.Contains(old.Content, "This board moved") {
		t.Errorf("the retired board was drawn on again: %q with %d components", old.Content, len(controls(old)))
	}
}

func TestHelpExplainsGambitAndEachGame(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	for _, tc := range []struct {
		game, title string
	}{{"", "Gambit"}, {"adjacency", "Adjacency"}, {"connect4", "Connect Four"}, {"tictactoe", "Tic-Tac-Toe"}} {
		var opts []discordtest.Option
		if tc.game != "" {
			opts = append(opts, opt("game", tc.game))
		}
		_, m := h.command(alice, "help", opts...)
		if !m.Ephemeral() || len(m.Embeds) != 1 {
			t.Errorf("/help %s: ephemeral %v with %d embeds, want one ephemeral embed", tc.game, m.Ephemeral(), len(m.Embeds))
			continue
		}
		if e := m.Embeds[0]; !strings.Contains(e.Title, tc.title) || e.Description == "" {
			t.Errorf("/help %s: title %q, want %q and a text", tc.game, e.Title, tc.title)
		}
		if tc.game != "" && !strings.Contains(embedText(m), "/play game:"+tc.game) {
			t.Errorf("/help %s does not say how to start a game", tc.game)
		}
	}
}

func TestHelpHasAPagePerAI(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	got := askChoices(t, h, alice, "", "help", focused("ai", "hill"))
	if len(got) == 0 {
		t.Fatal("/help ai:hill suggests nothing")
	}
	for _, c := range got {
		i, err := strategies.Lookup(fmt.Sprint(c.Value))
		if err != nil || c.Name != i.Label("") || !strings.Contains(i.Name+strings.ToLower(i.DisplayName), "hill") {
			t.Errorf("/help ai:hill suggests %q = %v", c.Name, c.Value)
		}
	}
	_, m := h.command(alice, "help", opt("ai", "hill-steepest"))
	if !m.Ephemeral() || len(m.Embeds) != 1 || !strings.Contains(m.Embeds[0].Title, "Hill climber") {
		t.Errorf("/help ai:hill-steepest: %+v", m.Embeds)
	}
	if _, m := h.command(alice, "help", opt("ai", "deep-blue")); !m.Ephemeral() || !strings.Contains(m.Content, `no AI "deep-blue"`) {
		t.Errorf("/help ai:deep-blue: %q", m.Content)
	}
}

func TestPrivacyDeleteErasesTheUsersData(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	ctx := context.Background()

	finished := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	h.move(alice, finished.ID, "5")
	resignByUI(t, h, bob, finished.ID)
	active := challengeAndAccept(t, h, alice, bob, storage.Kind("connect4"))
	_, challenge := h.command(alice, "play", opt("game", "adjacency"), opt("opponent", carol))
	pending := h.waitGame(h.latestGame(alice).ID, "the challenge", func(g *storage.Game) bool { return g.MessageID != "" })
	activeBoard := h.board(active.ID)

	_, ask := h.command(alice, "privacy", discordtest.Option{Name: "delete"})
	erase, ok := find(ask, customid.PrivacyDelete, nil)
	if !ask.Ephemeral() || !ok || !strings.Contains(ask.Content, "cannot be undone") {
		t.Fatalf("/privacy delete answered %q (ephemeral %v, button %v), want an ephemeral confirmation", ask.Content, ask.Ephemeral(), ok)
	}
	if open, _ := h.store.ActiveGames(ctx, storage.User(alice)); len(open) != 2 {
		t.Fatalf("asking to erase changed the open games: %d", len(open))
	}

	// Bob sends alice's confirmation from a message he can see.
	if r := h.clickSeen(bob, forgedClick(activeBoard, erase), erase); !r.Ephemeral() || !strings.Contains(r.Content, "someone else's data") {
		t.Errorf("bob's click on alice's erase button answered %q (ephemeral %v)", r.Content, r.Ephemeral())
	}
	if open, _ := h.store.ActiveGames(ctx, storage.User(alice)); len(open) != 2 {
		t.Errorf("bob's click erased alice's games: %d left", len(open))
	}
	if _, err := h.store.Rank(ctx, storage.Global(storage.Kind("tictactoe")), storage.User(alice), 0); err != nil {
		t.Errorf("bob's click erased alice's rating: %v", err)
	}
	if _, err := h.store.Rank(ctx, storage.Global(storage.Kind("tictactoe")), storage.User(bob), 0); err != nil {
		t.Errorf("bob's click erased bob's rating: %v", err)
	}

	done := h.click(alice, ask.ID, erase)
	if !done.Ephemeral() || !strings.Contains(done.Content, "2 open games cancelled") || !strings.Contains(done.Content, "1 finished game anonymised") {
		t.Errorf("erasing answered %q", done.Content)
	}
	if open, err := h.store.ActiveGames(ctx, storage.User(alice)); err != nil || len(open) != 0 {
		t.Errorf("alice still has %d open games (%v)", len(open), err)
	}
	for _, id := range []storage.GameID{active.ID, pending.ID} {
		if _, err := h.store.Game(ctx, id); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("game %s of alice: %v, want it removed", id, err)
		}
	}
	for _, p := range []string{bob, carol} {
		if open, _ := h.store.ActiveGames(ctx, storage.User(p)); len(open) != 0 {
			t.Errorf("%s still has alice's games open: %+v", p, open)
		}
	}
	// The boards are retired after the answer.
	for _, m := range []struct {
		id   string
		game storage.GameID
	}{{activeBoard.ID, active.ID}, {challenge.ID, pending.ID}} {
		got, err := h.waitMessage(h.ctx(), func(got discordtest.Message) bool {
			return got.ID == m.id && strings.Contains(got.Content, "Game "+string(m.game)+" was cancelled")
		})
		if err != nil || len(controls(got)) != 0 || len(got.Embeds) != 0 {
			t.Errorf("board of the cancelled %s shows %q with %d components (%v)", m.game, got.Content, len(controls(got)), err)
		}
	}
	for _, l := range []storage.Ladder{storage.Global(storage.Kind("tictactoe")), {Kind: storage.Kind("tictactoe"), Guild: h.srv.GuildID()}} {
		if _, err := h.store.Rank(ctx, l, storage.User(alice), 0); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("alice's %s rating: %v, want ErrNotFound", l, err)
		}
		if rv, err := h.store.Rank(ctx, l, storage.User(bob), 0); err != nil || rv.Player.Rating.Games != 1 {
			t.Errorf("bob's %s rating: %+v, %v; want it kept", l, rv.Player.Rating, err)
		}
	}
	history, err := h.store.History(ctx, storage.User(bob), 10)
	if err != nil || len(history) != 1 || history[0].ID != finished.ID {
		t.Fatalf("bob's history: %d games, %v", len(history), err)
	}
	if p := history[0].Players[0]; p.ID != storage.Anonymous || strings.Contains(p.Name, "alice") {
		t.Errorf("alice in bob's finished game: %+v, want anonymised", p)
	}
	if alices, _ := h.store.History(ctx, storage.User(alice), 10); len(alices) != 0 {
		t.Errorf("alice still has %d games in her history", len(alices))
	}
	_, m := h.command(bob, "stats")
	if s := embedText(m); !strings.Contains(s, "Lost to deleted user") || strings.Contains(s, "<@"+alice+">") {
		t.Errorf("bob's stats after alice's erasure: %q", s)
	}
}

func TestSettingsNeedManageServerAndApply(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	ctx := context.Background()
	guild := h.srv.GuildID()
	if err := h.srv.SetMemberPermissions(guild, carol, discordgo.PermissionSendMessages); err != nil {
		t.Fatal(err)
	}
	_, m := h.command(carol, "settings", opt("movetime", 1.5), opt("turn-timeout", 2), opt("games", "tictactoe"))
	if !m.Ephemeral() || !strings.Contains(m.Content, "Manage Server") {
		t.Errorf("/settings without Manage Server answered %q (ephemeral %v)", m.Content, m.Ephemeral())
	}
	if s, err := h.store.GuildSettings(ctx, guild); err != nil || s.MoveTime != 0 || s.TurnTimeout != 0 || len(s.AllowedGames) != 0 {
		t.Errorf("a refused /settings stored %+v (%v)", s, err)
	}

	_, m = h.command(alice, "settings", opt("movetime", 1.5), opt("turn-timeout", 2), opt("games", "connect4,tictactoe"))
	if !m.Ephemeral() || len(m.Embeds) != 1 || m.Embeds[0].Title != "Settings saved" {
		t.Fatalf("/settings answered %q %+v", m.Content, m.Embeds)
	}
	want := storage.GuildSettings{MoveTime: 1500 * time.Millisecond, TurnTimeout: 2 * time.Hour,
		AllowedGames: []storage.Kind{storage.Kind("connect4"), storage.Kind("tictactoe")}}
	s, err := h.store.GuildSettings(ctx, guild)
	if err != nil || s.MoveTime != want.MoveTime || s.TurnTimeout != want.TurnTimeout || !slices.Equal(s.AllowedGames, want.AllowedGames) {
		t.Fatalf("stored settings %+v (%v), want %+v", s, err, want)
	}
	if text := embedText(m); !strings.Contains(text, "1.5 seconds") || !strings.Contains(text, "2 hours") || !strings.Contains(text, "Connect Four, Tic-Tac-Toe") {
		t.Errorf("/settings shows %q", text)
	}
	_, m = h.command(carol, "settings")
	if !m.Ephemeral() || !strings.Contains(m.Content, "Manage Server") {
		t.Errorf("/settings without options and without Manage Server: %q", m.Content)
	}

	_, m = h.command(alice, "play", opt("game", "adjacency"), opt("ai", "random"))
	if !m.Ephemeral() || !strings.Contains(m.Content, "Adjacency is not allowed on this server. Allowed here: Connect Four, Tic-Tac-Toe.") {
		t.Errorf("/play adjacency where it is not allowed: %q", m.Content)
	}
	if open, _ := h.store.ActiveGames(ctx, storage.User(alice)); len(open) != 0 {
		t.Fatalf("a refused /play created a game: %+v", open[0])
	}
	g, board := playAI(t, h, alice, opt("game", "connect4"), opt("ai", "random"))
	if g.Settings.MoveTime != 1500*time.Millisecond {
		t.Errorf("new AI game has move time %v, want the server's 1.5s", g.Settings.MoveTime)
	}
	if !strings.Contains(embedText(board), "AI move time 1.5 seconds") {
		t.Errorf("the board does not show the move time: %q", embedText(board))
	}

	duel := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	if want := h.clock.Now().Add(2 * time.Hour); !duel.Deadline.Equal(want) {
		t.Errorf("turn deadline %v, want %v (the server's 2 h)", duel.Deadline, want)
	}
	h.clock.Advance(2*time.Hour - time.Minute)
	time.Sleep(100 * time.Millisecond)
	if got := h.game(duel.ID); got.Status != storage.StatusActive {
		t.Fatalf("the game is %s before the server's turn timeout", got.Status)
	}
	h.clock.Advance(2 * time.Minute)
	duel = h.waitGame(duel.ID, "the forfeit after 2 h", func(g *storage.Game) bool { return g.Status != storage.StatusActive })
	if duel.Status != storage.StatusForfeited || duel.Result == nil || duel.Result.Outcome != storage.TimedOut || duel.Result.Winner != 1 {
		t.Errorf("after the server's turn timeout the game is %s with %+v", duel.Status, duel.Result)
	}
}

func TestCommandsAreRegisteredOnceAcrossRestarts(t *testing.T) {
	t.Parallel()
	h := start(t)
	const route = "/applications/{application_id}/commands"
	if n := countRequests(h, http.MethodPut, route); n != 1 {
		t.Fatalf("%d PUT %s at the first start, want 1", n, route)
	}
	before := h.srv.Commands("")
	h.stop()
	h.run()
	if n := countRequests(h, http.MethodGet, route); n != 2 {
		t.Errorf("%d GET %s over two starts, want one each", n, route)
	}
	if n := countRequests(h, http.MethodPut, route); n != 1 {
		t.Errorf("%d PUT %s over two starts with unchanged definitions, want 1", n, route)
	}
	after := h.srv.Commands("")
	if len(after) != len(before) {
		t.Errorf("%d commands after the restart, want %d", len(after), len(before))
	}
	alice := h.srv.AddUser("alice").ID
	if _, m := h.command(alice, "help"); len(m.Embeds) != 1 {
		t.Errorf("/help after the restart: %q", m.Content)
	}
}

func TestAIProgressIsShownWhileItThinks(t *testing.T) {
	t.Parallel()
	// The AI searches until the test ends the search, and a progress edit
	// is due when the test moves the bot's clock on: the test sees the
	// edits it makes due, however slowly the machine searches or edits.
	h := start(t, withClock(), withHeldSearches())
	alice := h.srv.AddUser("alice").ID
	g, board := playAI(t, h, alice, opt("game", "adjacency"), opt("ai", "minimax"), opt("rounds", 28),
		opt("first", "opponent"), opt("movetime", 8.0))
	if text := embedText(board); !strings.Contains(text, "is thinking") && !strings.Contains(text, "is queued") {
		t.Errorf("the first board should say the AI is about to move: %q", text)
	}
	end := h.searchStarted()
	// Edits until one shows the depth the search reached: the first ones
	// may come before it finished its first iteration.
	edits := 0
	for shown, deadline := false, time.Now().Add(waitTimeout()); !shown; {
		if time.Now().After(deadline) {
			t.Fatalf("%d progress edits, none showing the search's depth", edits)
		}
		edits++
		progressEdit(t, h, g, edits)
		text := embedText(h.board(g.ID))
		if !strings.Contains(text, "thinking") {
			t.Fatalf("progress edit %d: %q, want the AI thinking", edits, text)
		}
		shown = strings.Contains(text, "depth")
	}
	end()
	g = h.waitGame(g.ID, "the AI's move", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	if g.Turn != 0 || g.Status != storage.StatusActive {
		t.Errorf("after the AI's move the game is %s with seat %d to move", g.Status, g.Turn)
	}
	h.waitBoard(g.ID, "alice's turn", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+alice+">, your move") && !strings.Contains(embedText(m), "thinking")
	})
	t.Logf("the board showed the search depth at progress edit %d", edits)
}

// gameOf returns the plug-in of a game kind.
func gameOf(t *testing.T, k storage.Kind) *games.Game {
	t.Helper()
	g, err := catalog.Lookup(string(k))
	if err != nil {
		t.Fatal(err)
	}
	return g
}
