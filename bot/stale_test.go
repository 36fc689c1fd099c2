package bot_test

import (
	"net/http"
	"strings"
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

// TestTwoReplicasPostAMissingBoardOnce: a game's board is gone and its
// message ID lost (a crash between posting a board and saving it, a
// moderator's delete), and two replicas start at once, each posting the
// missing board at start. The first's post is held on the network while
// the second posts and saves its own: the game must still have one
// board in the channel, not two whose older one's buttons are stale.
func TestTwoReplicasPostAMissingBoardOnce(t *testing.T) {
	t.Parallel()
	h := start(t, withHTTP(), withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	if err := h.srv.DeleteMessage(h.board(g.ID).ID); err != nil {
		t.Fatal(err)
	}
	g.MessageID = ""
	if err := h.store.UpdateGame(h.ctx(), g); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(time.Second) // the replicas start after the game was made

	gate := discordtest.NewGate()
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodPost, Route: channelPostRoute, Gate: gate})
	h.replica(nil)
	select {
	case <-gate.Arrived():
	case <-time.After(waitTimeout()):
		t.Fatalf("the first replica did not post the missing board; logs:\n%s", h.logs.String())
	}
	h.replica(nil)
	h.waitGame(g.ID, "the second replica's board saved", func(g *storage.Game) bool { return g.MessageID != "" })
	gate.Open()
	refreshed := "refreshed the boards of recently changed games and posted the missing ones"
	waitFor(t, "both replicas' refresh done", func() bool { return strings.Count(h.logs.String(), refreshed) == 2 })

	var boards []string
	for _, m := range h.srv.Messages(h.srv.ChannelID()) {
		if id := boardGameID.FindStringSubmatch(text(readable(m))); id != nil && id[1] == string(g.ID) {
			boards = append(boards, m.ID)
		}
	}
	if len(boards) != 1 || boards[0] != h.game(g.ID).MessageID {
		t.Errorf("the game's boards in the channel: %v, its board %s; want that one alone", boards, h.game(g.ID).MessageID)
	}
	// The first replica got the second's board back: its ID is saved
	// already, which is no failure of the first's.
	if strings.Contains(h.logs.String(), "save board message of game") {
		t.Errorf("a replica failed to save the board it got back:\n%s", h.logs.String())
	}
}
