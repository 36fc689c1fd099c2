package bot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// onEachStore runs test as a parallel subtest on each store: a bbolt
// file, and a PostgreSQL schema (withPostgres: skipped without
// GAMBIT_TEST_DATABASE_URL, failed in CI), the store option given to
// start.
func onEachStore(t *testing.T, test func(t *testing.T, store option)) {
	for _, s := range []struct {
		name  string
		store option
	}{{"bbolt", func(*harness) {}}, {"postgres", withPostgres()}} {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			test(t, s.store)
		})
	}
}

// waitTournament waits until tournament id satisfies cond.
func (h *harness) waitTournament(id storage.TournamentID, what string, cond func(*storage.Tournament) bool) *storage.Tournament {
	h.t.Helper()
	deadline := time.Now().Add(waitTimeout())
	for {
		tr, err := h.db().Tournament(context.Background(), id)
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
// two AIs: the announcement's Join and its creator's AI entries and
// Start, each round's pairings and boards posted in the channel, the AIs
// playing their boards by themselves (also against each other), the
// members losing round 1 on the move timer (forfeits) and resigning in
// round 2, the standings after round 1, the podium, and /stats; on each
// store.
func TestTournamentSwissToThePodium(t *testing.T) {
	t.Parallel()
	onEachStore(t, testSwissToThePodium)
}

func testSwissToThePodium(t *testing.T, store option) {
	h := start(t, withClock(), store)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	id := swiss(t, h, alice, bob, 2)

	// Round 1: the members let the move timer run out: forfeits.
	pairings := h.waitPosted("Round 1")
	speaks(t, "round 1's pairings", pairings, []string{"(moves first) vs"}, []string{"has the bye"})
	tr := h.waitTournament(id, "round 1", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	if len(tr.Rounds[0].Boards) != 2 {
		t.Fatalf("round 1 of four players: %+v", tr.Rounds[0].Boards)
	}
	slow := h.settle(tr.Rounds[0])
	if len(slow) == 0 {
		t.Fatal("no member to move in round 1")
	}
	for _, g := range slow {
		if g.Settings.Tournament != id || g.Deadline.IsZero() || g.Deadline.After(h.clock.Now().Add(30*time.Second)) {
			t.Errorf("round 1's game %s: tournament %q, deadline %v (now %v), want the tournament's 30 s a move", g.ID, g.Settings.Tournament, g.Deadline, h.clock.Now())
		}
	}
	h.clock.Advance(31 * time.Second)
	tr = h.waitTournament(id, "round 2", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 2 })
	for _, g := range slow {
		late := g.Seat(g.Players[g.Turn].ID)
		want := map[int]storage.BoardResult{0: storage.BoardBlackForfeit, 1: storage.BoardWhiteForfeit}[late]
		if got := tr.Rounds[0].Boards[indexOf(tr.Rounds[0], g.ID)].Result; got != want {
			t.Errorf("round 1's board of %s: %s, want %s", g.ID, got, want)
		}
	}

	// Round 2: the standings after round 1 come with its pairings; a
	// member to move resigns.
	r2 := h.waitPosted("Round 2")
	speaks(t, "round 2's pairings", r2, []string{"Standings after round 1", "Buchholz"}, nil)
	if len(r2.Attachments) != 1 || r2.Attachments[0].Filename != "standings.png" {
		t.Errorf("round 2's pairings carry %+v, want the table's picture", r2.Attachments)
	}
	for _, g := range h.settle(tr.Rounds[1]) {
		resignByUI(t, h, userID(g.Players[g.Turn].ID), g.ID)
	}

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

// posted counts the messages of the channel whose text has want.
func (h *harness) posted(want string) int {
	n := 0
	for _, m := range h.srv.Messages(h.srv.ChannelID()) {
		if strings.Contains(text(readable(m)), want) {
			n++
		}
	}
	return n
}

// settle waits until every game of round r has its board posted and
// either awaits a member's move or has ended (two AIs play theirs to the
// end), and returns the games awaiting a member.
func (h *harness) settle(r storage.Round) []*storage.Game {
	h.t.Helper()
	var waiting []*storage.Game
	for _, b := range r.Boards {
		if b.IsBye() {
			continue
		}
		g := h.waitGame(b.Game, "a member to move or the end", func(g *storage.Game) bool {
			return g.MessageID != "" && (g.Status.Ended() || g.Status == storage.StatusActive && !g.AwaitingAI())
		})
		if !g.Status.Ended() {
			waiting = append(waiting, g)
		}
	}
	return waiting
}

// swiss announces alice's Swiss of two rounds of Tic-Tac-Toe, 30 s a
// move, open to AIs, checking the announcement as it goes; alice, bob
// and ais AIs join, and alice starts it.
func swiss(t *testing.T, h *harness, alice, bob string, ais int) storage.TournamentID {
	t.Helper()
	id, _ := openTournament(t, h, []discordtest.Option{
		opt("format", "swiss"), opt("game", "tictactoe"), opt("rounds", 2), opt("movetime", 30), opt("ai", true), opt("name", "Test Cup"),
	}, []string{"Test Cup", "Swiss, 2 rounds", "30 seconds a move", "Join", "Enter an AI"}, []string{alice, bob}, ais)
	return id
}

// openTournament announces a tournament (announceTournament) and has its
// creator, the first of members, start it. It returns the tournament's
// ID and its announcement as started, with Withdraw.
func openTournament(t *testing.T, h *harness, opts []discordtest.Option, announced, members []string, ais int) (storage.TournamentID, discordtest.Message) {
	t.Helper()
	id, entered := announceTournament(t, h, opts, announced, members, ais)
	startID, _ := find(entered, customid.TournamentStart, nil)
	started := h.click(members[0], entered.ID, startID)
	speaks(t, "the started announcement", started, []string{"Under way", "Withdraw"}, []string{"Join"})
	return id, started
}

// announceTournament announces a tournament with /tournament create's
// options opts as the first of members, checks that the announcement
// says announced, has the members join and the creator enter ais AIs
// (the first ais of the select), and checks that the announcement names
// them all. It returns the tournament's ID and the announcement.
func announceTournament(t *testing.T, h *harness, opts []discordtest.Option, announced, members []string, ais int) (storage.TournamentID, discordtest.Message) {
	t.Helper()
	creator := members[0]
	_, ann := h.command(creator, "tournament", discordtest.Option{Name: "create", Options: opts})
	speaks(t, "the announcement", ann, announced, nil)
	join, ok := find(ann, customid.TournamentJoin, nil)
	if !ok {
		t.Fatalf("no Join on the announcement: %+v", ann.Components)
	}
	id := storage.TournamentID(strings.Split(join, "/")[2])
	var entered discordtest.Message
	for _, m := range members {
		entered = h.click(m, ann.ID, join)
	}
	for i := range ais {
		aiSelect, ok := find(entered, customid.TournamentAI, nil)
		if !ok {
			t.Fatal("no AI select on the announcement")
		}
		var strategy string
		for _, c := range components(entered) {
			if c.CustomID == aiSelect && len(c.Options) > i {
				strategy = c.Options[i].Value
			}
		}
		entered = h.click(creator, ann.ID, aiSelect, strategy)
	}
	want := []string{fmt.Sprintf("Players (%d/", len(members)+ais)}
	for _, m := range members {
		want = append(want, "<@"+m+">")
	}
	if ais > 0 {
		want = append(want, "🤖")
	}
	speaks(t, "the announcement with every player", entered, want, nil)
	return id, entered
}

// TestTournamentRestartMidRoundLosesNothing stops the bot during round 1
// of a Swiss, and ends the round's game meanwhile straight in the store,
// as a process that crashed between a game's end and its board's result
// leaves it: the restarted bot records the result, pairs round 2 and
// posts it, once; on each store.
func TestTournamentRestartMidRoundLosesNothing(t *testing.T) {
	t.Parallel()
	onEachStore(t, testRestartMidRoundLosesNothing)
}

func testRestartMidRoundLosesNothing(t *testing.T, store option) {
	h := start(t, withClock(), store)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	id := swiss(t, h, alice, bob, 1) // three players: a bye a round
	h.waitPosted("Round 1")
	tr := h.waitTournament(id, "round 1", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	board := boardOf(t, tr.Rounds[0])
	g := h.waitGame(board.Game, "a member to move on round 1's board", func(g *storage.Game) bool {
		return g.Status == storage.StatusActive && !g.AwaitingAI() && g.MessageID != ""
	})
	h.stop()
	g.Status = storage.StatusFinished
	if _, err := h.db().FinishGame(context.Background(), g, storage.Result{Winner: 1 - g.Turn, Outcome: storage.Resigned}); err != nil {
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
		if n := h.posted(round); n != 1 {
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

// TestTournamentArenaAcrossRestartsLosesNothing announces an Arena that
// starts in a minute and has the bot down at its start time, and again
// at its end, its games ended meanwhile straight in the store as a crash
// between a game's end and its board's result leaves them; on each
// store. Each restarted bot does what came due while it was down: the
// first starts the Arena and pairs it, the second records the games'
// results and finishes it, pairing nobody after its end; each said once.
func TestTournamentArenaAcrossRestartsLosesNothing(t *testing.T) {
	t.Parallel()
	onEachStore(t, testArenaAcrossRestarts)
}

func testArenaAcrossRestarts(t *testing.T, store option) {
	h := start(t, withClock(), store)
	var members []string
	for _, name := range []string{"alice", "bob", "carol", "dave"} {
		members = append(members, h.srv.AddUser(name).ID)
	}
	id, _ := announceTournament(t, h, []discordtest.Option{
		opt("format", "arena"), opt("game", "tictactoe"), opt("duration", 5), opt("movetime", 600), opt("start", 1), opt("name", "Night Arena"),
	}, []string{"Night Arena", "Arena, 5 minutes", "Starts"}, members, 0)

	h.stop()
	h.clock.Advance(time.Minute)
	h.run()
	h.waitPosted("The tournament starts with 4 players")
	tr := h.waitTournament(id, "the first pairings", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	h.waitPosted("New pairings")
	on := h.settle(tr.Rounds[0])
	if len(on) != 2 {
		t.Fatalf("%d games of four members on, want 2", len(on))
	}

	h.stop()
	for _, g := range on {
		g.Status = storage.StatusFinished
		if _, err := h.db().FinishGame(context.Background(), g, storage.Result{Winner: 0, Outcome: storage.Resigned}); err != nil {
			t.Fatal(err)
		}
	}
	h.clock.Advance(5 * time.Minute)
	h.run()
	podium := h.waitPosted("The tournament is over")
	tr = h.waitTournament(id, "the end", func(tr *storage.Tournament) bool { return tr.Status == storage.TournamentFinished })
	if len(tr.Rounds) != 1 {
		t.Errorf("the Arena paired %d times, after its end too: %+v", len(tr.Rounds), tr.Rounds)
	}
	for _, b := range tr.Rounds[0].Boards {
		speaks(t, "the podium", podium, []string{"<@" + userID(b.White) + "> — **2**", "<@" + userID(b.Black) + "> — **0**"}, nil)
	}
	for _, say := range []string{"The tournament starts", "New pairings", "The tournament is over"} {
		if n := h.posted(say); n != 1 {
			t.Errorf("%q was posted %d times", say, n)
		}
	}
}
