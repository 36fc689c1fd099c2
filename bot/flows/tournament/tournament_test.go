package tournament_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/tournament"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/storage"
)

var (
	alice = muxtest.Member("alice", 0)
	bob   = muxtest.Member("bob", 0)
	carol = muxtest.Member("carol", 0)
	dave  = muxtest.Member("dave", 0)
	admin = muxtest.Member("admin", discordgo.PermissionManageGuild)
)

// refused checks that err is a user's error whose English text has want.
func refused(t *testing.T, what string, err error, want string) {
	t.Helper()
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, want) {
		t.Errorf("%s: %q, want it to say %q", what, text, want)
	}
}

func TestCreateAnnouncesWithButtonsAndRefusesAtTheCap(t *testing.T) {
	fx := newFixture(storage.TournamentCaps{MaxOpen: 2, MaxPlayers: 60})
	create := sub("create", str("format", "swiss"), str("game", "tictactoe"), num("rounds", 2), str("name", "Friday"), flag("ai", true))
	if err := fx.command(alice, create); err != nil {
		t.Fatal(err)
	}
	resp := fx.rec.Responses()[0]
	if resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		t.Error("the announcement was answered privately; it is for the channel")
	}
	got := text(resp.Data.Embeds)
	for _, want := range []string{"Friday", "Tic-Tac-Toe", "Swiss, 2 rounds", "2 minutes a move", "rated", "Starts when <@alice> presses Start", "Open to AIs"} {
		if !strings.Contains(got, want) {
			t.Errorf("the announcement does not say %q:\n%s", want, got)
		}
	}
	tr := fx.only(t)
	if tr.Format != storage.FormatSwiss || tr.SwissRounds != 2 || tr.Kind != "tictactoe" || tr.Creator != storage.User("alice") || !tr.OpenToAI || tr.ChannelID != "channel" {
		t.Errorf("stored %+v", tr)
	}
	var ids []string
	for _, row := range resp.Data.Components {
		for _, c := range row.(discordgo.ActionsRow).Components {
			switch c := c.(type) {
			case discordgo.Button:
				ids = append(ids, c.CustomID)
			case discordgo.SelectMenu:
				ids = append(ids, c.CustomID)
				if len(c.Options) == 0 {
					t.Error("the AI select offers no AI")
				}
			}
		}
	}
	id := string(tr.ID)
	for _, want := range []string{customid.TournamentJoin.Build(id), customid.TournamentLeave.Build(id), customid.TournamentStart.Build(id),
		customid.TournamentCancel.Build(id), customid.TournamentAI.Build(id)} {
		if !strings.Contains(strings.Join(ids, " "), want) {
			t.Errorf("no component %s among %v", want, ids)
		}
	}

	if err := fx.command(bob, sub("create", str("format", "arena"), str("game", "connect4"), num("duration", 45), num("start", 10), flag("rated", false))); err != nil {
		t.Fatal(err)
	}
	got = fx.last(t)
	for _, want := range []string{"Arena, 45 minutes", "casual", "Starts <t:"} {
		if !strings.Contains(got, want) {
			t.Errorf("the Arena's announcement does not say %q:\n%s", want, got)
		}
	}
	refused(t, "a third tournament at a cap of 2", fx.command(carol, sub("create", str("format", "roundrobin"), str("game", "othello"))), "2 tournaments at once")
	refused(t, "a Swiss with a duration", fx.command(carol, sub("create", str("format", "swiss"), str("game", "othello"), num("duration", 10))), "A Swiss has rounds")
	refused(t, "an unknown game", fx.command(carol, sub("create", str("format", "swiss"), str("game", "chess"))), `"chess"`)
}

