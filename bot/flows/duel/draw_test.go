package duel_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/duel"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/storage"
)

// These tests construct the flow alone, over fakes: no bot, no stand-in,
// no game lock (the game routes' wrap is the fake's). The wire is tested
// in package bot against the stand-in (TestDrawOffersBetweenPeople,
// TestNoDrawAgainstAnAI).

// fakeStore holds one game and records its changes.
type fakeStore struct {
	g       *storage.Game
	changes []string
}

func (s *fakeStore) UpdateGame(_ context.Context, g *storage.Game) error {
	s.changes = append(s.changes, "update "+string(g.Status))
	return nil
}

func (s *fakeStore) FinishGame(_ context.Context, g *storage.Game, res storage.Result) ([]storage.RatingChange, error) {
	how := "by rules"
	if res.Winner == storage.Draw && res.Outcome == storage.DrawAgreed {
		how = "draw agreed"
	}
	switch {
	case res.Outcome == storage.Resigned:
		how = "resigned, won by seat " + string(rune('0'+res.Winner))
	}
	s.changes = append(s.changes, "finish "+string(g.Status)+", "+how)
	return nil, nil
}

// fakeBoards records what the flow showed; behind makes every board
// behind its ended game.
type fakeBoards struct {
	shown  []string
	behind bool
}

func (b *fakeBoards) EndedBehind(*mux.Interaction, *storage.Game) bool { return b.behind }

func (b *fakeBoards) CatchUp(context.Context, *mux.Interaction, *storage.Game) error {
	b.shown = append(b.shown, "caught up")
	return nil
}

func (b *fakeBoards) OnBoard(ix *mux.Interaction, g *storage.Game) bool {
	return ix.Message != nil && ix.Message.ID == g.MessageID
}

func (b *fakeBoards) Adopt(context.Context, *mux.Interaction, *storage.Game) error { return nil }

func (b *fakeBoards) Update(_ context.Context, _ *mux.Interaction, g *storage.Game, _ []storage.RatingChange, notice string) error {
	offer := "no offer"
	if g.DrawOffer != nil {
		offer = "offer by seat " + string(rune('0'+g.DrawOffer.Seat))
	}
	b.shown = append(b.shown, strings.TrimSpace(string(g.Status)+", "+offer+" "+notice))
	return nil
}

func (b *fakeBoards) Edit(_ context.Context, g *storage.Game, _ []storage.RatingChange) error {
	b.shown = append(b.shown, "edited: "+string(g.Status))
	return nil
}

func (b *fakeBoards) Lang(*storage.Game) *i18n.Localizer { return i18n.For(i18n.Indonesian) }

// newFlow returns the flow over a game of ann and bob's, past its opening
// (each side moved twice), on a Mux of its own.
func newFlow() (*mux.Mux, *muxtest.Recorder, *fakeStore, *fakeBoards) {
	g := &storage.Game{ID: "g1", Kind: "connect4", Status: storage.StatusActive, MessageID: "board",
		Players: []storage.Player{{ID: storage.User("ann"), Name: "ann"}, {ID: storage.User("bob"), Name: "bob"}},
		Moves:   []string{"4", "4", "3", "3"}}
	store, boards := &fakeStore{g: g}, &fakeBoards{}
	m := mux.New()
	games := func(h func(context.Context, *mux.Component, *storage.Game) error) mux.ComponentHandler {
		return func(ctx context.Context, ix *mux.Component) error {
			if ix.Params["game"] != string(store.g.ID) {
				return mux.Err("error.no_game", "ID", ix.Params["game"])
			}
			return h(ctx, ix, store.g)
		}
	}
	duel.New(store, boards, games).Routes(m)
	return m, &muxtest.Recorder{}, store, boards
}

func click(m *mux.Mux, rec *muxtest.Recorder, who, customID string) error {
	return muxtest.Run(m, rec, muxtest.Click(muxtest.Member(who, 0), discordgo.EnglishUS, customID))
}

