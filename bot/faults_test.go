package bot_test

// Discord misbehaving, one fault at a time, against the real bot: rate
// limits, server errors, slow answers, gateway drops, dead interactions and
// tokens, deleted boards, missing permissions, the bot removed from a
// guild and a player who left. Each test checks that the game goes on (or
// ends cleanly), that nothing is lost or applied twice, and that the logs
// say what happened; the harness checks the database and Discord's schemas
// at the end.
//
// The tests run on the manual clock, so that Discord's 3-second and
// 15-minute rules are judged by the time the test says has passed and not
// by how busy the machine is: a slow response is a real-time Delay plus
// the same advance of the clock.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// Routes the faults are injected into.
const (
	callbackRoute    = "/interactions/{interaction_id}/{interaction_token}/callback"
	channelEditRoute = "/channels/{channel_id}/messages/{message_id}"
	originalRoute    = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
)

// fltCells returns the legal moves of a game's position, sorted.
func fltCells(t testing.TB, g *storage.Game) []string {
	t.Helper()
	gm, err := catalog.Lookup(string(g.Kind))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := gm.Position(g.Position, games.Options{})
	if err != nil {
		t.Fatalf("game %s: %v", g.ID, err)
	}
	var cells []string
	for _, m := range pos.Moves(nil) {
		cells = append(cells, pos.FormatMove(m))
	}
	slices.Sort(cells)
	return cells
}

// fltPly returns the ply a board's move control for cell was built for.
func fltPly(m discordtest.Message, cell string) (string, bool) {
	cid, _, ok := moveControl(m, cell)
	if !ok {
		return "", false
	}
	if p, ok := customid.Move.Match(cid); ok {
		return p["ply"], true
	}
	if p, ok := customid.Pick.Match(cid); ok {
		return p["ply"], true
	}
	return "", false
}

// fltTurn waits until user is to move in game id and its board offers the
// moves of the current ply, and returns the game and the board; or, if
// the game ends first, the ended game and an empty board.
func fltTurn(t testing.TB, h *harness, id storage.GameID, user string) (*storage.Game, discordtest.Message) {
	t.Helper()
	g := h.waitGame(id, user+"'s turn or the end", func(g *storage.Game) bool {
		return !g.Status.Open() || (g.Status == storage.StatusActive && g.Players[g.Turn].ID == storage.User(user))
	})
	if !g.Status.Open() {
		return g, discordtest.Message{}
	}
	ply, cell := render.Ply(g), fltCells(t, g)[0]
	board := h.waitBoard(id, user+"'s turn on the board", func(m discordtest.Message) bool {
		p, ok := fltPly(m, cell)
		return ok && p == ply
	})
	return g, board
}

// fltClick plays cell on board as user and returns the interaction
// without waiting for its answer.
func fltClick(t testing.TB, h *harness, user string, board discordtest.Message, cell string) *discordtest.Interaction {
	t.Helper()
	cid, value, ok := moveControl(board, cell)
	if !ok {
		t.Fatalf("no control for %s on board %s", cell, board.ID)
	}
	var ix *discordtest.Interaction
	var err error
	if value != "" {
		ix, err = h.srv.SelectValues(user, board.ID, cid, value)
	} else {
		ix, err = h.srv.ClickButton(user, board.ID, cid)
	}
	if err != nil {
		t.Fatalf("click %s: %v", cell, err)
	}
	return ix
}

// fltAnswer waits for the answer to an interaction.
func fltAnswer(t testing.TB, h *harness, ix *discordtest.Interaction) discordtest.Message {
	t.Helper()
	m, err := ix.Reply(h.ctx())
	if err != nil {
		t.Fatalf("interaction %s: no answer: %v", ix.ID, err)
	}
	return readable(m)
}

// fltCommand sends a slash command as user in a channel and waits for the
// reply.
func fltCommand(t testing.TB, h *harness, user, channel, name string, opts ...discordtest.Option) discordtest.Message {
	t.Helper()
	ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: user, ChannelID: channel, Name: name, Options: opts})
	if err != nil {
		t.Fatalf("/%s: %v", name, err)
	}
	return fltAnswer(t, h, ix)
}

// fltTaken reports whether a Tic-Tac-Toe board shows cell taken.
func fltTaken(m discordtest.Message, cell string) bool {
	c, ok := cellButtonOf(m, cell)
	return ok && c.Disabled && c.Emoji != nil
}

// fltOver reports whether a board shows an ended game (which has no cell
// buttons left, only Rematch).
func fltOver(m discordtest.Message) bool {
	_, ok := find(m, customid.Rematch, nil)
	return ok
}

