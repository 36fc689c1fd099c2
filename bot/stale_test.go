package bot_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// shownPly returns the ply the controls of a board carry ("" if none):
// which position the board shows to the members who click it.
func shownPly(m discordtest.Message) string {
	for _, c := range components(m) {
		for _, p := range []customid.Pattern{customid.Move, customid.Pick, customid.File, customid.Resign} {
			if params, ok := p.Match(c.CustomID); ok {
				return params["ply"]
			}
		}
	}
	return ""
}

// TestARestartingReplicasRefreshNeverLeavesAnOlderBoard: a replica that
// starts redraws the recent boards (the refresh at start); while its
// edit of a board showing the first move is on the network, the other
// replica takes the second move and shows it, and the refresh's edit
// lands last. The refresh must see that the game moved on and show it
// again: the board ends on the second move, whose buttons take the third.
func TestARestartingReplicasRefreshNeverLeavesAnOlderBoard(t *testing.T) {
	t.Parallel()
	h := start(t, withHTTP(), withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	if m := h.move(alice, g.ID, "1"); m.Ephemeral() {
		t.Fatalf("alice's move was refused: %s", m.Content)
	}

	// The second replica's refresh edits the board through the channel:
	// the edit is held until the first replica has shown bob's move.
	gate := discordtest.NewGate()
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodPatch, Route: channelEditRoute, Gate: gate})
	h.replica(nil)
	select {
	case <-gate.Arrived():
	case <-time.After(waitTimeout()):
		t.Fatalf("the second replica did not refresh the board; logs:\n%s", h.logs.String())
	}
	if m := h.move(bob, g.ID, "5"); m.Ephemeral() || shownPly(m) != "2" {
		t.Fatalf("bob's move answered %q showing ply %q, want the board at ply 2", m.Content, shownPly(m))
	}
	gate.Open()
	h.waitLog("refreshed the boards of recently changed games")

	if g = h.game(g.ID); len(g.Moves) != 2 {
		t.Fatalf("the game has %d moves, want 2", len(g.Moves))
	}
	if ply := shownPly(h.board(g.ID)); ply != "2" {
		t.Fatalf("the board shows ply %s while the game has 2 moves: the refresh's late edit left an older board", ply)
	}
}
