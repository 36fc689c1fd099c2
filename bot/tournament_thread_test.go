package bot_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// allBotPermissions are the stand-in's permissions in full, less
// Administrator, which would override a permission taken away.
const allBotPermissions = int64(1<<51-1) &^ discordgo.PermissionAdministrator

// roundThread checks that round n of tournament tr has its pairings in
// the channel and a thread started from them, named after the round, and
// returns the thread's ID.
func (h *harness) roundThread(tr *storage.Tournament, n int) string {
	h.t.Helper()
	pairings := h.waitPosted(fmt.Sprintf("Round %d", n))
	if pairings.ChannelID != h.srv.ChannelID() {
		h.t.Errorf("round %d's pairings are in %s, want the channel %s", n, pairings.ChannelID, h.srv.ChannelID())
	}
	tr = h.waitTournament(tr.ID, fmt.Sprintf("round %d's thread", n), func(tr *storage.Tournament) bool {
		return len(tr.Rounds) >= n && tr.Rounds[n-1].Thread != ""
	})
	th, ok := h.srv.Channel(tr.Rounds[n-1].Thread)
	if !ok || !th.IsThread() || th.ID != pairings.ID || th.ParentID != h.srv.ChannelID() || th.Name != fmt.Sprintf("Test Cup — round %d", n) {
		h.t.Errorf("round %d's thread: %+v (found %v), want %q started from the pairings %s", n, th, ok, fmt.Sprintf("Test Cup — round %d", n), pairings.ID)
	}
	return th.ID
}

// boardsIn checks that every game of round r has its board posted in
// channel, and returns the games awaiting a member (settle).
func (h *harness) boardsIn(r storage.Round, channel string) []*storage.Game {
	h.t.Helper()
	waiting := h.settle(r)
	for _, b := range r.Boards {
		if b.IsBye() {
			continue
		}
		g := h.game(b.Game)
		m, ok := h.srv.Message(g.MessageID)
		if !ok || m.ChannelID != channel || g.ChannelID != channel {
			h.t.Errorf("round %d's board of game %s is in %s (game's channel %s), want %s", r.Number, g.ID, m.ChannelID, g.ChannelID, channel)
		}
	}
	return waiting
}

// TestTournamentRoundsBoardsInThreads runs a Swiss of two rounds, two
// members and two AIs, on a server with the default setting: each
// round's pairings are in the channel with a thread started from them,
// named after the round, holding the round's boards, where the members
// play (a resignation through a board in a thread); the standings and
// the podium are in the channel, and the announcement ends final.
func TestTournamentRoundsBoardsInThreads(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	id := swiss(t, h, alice, bob, 2)
	tr := h.waitTournament(id, "round 1", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	th1 := h.roundThread(tr, 1)
	tr = h.waitTournament(id, "round 1", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	h.boardsIn(tr.Rounds[0], th1)
	h.clock.Advance(31 * time.Second) // the members lose on time

	tr = h.waitTournament(id, "round 2", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 2 })
	th2 := h.roundThread(tr, 2)
	if th2 == th1 {
		t.Errorf("round 2 has round 1's thread %s", th1)
	}
	tr = h.waitTournament(id, "round 2", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 2 })
	for _, g := range h.boardsIn(tr.Rounds[1], th2) {
		resignByUI(t, h, userID(g.Players[g.Turn].ID), g.ID)
	}
	podium := h.waitPosted("The tournament is over")
	if podium.ChannelID != h.srv.ChannelID() {
		t.Errorf("the podium is in %s, want the channel", podium.ChannelID)
	}
	tr = h.waitTournament(id, "the end", func(tr *storage.Tournament) bool { return tr.Status == storage.TournamentFinished })
	if tr.MessageID == "" {
		t.Fatal("the announcement's message was not recorded")
	}
	ann, ok := h.srv.Message(tr.MessageID)
	if !ok {
		t.Fatalf("no announcement %s", tr.MessageID)
	}
	speaks(t, "the final announcement", readable(ann), []string{"Finished"}, []string{"Withdraw", "Join"})
	if len(ann.Components) != 0 {
		t.Errorf("the final announcement keeps components: %+v", ann.Components)
	}
	if msgs := h.srv.Messages(th1); len(msgs) != len(tr.Rounds[0].Boards)-countByes(tr.Rounds[0]) {
		t.Errorf("round 1's thread holds %d messages, want its boards only", len(msgs))
	}
}

// countByes counts the byes of round r.
func countByes(r storage.Round) int {
	n := 0
	for _, b := range r.Boards {
		if b.IsBye() {
			n++
		}
	}
	return n
}