// fltHumanMoves checks that the moves of a game against an AI, where the
// human moved first, hold the human's moves exactly as played, each once,
// with one AI answer between them.
func fltHumanMoves(t testing.TB, g *storage.Game, played []string) {
	t.Helper()
	var human []string
	for i := 0; i < len(g.Moves); i += 2 {
		human = append(human, g.Moves[i])
	}
	if !slices.Equal(human, played) || (len(g.Moves) != 2*len(played) && len(g.Moves) != 2*len(played)-1) {
		t.Fatalf("game %s has moves %v; the human played %v, each to be stored once and answered once", g.ID, g.Moves, played)
	}
}

// fltLogCount waits until the logs contain text at least n times.
func fltLogCount(t testing.TB, h *harness, text string, n int) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout())
	for strings.Count(h.logs.String(), text) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d log lines with %q, want %d; logs:\n%s", strings.Count(h.logs.String(), text), text, n, h.logs.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// fltWaitRequest waits until the stand-in has recorded, from the request
// numbered from on, one that match accepts.
func fltWaitRequest(t testing.TB, h *harness, from int, what string, match func(discordtest.Request) bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout())
	for !slices.ContainsFunc(h.srv.Requests()[from:], match) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// fltStatuses lists the statuses the stand-in answered a route with.
func fltStatuses(h *harness, method, route string) []int {
	var out []int
	for _, r := range h.srv.Requests() {
		if r.Method == method && r.Route == route {
			out = append(out, r.Status)
		}
	}
	return out
}

// TestRateLimitedAnswersAndBoardEditsStillCompleteTheGame plays a game
// against the AI to its end while Discord rate-limits, with retry_after,
// the answers to clicks and the channel edits of the board (the typed
// moves' and the AI's): discordgo waits and retries, every move lands once.
func TestRateLimitedAnswersAndBoardEditsStillCompleteTheGame(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "mcts"), opt("movetime", 0.5))
	var played []string
	for turn := 0; ; turn++ {
		cur, board := fltTurn(t, h, g.ID, alice)
		if !cur.Status.Open() {
			break
		}
		cell := fltCells(t, cur)[0]
		if turn%2 == 0 {
			h.srv.InjectFault(discordtest.Fault{
				Method: http.MethodPost, Route: callbackRoute,
				Status: http.StatusTooManyRequests, RetryAfter: 100 * time.Millisecond, Times: 2,
			})
			if r := fltAnswer(t, h, fltClick(t, h, alice, board, cell)); r.Ephemeral() || r.ID != board.ID {
				t.Fatalf("a rate-limited click on %s was answered %q", cell, r.Content)
			}
		} else {
			// The typed move edits the board through the channel, and so
			// does the AI's answer to it (a command has no board token).
			h.srv.InjectFault(discordtest.Fault{
				Method: http.MethodPatch, Route: channelEditRoute,
				Status: http.StatusTooManyRequests, RetryAfter: 100 * time.Millisecond, Times: 2,
			})
			if r := fltCommand(t, h, alice, "", "move", opt("cell", cell)); !strings.Contains(r.Content, "You played "+cell) {
				t.Fatalf("a rate-limited /move %s was answered %q", cell, r.Content)
			}
			h.waitBoard(g.ID, "the typed move on the board", func(m discordtest.Message) bool { return fltTaken(m, cell) || fltOver(m) })
			h.srv.InjectFault(discordtest.Fault{
				Method: http.MethodPatch, Route: channelEditRoute, Global: true,
				Status: http.StatusTooManyRequests, RetryAfter: 100 * time.Millisecond, Times: 2,
			})
		}
		played = append(played, cell)
	}
	g = h.waitGame(g.ID, "the end", func(g *storage.Game) bool { return g.Status.Ended() })
	if g.Status != storage.StatusFinished {
		t.Fatalf("the game ended %s, want finished", g.Status)
	}
	fltHumanMoves(t, g, played)
	h.waitBoard(g.ID, "the result on the board", fltOver)
	for _, route := range []string{callbackRoute, channelEditRoute} {
		method := map[string]string{callbackRoute: http.MethodPost, channelEditRoute: http.MethodPatch}[route]
		if !slices.Contains(fltStatuses(h, method, route), http.StatusTooManyRequests) {
			t.Errorf("no request to %s was rate limited: the faults missed", route)
		}
	}
	h.waitLog("rate limited by Discord")
}