func TestADrawIsOfferedAndAccepted(t *testing.T) {
	m, rec, store, boards := newFlow()
	if err := click(m, rec, "ann", customid.DrawOffer.Build("g1", "4")); err != nil {
		t.Fatal(err)
	}
	if o := store.g.DrawOffer; o == nil || o.Seat != 0 || o.Ply != 4 {
		t.Fatalf("offer %+v, want ann's at ply 4", o)
	}
	err := click(m, rec, "ann", customid.DrawAccept.Build("g1", "4"))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "You offered this draw") || !strings.Contains(text, "bob") {
		t.Errorf("ann accepting her own offer: %q", text)
	}
	if err := click(m, rec, "bob", customid.DrawAccept.Build("g1", "4")); err != nil {
		t.Fatal(err)
	}
	if want := []string{"update active", "finish finished, draw agreed"}; !slices.Equal(store.changes, want) {
		t.Errorf("store changes %v, want %v", store.changes, want)
	}
	if want := []string{"active, offer by seat 0", "finished, no offer"}; !slices.Equal(boards.shown, want) {
		t.Errorf("boards shown %v, want %v", boards.shown, want)
	}
}

func TestADeclinedDrawSaysWhoOnTheBoard(t *testing.T) {
	m, rec, store, boards := newFlow()
	store.g.DrawOffer = &storage.DrawOffer{Seat: 1, Ply: 4}
	if err := click(m, rec, "ann", customid.DrawDecline.Build("g1", "4")); err != nil {
		t.Fatal(err)
	}
	// In the board's language (the fake's: Indonesian), not the clicker's.
	want := "active, no offer " + i18n.For(i18n.Indonesian).T("board.draw_declined", "Player", "<@ann>")
	if len(boards.shown) != 1 || boards.shown[0] != want {
		t.Errorf("boards shown %q, want %q", boards.shown, want)
	}
}

// refusal is a click the flow must refuse: who clicks what, on the game
// as setup leaves it, and what the refusal says.
type refusal struct {
	name, who, id string
	setup         func(*storage.Game)
	want          string
}

// checkRefusals clicks each refusal on a fresh flow and checks that it is
// refused with its words, changing, showing and answering nothing.
func checkRefusals(t *testing.T, refusals []refusal) {
	t.Helper()
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			m, rec, store, boards := newFlow()
			if tc.setup != nil {
				tc.setup(store.g)
			}
			err := click(m, rec, tc.who, tc.id)
			if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, tc.want) {
				t.Errorf("refusal %q, want it to say %q", text, tc.want)
			}
			if len(store.changes) != 0 || len(boards.shown) != 0 || len(rec.Responses()) != 0 {
				t.Errorf("a refused click changed %v, showed %v, answered %d times", store.changes, boards.shown, len(rec.Responses()))
			}
		})
	}
}

func TestDrawClicksAreRefusedWhereTheyDoNotBelong(t *testing.T) {
	checkRefusals(t, []refusal{
		{"not a player", "carol", customid.DrawOffer.Build("g1", "4"), nil, "Only the players"},
		{"in the opening", "ann", customid.DrawOffer.Build("g1", "2"), func(g *storage.Game) { g.Moves = g.Moves[:2] }, "once each side has moved twice"},
		{"against an AI", "ann", customid.DrawOffer.Build("g1", "4"), func(g *storage.Game) { g.Players[1].ID = storage.AI("minimax") }, "an AI plays on"},
		{"an older board", "ann", customid.DrawOffer.Build("g1", "3"), nil, "out of date"},
		{"no offer to accept", "bob", customid.DrawAccept.Build("g1", "4"), nil, "no longer open"},
	})
}

func TestADrawClickOnABoardBehindItsEndedGameCatchesUp(t *testing.T) {
	m, rec, store, boards := newFlow()
	boards.behind = true
	store.g.Status = storage.StatusFinished
	if err := click(m, rec, "ann", customid.DrawOffer.Build("g1", "4")); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(boards.shown, []string{"caught up"}) || len(store.changes) != 0 {
		t.Errorf("shown %v, changed %v; want the board caught up and nothing changed", boards.shown, store.changes)
	}
}
