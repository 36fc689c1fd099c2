package bot_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// A game's lock covers the decision and the commit, not the answer: while
// Discord holds the answer to alice's move, bob's typed move is judged and
// committed; its own Discord calls wait for alice's, so the board ends
// showing both moves — the later edit is not overwritten by the earlier.
func TestGameLockIsNotHeldAcrossDiscordCalls(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))

	gate := discordtest.NewGate()
	defer gate.Open()
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodPost, Route: "/interactions/{interaction_id}/{interaction_token}/callback", Gate: gate})
	b := h.board(g.ID)
	cid, _, ok := moveControl(b, "1")
	if !ok {
		t.Fatalf("no control for cell 1 on %+v", b.Components)
	}
	first, err := h.srv.ClickButton(alice, b.ID, cid)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-gate.Arrived():
	case <-h.ctx().Done():
		t.Fatal("alice's answer never reached Discord")
	}

	second, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: bob, Name: "move", Options: []discordtest.Option{opt("cell", "5")}})
	if err != nil {
		t.Fatal(err)
	}
	h.waitGame(g.ID, "bob's move committed while alice's answer is held", func(g *storage.Game) bool { return len(g.Moves) == 2 })

	gate.Open()
	if m, err := first.Reply(h.ctx()); err != nil || m.Ephemeral() {
		t.Fatalf("alice's move: %+v, %v", m, err)
	}
	if m, err := second.Reply(h.ctx()); err != nil || !strings.Contains(m.Content, "5") {
		t.Fatalf("bob's move: %+v, %v", m, err)
	}
	// Bob's board edit follows his reply; alice's answer, which shows one
	// move, came before it.
	h.waitBoard(g.ID, "the board to show both moves", func(m discordtest.Message) bool {
		_, _, one := moveControl(m, "1")
		_, _, five := moveControl(m, "5")
		return !one && !five
	})
}