func TestJoinLeaveStartAndTheirRefusals(t *testing.T) {
	fx := newFixture(storage.TournamentCaps{MaxOpen: 3, MaxPlayers: 3})
	if err := fx.command(alice, sub("create", str("format", "swiss"), str("game", "tictactoe"), flag("ai", true))); err != nil {
		t.Fatal(err)
	}
	id := string(fx.only(t).ID)
	join, leave, start, cancel, ai := customid.TournamentJoin.Build(id), customid.TournamentLeave.Build(id),
		customid.TournamentStart.Build(id), customid.TournamentCancel.Build(id), customid.TournamentAI.Build(id)

	if err := fx.click(bob, join); err != nil {
		t.Fatal(err)
	}
	if got := fx.last(t); !strings.Contains(got, "<@bob>") || !strings.Contains(got, "Players (1/3)") {
		t.Errorf("the announcement after bob joined:\n%s", got)
	}
	refused(t, "bob joining twice", fx.click(bob, join), "in this tournament already")
	refused(t, "carol leaving", fx.click(carol, leave), "not in this tournament")
	refused(t, "bob starting alice's tournament", fx.click(bob, start), "Only <@alice>")
	refused(t, "alice starting with one player", fx.click(alice, start), "it takes at least 2")
	refused(t, "bob entering an AI", fx.click(bob, ai, "minimax"), "Only <@alice>")
	refused(t, "an AI that does not play the game", fx.click(alice, ai, "nobody"), "cannot enter")
	if err := fx.click(alice, ai, "minimax"); err != nil {
		t.Fatal(err)
	}
	refused(t, "the same AI twice", fx.click(alice, ai, "minimax"), "already")
	if err := fx.click(carol, join); err != nil {
		t.Fatal(err)
	}
	refused(t, "dave joining a full tournament", fx.click(dave, join), "full: 3 players")
	if err := fx.click(carol, leave); err != nil {
		t.Fatal(err)
	}
	if got := fx.last(t); strings.Contains(got, "<@carol>") {
		t.Errorf("carol still listed after leaving:\n%s", got)
	}
	refused(t, "bob cancelling alice's tournament", fx.click(bob, cancel), "Manage Server")

	if err := fx.click(alice, start); err != nil {
		t.Fatal(err)
	}
	tr := fx.only(t)
	if tr.Status != storage.TournamentRunning || len(tr.Rounds) != 1 {
		t.Fatalf("after the start: %s with %d rounds, want running with round 1 paired", tr.Status, len(tr.Rounds))
	}
	before := len(fx.rec.Responses())
	refused(t, "dave joining after the start", fx.click(dave, join), "has started")
	// The announcement dave clicked still offered Join: the click shows
	// the tournament as it now is, and the explanation follows.
	if got := fx.last(t); len(fx.rec.Responses()) != before+1 || !strings.Contains(got, "Under way") {
		t.Errorf("a Join on a started tournament's stale announcement showed:\n%s", got)
	}
	refused(t, "starting twice", fx.click(alice, start), "changed meanwhile")

	// bob withdraws, as he confirms: paired no more (withdraw_test.go
	// has the rest).
	if err := fx.click(bob, leave); err != nil {
		t.Fatal(err)
	}
	if err := fx.click(bob, customid.TournamentWithdraw.Build(id)); err != nil {
		t.Fatal(err)
	}
	if tr := fx.only(t); tr.Entered(storage.User(bob.User.ID)) {
		t.Error("bob still in after withdrawing")
	}
	if err := fx.click(admin, cancel); err != nil {
		t.Fatal(err)
	}
	if tr := fx.only(t); tr.Status != storage.TournamentCancelled {
		t.Errorf("after a Manage Server member's Cancel: %s", tr.Status)
	}
	refused(t, "leaving a cancelled tournament", fx.click(bob, leave), "over")
}