// TestAServerErrorOnTheClickAnswerStillShowsTheMove answers a move's click
// with 500: the move is committed, so the bot edits the board another way
// (through the channel) and the game goes on with the move stored once.
func TestAServerErrorOnTheClickAnswerStillShowsTheMove(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	_, board := fltTurn(t, h, g.ID, alice)
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodPost, Route: callbackRoute, Status: http.StatusInternalServerError})
	ix := fltClick(t, h, alice, board, "5")
	h.waitBoard(g.ID, "alice's move shown through the channel", func(m discordtest.Message) bool {
		return fltTaken(m, "5") && strings.Contains(m.Content, "<@"+bob+">, your move")
	})
	h.waitLog("answering a click failed; editing the board instead")
	// What alice is told is the error path's business; on Discord she may
	// see "This interaction failed" while the board shows her move.
	r := fltAnswer(t, h, ix)
	t.Logf("alice was told %q", r.Content)
	if g = h.game(g.ID); !slices.Equal(g.Moves, []string{"5"}) {
		t.Fatalf("moves %v after one click answered 500, want [5]", g.Moves)
	}
	fltWaitRequest(t, h, 0, "the board edited through the channel", func(r discordtest.Request) bool {
		return r.Route == channelEditRoute && r.Method == http.MethodPatch && r.Status == http.StatusOK
	})
	// A retry on the board alice saw before is refused and changes
	// nothing.
	if r := h.clickSeen(alice, board, fltControlID(moveControl(board, "1"))); !r.Ephemeral() {
		t.Errorf("a retry on the old board was answered %q", r.Content)
	}
	_, board = fltTurn(t, h, g.ID, bob)
	if r := fltAnswer(t, h, fltClick(t, h, bob, board, "1")); r.Ephemeral() {
		t.Fatalf("bob's move after the 500: %q", r.Content)
	}
	if g = h.game(g.ID); !slices.Equal(g.Moves, []string{"5", "1"}) {
		t.Fatalf("moves %v, want [5 1]", g.Moves)
	}
}

// fltControlID returns the custom ID moveControl found, for clickSeen.
func fltControlID(customID, _ string, ok bool) string {
	if !ok {
		return "missing-control"
	}
	return customID
}

// TestABadGatewayOnTheClickAnswerIsRetried answers a move's click with
// Discord's HTML 502: discordgo retries it, the click is answered by the
// board update, and the move is stored once.
func TestABadGatewayOnTheClickAnswerIsRetried(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	_, board := fltTurn(t, h, g.ID, alice)
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodPost, Route: callbackRoute, Status: http.StatusBadGateway})
	ix := fltClick(t, h, alice, board, "5")
	r := fltAnswer(t, h, ix)
	if r.Ephemeral() || r.ID != board.ID || !fltTaken(r, "5") {
		t.Fatalf("the click answered 502 then retried shows %q", r.Content)
	}
	fltWaitRequest(t, h, 0, "the retried answer", func(r discordtest.Request) bool {
		return r.Route == callbackRoute && r.Status == http.StatusNoContent && strings.Contains(r.Path, ix.ID)
	})
	var st []int
	for _, r := range h.srv.Requests() {
		if r.Route == callbackRoute && strings.Contains(r.Path, ix.ID) {
			st = append(st, r.Status)
		}
	}
	if !slices.Equal(st, []int{http.StatusBadGateway, http.StatusNoContent}) {
		t.Errorf("callback statuses %v, want a 502 then the retry's 204", st)
	}
	if g = h.game(g.ID); !slices.Equal(g.Moves, []string{"5"}) {
		t.Fatalf("moves %v, want [5]", g.Moves)
	}
	if strings.Contains(h.logs.String(), "answering a click failed") {
		t.Error("the retried answer was taken for a failure")
	}
}

// TestASlowClickAnswerWithinThreeSecondsLands holds the answer to a click
// for 2.5 s (in real time, and on Discord's clock): Discord still accepts
// it and nothing else is needed.
func TestASlowClickAnswerWithinThreeSecondsLands(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	_, board := fltTurn(t, h, g.ID, alice)
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodPost, Route: callbackRoute, Delay: 2500 * time.Millisecond})
	began := time.Now()
	ix := fltClick(t, h, alice, board, "5")
	h.clock.Advance(2500 * time.Millisecond) // as Discord sees it
	r := fltAnswer(t, h, ix)
	if r.Ephemeral() || !fltTaken(r, "5") || !strings.Contains(r.Content, "<@"+bob+">, your move") {
		t.Fatalf("the slow answer shows %q", r.Content)
	}
	if took := time.Since(began); took < 2500*time.Millisecond {
		t.Errorf("the answer came after %v: the delay was not applied", took)
	}
	if g = h.game(g.ID); !slices.Equal(g.Moves, []string{"5"}) {
		t.Fatalf("moves %v, want [5]", g.Moves)
	}
	if strings.Contains(h.logs.String(), "answering a click failed") {
		t.Error("a slow but accepted answer was taken for a failure")
	}
}

