package duel_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/internal/flowtest"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

func TestResignAsksThenLosesTheGame(t *testing.T) {
	m, rec, store, boards := newFlow(t)
	if err := click(m, rec, "bob", customid.Resign.Build(string(g1), "4")); err != nil {
		t.Fatal(err)
	}
	ask := rec.Only(t)
	if ask.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || ask.Data.Content != i18n.Default.T("resign.question") {
		t.Fatalf("asked %+v, want the question privately", ask.Data)
	}
	if store.Load(g1).Version != 1 {
		t.Fatal("resigned before the confirmation")
	}
	if err := click(m, rec, "bob", customid.ResignConfirm.Build(string(g1), "4")); err != nil {
		t.Fatal(err)
	}
	resigned(t, store)
	done := rec.Responses()[1]
	if done.Type != discordgo.InteractionResponseUpdateMessage || done.Data.Content != i18n.Default.T("resign.done") {
		t.Errorf("confirmation answered %d %q, want it replaced by %q", done.Type, done.Data.Content, i18n.Default.T("resign.done"))
	}
	if !slices.Equal(boards.shown, []string{"edited: finished, no offer"}) {
		t.Errorf("boards %v, want the board edited to the end", boards.shown)
	}
}

func TestAbortEndsTheOpeningWithoutAResult(t *testing.T) {
	g := opened(func(g *storage.Game) { g.Moves, g.Turn = g.Moves[:1], 1 })
	m, rec, store, boards, _ := newFlowWithTurns(t, g)
	if err := click(m, rec, "ann", customid.Abort.Build(string(g1), "1")); err != nil {
		t.Fatal(err)
	}
	want := render.AbortConfirm(i18n.Default, g)
	if got := rec.Only(t).Data; got.Content != want.Content {
		t.Errorf("asked %q, want %q", got.Content, want.Content)
	}
	if err := click(m, rec, "ann", customid.AbortConfirm.Build(string(g1), "1")); err != nil {
		t.Fatal(err)
	}
	if got := store.Load(g1); got.Version != 2 || got.Status != storage.StatusAborted || !slices.Equal(boards.shown, []string{"edited: aborted, no offer"}) {
		t.Errorf("stored %s at version %d, shown %v; want the game aborted in one change and its board edited", got.Status, got.Version, boards.shown)
	}
}

func TestEndingClicksAreRefusedWhereTheyDoNotBelong(t *testing.T) {
	checkRefusals(t, []refusal{
		{"resign by another member", "carol", customid.Resign.Build(string(g1), "4"), nil, "Only the players can resign"},
		{"abort past the opening", "ann", customid.Abort.Build(string(g1), "4"), nil, "Too late to abort"},
		{"a confirmation from a board not drawn yet", "ann", customid.ResignConfirm.Build(string(g1), "9"), nil, "does not belong to this game's board"},
		{"a confirmation of a forged ply", "ann", customid.ResignConfirm.Build(string(g1), "04"), nil, "does not belong to this game's board"},
		{"resign an ended game", "ann", customid.ResignConfirm.Build(string(g1), "4"), ended, "over"},
	})
}

func TestAResignationWhoseBoardNoTokenReachesEndsQuietly(t *testing.T) {
	m, rec, store, boards := newFlow(t)
	boards.editErr = fmt.Errorf("edit: %w", play.ErrUnreachable)
	if err := click(m, rec, "bob", customid.ResignConfirm.Build(string(g1), "4")); err != nil {
		t.Fatalf("resigning answered %v; the board catches up at its next click, and the player was told", err)
	}
	resigned(t, store)
}

// resigned checks that bob resigned g1 in one change: it is finished,
// won by ann (seat 0).
func resigned(t *testing.T, store *flowtest.Store) {
	t.Helper()
	if g := store.Load(g1); g.Version != 2 || g.Status != storage.StatusFinished || g.Result.Outcome != storage.Resigned || g.Result.Winner != 0 {
		t.Errorf("stored %s with %+v at version %d, want it finished in one change, resigned, won by seat 0", g.Status, g.Result, g.Version)
	}
}