func TestASwissRunsFromStartToPodium(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "swiss"), str("game", "connect4"), num("rounds", 2), num("movetime", 60)), alice, bob, carol, dave)
	fx.start(t, id)
	tr := fx.only(t)
	if len(tr.Rounds) != 1 || len(tr.Rounds[0].Boards) != 2 {
		t.Fatalf("round 1: %+v", tr.Rounds)
	}
	if len(fx.boards.shown) != 2 {
		t.Errorf("%d boards shown for round 1, want 2", len(fx.boards.shown))
	}
	posts := fx.boards.texts()
	if len(posts) != 1 || !strings.Contains(posts[0], "Round 1") || !strings.Contains(posts[0], "(moves first) vs") {
		t.Fatalf("round 1's pairings: %q", posts)
	}
	for _, b := range tr.Rounds[0].Boards {
		g, err := fx.store.Game(context.Background(), b.Game)
		if err != nil {
			t.Fatal(err)
		}
		if g.Players[0].ID != b.White || g.Turn != 0 || g.Settings.Tournament != tr.ID || g.Settings.TurnTime != time.Minute ||
			g.Settings.MoveTime != 2*time.Second || g.Settings.Casual || g.ChannelID != tr.Rounds[0].Thread || g.ChannelID == "" {
			t.Errorf("board game %+v", g)
		}
	}

	// Board 1: White wins. Board 2: White runs out of time, a forfeit.
	// The end of one game pairs nothing: the round is not done.
	b1, b2 := tr.Rounds[0].Boards[0], tr.Rounds[0].Boards[1]
	fx.flow.GameEnded(context.Background(), fx.store.end(t, b1.Game, 1, false))
	if tr := fx.only(t); len(tr.Rounds) != 1 || tr.Rounds[0].Boards[0].Result != storage.BoardWhite {
		t.Fatalf("after board 1's end: %+v", tr.Rounds)
	}
	fx.store.play(t, b2.Game, 2) // each moved: no no-show
	fx.store.end(t, b2.Game, 0, true)
	// Nobody told the flow (a crash between the game's end and its
	// result): the timers' sweep catches up.
	fx.clock.Advance(time.Minute)
	fx.flow.Tick(context.Background(), storage.Shards{})
	tr = fx.only(t)
	if len(tr.Rounds) != 2 || tr.Rounds[0].Boards[1].Result != storage.BoardBlackForfeit {
		t.Fatalf("after the sweep: round 1 %+v, %d rounds", tr.Rounds[0], len(tr.Rounds))
	}
	posts = fx.boards.texts()
	if len(posts) != 2 || !strings.Contains(posts[1], "Round 2") || !strings.Contains(posts[1], "Standings after round 1") {
		t.Fatalf("round 2's pairings: %q", posts)
	}
	winners := []storage.PlayerID{b1.White, b2.Black}
	for _, b := range tr.Rounds[1].Boards {
		fx.flow.GameEnded(context.Background(), fx.store.end(t, b.Game, 0.5, false))
	}
	tr = fx.only(t)
	if tr.Status != storage.TournamentFinished {
		t.Fatalf("after round 2: %s", tr.Status)
	}
	for _, e := range tr.Entrants {
		top := e.Player.ID == winners[0] || e.Player.ID == winners[1]
		if top && (e.Rank > 2 || e.Score != 3) || !top && (e.Rank < 3 || e.Score != 1) {
			t.Errorf("%s placed %d with %d half-points", e.Player.ID, e.Rank, e.Score)
		}
	}
	posts = fx.boards.texts()
	if len(posts) != 3 || !strings.Contains(posts[2], "The tournament is over") || !strings.Contains(posts[2], "🥇") || !strings.Contains(posts[2], "1½") {
		t.Fatalf("the podium: %q", posts)
	}
	// A redelivered end changes nothing and posts no second podium.
	fx.flow.GameEnded(context.Background(), fx.store.end(t, tr.Rounds[1].Boards[0].Game, 0.5, false))
	if n := len(fx.boards.texts()); n != 3 {
		t.Errorf("%d messages after a redelivered end, want 3", n)
	}

	if err := fx.command(bob, sub("standings")); err != nil {
		t.Fatal(err)
	}
	if got := fx.last(t); !strings.Contains(got, "Standings after round 2") || !strings.Contains(got, "Buchholz") {
		t.Errorf("/tournament standings:\n%s", got)
	}
	if err := fx.command(bob, sub("list")); err != nil {
		t.Fatal(err)
	}
	if got := fx.last(t); !strings.Contains(got, id) || !strings.Contains(got, "Finished") || !strings.Contains(got, "🥇") {
		t.Errorf("/tournament list:\n%s", got)
	}
}

