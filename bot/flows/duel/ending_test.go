package duel_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

func TestResignAsksThenLosesTheGame(t *testing.T) {
	m, rec, store, boards := newFlow()
	if err := click(m, rec, "bob", customid.Resign.Build("g1", "4")); err != nil {
		t.Fatal(err)
	}
	ask := rec.Only(t)
	if ask.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || ask.Data.Content != i18n.Default.T("resign.question") {
		t.Fatalf("asked %+v, want the question privately", ask.Data)
	}
	if len(store.changes) != 0 {
		t.Fatal("resigned before the confirmation")
	}
	if err := click(m, rec, "bob", customid.ResignConfirm.Build("g1", "4")); err != nil {
		t.Fatal(err)
	}
	if want := []string{"finish finished, resigned, won by seat 0"}; !slices.Equal(store.changes, want) {
		t.Errorf("store changes %v, want %v", store.changes, want)
	}
	done := rec.Responses()[1]
	if done.Type != discordgo.InteractionResponseUpdateMessage || done.Data.Content != i18n.Default.T("resign.done") {
		t.Errorf("confirmation answered %d %q, want it replaced by %q", done.Type, done.Data.Content, i18n.Default.T("resign.done"))
	}
	if !slices.Equal(boards.shown, []string{"edited: finished, no offer"}) {
		t.Errorf("boards %v, want the board edited to the end", boards.shown)
	}
}

func TestAbortEndsTheOpeningWithoutAResult(t *testing.T) {
	m, rec, store, boards := newFlow()
	store.g.Moves = store.g.Moves[:1]
	if err := click(m, rec, "ann", customid.Abort.Build("g1", "1")); err != nil {
		t.Fatal(err)
	}
	want := render.AbortConfirm(i18n.Default, store.g)
	if got := rec.Only(t).Data; got.Content != want.Content {
		t.Errorf("asked %q, want %q", got.Content, want.Content)
	}
	if err := click(m, rec, "ann", customid.AbortConfirm.Build("g1", "1")); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(store.changes, []string{"update aborted"}) || !slices.Equal(boards.shown, []string{"edited: aborted, no offer"}) {
		t.Errorf("changed %v, shown %v; want the game aborted and its board edited", store.changes, boards.shown)
	}
}

func TestEndingClicksAreRefusedWhereTheyDoNotBelong(t *testing.T) {
	checkRefusals(t, []refusal{
		{"resign by another member", "carol", customid.Resign.Build("g1", "4"), nil, "Only the players can resign"},
		{"abort past the opening", "ann", customid.Abort.Build("g1", "4"), nil, "Too late to abort"},
		{"a confirmation from a board not drawn yet", "ann", customid.ResignConfirm.Build("g1", "9"), nil, "does not belong to this game's board"},
		{"a confirmation of a forged ply", "ann", customid.ResignConfirm.Build("g1", "04"), nil, "does not belong to this game's board"},
		{"resign an ended game", "ann", customid.ResignConfirm.Build("g1", "4"), func(g *storage.Game) { g.Status = storage.StatusFinished }, "over"},
	})
}

func TestAResignationWhoseBoardNoTokenReachesEndsQuietly(t *testing.T) {
	m, rec, store, boards := newFlow()
	boards.editErr = fmt.Errorf("edit: %w", play.ErrUnreachable)
	if err := click(m, rec, "bob", customid.ResignConfirm.Build("g1", "4")); err != nil {
		t.Fatalf("resigning answered %v; the board catches up at its next click, and the player was told", err)
	}
	if want := []string{"finish finished, resigned, won by seat 0"}; !slices.Equal(store.changes, want) {
		t.Errorf("store changes %v, want %v", store.changes, want)
	}
}