// TestAClickAnsweredTooLateStillShowsTheMove holds the answer to a click
// for 3.5 s, past Discord's 3 seconds: Discord refuses it with 10062
// Unknown interaction, the move stays
// committed, the bot edits the board through the channel, and neither the
// bot's error path nor the user's retry on the old board plays it twice.
func TestAClickAnsweredTooLateStillShowsTheMove(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	_, board := fltTurn(t, h, g.ID, alice)
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodPost, Route: callbackRoute, Delay: 3500 * time.Millisecond})
	fltClick(t, h, alice, board, "5")        // never answered: 10062
	h.clock.Advance(3500 * time.Millisecond) // as Discord sees it
	h.waitBoard(g.ID, "alice's move shown through the channel", func(m discordtest.Message) bool {
		return fltTaken(m, "5") && strings.Contains(m.Content, "<@"+bob+">, your move")
	})
	h.waitLog("answering a click failed; editing the board instead")
	h.waitLog("Unknown interaction")
	if st := fltStatuses(h, http.MethodPost, callbackRoute); !slices.Contains(st, http.StatusNotFound) {
		t.Errorf("no callback was refused with 10062: %v", st)
	}
	if r := h.clickSeen(alice, board, fltControlID(moveControl(board, "1"))); !r.Ephemeral() {
		t.Errorf("a retry on the old board was answered %q", r.Content)
	}
	if g = h.game(g.ID); !slices.Equal(g.Moves, []string{"5"}) {
		t.Fatalf("moves %v after a click answered too late, want [5]", g.Moves)
	}
	_, board = fltTurn(t, h, g.ID, bob)
	if r := fltAnswer(t, h, fltClick(t, h, bob, board, "1")); r.Ephemeral() {
		t.Fatalf("bob's move: %q", r.Content)
	}
	if g = h.game(g.ID); !slices.Equal(g.Moves, []string{"5", "1"}) {
		t.Fatalf("moves %v, want [5 1]", g.Moves)
	}
}

// TestGamesContinueAcrossGatewayDrops drops the gateway while the AI
// thinks — resumably (4000), so that the session must be identified again
// (4007), and by Discord's RECONNECT — and then plays on: the AI's answer
// reaches the board over REST, and the next click is answered once the
// session is back.
func TestGamesContinueAcrossGatewayDrops(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		drop func(*discordtest.Server) int
		log  string // what the bot logs once connected again
		n    int    // how many times it is logged by then
	}{
		{"resume after 4000", func(s *discordtest.Server) int { return s.CloseGateway(4000) }, "gateway resumed", 1},
		{"identify again after 4007", func(s *discordtest.Server) int { return s.CloseGateway(4007) }, "gateway ready", 2},
		{"reconnect asked by Discord", func(s *discordtest.Server) int { s.RequestReconnect(); return 1 }, "gateway resumed", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := start(t, withClock())
			alice := h.srv.AddUser("alice").ID
			g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "mcts"), opt("movetime", 0.5))
			_, board := fltTurn(t, h, g.ID, alice)
			if r := fltAnswer(t, h, fltClick(t, h, alice, board, "5")); r.Ephemeral() {
				t.Fatalf("first move: %q", r.Content)
			}
			if n := tc.drop(h.srv); n == 0 {
				t.Fatal("no gateway connection to drop")
			}
			h.waitLog("gateway disconnected; reconnecting")
			fltLogCount(t, h, tc.log, tc.n)
			if err := h.srv.WaitReady(h.ctx()); err != nil {
				t.Fatal(err)
			}
			played := []string{"5"}
			for {
				cur, board := fltTurn(t, h, g.ID, alice)
				if !cur.Status.Open() {
					break
				}
				cell := fltCells(t, cur)[0]
				if r := fltAnswer(t, h, fltClick(t, h, alice, board, cell)); r.Ephemeral() {
					t.Fatalf("move %s after the drop: %q", cell, r.Content)
				}
				played = append(played, cell)
			}
			g = h.game(g.ID)
			if g.Status != storage.StatusFinished {
				t.Fatalf("the game is %s, want finished", g.Status)
			}
			fltHumanMoves(t, g, played)
		})
	}
}

// TestTheAIAnswerAfterTheTokenExpiredGoesThroughTheChannel lets more than
// 15 minutes pass between a click and the AI's answer to it: the click's
// token is dead by then, so the bot edits the board through the channel
// instead of trying the token.
func TestTheAIAnswerAfterTheTokenExpiredGoesThroughTheChannel(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "mcts"), opt("movetime", 1.0))
	_, board := fltTurn(t, h, g.ID, alice)
	before := len(h.srv.Requests())
	if r := fltAnswer(t, h, fltClick(t, h, alice, board, "5")); r.Ephemeral() {
		t.Fatalf("move: %q", r.Content)
	}
	h.clock.Advance(16 * time.Minute) // while the AI thinks
	g = h.waitGame(g.ID, "the AI's answer", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	h.waitBoard(g.ID, "the AI's answer on the board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+alice+">, your move") && strings.Contains(embedText(m), "Last move")
	})
	// The stand-in shows an edit a moment before it records the request.
	fltWaitRequest(t, h, before, "the AI's answer edited through the channel", func(r discordtest.Request) bool {
		return r.Route == channelEditRoute && r.Method == http.MethodPatch && r.Status == http.StatusOK
	})
	for _, r := range h.srv.Requests()[before:] {
		if r.Route == originalRoute && r.Method == http.MethodPatch {
			t.Errorf("the bot edited through the click's token (answered %d) after it expired", r.Status)
		}
	}
	fltHumanMoves(t, g, []string{"5"})
}

