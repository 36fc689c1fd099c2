package bot_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// askAbort clicks a board's Abort button as user and returns the
// confirmation only they see, failing the test if there is none.
func askAbort(t *testing.T, h *harness, user string, id storage.GameID) (ask discordtest.Message, confirm string) {
	t.Helper()
	board := h.board(id)
	abort, ok := find(board, customid.Abort, nil)
	if !ok {
		t.Fatalf("game %s: no Abort button on %+v", id, board.Components)
	}
	ask = h.click(user, board.ID, abort)
	confirm, ok = find(ask, customid.AbortConfirm, map[string]string{"game": string(id)})
	if !ok || !ask.Ephemeral() || !strings.Contains(ask.Content, "without a result") {
		t.Fatalf("game %s: Abort answered %q (ephemeral %v) without a confirm button", id, ask.Content, ask.Ephemeral())
	}
	return ask, confirm
}

// TestAbortAfterTheAIsFirstMoveCostsNothing: right after the AI's first
// move a player aborts the game: no result, no rating, the board closed
// and saying so; a bystander may not.
func TestAbortAfterTheAIsFirstMoveCostsNothing(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("carol").ID
	h.command(alice, "play", opt("game", "tictactoe"), opt("ai", "random"), opt("first", "opponent"))
	g := h.waitGame(h.latestGame(alice).ID, "the AI's first move", func(g *storage.Game) bool { return len(g.Moves) == 1 && g.MessageID != "" })
	h.waitBoard(g.ID, "alice's turn", func(m discordtest.Message) bool {
		_, _, ok := moveControl(m, "5")
		return ok || strings.Contains(m.Content, "your move")
	})

	board := h.board(g.ID)
	abort, _ := find(board, customid.Abort, nil)
	if r := h.click(carol, board.ID, abort); !r.Ephemeral() || !strings.Contains(r.Content, "Only the players can abort") {
		t.Errorf("a bystander's Abort: %q (ephemeral %v)", r.Content, r.Ephemeral())
	}
	ask, confirm := askAbort(t, h, alice, g.ID)
	if r := h.clickSeen(carol, forgedClick(board, confirm), confirm); !strings.Contains(r.Content, "Only the players can abort") {
		t.Errorf("a bystander's forged confirmation: %q", r.Content)
	}
	if got := h.game(g.ID); got.Status != storage.StatusActive {
		t.Fatalf("a bystander aborted the game: %+v", got)
	}
	if r := h.click(alice, ask.ID, confirm); !strings.Contains(r.Content, "You aborted the game.") {
		t.Fatalf("confirming the abort answered %q", r.Content)
	}
	g = h.waitGame(g.ID, "the abort", func(g *storage.Game) bool { return !g.Status.Open() })
	if g.Status != storage.StatusAborted || g.Result != nil {
		t.Fatalf("aborted game stored as %s with %+v", g.Status, g.Result)
	}
	m := h.waitBoard(g.ID, "the abort on the board", func(m discordtest.Message) bool { return strings.Contains(m.Content, "Game aborted.") })
	if len(controls(m)) != 0 {
		t.Errorf("the aborted board still has controls: %+v", controls(m))
	}
	if text := embedText(m); !strings.Contains(text, "no result, not rated") || strings.Contains(text, "Rating changes") {
		t.Errorf("the aborted board: %q", text)
	}
	if _, err := h.store.Rank(context.Background(), storage.Global("tictactoe"), storage.User(alice), 0); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("alice is rated after an aborted game: %v", err)
	}
	if hist, err := h.store.History(context.Background(), storage.User(alice), 0); err != nil || len(hist) != 0 {
		t.Errorf("alice's history holds the aborted game: %d, %v", len(hist), err)
	}
}

