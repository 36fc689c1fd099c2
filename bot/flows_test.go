package bot_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// Routes the flows below are slowed or failed on.
const (
	channelPostRoute  = "/channels/{channel_id}/messages"
	followupRoute     = "/webhooks/{webhook_id}/{webhook_token}"
	followupEditRoute = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
)

// slowRateLimit is one rate limit whose wait takes longer than the 3
// seconds Discord gives an interaction's answer, on the stand-in's manual
// clock (the real wait is short).
func slowRateLimit(method, route string) discordtest.Fault {
	return discordtest.Fault{
		Method: method, Route: route, Status: http.StatusTooManyRequests,
		RetryAfter: 20 * time.Millisecond, Advance: 3500 * time.Millisecond,
	}
}

// okRequests counts the successful requests to a route.
func okRequests(h *harness, method, route string) int {
	n := 0
	for _, st := range fltStatuses(h, method, route) {
		if st < 300 {
			n++
		}
	}
	return n
}

// apologies returns the messages that tell a user something failed.
func apologies(h *harness) []string {
	var out []string
	for _, m := range h.messages(h.srv.ChannelID()) {
		if strings.Contains(m.Content, "Sorry") {
			out = append(out, m.Content)
		}
	}
	return out
}

// TestABoardWhoseIDWasNotLearntIsAdoptedByAClick fails the lookup of the
// /play reply's message (GET @original) once: the board is shown and the
// user is not told anything failed; the first click on it makes it the
// game's board, and the game goes on there.
func TestABoardWhoseIDWasNotLearntIsAdoptedByAClick(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodGet, Route: originalRoute, Status: http.StatusInternalServerError})
	_, board := h.command(alice, "play", opt("game", "tictactoe"), opt("ai", "random"))
	if board.Ephemeral() || !strings.Contains(board.Content, "<@"+alice+">, your move") {
		t.Fatalf("/play answered %q, want the board", board.Content)
	}
	h.waitLog("board shown but its message ID not saved")
	g := h.latestGame(alice)
	if g.MessageID != "" {
		t.Fatalf("game %s has board %q although its lookup failed: the fault missed", g.ID, g.MessageID)
	}
	if st := fltStatuses(h, http.MethodGet, originalRoute); !slices.Contains(st, http.StatusInternalServerError) {
		t.Fatalf("GET @original statuses %v: the fault missed", st)
	}
	cid, _, _ := moveControl(board, "5")
	if r := h.click(alice, board.ID, cid); r.Ephemeral() || r.ID != board.ID || !markedWith(r, "5", "❌") {
		t.Fatalf("a click on the board answered %q (ephemeral %v)", r.Content, r.Ephemeral())
	}
	if a := apologies(h); len(a) > 0 {
		t.Errorf("the user saw the board and %q", a)
	}
	g = h.waitGame(g.ID, "the AI's answer", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	if g.MessageID != board.ID {
		t.Fatalf("game %s has board %q, want the clicked %s", g.ID, g.MessageID, board.ID)
	}
	h.waitBoard(g.ID, "the AI's move on the board", func(m discordtest.Message) bool { return markedWith(m, g.Moves[1], "🔵") })
	if n := len(publicMessages(h, h.srv.ChannelID())); n != 1 {
		t.Errorf("%d public messages, want the one board", n)
	}
}

// TestTheAIsFirstMoveLearnsTheBoard fails the lookup of the /play reply's
// message when the AI moves first: its move is edited in through the
// interaction's token, whose answer names the board.
func TestTheAIsFirstMoveLearnsTheBoard(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodGet, Route: originalRoute, Status: http.StatusInternalServerError})
	_, board := h.command(alice, "play", opt("game", "tictactoe"), opt("ai", "random"), opt("first", "opponent"))
	if board.Ephemeral() {
		t.Fatalf("/play answered %q", board.Content)
	}
	g := h.waitGame(h.latestGame(alice).ID, "the AI's first move and the board learnt", func(g *storage.Game) bool {
		return len(g.Moves) == 1 && g.MessageID != ""
	})
	if g.MessageID != board.ID {
		t.Errorf("game %s has board %q, want the /play reply %s", g.ID, g.MessageID, board.ID)
	}
	h.waitBoard(g.ID, "the AI's move on the board", func(m discordtest.Message) bool { return markedWith(m, g.Moves[0], "❌") })
	if a := apologies(h); len(a) > 0 {
		t.Errorf("the user saw the board and %q", a)
	}
	if n := len(publicMessages(h, h.srv.ChannelID())); n != 1 {
		t.Errorf("%d public messages, want the one board", n)
	}
}