// TestABoardDeletedWhileTheAIThinksIsPostedAgain deletes the board just
// after a click, while the AI thinks: the AI's edit through the click's
// token and through the channel both find no message (10008), so the bot
// posts one new board, saves it, and the game goes on there. (A board
// deleted between turns is TestADeletedBoardIsPostedAgain.)
func TestABoardDeletedWhileTheAIThinksIsPostedAgain(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "mcts"), opt("movetime", 1.0))
	_, board := fltTurn(t, h, g.ID, alice)
	if r := fltAnswer(t, h, fltClick(t, h, alice, board, "5")); r.Ephemeral() {
		t.Fatalf("move: %q", r.Content)
	}
	if err := h.srv.DeleteMessage(board.ID); err != nil {
		t.Fatal(err)
	}
	h.waitLog("board message was deleted; posting a new one")
	g = h.waitGame(g.ID, "the AI's answer on a new board", func(g *storage.Game) bool {
		return len(g.Moves) == 2 && g.MessageID != board.ID
	})
	_, fresh := fltTurn(t, h, g.ID, alice)
	if n := len(publicMessages(h, h.srv.ChannelID())); n != 1 {
		t.Errorf("%d public messages in the channel, want the one new board", n)
	}
	cell := fltCells(t, g)[0]
	if r := fltAnswer(t, h, fltClick(t, h, alice, fresh, cell)); r.Ephemeral() || r.ID != fresh.ID {
		t.Fatalf("a move on the new board: %q", r.Content)
	}
	g = h.waitGame(g.ID, "the next AI answer", func(g *storage.Game) bool { return len(g.Moves) >= 4 || !g.Status.Open() })
	fltHumanMoves(t, g, []string{"5", cell})
}

// TestLostChannelPermissionsKeepTheGameConsistent takes every permission
// away from the bot in the channel of a game against the AI. Answers to
// interactions need none, so a click, and the AI's answer to it through
// the click's token, still show on the board. The edits the bot makes
// without a token — a typed move's, and the AI's answer to it — fail with
// 50001, are logged, and change nothing in the game: each move is stored
// once, the turn passes as it should, and a click on the board left behind
// plays nothing. Once the permissions are back, the next edit shows the
// whole game.
func TestLostChannelPermissionsKeepTheGameConsistent(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"), opt("movetime", 0.5))
	_, board := fltTurn(t, h, g.ID, alice)
	if err := h.srv.SetBotPermissions(h.srv.ChannelID(), 0); err != nil {
		t.Fatal(err)
	}
	r := fltAnswer(t, h, fltClick(t, h, alice, board, "5"))
	if r.Ephemeral() || r.ID != board.ID || !fltTaken(r, "5") {
		t.Fatalf("a click without channel permissions was answered %q", r.Content)
	}
	g, stale := fltTurn(t, h, g.ID, alice) // the AI's answer, through the click's token
	played := []string{"5"}
	fltHumanMoves(t, g, played)

	// A typed move is answered (that needs no permission) but the board
	// cannot be edited, neither for it nor for the AI's answer.
	cell := fltCells(t, g)[0]
	if r := fltCommand(t, h, alice, "", "move", opt("cell", cell)); !strings.Contains(r.Content, "You played "+cell) {
		t.Fatalf("/move %s without channel permissions: %q", cell, r.Content)
	}
	played = append(played, cell)
	g = h.waitGame(g.ID, "the AI's answer", func(g *storage.Game) bool { return len(g.Moves) == 4 || !g.Status.Open() })
	fltHumanMoves(t, g, played)
	if g.Status.Open() && (g.Players[g.Turn].ID != storage.User(alice) || g.Deadline.IsZero()) {
		t.Fatalf("after the failed edits seat %d is to move with deadline %v, want alice with a deadline", g.Turn, g.Deadline)
	}
	h.waitLog("Missing Access")
	fltWaitRequest(t, h, 0, "a channel edit refused", func(r discordtest.Request) bool {
		return r.Route == channelEditRoute && r.Status == http.StatusForbidden
	})
	if g.Status.Open() {
		h.waitLog("AI turn: the move is played but its board not updated") // the AI's answer could not be shown
		// A click on the board left behind plays nothing. (Unless no
		// board is left behind: the AI's answer, shown through the
		// click's token, may have landed after the typed move, and the
		// edit then showed the newest — keepNewest.)
		cell := fltCells(t, g)[0]
		shown, _ := h.srv.Message(stale.ID)
		was, ok := fltPly(stale, cell)
		if is, _ := fltPly(shown, cell); ok && is == was {
			fltAnswer(t, h, fltClick(t, h, alice, stale, cell))
			if got := h.game(g.ID); got.Version != g.Version {
				t.Fatalf("a click on the stale board changed the game: moves %v", got.Moves)
			}
		}
	}

	// Permissions back: the next edit brings the board up to date.
	if err := h.srv.SetBotPermissions(h.srv.ChannelID(), 1<<51-1); err != nil {
		t.Fatal(err)
	}
	if g.Status.Open() {
		cell = fltCells(t, g)[0]
		if r := fltCommand(t, h, alice, "", "move", opt("cell", cell)); !strings.Contains(r.Content, "You played "+cell) {
			t.Fatalf("/move %s with permissions back: %q", cell, r.Content)
		}
		played = append(played, cell)
	}
	g = h.waitGame(g.ID, "the third AI answer", func(g *storage.Game) bool { return len(g.Moves) >= 6 || !g.Status.Open() })
	fltHumanMoves(t, g, played)
	h.waitBoard(g.ID, "every move on the board", func(m discordtest.Message) bool {
		if !g.Status.Open() {
			return fltOver(m)
		}
		for _, mv := range g.Moves {
			if !fltTaken(m, mv) {
				return false
			}
		}
		return true
	})
}

