package tournament_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/storage"
)

// selectOf returns the select of the last answer whose custom ID is
// customID, with its options' values; ok false when it has none.
func (fx *fixture) selectOf(t *testing.T, customID string) ([]string, bool) {
	t.Helper()
	resps := fx.rec.Responses()
	for _, r := range resps[len(resps)-1].Data.Components {
		for _, c := range r.(discordgo.ActionsRow).Components {
			if s, ok := c.(discordgo.SelectMenu); ok && s.CustomID == customID {
				var values []string
				for _, o := range s.Options {
					values = append(values, o.Value)
				}
				return values, true
			}
		}
	}
	return nil, false
}

// TestTheCreatorTakesAnAIOut: the announcement lists the AIs entered in
// a select by which the creator, or a member with Manage Server, takes
// one out — before the start its entry goes, as a member's Leave does;
// after it, it is withdrawn and its game under way lost, as a member's
// Withdraw does. Anyone else is refused.
func TestTheCreatorTakesAnAIOut(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "swiss"), str("game", "tictactoe"), num("rounds", 2), flag("ai", true)), bob)
	enter, out := customid.TournamentAI.Build(id), customid.TournamentAIOut.Build(id)
	for _, ai := range []string{"minimax", "random"} {
		if err := fx.click(alice, enter, ai); err != nil {
			t.Fatal(err)
		}
	}
	if values, ok := fx.selectOf(t, out); !ok || !slices.Equal(values, []string{"minimax", "random"}) {
		t.Fatalf("the announcement's select of AIs to take out: %v (%v)", values, ok)
	}
	refused(t, "bob taking an AI out", fx.click(bob, out, "random"), "Only the tournament's creator")
	if err := fx.click(alice, out, "random"); err != nil {
		t.Fatal(err)
	}
	if fx.only(t).Entered(storage.AI("random")) || len(fx.only(t).Entrants) != 2 {
		t.Fatalf("the AI taken out before the start is still entered: %+v", fx.only(t).Entrants)
	}
	if got := fx.last(t); strings.Contains(got, "Random") {
		t.Errorf("the announcement still lists the AI taken out:\n%s", got)
	}
	refused(t, "taking out an AI not entered", fx.click(alice, out, "random"), "is not in this tournament")

	fx.start(t, id)
	ai := storage.AI("minimax")
	game, ok := fx.only(t).PendingGameOf(ai)
	if !ok {
		t.Fatal("the AI has no game in round 1")
	}
	if err := fx.click(admin, out, "minimax"); err != nil {
		t.Fatal(err)
	}
	tr := fx.only(t)
	if tr.Entered(ai) || !slices.ContainsFunc(tr.Entrants, func(e storage.Entrant) bool { return e.Player.ID == ai && e.Withdrawn }) {
		t.Errorf("the AI is not withdrawn: %+v", tr.Entrants)
	}
	if !slices.Equal(fx.boards.forfeited, []storage.GameID{game}) {
		t.Errorf("forfeited %v, want the AI's game %s", fx.boards.forfeited, game)
	}
	if values, _ := fx.selectOf(t, out); len(values) != 0 {
		t.Errorf("the select still offers %v", values)
	}
}

// TestAnAITakenOutAsTheTournamentStartsLosesItsGame: the creator takes
// an AI out of an announced tournament that starts meanwhile (another
// process, the start time): the store withdraws the AI from the running
// tournament, so its game under way is lost as a withdrawal's is, and
// the tournament is advanced — the click decides by the record the
// store changed, not by the one it read before.
func TestAnAITakenOutAsTheTournamentStartsLosesItsGame(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "swiss"), str("game", "tictactoe"), num("rounds", 2), flag("ai", true)), bob, carol)
	if err := fx.click(alice, customid.TournamentAI.Build(id), "minimax"); err != nil {
		t.Fatal(err)
	}
	ai := storage.AI("minimax")
	fx.store.beforeLeave = func() { fx.start(t, id) }
	if err := fx.click(alice, customid.TournamentAIOut.Build(id), "minimax"); err != nil {
		t.Fatal(err)
	}
	withdrawnAtTheStart(t, fx, ai)
}

// withdrawnAtTheStart checks that p, taken out as the tournament
// started, is withdrawn and their round 1 game lost by forfeit.
func withdrawnAtTheStart(t *testing.T, fx *fixture, p storage.PlayerID) {
	t.Helper()
	tr := fx.only(t)
	if !tr.Status.Started() || tr.Entered(p) {
		t.Fatalf("%s taken out as the tournament started: %s, %+v", p, tr.Status, tr.Entrants)
	}
	i := slices.IndexFunc(tr.Rounds[0].Boards, func(b storage.Board) bool { return !b.IsBye() && (b.White == p || b.Black == p) })
	if i < 0 {
		t.Fatalf("%s has no game in round 1: %+v", p, tr.Rounds[0].Boards)
	}
	if game := tr.Rounds[0].Boards[i].Game; !slices.Contains(fx.boards.forfeited, game) {
		t.Errorf("withdrawn %s's game %s goes on: forfeited %v", p, game, fx.boards.forfeited)
	}
}

// TestAMemberLeavingAsTheTournamentStartsLosesTheirGame: a member's Leave
// read the tournament announced, and it started before the store took
// them out — so the store withdrew them. Their round 1 game must not go
// on without them, nor the round wait for it.
func TestAMemberLeavingAsTheTournamentStartsLosesTheirGame(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "swiss"), str("game", "tictactoe"), num("rounds", 2)), alice, bob, carol, dave)
	fx.store.beforeLeave = func() { fx.start(t, id) }
	if err := fx.click(carol, customid.TournamentLeave.Build(id)); err != nil {
		t.Fatal(err)
	}
	withdrawnAtTheStart(t, fx, storage.User(carol.User.ID)) // four players: no bye
}