// TestAbortEndsOnceEachSideMovedTwice: between two people, a confirmation
// asked for early but clicked once each side has moved twice is refused
// and loses nothing, the board then offers no Abort; an abortable game
// stays abortable across a restart, in the server's language.
func TestAbortEndsOnceEachSideMovedTwice(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	h.srv.SetLocale(h.srv.GuildID(), i18n.Indonesian)
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("connect4"))
	ask, confirm := askAbort(t, h, bob, g.ID)
	for i, col := range []string{"4", "4", "3", "3"} {
		h.move([]string{alice, bob}[i%2], g.ID, col)
	}
	g = h.game(g.ID)
	if r := h.click(bob, ask.ID, confirm); !strings.Contains(r.Content, "Too late to abort") {
		t.Errorf("a late confirmation answered %q", r.Content)
	}
	if got := h.game(g.ID); got.Status != storage.StatusActive || got.Version != g.Version {
		t.Fatalf("a late confirmation changed the game: %+v", got)
	}
	if _, ok := find(h.board(g.ID), customid.Abort, nil); ok {
		t.Error("the board offers Abort after each side moved twice")
	}

	other := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	challenge := h.board(other.ID) // the challenge became the board
	accept := customid.Accept.Build(string(other.ID))
	h.move(alice, other.ID, "5")
	h.stop()
	h.run()
	ask, confirm = askAbort(t, h, alice, other.ID)
	h.click(alice, ask.ID, confirm)
	other = h.waitGame(other.ID, "the abort after a restart", func(g *storage.Game) bool { return g.Status == storage.StatusAborted })
	h.waitBoard(other.ID, "the abort in Indonesian", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "Permainan dibatalkan oleh pemain.")
	})
	if r := h.clickSeen(bob, forgedClick(challenge, accept), accept); !strings.Contains(r.Content, "accepted, then aborted") {
		t.Errorf("accepting the aborted game's challenge again: %q", r.Content)
	}
}

// drawButton returns the custom ID of a draw button of pattern p on the
// board of game id, failing the test if there is none.
func drawButton(t *testing.T, h *harness, id storage.GameID, p customid.Pattern) (discordtest.Message, string) {
	t.Helper()
	board := h.board(id)
	cid, ok := find(board, p, nil)
	if !ok {
		t.Fatalf("game %s: no %s button on %+v", id, p, board.Components)
	}
	return board, cid
}

