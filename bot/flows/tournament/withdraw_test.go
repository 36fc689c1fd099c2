package tournament_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/storage"
)

// TestWithdrawAsksThenForfeitsTheGameUnderWay: after the start, Withdraw
// asks first, privately, saying the game under way will be lost; Cancel
// keeps the player in, Withdraw withdraws them and forfeits that game.
func TestWithdrawAsksThenForfeitsTheGameUnderWay(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "swiss"), str("game", "tictactoe"), num("rounds", 2)), alice, bob)
	fx.start(t, id)
	game, ok := fx.only(t).PendingGameOf(storage.User(bob.User.ID))
	if !ok {
		t.Fatal("bob has no game in round 1")
	}

	if err := fx.click(bob, customid.TournamentLeave.Build(id)); err != nil {
		t.Fatal(err)
	}
	ask := fx.rec.Responses()[len(fx.rec.Responses())-1]
	if ask.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(ask.Data.Content, "Your game under way will be lost") {
		t.Fatalf("Withdraw answered %q (flags %v), want a private question saying the game will be lost", ask.Data.Content, ask.Data.Flags)
	}
	var buttons []string
	for _, row := range ask.Data.Components {
		for _, c := range row.(discordgo.ActionsRow).Components {
			buttons = append(buttons, c.(discordgo.Button).CustomID)
		}
	}
	if !slices.Equal(buttons, []string{customid.TournamentWithdraw.Build(id), customid.TournamentStay.Build(id)}) {
		t.Fatalf("the question's buttons: %q, want Withdraw and Cancel", buttons)
	}
	if !fx.only(t).Entered(storage.User(bob.User.ID)) || len(fx.boards.forfeited) != 0 {
		t.Fatal("the question withdrew bob already")
	}

	if err := fx.click(bob, customid.TournamentStay.Build(id)); err != nil {
		t.Fatal(err)
	}
	if !fx.only(t).Entered(storage.User(bob.User.ID)) || len(fx.boards.forfeited) != 0 {
		t.Fatal("Cancel withdrew bob")
	}

	if err := fx.click(bob, customid.TournamentWithdraw.Build(id)); err != nil {
		t.Fatal(err)
	}
	if fx.only(t).Entered(storage.User(bob.User.ID)) {
		t.Error("bob still in after confirming")
	}
	if !slices.Equal(fx.boards.forfeited, []storage.GameID{game}) {
		t.Errorf("forfeited %v, want bob's game %s", fx.boards.forfeited, game)
	}
	done := fx.rec.Responses()[len(fx.rec.Responses())-1]
	if !strings.Contains(done.Data.Content, "your game under way is lost") {
		t.Errorf("the withdrawal answered %q", done.Data.Content)
	}
	refused(t, "withdrawing twice", fx.click(bob, customid.TournamentLeave.Build(id)), "not in this tournament")
}