// TestAClickOnABoardLeftStaleUpdatesIt is the missing half of the test
// above: when the bot could not edit a board (no channel permissions), a
// click on it — whose answer needs no permission — should bring it up to
// date instead of only saying it is out of date.
func TestAClickOnABoardLeftStaleUpdatesIt(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"), opt("movetime", 0.5))
	_, stale := fltTurn(t, h, g.ID, alice)
	if err := h.srv.SetBotPermissions(h.srv.ChannelID(), 0); err != nil {
		t.Fatal(err)
	}
	cell := fltCells(t, g)[0]
	if r := fltCommand(t, h, alice, "", "move", opt("cell", cell)); !strings.Contains(r.Content, "You played "+cell) {
		t.Fatalf("/move %s: %q", cell, r.Content)
	}
	g = h.waitGame(g.ID, "the AI's answer", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	h.waitLog("AI turn: the move is played but its board not updated")
	next := fltCells(t, g)[0]
	r := fltAnswer(t, h, fltClick(t, h, alice, stale, next))
	if r.Ephemeral() || r.ID != stale.ID || !fltTaken(r, cell) || !fltTaken(r, g.Moves[1]) {
		t.Fatalf("a click on the stale board was answered %q (ephemeral %v), want the board brought up to date", r.Content, r.Ephemeral())
	}
	if got := h.game(g.ID); got.Version != g.Version {
		t.Fatalf("the click on the stale board played: moves %v", got.Moves)
	}
}

// TestRemovedFromAGuildCancelsItsGames removes the bot from a guild where
// a challenge waits, a game between two members is in progress, an AI
// searches and another AI turn is queued: all four are cancelled — final,
// unrated, out of history, their deadlines gone — and the searches that
// were under way do not bring them back. Games in other guilds go on.
func TestRemovedFromAGuildCancelsItsGames(t *testing.T) {
	t.Parallel()
	hold := newAIHold()
	h := start(t, withClock(), withAIHold(hold), withConfig(func(c *bot.Config) { c.AI.SearchThreads = 1 }))
	t.Cleanup(hold.free)
	users := map[string]string{}
	for _, name := range []string{"alice", "bob", "carol", "dave", "erin", "frank"} {
		users[name] = h.srv.AddUser(name).ID
	}
	alice, bob, carol, dave, erin, frank := users["alice"], users["bob"], users["carol"], users["dave"], users["erin"], users["frank"]
	guild := h.srv.AddGuild("Leaving")
	ch, err := h.srv.AddChannel(guild.ID, "games")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range users {
		if err := h.srv.AddMember(guild.ID, id); err != nil {
			t.Fatal(err)
		}
	}

	// In the guild the bot will leave: a challenge, a game in progress,
	// an AI searching and an AI turn queued behind it.
	invite := fltCommand(t, h, alice, ch.ID, "play", opt("game", "connect4"), opt("opponent", bob))
	challenge := h.waitGame(h.latestGame(alice).ID, "the challenge's board", func(g *storage.Game) bool { return g.MessageID != "" })
	offer := fltCommand(t, h, carol, ch.ID, "play", opt("game", "tictactoe"), opt("opponent", dave))
	human := h.waitGame(h.latestGame(carol).ID, "the game's board", func(g *storage.Game) bool { return g.MessageID != "" })
	if r := h.click(dave, offer.ID, fltComponentID(find(offer, customid.Accept, nil))); r.Ephemeral() {
		t.Fatalf("accept: %q", r.Content)
	}
	_, board := fltTurn(t, h, human.ID, carol)
	if r := fltAnswer(t, h, fltClick(t, h, carol, board, "5")); r.Ephemeral() {
		t.Fatalf("carol's move: %q", r.Content)
	}
	// Elsewhere: a game that must not be touched.
	elsewhere := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))

	aiOpts := []discordtest.Option{opt("game", "adjacency"), opt("ai", "minimax"), opt("rounds", 28), opt("first", "opponent"), opt("movetime", 4.0)}
	fltCommand(t, h, erin, ch.ID, "play", aiOpts...)
	searching := h.waitGame(h.latestGame(erin).ID, "the board", func(g *storage.Game) bool { return g.MessageID != "" })
	hold.wait(t, searching.ID) // the AI thinks until the bot has left
	if m := fltCommand(t, h, frank, ch.ID, "play", aiOpts...); !strings.Contains(embedText(m), "queued") {
		t.Errorf("the second AI turn is not queued behind the first: %q", embedText(m))
	}
	queued := h.waitGame(h.latestGame(frank).ID, "the board", func(g *storage.Game) bool { return g.MessageID != "" })

	before := len(h.srv.Requests())
	if err := h.srv.RemoveBotFromGuild(guild.ID); err != nil {
		t.Fatal(err)
	}
	h.waitLog(fmt.Sprintf("removed from guild %s; 4 games cancelled", guild.ID))
	fltLogCount(t, h, "game cancelled: the bot was removed from its guild", 4)
	cancelled := map[storage.GameID]*storage.Game{}
	for _, old := range []*storage.Game{challenge, human, searching, queued} {
		g := h.game(old.ID)
		if g.Status != storage.StatusCancelled || !g.Deadline.IsZero() || g.Result != nil {
			t.Errorf("game %s is %s (deadline %v, result %v), want cancelled without deadline or result", g.ID, g.Status, g.Deadline, g.Result)
		}
		cancelled[g.ID] = g
	}
	if g := cancelled[human.ID]; !slices.Equal(g.Moves, []string{"5"}) {
		t.Errorf("the cancelled game lost its moves: %v", g.Moves)
	}
	if g := cancelled[searching.ID]; len(g.Moves) != 0 {
		t.Fatalf("the AI had moved (%v) before the bot left: the test no longer cancels a game mid-search", g.Moves)
	}
	hold.free()

	// Nobody can act in that guild any more.
	if _, err := h.srv.ClickButton(bob, invite.ID, fltComponentID(find(invite, customid.Accept, nil))); err == nil {
		t.Error("a click reached the bot from the guild it left")
	}
	if _, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: erin, ChannelID: ch.ID, Name: "games"}); err == nil {
		t.Error("a command reached the bot from the guild it left")
	}

	// The searches under way end without bringing their games back: with
	// one search thread, an AI turn queued now elsewhere is served after
	// both of them.
	later, _ := playAI(t, h, frank, opt("game", "tictactoe"), opt("ai", "random"), opt("first", "opponent"))
	h.waitGame(later.ID, "the AI's move elsewhere", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	for id, was := range cancelled {
		if g := h.game(id); g.Version != was.Version || g.Status != storage.StatusCancelled || !slices.Equal(g.Moves, was.Moves) {
			t.Errorf("cancelled game %s changed after its search ended: %+v", id, g)
		}
	}
	if logs := h.logs.String(); strings.Contains(logs, `err="commit: `) || strings.Contains(logs, "AI turn: the move is played but its board not updated") {
		t.Error("an AI search tried to commit to a cancelled game and failed")
	}

	// The game elsewhere goes on.
	_, board = fltTurn(t, h, elsewhere.ID, alice)
	if r := fltAnswer(t, h, fltClick(t, h, alice, board, "5")); r.Ephemeral() {
		t.Fatalf("a move in the other guild: %q", r.Content)
	}

	// Cancelled games are no one's open games, history or rating.
	ctx := context.Background()
	for _, name := range []string{"carol", "dave", "erin"} {
		p := storage.User(users[name])
		if open, err := h.store.ActiveGames(ctx, p); err != nil || len(open) != 0 {
			t.Errorf("%s still has open games %v (%v)", name, open, err)
		}
		if hist, err := h.store.History(ctx, p, 0); err != nil || len(hist) != 0 {
			t.Errorf("%s has history %v (%v)", name, hist, err)
		}
		for _, l := range []storage.Ladder{storage.Global(storage.Kind("tictactoe")), storage.Global(storage.Kind("adjacency"))} {
			if _, err := h.store.Rank(ctx, l, p, 0); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("%s is rated in %s after a cancelled game: %v", name, l, err)
			}
		}
	}
	// The bot did not try to reach the guild it left.
	for _, r := range h.srv.Requests()[before:] {
		if strings.Contains(r.Path, ch.ID) {
			t.Errorf("request to the guild the bot left: %s %s answered %d", r.Method, r.Path, r.Status)
		}
	}
}