// TestDrawOffersBetweenPeople: once each side moved twice a player offers
// a draw; only the opponent may accept or decline it, the next move ends
// it, a stale answer loses nothing, and an offer survives a restart to be
// accepted: a draw by agreement, rated as a draw, shown in the server's
// language.
func TestDrawOffersBetweenPeople(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("connect4"))
	if _, ok := find(h.board(g.ID), customid.DrawOffer, nil); ok {
		t.Error("a draw is offered before each side moved twice")
	}
	for i, col := range []string{"4", "4", "3", "3"} {
		h.move([]string{alice, bob}[i%2], g.ID, col)
	}
	board, offer := drawButton(t, h, g.ID, customid.DrawOffer)
	if r := h.click(carol, board.ID, offer); !r.Ephemeral() || !strings.Contains(r.Content, "Only the players") {
		t.Errorf("a bystander's draw offer: %q", r.Content)
	}
	// Bob offers, though it is alice's turn.
	if r := h.click(bob, board.ID, offer); r.Ephemeral() || !strings.Contains(embedText(r), "offers a draw") {
		t.Fatalf("bob's offer answered %q %q", r.Content, embedText(r))
	}
	if o := h.game(g.ID).DrawOffer; o == nil || o.Seat != 1 || o.Ply != 4 {
		t.Fatalf("stored offer %+v", o)
	}
	board, accept := drawButton(t, h, g.ID, customid.DrawAccept)
	_, decline := drawButton(t, h, g.ID, customid.DrawDecline)
	for _, tc := range []struct{ user, want string }{
		{carol, "Only the players"}, {bob, "You offered this draw"},
	} {
		if r := h.click(tc.user, board.ID, accept); !r.Ephemeral() || !strings.Contains(r.Content, tc.want) {
			t.Errorf("accept by %s: %q, want %q", tc.user, r.Content, tc.want)
		}
	}
	if r := h.click(alice, board.ID, decline); r.Ephemeral() || !strings.Contains(r.Content, "declined the draw") {
		t.Errorf("alice's decline answered %q", r.Content)
	}
	if got := h.game(g.ID); got.DrawOffer != nil || got.Status != storage.StatusActive {
		t.Fatalf("after the decline: %+v", got)
	}
	if r := h.clickSeen(alice, board, accept); !r.Ephemeral() || !strings.Contains(r.Content, "no longer open") {
		t.Errorf("accepting a declined offer: %q", r.Content)
	}

	// Offered again, the next move ends it: its answer is stale.
	board, offer = drawButton(t, h, g.ID, customid.DrawOffer)
	h.click(bob, board.ID, offer)
	offered := h.board(g.ID)
	_, accept = drawButton(t, h, g.ID, customid.DrawAccept)
	h.move(alice, g.ID, "5")
	before := h.game(g.ID)
	if before.DrawOffer != nil {
		t.Fatalf("the offer outlived a move: %+v", before.DrawOffer)
	}
	if r := h.clickSeen(alice, offered, accept); !r.Ephemeral() || !strings.Contains(r.Content, "out of date") {
		t.Errorf("accepting an offer a move ended: %q", r.Content)
	}
	if got := h.game(g.ID); got.Version != before.Version || got.Status != storage.StatusActive {
		t.Fatalf("a stale accept changed the game: %+v", got)
	}

	// Alice offers; after a restart, in Indonesian, bob accepts.
	h.srv.SetLocale(h.srv.GuildID(), i18n.Indonesian)
	board, offer = drawButton(t, h, g.ID, customid.DrawOffer)
	h.click(alice, board.ID, offer)
	h.stop()
	h.run()
	board, accept = drawButton(t, h, g.ID, customid.DrawAccept)
	r := h.click(bob, board.ID, accept)
	g = h.waitGame(g.ID, "the draw agreed", func(g *storage.Game) bool { return g.Status.Ended() })
	if g.Result == nil || g.Result.Winner != storage.Draw || g.Result.Outcome != storage.DrawAgreed {
		t.Fatalf("the draw agreed stored as %+v", g.Result)
	}
	if text := embedText(r); !strings.Contains(text, "**Seri** atas kesepakatan") || !strings.Contains(text, "Connect Four") {
		t.Errorf("the board of the draw agreed: %q", text)
	}
	for _, p := range []string{alice, bob} {
		rv, err := h.store.Rank(context.Background(), storage.Global("connect4"), storage.User(p), 0)
		if err != nil || rv.Player.Rating.Draws != 1 || rv.Player.Rating.Games != 1 {
			t.Errorf("rating of %s after the draw agreed: %+v, %v", p, rv.Player.Rating, err)
		}
	}
}

// TestNoDrawAgainstAnAI: a board against an AI offers no draw, and a
// forged offer is refused.
func TestNoDrawAgainstAnAI(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	h.command(alice, "play", opt("game", "connect4"), opt("ai", "random"))
	g := h.waitGame(h.latestGame(alice).ID, "the board", func(g *storage.Game) bool { return g.MessageID != "" })
	for i := 0; i < 2; i++ {
		h.move(alice, g.ID, "1")
		g = h.waitGame(g.ID, "the AI's move", func(g *storage.Game) bool { return len(g.Moves) == 2*(i+1) })
		h.waitBoard(g.ID, "alice's turn", func(m discordtest.Message) bool { return strings.Contains(m.Content, "your move") })
	}
	board := h.board(g.ID)
	if _, ok := find(board, customid.DrawOffer, nil); ok {
		t.Error("a board against an AI offers a draw")
	}
	offer := customid.DrawOffer.Build(string(g.ID), "4")
	if r := h.clickSeen(alice, forgedClick(board, offer), offer); !r.Ephemeral() || !strings.Contains(r.Content, "an AI plays on") {
		t.Errorf("a forged offer to an AI: %q", r.Content)
	}
	if got := h.game(g.ID); got.DrawOffer != nil || got.Version != g.Version {
		t.Errorf("a forged offer changed the game: %+v", got)
	}
}
