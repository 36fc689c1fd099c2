package tournament_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/storage"
)

// member returns the fixture member whose player ID is p.
func member(t *testing.T, p storage.PlayerID) *discordgo.Member {
	t.Helper()
	for _, m := range []*discordgo.Member{alice, bob, carol, dave} {
		if storage.User(m.User.ID) == p {
			return m
		}
	}
	t.Fatalf("no member %s", p)
	return nil
}

// plays reports whether p is on a board of round r, a bye included.
func plays(r storage.Round, p storage.PlayerID) bool {
	return slices.ContainsFunc(r.Boards, func(b storage.Board) bool { return b.White == p || b.Black == p })
}

// swissWithANoShow starts a Swiss of rounds rounds of four members and
// ends its first round: board 1's White a no-show (lost on the move timer
// without a move), board 0 an ordinary win. It returns the fixture, the
// tournament and the no-show.
func swissWithANoShow(t *testing.T, rounds int) (*fixture, string, storage.PlayerID) {
	t.Helper()
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "swiss"), str("game", "tictactoe"), num("rounds", float64(rounds))), alice, bob, carol, dave)
	fx.start(t, id)
	r1 := fx.only(t).Rounds[0]
	fx.flow.GameEnded(context.Background(), fx.store.end(t, r1.Boards[0].Game, 1, false))
	fx.flow.GameEnded(context.Background(), fx.store.end(t, r1.Boards[1].Game, 0, true))
	return fx, id, r1.Boards[1].White
}

// TestANoShowIsPairedNoMoreUntilTheyJoinAgain: in a Swiss, a member who
// lost on the move timer without a move is not paired in the next round
// (no game, no bye), the round's pairings say so, and Join brings them
// back for the round after.
func TestANoShowIsPairedNoMoreUntilTheyJoinAgain(t *testing.T) {
	fx, id, noShow := swissWithANoShow(t, 3)
	tr := fx.only(t)
	if len(tr.Rounds) != 2 {
		t.Fatalf("%d rounds after round 1", len(tr.Rounds))
	}
	if plays(tr.Rounds[1], noShow) {
		t.Errorf("the no-show %s is paired in round 2: %+v", noShow, tr.Rounds[1].Boards)
	}
	if tr.Entered(noShow) {
		t.Errorf("the no-show %s is still entered", noShow)
	}
	posts := fx.boards.texts()
	if last := posts[len(posts)-1]; !strings.Contains(last, "made no move") || !strings.Contains(last, "Join") {
		t.Errorf("round 2's pairings do not tell the no-show: %q", last)
	}

	if err := fx.click(member(t, noShow), customid.TournamentJoin.Build(id)); err != nil {
		t.Fatalf("the no-show joins again: %v", err)
	}
	if !fx.only(t).Entered(noShow) {
		t.Fatal("Join did not bring the no-show back")
	}
	for _, b := range fx.only(t).Rounds[1].Boards {
		if !b.IsBye() {
			fx.store.play(t, b.Game, 2)
			fx.flow.GameEnded(context.Background(), fx.store.end(t, b.Game, 0.5, false))
		}
	}
	if tr := fx.only(t); len(tr.Rounds) != 3 || !plays(tr.Rounds[2], noShow) {
		t.Errorf("the player who joined again is not paired in round 3: %+v", tr.Rounds)
	}
}

// TestAnArenaPairsNoShowsNoMore: an Arena's member who lost on the move
// timer without a move is left out of the next pairings.
func TestAnArenaPairsNoShowsNoMore(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	fx.announce(t, sub("create", str("format", "arena"), str("game", "tictactoe"), num("duration", 60)), alice, bob, carol, dave)
	fx.start(t, string(fx.only(t).ID))
	first, second := fx.only(t).Rounds[0].Boards[0], fx.only(t).Rounds[0].Boards[1]
	fx.store.play(t, first.Game, 1)
	fx.flow.GameEnded(context.Background(), fx.store.end(t, first.Game, 1, true)) // Black never moved
	fx.flow.GameEnded(context.Background(), fx.store.end(t, second.Game, 1, false))
	tr := fx.only(t)
	if len(tr.Rounds) != 2 {
		t.Fatalf("%d waves", len(tr.Rounds))
	}
	if plays(tr.Rounds[1], first.Black) {
		t.Errorf("the no-show %s is paired again: %+v", first.Black, tr.Rounds[1].Boards)
	}
	if !plays(tr.Rounds[1], first.White) {
		t.Errorf("the no-show's opponent %s waits: %+v", first.White, tr.Rounds[1].Boards)
	}
}

// TestARoundRobinsNoShowForfeitsTheRest: a round robin's no-show is
// withdrawn: the games the table still gives them are their opponents'
// wins by forfeit, and they cannot join again.
func TestARoundRobinsNoShowForfeitsTheRest(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "roundrobin"), str("game", "tictactoe")), alice, bob, carol, dave)
	fx.start(t, id)
	r1 := fx.only(t).Rounds[0]
	noShow := r1.Boards[0].White
	fx.flow.GameEnded(context.Background(), fx.store.end(t, r1.Boards[0].Game, 0, true))
	fx.flow.GameEnded(context.Background(), fx.store.end(t, r1.Boards[1].Game, 1, false))
	tr := fx.only(t)
	if len(tr.Rounds) != 2 || plays(tr.Rounds[1], noShow) {
		t.Fatalf("round 2 after %s's no-show: %+v", noShow, tr.Rounds)
	}
	posts := fx.boards.texts()
	if last := posts[len(posts)-1]; !strings.Contains(last, "wins by forfeit") || !strings.Contains(last, "made no move") {
		t.Errorf("round 2's pairings: %q", last)
	}
	refused(t, "a round robin's no-show joining again", fx.click(member(t, noShow), customid.TournamentJoin.Build(id)), "entries are closed")
}

// TestASwissLastRoundsNoShowIsNotPromisedAReturn: a no-show of a
// Swiss's second-to-last round is left out of the last round, and no
// round is left to bring them back to: its pairings must not tell them
// Join brings them back, the announcement must not offer Join, and a
// Join is refused rather than taken as a return that pairs nothing.
func TestASwissLastRoundsNoShowIsNotPromisedAReturn(t *testing.T) {
	fx, id, noShow := swissWithANoShow(t, 2)
	if tr := fx.only(t); len(tr.Rounds) != 2 || plays(tr.Rounds[1], noShow) {
		t.Fatalf("the last round after %s's no-show: %+v", noShow, tr.Rounds)
	}
	posts := fx.boards.texts()
	if last := posts[len(posts)-1]; !strings.Contains(last, "made no move") || strings.Contains(last, "Join") {
		t.Errorf("the last round's pairings promise the no-show a return: %q", last)
	}
	if edits := fx.announcementEdits(t); len(edits) == 0 || hasButton(edits[len(edits)-1].Msg, customid.TournamentJoin.Build(id)) {
		t.Errorf("the announcement offers Join with no round left to pair (%d edits)", len(edits))
	}
	refused(t, "the no-show joining for no round left", fx.click(member(t, noShow), customid.TournamentJoin.Build(id)), "entries are closed")
	if fx.only(t).Entered(noShow) {
		t.Error("Join took the no-show back with no round left")
	}
}