// fltComponentID returns the custom ID find found, for a click.
func fltComponentID(customID string, ok bool) string {
	if !ok {
		return "missing-component"
	}
	return customID
}

// TestAGuildOutageLeavesItsGamesOpen sends GUILD_DELETE with unavailable
// true, an outage: nothing is cancelled, and once the guild is back the
// game goes on.
func TestAGuildOutageLeavesItsGamesOpen(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	if err := h.srv.SetGuildUnavailable(h.srv.GuildID(), true); err != nil {
		t.Fatal(err)
	}
	h.waitLog("guild unavailable (a Discord outage); its games stay open")
	if err := h.srv.SetGuildUnavailable(h.srv.GuildID(), false); err != nil {
		t.Fatal(err)
	}
	if got := h.game(g.ID); got.Status != storage.StatusActive || got.Version != g.Version {
		t.Fatalf("after an outage the game is %s, version %d (was %d)", got.Status, got.Version, g.Version)
	}
	if strings.Contains(h.logs.String(), "removed from guild") {
		t.Error("an outage was taken for a removal")
	}
	_, board := fltTurn(t, h, g.ID, alice)
	if r := fltAnswer(t, h, fltClick(t, h, alice, board, "5")); r.Ephemeral() {
		t.Fatalf("a move after the outage: %q", r.Content)
	}
}