func TestTheStartTimeStartsOrCancels(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	for _, name := range []string{"Empty", "Full"} {
		if err := fx.command(alice, sub("create", str("format", "roundrobin"), str("game", "tictactoe"), num("start", 5), str("name", name))); err != nil {
			t.Fatal(err)
		}
	}
	list := fx.store.list(func(t *storage.Tournament) bool { return t.Name == "Full" })
	full := string(list[0].ID)
	for _, m := range []*discordgo.Member{alice, bob, carol} {
		if err := fx.click(m, customid.TournamentJoin.Build(full)); err != nil {
			t.Fatal(err)
		}
	}
	fx.clock.Advance(4 * time.Minute)
	fx.flow.Tick(context.Background(), storage.Shards{})
	if n := len(fx.boards.texts()); n != 0 {
		t.Fatalf("%d messages before the start time", n)
	}
	fx.clock.Advance(time.Minute)
	fx.flow.Tick(context.Background(), storage.Shards{})
	for _, tr := range fx.store.list(func(*storage.Tournament) bool { return true }) {
		want := map[string]storage.TournamentStatus{"Empty": storage.TournamentCancelled, "Full": storage.TournamentRunning}[tr.Name]
		if tr.Status != want {
			t.Errorf("%s at its start time: %s, want %s", tr.Name, tr.Status, want)
		}
	}
	got := strings.Join(fx.boards.texts(), "\n---\n")
	for _, want := range []string{"Cancelled: 0 players joined, it takes at least 3", "starts with 3 players", "Round 1", "sits this round out"} {
		if !strings.Contains(got, want) {
			t.Errorf("the channel was not told %q:\n%s", want, got)
		}
	}
}

func TestPauseResumeCancelAreTheCreatorsOrManagers(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "arena"), str("game", "tictactoe"), num("duration", 30)), alice, bob, carol)
	refused(t, "pausing before the start", fx.command(alice, sub("pause")), "not running")
	fx.start(t, id)
	if tr := fx.only(t); len(tr.Rounds) != 1 || len(tr.Rounds[0].Boards) != 1 {
		t.Fatalf("the Arena's first pairings: %+v", tr.Rounds)
	}
	refused(t, "bob pausing", fx.command(bob, sub("pause")), "Manage Server")
	if err := fx.command(alice, sub("pause", str("id", id))); err != nil {
		t.Fatal(err)
	}
	if got := fx.last(t); !strings.Contains(got, "Paused by <@alice>") {
		t.Errorf("the pause's notice:\n%s", got)
	}
	// A game's end while paused records its result and pairs no one.
	board := fx.only(t).Rounds[0].Boards[0]
	fx.flow.GameEnded(context.Background(), fx.store.end(t, board.Game, 1, false))
	if tr := fx.only(t); len(tr.Rounds) != 1 {
		t.Errorf("%d rounds after a game's end while paused, want 1", len(tr.Rounds))
	}
	refused(t, "resuming what runs", fx.command(admin, sub("pause")), "not running")
	if err := fx.command(admin, sub("resume")); err != nil {
		t.Fatal(err)
	}
	if tr := fx.only(t); tr.Status != storage.TournamentRunning || len(tr.Rounds) != 2 || tr.Rounds[0].Boards[0].Result != storage.BoardWhite {
		t.Errorf("after the resumption: %s, rounds %+v", tr.Status, tr.Rounds)
	}
	refused(t, "another server's tournament", muxtest.Run(fx.m, fx.rec, func() *discordgo.Interaction {
		raw := muxtest.Command(alice, discordgo.EnglishUS, "tournament", sub("cancel", str("id", id)))
		raw.GuildID = "elsewhere"
		return raw
	}()), "There is no tournament")
	if err := fx.command(admin, sub("cancel")); err != nil {
		t.Fatal(err)
	}
	if tr := fx.only(t); tr.Status != storage.TournamentCancelled {
		t.Errorf("after cancel: %s", tr.Status)
	}
	refused(t, "cancelling twice", fx.command(alice, sub("cancel", str("id", id))), "over")
}

