package bot_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// versus runs /versus as user and returns the showcase's game and board,
// failing the test if it was refused.
func versus(t *testing.T, h *harness, user string, opts ...discordtest.Option) (*storage.Game, discordtest.Message) {
	t.Helper()
	_, m := h.command(user, "versus", opts...)
	if m.Ephemeral() {
		t.Fatalf("/versus refused: %s", m.Content)
	}
	stop, ok := find(m, customid.VersusStop, nil)
	if !ok {
		t.Fatalf("the board of /versus has no Stop button: %+v", m.Components)
	}
	params, _ := customid.VersusStop.Match(stop)
	g := h.waitGame(storage.GameID(params["game"]), "the board to be saved", func(g *storage.Game) bool { return g.MessageID != "" })
	return g, m
}

// versusRefused runs /versus as user and returns its refusal's text.
func versusRefused(t *testing.T, h *harness, user string, opts ...discordtest.Option) string {
	t.Helper()
	_, m := h.command(user, "versus", opts...)
	if !m.Ephemeral() {
		t.Fatalf("/versus %v was not refused: %s", opts, embedText(m))
	}
	return m.Content
}

// TestVersusPlaysLiveToItsEnd: /versus posts the board of a game between
// two strategies in the channel, with a Stop button, and the AIs play it
// to its end on it: the last board says how it ended and carries both
// sides' search figures, offers a review and no rematch; the game is
// casual and counts in no member's games.
func TestVersusPlaysLiveToItsEnd(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	g, board := versus(t, h, alice, opt("game", "tictactoe"), opt("first", "minimax"), opt("second", "mcts"))
	if board.ChannelID != h.srv.ChannelID() || board.Ephemeral() {
		t.Errorf("the board should be in the channel for everyone")
	}
	if !g.Settings.Casual {
		t.Errorf("settings %+v, want casual", g.Settings)
	}
	end := h.waitGame(g.ID, "the game's end", func(g *storage.Game) bool { return !g.Status.Open() })
	if end.Status != storage.StatusFinished || end.Result == nil {
		t.Fatalf("the game ended %s with %+v; want finished by the rules", end.Status, end.Result)
	}
	last := h.waitBoard(g.ID, "the end on the board", func(m discordtest.Message) bool {
		_, stop := find(m, customid.VersusStop, nil)
		return !stop
	})
	text := embedText(last)
	// Each side's last search is shown; what it found (depth, positions,
	// score) depends on the time it got, which the render's tests check.
	for _, side := range end.Players {
		if name := render.PlayerName(i18n.Default, end.Kind, side); !strings.Contains(text, "🔎 "+name+":") {
			t.Errorf("the last board should show %s's search figures; it says:\n%s", name, text)
		}
	}
	if !strings.Contains(text, "wins") && !strings.Contains(text, "Draw") {
		t.Errorf("the last board should say how the game ended; it says:\n%s", text)
	}
	if _, ok := find(last, customid.Rematch, nil); ok {
		t.Error("a game between AIs offers a rematch")
	}
	if _, ok := find(last, customid.Review, nil); !ok {
		t.Error("the ended game offers no review")
	}
	if games, err := h.store.ActiveGames(h.ctx(), storage.User(alice)); err != nil || len(games) != 0 {
		t.Errorf("alice's open games: %d, %v; want none (she watches)", len(games), err)
	}
}

// TestVersusRefusals: /versus refuses an unknown strategy, one strategy
// against itself, saying why. (A puzzle cannot be chosen: the game
// option's choices are the duels, which the stand-in enforces as Discord
// does.)
func TestVersusRefusals(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	for _, c := range []struct {
		opts []discordtest.Option
		want string
	}{
		{[]discordtest.Option{opt("game", "tictactoe"), opt("first", "nosuch"), opt("second", "mcts")}, "There is no AI"},
		{[]discordtest.Option{opt("game", "tictactoe"), opt("first", "minimax"), opt("second", "minimax")}, "two different AIs"},
		{[]discordtest.Option{opt("game", "tictactoe"), opt("first", "random"), opt("second", "nosuch2")}, "There is no AI"},
	} {
		if got := versusRefused(t, h, alice, c.opts...); !strings.Contains(got, c.want) {
			t.Errorf("/versus %v: %q, want it to say %q", c.opts, got, c.want)
		}
	}
}

// TestVersusCapsAndStop: a member's showcases count against their open
// games; a server runs two showcases at once, the third is refused; Stop
// is the starter's or a manager's, cancels the game and frees its place.
func TestVersusCapsAndStop(t *testing.T) {
	t.Parallel()
	h := start(t, withHeldSearches(), withConfig(func(c *bot.Config) { c.Games.MaxPerUser = 2 }))
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	if err := h.srv.SetMemberPermissions(h.srv.GuildID(), bob, discordgo.PermissionSendMessages|discordgo.PermissionUseApplicationCommands); err != nil {
		t.Fatal(err)
	}
	game := []discordtest.Option{opt("game", "connect4"), opt("first", "minimax"), opt("second", "mcts")}
	if _, m := h.command(alice, "play", opt("game", "tictactoe"), opt("ai", "random")); m.Ephemeral() {
		t.Fatalf("alice's /play: %q", m.Content)
	}
	first, firstBoard := versus(t, h, alice, game...)
	h.searchStarted() // the showcase's first turn, held
	if got := versusRefused(t, h, alice, game...); !strings.Contains(got, "You have 2 open games") {
		t.Errorf("alice's showcase beside her game and showcase: %q, want her cap of open games", got)
	}
	_, _ = versus(t, h, bob, game...)
	h.searchStarted()
	if got := versusRefused(t, h, carol, game...); !strings.Contains(got, "already runs 2") {
		t.Errorf("a third showcase here: %q, want the server's cap", got)
	}

	stop, _ := find(firstBoard, customid.VersusStop, nil)
	if r := h.click(bob, first.MessageID, stop); !r.Ephemeral() || !strings.Contains(r.Content, "Only the member who started") {
		t.Errorf("bob's Stop: %q, want a refusal", r.Content)
	}
	r := h.click(alice, first.MessageID, stop)
	if r.Ephemeral() || !strings.Contains(r.Content, "Stopped by alice") {
		t.Errorf("alice's Stop: %q %q, want the board stopped", r.Content, embedText(r))
	}
	if _, ok := find(r, customid.VersusStop, nil); ok {
		t.Error("the stopped board still offers Stop")
	}
	if g := h.game(first.ID); g.Status != storage.StatusCancelled {
		t.Errorf("the stopped game is %s, want cancelled", g.Status)
	}
	// Its place is free again; a manager stops another's showcase.
	third, thirdBoard := versus(t, h, bob, game...)
	h.searchStarted()
	stop, _ = find(thirdBoard, customid.VersusStop, nil)
	if r := h.click(carol, third.MessageID, stop); !strings.Contains(r.Content, "Stopped by carol") {
		t.Errorf("a manager's Stop: %q, want the board stopped", r.Content)
	}
}
