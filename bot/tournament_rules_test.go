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

// TestTournamentPauseStopsClocks pauses a Swiss during round 1: the
// game under way stops its clock (no deadline; the deadline's job of the
// version before the pause ends nothing, as a River job on PostgreSQL
// would run it), its board says so, and a move is refused with the
// reason; an hour later the resume gives the player to move the time
// they had left, from the resume, and the move timer then runs as
// before.
func TestTournamentPauseStopsClocks(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	id := swiss(t, h, alice, bob, 0)
	tr := h.waitTournament(id, "round 1", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	board := boardOf(t, tr.Rounds[0])
	g := h.waitGame(board.Game, "a member to move", func(g *storage.Game) bool {
		return g.Status == storage.StatusActive && g.MessageID != "" && !g.Deadline.IsZero()
	})
	h.clock.Advance(10 * time.Second) // 20 s of the 30 left

	_, paused := h.command(alice, "tournament", discordtest.Option{Name: "pause"})
	speaks(t, "the pause", paused, []string{"Paused by", "clocks"}, nil)
	frozen := h.waitGame(g.ID, "its clock stopped", func(g *storage.Game) bool { return g.Paused })
	if !frozen.Deadline.IsZero() || frozen.TurnLeft != 20*time.Second {
		t.Fatalf("the paused game: deadline %v, %v left; want none and 20s", frozen.Deadline, frozen.TurnLeft)
	}
	h.waitBoard(g.ID, "the board saying the pause", func(m discordtest.Message) bool { return strings.Contains(text(m), "clock is stopped") })

	h.clock.Advance(time.Hour)
	if err := h.bot.EndDeadline(context.Background(), g.ID, g.Version); err != nil {
		t.Fatalf("the deadline's job of the version before the pause: %v", err)
	}
	if now := h.game(g.ID); now.Status != storage.StatusActive || len(now.Moves) != 0 {
		t.Fatalf("an hour into the pause the game is %s after %d moves: the clock ran", now.Status, len(now.Moves))
	}
	mover := userID(g.Players[g.Turn].ID)
	if r := h.move(mover, g.ID, "5"); !r.Ephemeral() || !strings.Contains(r.Content, "paused") {
		t.Errorf("a move in the paused tournament answered %q (ephemeral %v), want the pause's refusal", r.Content, r.Ephemeral())
	}
	if now := h.game(g.ID); len(now.Moves) != 0 {
		t.Errorf("a move was played in the paused tournament: %v", now.Moves)
	}

	_, resumed := h.command(alice, "tournament", discordtest.Option{Name: "resume"})
	speaks(t, "the resume", resumed, []string{"Resumed by"}, nil)
	running := h.waitGame(g.ID, "its clock running", func(g *storage.Game) bool { return !g.Paused })
	if want := h.clock.Now().Add(20 * time.Second); !running.Deadline.Equal(want) {
		t.Errorf("the resumed game's deadline is %v, want the 20s left from the resume, %v", running.Deadline, want)
	}
	h.waitBoard(g.ID, "the board without the pause", func(m discordtest.Message) bool { return !strings.Contains(text(m), "clock is stopped") })
	h.clock.Advance(21 * time.Second)
	h.waitGame(g.ID, "the move timer's forfeit", func(g *storage.Game) bool { return g.Status == storage.StatusForfeited })
}

// TestTournamentWithdrawalForfeitsTheGameUnderWay: a player who
// withdraws during a game, and confirms it, loses that game by forfeit —
// the board's result — and the board tells the opponent.
func TestTournamentWithdrawalForfeitsTheGameUnderWay(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	id := swiss(t, h, alice, bob, 0)
	tr := h.waitTournament(id, "round 1", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	board := boardOf(t, tr.Rounds[0])
	h.waitGame(board.Game, "its board", func(g *storage.Game) bool { return g.MessageID != "" })
	ann := h.waitPosted("Under way")
	leave, ok := find(ann, customid.TournamentLeave, nil)
	if !ok {
		t.Fatalf("no Withdraw on the started announcement: %+v", ann.Components)
	}
	ask := h.click(bob, ann.ID, leave)
	confirm, ok := find(ask, customid.TournamentWithdraw, nil)
	if !ok || !ask.Ephemeral() || !strings.Contains(ask.Content, "will be lost") {
		t.Fatalf("Withdraw answered %q (ephemeral %v) without its confirmation", ask.Content, ask.Ephemeral())
	}
	if g := h.game(board.Game); !g.Status.Open() {
		t.Fatalf("the question alone ended the game: %s", g.Status)
	}
	h.click(bob, ask.ID, confirm)
	g := h.waitGame(board.Game, "the forfeit", func(g *storage.Game) bool { return g.Status.Ended() })
	if g.Status != storage.StatusForfeited || g.Players[g.Result.Winner].ID != storage.User(alice) {
		t.Errorf("bob's game after his withdrawal: %s, won by seat %d; want forfeited to alice", g.Status, g.Result.Winner)
	}
	tr = h.waitTournament(id, "the board's result", func(tr *storage.Tournament) bool {
		return tr.Rounds[0].Boards[indexOf(tr.Rounds[0], board.Game)].Result != storage.BoardPending
	})
	want := map[storage.PlayerID]storage.BoardResult{board.White: storage.BoardBlackForfeit, board.Black: storage.BoardWhiteForfeit}[storage.User(bob)]
	if got := tr.Rounds[0].Boards[indexOf(tr.Rounds[0], board.Game)].Result; got != want {
		t.Errorf("the board's result: %s, want %s", got, want)
	}
	h.waitBoard(board.Game, "the board telling alice", func(m discordtest.Message) bool { return strings.Contains(text(m), "withdrew from the tournament") })
}

// TestRemovedFromAGuildCancelsItsTournaments removes the bot from a
// guild with a running Swiss (a game of round 1 under way) and an
// announced one: both are cancelled, before the game is, so that the
// Swiss pairs no round 2 there, and nothing is posted in the channel
// that is gone.
func TestRemovedFromAGuildCancelsItsTournaments(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	guild := h.srv.AddGuild("Leaving")
	ch, err := h.srv.AddChannel(guild.ID, "events")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{alice, bob} {
		if err := h.srv.AddMember(guild.ID, id); err != nil {
			t.Fatal(err)
		}
	}
	create := func(name string) (storage.TournamentID, discordtest.Message) {
		ann := fltCommand(t, h, alice, ch.ID, "tournament", discordtest.Option{Name: "create", Options: []discordtest.Option{
			opt("format", "swiss"), opt("game", "tictactoe"), opt("rounds", 2), opt("movetime", 30), opt("name", name),
		}})
		join, ok := find(ann, customid.TournamentJoin, nil)
		if !ok {
			t.Fatalf("no Join on %q: %+v", ann.Content, ann.Components)
		}
		return storage.TournamentID(strings.Split(join, "/")[2]), ann
	}
	running, ann := create("Running Cup")
	join, _ := find(ann, customid.TournamentJoin, nil)
	h.click(alice, ann.ID, join)
	entered := h.click(bob, ann.ID, join)
	startID, _ := find(entered, customid.TournamentStart, nil)
	h.click(alice, ann.ID, startID)
	tr := h.waitTournament(running, "round 1", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	game := h.waitGame(boardOf(t, tr.Rounds[0]).Game, "its board", func(g *storage.Game) bool { return g.MessageID != "" })
	announced, _ := create("Later Cup")
	posted := len(h.srv.Messages(ch.ID))

	if err := h.srv.RemoveBotFromGuild(guild.ID); err != nil {
		t.Fatal(err)
	}
	h.waitLog(fmt.Sprintf("removed from guild %s; 2 tournaments cancelled", guild.ID))
	h.waitLog(fmt.Sprintf("removed from guild %s; 1 games cancelled", guild.ID))
	for _, id := range []storage.TournamentID{running, announced} {
		if tr := h.waitTournament(id, "its end", func(*storage.Tournament) bool { return true }); tr.Status != storage.TournamentCancelled {
			t.Errorf("tournament %s of the guild left is %s, want cancelled", id, tr.Status)
		}
	}
	if g := h.game(game.ID); g.Status != storage.StatusCancelled {
		t.Errorf("its game is %s, want cancelled", g.Status)
	}
	if tr := h.waitTournament(running, "the record", func(*storage.Tournament) bool { return true }); len(tr.Rounds) != 1 {
		t.Errorf("the cancelled Swiss paired %d rounds", len(tr.Rounds))
	}
	if n := len(h.srv.Messages(ch.ID)); n != posted {
		t.Errorf("%d messages posted in the channel that is gone", n-posted)
	}
}