func TestAnArenaPairsAsGamesEndUntilItsTimeIsUp(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "arena"), str("game", "tictactoe"), num("duration", 10)), alice, bob, carol, dave)
	fx.start(t, id)
	tr := fx.only(t)
	if len(tr.Rounds) != 1 || len(tr.Rounds[0].Boards) != 2 {
		t.Fatalf("the first wave: %+v", tr.Rounds)
	}
	// A game's end pairs its players as soon as someone other than
	// their last opponent waits: the first two wait for the others, and
	// all four are paired anew once the second game ends.
	first, second := tr.Rounds[0].Boards[0], tr.Rounds[0].Boards[1]
	fx.flow.GameEnded(context.Background(), fx.store.end(t, first.Game, 1, false))
	if tr := fx.only(t); len(tr.Rounds) != 1 {
		t.Fatalf("after the first game's end its players met again: %+v", tr.Rounds)
	}
	fx.flow.GameEnded(context.Background(), fx.store.end(t, second.Game, 0.5, false))
	tr = fx.only(t)
	if len(tr.Rounds) != 2 || len(tr.Rounds[1].Boards) != 2 {
		t.Fatalf("after the second game's end: %+v", tr.Rounds)
	}
	for _, b := range tr.Rounds[1].Boards {
		for _, old := range []storage.Board{first, second} {
			if (b.White == old.White || b.White == old.Black) && (b.Black == old.White || b.Black == old.Black) {
				t.Errorf("the second wave %+v repeats the first's %+v", tr.Rounds[1].Boards, old)
			}
		}
	}
	// The time is up with games on: the Arena waits for them, pairs no
	// one, and ends with the last.
	fx.clock.Advance(10 * time.Minute)
	fx.flow.Tick(context.Background(), storage.Shards{})
	if tr := fx.only(t); tr.Status != storage.TournamentRunning || len(tr.Rounds) != 2 {
		t.Fatalf("at the end with games on: %s, %d rounds", tr.Status, len(tr.Rounds))
	}
	fx.flow.GameEnded(context.Background(), fx.store.end(t, tr.Rounds[1].Boards[0].Game, 1, false))
	if tr := fx.only(t); len(tr.Rounds) != 2 || tr.Status != storage.TournamentRunning {
		t.Fatalf("a game's end after the time: %s, %d rounds", tr.Status, len(tr.Rounds))
	}
	fx.flow.GameEnded(context.Background(), fx.store.end(t, tr.Rounds[1].Boards[1].Game, 0, false))
	tr = fx.only(t)
	if tr.Status != storage.TournamentFinished {
		t.Fatalf("after the last game: %s", tr.Status)
	}
	posts := fx.boards.texts()
	if last := posts[len(posts)-1]; !strings.Contains(last, "The tournament is over") || !strings.Contains(last, "🥇") {
		t.Errorf("the podium: %q", last)
	}
}