// TestAGameWithoutABoardIsPostedAgainAtStart leaves a game without its
// board's ID (the lookup failed, as a kill between the reply and the save
// would leave it) and restarts the bot long after the refresh window: the
// bot posts the board again, and the game is played there.
func TestAGameWithoutABoardIsPostedAgainAtStart(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodGet, Route: originalRoute, Status: http.StatusInternalServerError})
	_, first := h.command(alice, "play", opt("game", "tictactoe"), opt("ai", "random"))
	h.waitLog("board shown but its message ID not saved")
	g := h.latestGame(alice)
	h.stop()
	h.clock.Advance(bot.DefaultRefreshWindow + time.Hour)
	h.run()
	g = h.waitGame(g.ID, "a board posted at start", func(g *storage.Game) bool { return g.MessageID != "" })
	if g.MessageID == first.ID {
		t.Fatalf("game %s has the first board %s: it was not posted again", g.ID, first.ID)
	}
	board := h.board(g.ID)
	if !strings.Contains(board.Content, "<@"+alice+">, your move") {
		t.Fatalf("the board posted at start shows %q", board.Content)
	}
	if r := h.move(alice, g.ID, "5"); r.Ephemeral() || r.ID != board.ID {
		t.Fatalf("a move on the board posted at start answered %q", r.Content)
	}
	g = h.waitGame(g.ID, "the AI's answer", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	cell := fltCells(t, g)[0]
	cid, _, _ := moveControl(first, cell)
	if r := h.click(alice, first.ID, cid); !r.Ephemeral() || !strings.Contains(r.Content, "out of date") {
		t.Errorf("a click on the first board answered %q, want it refused as out of date", r.Content)
	}
}

// TestRepostAnswersBeforePosting rate-limits the re-post of a board for
// longer than Discord waits for the answer: the click is answered in time
// and the board is posted once.
func TestRepostAnswersBeforePosting(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	g, board := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	_, list := h.command(alice, "games")
	repost := customid.Repost.Build(string(g.ID))
	h.srv.InjectFault(slowRateLimit(http.MethodPost, channelPostRoute))
	if r := h.click(alice, list.ID, repost); !strings.Contains(r.Content, "posted again") {
		t.Fatalf("Re-post answered %q", r.Content)
	}
	if st := fltStatuses(h, http.MethodPost, channelPostRoute); !slices.Equal(st, []int{http.StatusTooManyRequests, http.StatusOK}) {
		t.Errorf("channel posts %v, want one rate limited and its retry", st)
	}
	now := h.game(g.ID)
	if now.MessageID == board.ID || now.MessageID == "" {
		t.Fatalf("the game's board is %q after a re-post (was %s)", now.MessageID, board.ID)
	}
	h.waitMessage(h.ctx(), func(m discordtest.Message) bool {
		return m.ID == board.ID && strings.Contains(m.Content, "This board moved")
	})
	if n := len(publicMessages(h, h.srv.ChannelID())); n != 2 {
		t.Errorf("%d public messages, want the old board and one new one", n)
	}
}

// TestPrivacyDeleteAnswersBeforeRetiringBoards rate-limits the edit of a
// cancelled game's board for longer than Discord waits for the answer:
// the erasure is answered in time, and the board retired after.
func TestPrivacyDeleteAnswersBeforeRetiringBoards(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	_, ask := h.command(alice, "privacy", discordtest.Option{Name: "delete"})
	erase, ok := find(ask, customid.PrivacyDelete, nil)
	if !ok {
		t.Fatalf("/privacy delete answered %q without a button", ask.Content)
	}
	h.srv.InjectFault(slowRateLimit(http.MethodPatch, channelEditRoute))
	if r := h.click(alice, ask.ID, erase); !strings.Contains(r.Content, "1 open game cancelled") {
		t.Fatalf("erasing answered %q", r.Content)
	}
	if _, err := h.waitMessage(h.ctx(), func(m discordtest.Message) bool {
		return m.ID == g.MessageID && strings.Contains(m.Content, "was cancelled")
	}); err != nil {
		t.Fatalf("the cancelled game's board was not retired: %v", err)
	}
	if st := fltStatuses(h, http.MethodPatch, channelEditRoute); !slices.Contains(st, http.StatusTooManyRequests) {
		t.Errorf("board edits %v: the rate limit missed", st)
	}
}