// TestTournamentBoardsInTheChannelBySetting: a server whose admin chose
// the channel with /settings tournament-boards gets its boards there, and
// no thread.
func TestTournamentBoardsInTheChannelBySetting(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	_, saved := h.command(alice, "settings", opt("tournament-boards", "channel"))
	speaks(t, "the saved settings", saved, []string{"Tournament boards", "in the tournament's channel"}, nil)
	id := swiss(t, h, alice, bob, 0)
	h.waitPosted("Round 1")
	tr := h.waitTournament(id, "round 1", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	h.boardsIn(tr.Rounds[0], h.srv.ChannelID())
	if th := h.srv.Threads(h.srv.ChannelID()); len(th) != 0 || tr.Rounds[0].Thread != "" {
		t.Errorf("threads with the channel setting: %+v, round 1's %q", th, tr.Rounds[0].Thread)
	}
}

// TestTournamentThreadRefusedFallsBackToTheChannel: without Create
// Public Threads in the channel, Discord refuses the round's thread; the
// boards of both rounds are posted in the channel, and the channel is
// told once.
func TestTournamentThreadRefusedFallsBackToTheChannel(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	if err := h.srv.SetBotPermissions(h.srv.ChannelID(), allBotPermissions&^discordgo.PermissionCreatePublicThreads); err != nil {
		t.Fatal(err)
	}
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	id := swiss(t, h, alice, bob, 2)
	h.waitPosted("Round 1")
	h.waitPosted("could not open a thread")
	tr := h.waitTournament(id, "round 1", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	h.boardsIn(tr.Rounds[0], h.srv.ChannelID())
	h.clock.Advance(31 * time.Second)
	tr = h.waitTournament(id, "round 2", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 2 })
	h.waitPosted("Round 2")
	h.boardsIn(tr.Rounds[1], h.srv.ChannelID())
	told := 0
	for _, m := range h.srv.Messages(h.srv.ChannelID()) {
		if strings.Contains(text(readable(m)), "could not open a thread") {
			told++
		}
	}
	if told != 1 || !tr.ThreadsRefused {
		t.Errorf("the refusal was told %d times (recorded %v), want once", told, tr.ThreadsRefused)
	}
	if th := h.srv.Threads(h.srv.ChannelID()); len(th) != 0 {
		t.Errorf("threads: %+v", th)
	}
}

// TestTournamentRestartPostsMissingBoardsInTheRoundsThread stops the bot
// after round 1 was paired and its thread started and recorded, but
// before its board was posted (the bot lacked Send Messages in Threads,
// so the post failed): the restarted bot posts the board in the round's
// thread, not in the channel, and the members play it there.
func TestTournamentRestartPostsMissingBoardsInTheRoundsThread(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	if err := h.srv.SetBotPermissions(h.srv.ChannelID(), allBotPermissions&^discordgo.PermissionSendMessagesInThreads); err != nil {
		t.Fatal(err)
	}
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	id := swiss(t, h, alice, bob, 0)
	tr := h.waitTournament(id, "round 1's thread", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 && tr.Rounds[0].Thread != "" })
	h.waitLog("advance a tournament") // the board's post was refused
	board := boardOf(t, tr.Rounds[0])
	if g := h.game(board.Game); g.MessageID != "" || g.ChannelID != tr.Rounds[0].Thread {
		t.Fatalf("before the restart the game has board %q in %s, want none in the thread %s", g.MessageID, g.ChannelID, tr.Rounds[0].Thread)
	}
	h.stop()
	if err := h.srv.SetBotPermissions(h.srv.ChannelID(), allBotPermissions); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(time.Second) // the restart comes after the game's creation
	h.run()
	h.boardsIn(tr.Rounds[0], tr.Rounds[0].Thread)
	g := h.game(board.Game)
	resignByUI(t, h, userID(g.Players[g.Turn].ID), g.ID)
	h.waitTournament(id, "the end", func(tr *storage.Tournament) bool { return tr.Status.Ended() })
	h.waitPosted("The tournament is over")
}

// TestTournamentAnnouncementFollowsAStartAtItsTime announces a Swiss of
// one round that starts in a minute: when the manual clock reaches it,
// the announcement shows it under way, with Withdraw and no Join; at the
// end it shows it finished, without buttons.
func TestTournamentAnnouncementFollowsAStartAtItsTime(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	_, ann := h.command(alice, "tournament", discordtest.Option{Name: "create", Options: []discordtest.Option{
		opt("format", "swiss"), opt("game", "tictactoe"), opt("rounds", 1), opt("start", 1), opt("name", "Test Cup"),
	}})
	join, ok := find(ann, customid.TournamentJoin, nil)
	if !ok {
		t.Fatalf("no Join on the announcement: %+v", ann.Components)
	}
	id := storage.TournamentID(strings.Split(join, "/")[2])
	h.click(alice, ann.ID, join)
	h.click(bob, ann.ID, join)
	if tr := h.waitTournament(id, "the announcement's message", func(*storage.Tournament) bool { return true }); tr.MessageID != ann.ID {
		t.Fatalf("the announcement's message recorded as %q, want %s", tr.MessageID, ann.ID)
	}
	h.clock.Advance(61 * time.Second)
	started := h.waitAnnouncement(ann.ID, "Under way")
	speaks(t, "the announcement started at its time", started, []string{"Under way", "Withdraw"}, []string{"Join"})

	tr := h.waitTournament(id, "round 1", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	g := h.waitGame(boardOf(t, tr.Rounds[0]).Game, "a member to move", func(g *storage.Game) bool { return g.MessageID != "" })
	resignByUI(t, h, userID(g.Players[g.Turn].ID), g.ID)
	final := h.waitAnnouncement(ann.ID, "Finished")
	speaks(t, "the final announcement", final, []string{"Finished"}, []string{"Withdraw", "Join"})
	if len(final.Components) != 0 {
		t.Errorf("the final announcement keeps components: %+v", final.Components)
	}
}

// waitAnnouncement waits until message id says want.
func (h *harness) waitAnnouncement(id, want string) discordtest.Message {
	h.t.Helper()
	m, err := h.srv.WaitMessage(h.ctx(), func(m discordtest.Message) bool {
		return m.ID == id && strings.Contains(text(readable(m)), want)
	})
	if err != nil {
		now, _ := h.srv.Message(id)
		h.t.Fatalf("the announcement never said %q: %v; it says\n%s\nlogs:\n%s", want, err, text(readable(now)), h.logs.String())
	}
	return readable(m)
}