func TestTwoProcessesPostEachRoundOnce(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	other := &fakeBoards{} // a second process over the same store
	second := tournament.New(fx.store, other, tournament.Config{
		Caps: storage.DefaultTournamentCaps, AIMoveTime: time.Second, SweepEvery: time.Minute, Go: func(f func()) { f() }, Now: fx.clock.Now,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	id := fx.announce(t, sub("create", str("format", "swiss"), str("game", "tictactoe"), num("rounds", 3)), alice, bob, carol, dave)
	fx.start(t, id)
	for round := 1; round < 3; round++ {
		tr := fx.only(t)
		var ended []*storage.Game
		for _, b := range tr.Rounds[round-1].Boards {
			ended = append(ended, fx.store.end(t, b.Game, 1, false))
		}
		// Both processes learn of both ends at once.
		var wg sync.WaitGroup
		for _, f := range []*tournament.Flow{fx.flow, second} {
			for _, g := range ended {
				wg.Add(1)
				go func() {
					defer wg.Done()
					f.GameEnded(context.Background(), g)
				}()
			}
		}
		wg.Wait()
		if tr := fx.only(t); len(tr.Rounds) != round+1 {
			t.Fatalf("after round %d: %d rounds", round, len(tr.Rounds))
		}
		posts := append(fx.boards.texts(), other.texts()...)
		n := 0
		for _, p := range posts {
			if strings.Contains(p, fmt.Sprintf("Round %d", round+1)) {
				n++
			}
		}
		if shown := len(fx.boards.shown) + len(other.shown); n != 1 || shown != 2*(round+1) {
			t.Errorf("round %d's pairings posted %d times, %d boards shown for %d rounds of 2", round+1, n, shown, round+1)
		}
	}
}

// staleStore reads a tournament as it was once (stale), then as it is:
// a process that paired from a record another process has since changed.
type staleStore struct {
	*fakeStore
	stale *storage.Tournament
}

func (s *staleStore) Tournament(ctx context.Context, id storage.TournamentID) (*storage.Tournament, error) {
	if t := s.stale; t != nil && t.ID == id {
		s.stale = nil
		return t, nil
	}
	return s.fakeStore.Tournament(ctx, id)
}

func TestAProcessThatPairedSecondPostsNothing(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "swiss"), str("game", "tictactoe"), num("rounds", 2)), alice, bob, carol, dave)
	fx.start(t, id)
	for _, b := range fx.only(t).Rounds[0].Boards {
		fx.store.end(t, b.Game, 1, false)
		if _, _, err := fx.store.RecordTournamentResult(context.Background(), b.Game); err != nil {
			t.Fatal(err)
		}
	}
	before := fx.only(t) // round 1 done, round 2 not paired
	if err := fx.flow.Advance(context.Background(), before.ID); err != nil {
		t.Fatal(err)
	}
	if tr := fx.only(t); len(tr.Rounds) != 2 {
		t.Fatalf("%d rounds after the first process's advance", len(tr.Rounds))
	}
	other := &fakeBoards{}
	second := tournament.New(&staleStore{fakeStore: fx.store, stale: before}, other, tournament.Config{
		Caps: storage.DefaultTournamentCaps, AIMoveTime: time.Second, SweepEvery: time.Minute, Go: func(f func()) { f() }, Now: fx.clock.Now,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err := second.Advance(context.Background(), before.ID); err != nil {
		t.Fatal(err)
	}
	if tr := fx.only(t); len(tr.Rounds) != 2 {
		t.Errorf("%d rounds after the second process's advance, want 2", len(tr.Rounds))
	}
	if len(other.posts) != 0 || len(other.shown) != 0 || other.begins != 2 {
		t.Errorf("the process that paired second posted %d messages and showed %d boards (began %d games, want 2)", len(other.posts), len(other.shown), other.begins)
	}
}

// TestStandingsWithoutAnIDShowTheRunningOne: /tournament standings
// without an id shows the tournament under way, not one announced after
// it that nobody plays yet; with none under way, the newest announced.
func TestStandingsWithoutAnIDShowTheRunningOne(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	if err := fx.command(alice, sub("create", str("format", "swiss"), str("game", "tictactoe"), str("name", "Friday Cup"))); err != nil {
		t.Fatal(err)
	}
	friday := string(fx.only(t).ID)
	for _, m := range []*discordgo.Member{bob, carol} {
		if err := fx.click(m, customid.TournamentJoin.Build(friday)); err != nil {
			t.Fatal(err)
		}
	}
	fx.start(t, friday)
	for _, name := range []string{"Saturday Cup", "Sunday Cup"} {
		if err := fx.command(alice, sub("create", str("format", "swiss"), str("game", "tictactoe"), str("name", name))); err != nil {
			t.Fatal(err)
		}
	}
	if err := fx.command(bob, sub("standings")); err != nil {
		t.Fatal(err)
	}
	if got := fx.last(t); !strings.Contains(got, "Friday Cup") {
		t.Errorf("/tournament standings shows another than the one under way:\n%s", got)
	}
	if err := fx.command(alice, sub("cancel", str("id", friday))); err != nil {
		t.Fatal(err)
	}
	if err := fx.command(bob, sub("standings")); err != nil {
		t.Fatal(err)
	}
	if got := fx.last(t); !strings.Contains(got, "Sunday Cup") {
		t.Errorf("with none under way, /tournament standings shows another than the newest announced:\n%s", got)
	}
}
