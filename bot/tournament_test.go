package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// waitTournament waits until tournament id satisfies cond.
func (h *harness) waitTournament(id storage.TournamentID, what string, cond func(*storage.Tournament) bool) *storage.Tournament {
	h.t.Helper()
	deadline := time.Now().Add(waitTimeout())
	for {
		tr, err := h.store.Tournament(context.Background(), id)
		if err != nil {
			h.t.Fatal(err)
		}
		if cond(tr) {
			return tr
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("tournament %s: timed out waiting for %s; it is %+v\nlogs:\n%s", id, what, tr, h.logs.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitPosted waits for a message of the channel whose text has want.
func (h *harness) waitPosted(want string) discordtest.Message {
	h.t.Helper()
	m, err := h.srv.WaitMessage(h.ctx(), func(m discordtest.Message) bool { return strings.Contains(text(readable(m)), want) })
	if err != nil {
		h.t.Fatalf("no message says %q: %v\nlogs:\n%s", want, err, h.logs.String())
	}
	return readable(m)
}

// TestTournamentSwissToThePodium runs a Swiss of two rounds through the
// stand-in, from /tournament create to the podium, with two members and
// an AI (an odd field: a bye a round): the announcement's Join and its
// creator's AI entry and Start, each round's pairings and boards posted
// in the channel, the AI playing its board by itself, a member losing on
// the move timer (a forfeit) and another resigning, the standings
// after round 1, the podium, and the players' /stats.
func TestTournamentSwissToThePodium(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID

	id := swissOfThree(t, h, alice, bob)

	// Round 1: one board and a bye. The member on the board lets the
	// move timer run out: a forfeit.
	pairings := h.waitPosted("Round 1")
	speaks(t, "round 1's pairings", pairings, []string{"has the bye", "(moves first) vs"}, nil)
	tr := h.waitTournament(id, "round 1", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	board := boardOf(t, tr.Rounds[0])
	g := h.waitGame(board.Game, "a member to move on round 1's board", func(g *storage.Game) bool {
		return g.Status == storage.StatusActive && !g.AwaitingAI() && g.MessageID != ""
	})
	if g.Settings.Tournament != id || g.Deadline.IsZero() || g.Deadline.After(h.clock.Now().Add(30*time.Second)) {
		t.Errorf("round 1's game: tournament %q, deadline %v (now %v), want the tournament's 30 s a move", g.Settings.Tournament, g.Deadline, h.clock.Now())
	}
	slow := g.Players[g.Turn].ID
	h.clock.Advance(31 * time.Second)
	g = h.waitGame(board.Game, "the move timer's forfeit", func(g *storage.Game) bool { return g.Status == storage.StatusForfeited })
	want := map[int]storage.BoardResult{0: storage.BoardBlackForfeit, 1: storage.BoardWhiteForfeit}[g.Seat(slow)]
	tr = h.waitTournament(id, "round 2", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 2 })
	if got := tr.Rounds[0].Boards[indexOf(tr.Rounds[0], board.Game)].Result; got != want {
		t.Errorf("round 1's board: %s, want %s", got, want)
	}

	// Round 2: the standings after round 1 come with its pairings; the
	// member to move resigns once the AI, if it moves first, has moved.
	r2 := h.waitPosted("Round 2")
	speaks(t, "round 2's pairings", r2, []string{"Standings after round 1", "Buchholz"}, nil)
	board = boardOf(t, tr.Rounds[1])
	g = h.waitGame(board.Game, "a member to move on round 2's board", func(g *storage.Game) bool {
		return g.Status == storage.StatusActive && !g.AwaitingAI() && g.MessageID != ""
	})
	resignByUI(t, h, userID(g.Players[g.Turn].ID), g.ID)

	podium := h.waitPosted("The tournament is over")
	speaks(t, "the podium", podium, []string{"🥇", "Final standings", "Test Cup"}, nil)
	tr = h.waitTournament(id, "the end", func(tr *storage.Tournament) bool { return tr.Status == storage.TournamentFinished })
	for _, e := range tr.Entrants {
		if e.Rank < 1 {
			t.Errorf("%s has no place", e.Player.ID)
		}
	}
	_, stats := h.command(bob, "stats")
	speaks(t, "bob's stats", stats, []string{"Tournaments", "Test Cup"}, nil)
	_, list := h.command(bob, "tournament", discordtest.Option{Name: "list"})
	speaks(t, "the server's tournaments", list, []string{"Test Cup", "Finished"}, nil)
}

// swissOfThree announces alice's Swiss of two rounds of Tic-Tac-Toe, 30
// s a move, open to AIs, checking the announcement as it goes; alice,
// bob and an AI join, and alice starts it.
func swissOfThree(t *testing.T, h *harness, alice, bob string) storage.TournamentID {
	t.Helper()
	_, ann := h.command(alice, "tournament", discordtest.Option{Name: "create", Options: []discordtest.Option{
		opt("format", "swiss"), opt("game", "tictactoe"), opt("rounds", 2), opt("movetime", 30), opt("ai", true), opt("name", "Test Cup"),
	}})
	speaks(t, "the announcement", ann, []string{"Test Cup", "Swiss, 2 rounds", "30 seconds a move", "Join", "Enter an AI"}, nil)
	join, ok := find(ann, customid.TournamentJoin, nil)
	if !ok {
		t.Fatalf("no Join on the announcement: %+v", ann.Components)
	}
	id := storage.TournamentID(strings.Split(join, "/")[2])
	h.click(alice, ann.ID, join)
	h.click(bob, ann.ID, join)
	aiSelect, ok := find(ann, customid.TournamentAI, nil)
	if !ok {
		t.Fatal("no AI select on the announcement")
	}
	var strategy string
	for _, c := range components(ann) {
		if c.CustomID == aiSelect && len(c.Options) > 0 {
			strategy = c.Options[0].Value
		}
	}
	entered := h.click(alice, ann.ID, aiSelect, strategy)
	speaks(t, "the announcement with three players", entered, []string{"Players (3/", "<@" + alice + ">", "<@" + bob + ">", "🤖"}, nil)
	startID, _ := find(entered, customid.TournamentStart, nil)
	started := h.click(alice, ann.ID, startID)
	speaks(t, "the started announcement", started, []string{"Under way", "Withdraw"}, []string{"Join"})
	return id
}

// TestTournamentRestartMidRoundLosesNothing stops the bot during round 1
// of a Swiss, and ends the round's game meanwhile straight in the store,
// as a process that crashed between a game's end and its board's result
// leaves it: the restarted bot records the result, pairs round 2 and
// posts it, once.
func TestTournamentRestartMidRoundLosesNothing(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	id := swissOfThree(t, h, alice, bob)
	h.waitPosted("Round 1")
	tr := h.waitTournament(id, "round 1", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	board := boardOf(t, tr.Rounds[0])
	g := h.waitGame(board.Game, "a member to move on round 1's board", func(g *storage.Game) bool {
		return g.Status == storage.StatusActive && !g.AwaitingAI() && g.MessageID != ""
	})
	h.stop()
	g.Status = storage.StatusFinished
	if _, err := h.store.FinishGame(context.Background(), g, storage.Result{Winner: 1 - g.Turn, Outcome: storage.Resigned}); err != nil {
		t.Fatal(err)
	}
	h.run()
	tr = h.waitTournament(id, "round 2 after the restart", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 2 })
	if got := tr.Rounds[0].Boards[indexOf(tr.Rounds[0], board.Game)].Result; got == storage.BoardPending {
		t.Error("round 1's result was not recorded")
	}
	h.waitPosted("Round 2")
	h.waitGame(boardOf(t, tr.Rounds[1]).Game, "round 2's board", func(g *storage.Game) bool { return g.MessageID != "" })
	for _, round := range []string{"Round 1", "Round 2"} {
		n := 0
		for _, m := range h.srv.Messages(h.srv.ChannelID()) {
			if strings.Contains(text(readable(m)), round) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s's pairings were posted %d times", round, n)
		}
	}
}

// boardOf returns the one board of round r that is not a bye.
func boardOf(t *testing.T, r storage.Round) storage.Board {
	t.Helper()
	for _, b := range r.Boards {
		if !b.IsBye() {
			return b
		}
	}
	t.Fatalf("round %d has no game: %+v", r.Number, r.Boards)
	return storage.Board{}
}

// indexOf is the index in r of the board of game id.
func indexOf(r storage.Round, id storage.GameID) int {
	for i, b := range r.Boards {
		if b.Game == id {
			return i
		}
	}
	return -1
}

// userID is a member's Discord ID.
func userID(p storage.PlayerID) string {
	id, _ := p.UserID()
	return id
}