// TestAPlayerWhoLeftForfeitsOnTime has the player to move leave the
// server: nothing happens at once (the bot does not even hear of it), and
// after the turn timeout the game is forfeited to the player who stayed,
// rated and shown like any other timeout.
func TestAPlayerWhoLeftForfeitsOnTime(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	_, board := fltTurn(t, h, g.ID, alice)
	if r := fltAnswer(t, h, fltClick(t, h, alice, board, "5")); r.Ephemeral() {
		t.Fatalf("alice's move: %q", r.Content)
	}
	_, board = fltTurn(t, h, g.ID, bob)
	if err := h.srv.RemoveMember(h.srv.GuildID(), bob); err != nil {
		t.Fatal(err)
	}
	if _, err := h.srv.ClickButton(bob, board.ID, fltControlID(moveControl(board, "1"))); err == nil {
		t.Fatal("bob clicked in a server he left")
	}
	h.clock.Advance(bot.DefaultTurnTimeout - time.Minute)
	time.Sleep(100 * time.Millisecond) // several ticks: nothing may happen yet
	if got := h.game(g.ID); got.Status != storage.StatusActive {
		t.Fatalf("the game is %s before bob's time ran out", got.Status)
	}
	h.clock.Advance(2 * time.Minute)
	g = h.waitGame(g.ID, "the forfeit", func(g *storage.Game) bool { return !g.Status.Open() })
	if g.Status != storage.StatusForfeited || g.Result == nil || g.Result.Winner != 0 || g.Result.Outcome != storage.TimedOut {
		t.Fatalf("the game is %s with %+v, want forfeited to alice on time", g.Status, g.Result)
	}
	h.waitBoard(g.ID, "the forfeit on the board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+bob+"> ran out of time") && strings.Contains(embedText(m), "forfeited on time")
	})
	h.waitLog("deadline passed")
	rv, err := h.store.Rank(context.Background(), storage.Global(storage.Kind("tictactoe")), storage.User(alice), 0)
	if err != nil || rv.Player.Rating.Wins != 1 {
		t.Errorf("alice's rating after bob forfeited: %+v, %v", rv.Player.Rating, err)
	}
}

// TestAServerErrorOnAClickAgainstTheAIStillShowsTheAnswer answers a click
// in a game against the AI with 500: the bot shows the move through the
// channel, and the AI's answer must reach the board, not the ephemeral
// error message that became the click's @original.
func TestAServerErrorOnAClickAgainstTheAIStillShowsTheAnswer(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "mcts"), opt("movetime", 1.0))
	_, board := fltTurn(t, h, g.ID, alice)
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodPost, Route: callbackRoute, Status: http.StatusInternalServerError})
	ix := fltClick(t, h, alice, board, "5")
	r := fltAnswer(t, h, ix)
	t.Logf("alice was told %q", r.Content)
	g = h.waitGame(g.ID, "the AI's answer", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	h.waitBoard(g.ID, "the AI's answer on the board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "<@"+alice+">, your move")
	})
	if m, _ := h.message(r.ID); len(m.Embeds) > 0 {
		t.Errorf("the error message alice saw was turned into a board: %q", embedText(m))
	}
}