// TestRematchAnswersBeforeCallingDiscord rate-limits whatever Rematch
// calls Discord with (the old board's edit, the new board's follow-up)
// for longer than Discord waits for the answer: the click is answered in
// time, one game starts, and a second click is refused.
func TestRematchAnswersBeforeCallingDiscord(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	old, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	resignByUI(t, h, alice, old.ID)
	oldBoard := h.board(old.ID)
	rematch, _ := find(oldBoard, customid.Rematch, nil)
	h.srv.InjectFault(slowRateLimit(http.MethodPatch, channelEditRoute))
	h.srv.InjectFault(slowRateLimit(http.MethodPost, followupRoute))
	if r := h.click(alice, oldBoard.ID, rematch); r.Ephemeral() || !strings.Contains(r.Content, "rematch was started") {
		t.Fatalf("Rematch answered %q (ephemeral %v)", r.Content, r.Ephemeral())
	}
	g := h.waitGame(h.latestGame(alice).ID, "the rematch's board", func(g *storage.Game) bool { return g.MessageID != "" })
	if g.ID == old.ID {
		t.Fatal("no rematch started")
	}
	// The AI moves first in the rematch; its move is edited into the new
	// board through the follow-up's webhook, as /play's boards are through
	// @original, not through the channel.
	g = h.waitGame(g.ID, "the AI's first move", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	h.waitBoard(g.ID, "the AI's first move on the board", func(m discordtest.Message) bool { return markedWith(m, g.Moves[0], "❌") })
	fltWaitRequest(t, h, 0, "the AI's move edited in through the follow-up's webhook", func(r discordtest.Request) bool {
		return r.Method == http.MethodPatch && r.Route == followupEditRoute && r.Status == http.StatusOK
	})
	if r := h.clickSeen(alice, oldBoard, rematch); !r.Ephemeral() || !strings.Contains(r.Content, "already started") {
		t.Errorf("a second Rematch answered %q", r.Content)
	}
	if open, _ := h.store.ActiveGames(context.Background(), storage.User(alice)); len(open) != 1 {
		t.Errorf("%d open games after two Rematch clicks, want 1", len(open))
	}
	if n := okRequests(h, http.MethodPost, followupRoute); n != 1 {
		t.Errorf("%d follow-ups, want the new board's", n)
	}
}

// TestRematchIsRefusedAfterARestart starts a rematch, restarts the bot and
// clicks the old board's Rematch again (as a client showing the board from
// before would): it is refused, and only one game was started.
func TestRematchIsRefusedAfterARestart(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	old, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	resignByUI(t, h, alice, old.ID)
	oldBoard := h.board(old.ID)
	rematch, _ := find(oldBoard, customid.Rematch, nil)
	h.click(alice, oldBoard.ID, rematch)
	first := h.waitGame(h.latestGame(alice).ID, "the rematch's board", func(g *storage.Game) bool { return g.MessageID != "" })
	for restart := range 2 {
		h.stop()
		h.run()
		if r := h.clickSeen(alice, oldBoard, rematch); !r.Ephemeral() || !strings.Contains(r.Content, "already started") {
			t.Errorf("after restart %d Rematch on the old board answered %q", restart+1, r.Content)
		}
	}
	if open, _ := h.store.ActiveGames(context.Background(), storage.User(alice)); len(open) != 1 || open[0].ID != first.ID {
		t.Errorf("after the restarts alice has %d open games, want only the rematch %s", len(open), first.ID)
	}
}

// TestAFailedRematchCanBeAskedAgain fails the answer to a Rematch click:
// nothing starts and the claim is released, so the next click starts the
// rematch.
func TestAFailedRematchCanBeAskedAgain(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	old, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	resignByUI(t, h, alice, old.ID)
	oldBoard := h.board(old.ID)
	rematch, _ := find(oldBoard, customid.Rematch, nil)
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodPost, Route: callbackRoute, Status: http.StatusInternalServerError})
	if r := h.click(alice, oldBoard.ID, rematch); !r.Ephemeral() {
		t.Fatalf("a Rematch whose answer failed was answered %q", r.Content)
	}
	if open, _ := h.store.ActiveGames(context.Background(), storage.User(alice)); len(open) != 0 {
		t.Fatalf("a failed Rematch started %d games", len(open))
	}
	if g := h.game(old.ID); g.Rematched {
		t.Fatal("a failed Rematch kept its claim")
	}
	if r := h.clickSeen(alice, oldBoard, rematch); r.Ephemeral() {
		t.Fatalf("Rematch after a failed one answered %q", r.Content)
	}
	h.waitGame(h.latestGame(alice).ID, "the rematch's board", func(g *storage.Game) bool { return g.MessageID != "" })
}

// TestANewBoardWhoseAnswerFailedIsPostedInTheChannel makes the answer to
// /play fail: the member saw nothing, but the challenge exists, so its
// board is posted in the channel (and saved as the board) instead of the
// game staying invisible until the next start.
func TestANewBoardWhoseAnswerFailedIsPostedInTheChannel(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodPost, Route: callbackRoute, Status: http.StatusInternalServerError})
	if _, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: alice, Name: "play", Options: []discordtest.Option{opt("game", "tictactoe"), opt("opponent", bob)}}); err != nil {
		t.Fatal(err)
	}
	m, err := h.srv.WaitMessage(h.ctx(), func(m discordtest.Message) bool {
		_, ok := find(m, customid.Accept, nil)
		return ok && !m.Ephemeral()
	})
	if err != nil {
		t.Fatalf("no challenge posted after the failed answer: %v", err)
	}
	g := h.waitGame(h.latestGame(alice).ID, "the posted board saved", func(g *storage.Game) bool { return g.MessageID != "" })
	if g.MessageID != m.ID {
		t.Errorf("the game's board is %s, the posted message %s", g.MessageID, m.ID)
	}
}
