package duel_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/duel"
	"github.com/gambitbot/gambit/bot/flows/internal/flowtest"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
)

// These tests construct the flow alone, over fakes and the flows' test
// store (flowtest): no bot, no stand-in, no game lock (the game routes'
// wrap is the fake's). The wire is tested
// in package bot against the stand-in (TestDrawOffersBetweenPeople,
// TestNoDrawAgainstAnAI).

// fakeBoards records what the flow showed, each board as the fake's View
// describes it; behind makes every board behind its ended game, editErr
// fails EditTo.
type fakeBoards struct {
	shown   []string
	behind  bool
	editErr error
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

// View describes g's board: its status, the draw offer, the moves played,
// whether the AI is thinking, and the notice.
func (b *fakeBoards) View(g *storage.Game, _ engine.Position, thinking *render.Thinking, _ []storage.RatingChange, notice string) render.Message {
	offer := "no offer"
	if g.DrawOffer != nil {
		offer = "offer by seat " + string(rune('0'+g.DrawOffer.Seat))
	}
	text := string(g.Status) + ", " + offer
	if thinking != nil {
		text += ", AI thinking"
	}
	return render.Message{Content: strings.TrimSpace(text + " " + notice)}
}

func (b *fakeBoards) Show(_ context.Context, _ *mux.Interaction, _ *storage.Game, msg render.Message) error {
	b.shown = append(b.shown, msg.Content)
	return nil
}

func (b *fakeBoards) EditTo(_ context.Context, _ *storage.Game, msg render.Message) error {
	if b.editErr != nil {
		return b.editErr
	}
	b.shown = append(b.shown, "edited: "+msg.Content)
	return nil
}

func (b *fakeBoards) ShowNew(_ context.Context, _ *mux.Interaction, _ *storage.Game, msg render.Message) error {
	b.shown = append(b.shown, "new board: "+msg.Content)
	return nil
}

func (b *fakeBoards) Lang(*storage.Game) *i18n.Localizer { return i18n.For(i18n.Indonesian) }

// fakeTurns commits a move to the store as the bot's seam would, and
// queues the AI's turn when aiNext; commitErr fails the commit.
type fakeTurns struct {
	store     *flowtest.Store
	played    []string
	aiNext    bool
	queued    int
	onGame    []string
	commitErr error
}

func (s *fakeTurns) Commit(ctx context.Context, g *storage.Game, pos engine.Position, mv engine.Move) ([]storage.RatingChange, error) {
	if s.commitErr != nil {
		return nil, s.commitErr
	}
	s.played = append(s.played, pos.FormatMove(mv))
	g.Moves = append(g.Moves, pos.FormatMove(mv))
	g.Turn = 1 - g.Turn
	return nil, s.store.UpdateGame(ctx, g)
}

func (s *fakeTurns) QueueAI(context.Context, *mux.Interaction, *storage.Game) *render.Thinking {
	if !s.aiNext {
		return nil
	}
	s.queued++
	return &render.Thinking{}
}

func (s *fakeTurns) OnGame(ctx context.Context, _ *mux.Interaction, id string, h func(context.Context, *storage.Game) error) error {
	s.onGame = append(s.onGame, id)
	g, err := load(ctx, s.store, id)
	if err != nil {
		return err
	}
	return h(ctx, g)
}

// load loads game id for a handler, as the bot's seam does.
func load(ctx context.Context, store *flowtest.Store, id string) (*storage.Game, error) {
	g, err := store.Game(ctx, storage.GameID(id))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, mux.Err("error.no_game", "ID", id)
	}
	return g, err
}

// g1 is the ID of the game of ann and bob's the tests play.
var g1 = storage.SequenceID(1)

// game returns a game of kind between ann (seat 0) and bob in guild
// "guild", channel "channel", after moves, its board message "board".
func game(kind string, moves ...string) *storage.Game {
	gm, err := catalog.Lookup(kind)
	if err != nil {
		panic(err)
	}
	pos, err := gm.Start(games.Options{})
	if err != nil {
		panic(err)
	}
	for _, m := range moves {
		mv, err := pos.ParseMove(m)
		if err != nil {
			panic(err)
		}
		gm.Play(pos, mv)
	}
	return &storage.Game{Kind: storage.Kind(kind), Status: storage.StatusActive, MessageID: "board",
		GuildID: "guild", ChannelID: "channel", Position: pos.String(), Turn: len(moves) % 2,
		Players: []storage.Player{{ID: storage.User("ann"), Name: "ann"}, {ID: storage.User("bob"), Name: "bob"}},
		Moves:   moves}
}

// opened is the game of ann and bob's past its opening (each side moved
// twice), as setup, if not nil, leaves it.
func opened(setup func(*storage.Game)) *storage.Game {
	g := game("connect4", "4", "4", "3", "3")
	if setup != nil {
		setup(g)
	}
	return g
}

// ended makes g finished, won by ann.
func ended(g *storage.Game) { g.Status, g.Result = storage.StatusFinished, &storage.Result{Winner: 0} }

// newFlow returns the flow over a store holding g1, the game of ann and
// bob's past its opening, on a Mux of its own.
func newFlow(t *testing.T) (*mux.Mux, *muxtest.Recorder, *flowtest.Store, *fakeBoards) {
	m, rec, store, boards, _ := newFlowWithTurns(t, opened(nil))
	return m, rec, store, boards
}

// newFlowWithTurns returns the flow over a store holding games (g1
// first), with the fake seam.
func newFlowWithTurns(t *testing.T, games ...*storage.Game) (*mux.Mux, *muxtest.Recorder, *flowtest.Store, *fakeBoards, *fakeTurns) {
	store, boards := flowtest.New(t, nil), &fakeBoards{}
	store.Seed(nil, games...)
	turns := &fakeTurns{store: store}
	m := mux.New()
	seam := func(h func(context.Context, *mux.Component, *storage.Game) error) mux.ComponentHandler {
		return func(ctx context.Context, ix *mux.Component) error {
			g, err := load(ctx, store, ix.Params["game"])
			if err != nil {
				return err
			}
			return h(ctx, ix, g)
		}
	}
	duel.New(store, boards, turns, seam, slog.New(slog.DiscardHandler)).Routes(m)
	return m, &muxtest.Recorder{}, store, boards, turns
}

func click(m *mux.Mux, rec *muxtest.Recorder, who, customID string) error {
	return muxtest.Run(m, rec, muxtest.Click(muxtest.Member(who, 0), discordgo.EnglishUS, customID))
}

func TestADrawIsOfferedAndAccepted(t *testing.T) {
	m, rec, store, boards := newFlow(t)
	if err := click(m, rec, "ann", customid.DrawOffer.Build(string(g1), "4")); err != nil {
		t.Fatal(err)
	}
	if o := store.Load(g1).DrawOffer; o == nil || o.Seat != 0 || o.Ply != 4 {
		t.Fatalf("offer %+v, want ann's at ply 4", o)
	}
	err := click(m, rec, "ann", customid.DrawAccept.Build(string(g1), "4"))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "You offered this draw") || !strings.Contains(text, "bob") {
		t.Errorf("ann accepting her own offer: %q", text)
	}
	if err := click(m, rec, "bob", customid.DrawAccept.Build(string(g1), "4")); err != nil {
		t.Fatal(err)
	}
	if g := store.Load(g1); g.Version != 3 || g.Status != storage.StatusFinished || g.Result.Winner != storage.Draw || g.Result.Outcome != storage.DrawAgreed {
		t.Errorf("stored %s with %+v at version %d, want the offer stored, then the game finished as a draw agreed", g.Status, g.Result, g.Version)
	}
	if want := []string{"active, offer by seat 0", "finished, no offer"}; !slices.Equal(boards.shown, want) {
		t.Errorf("boards shown %v, want %v", boards.shown, want)
	}
}

func TestADeclinedDrawSaysWhoOnTheBoard(t *testing.T) {
	m, rec, _, boards, _ := newFlowWithTurns(t, opened(func(g *storage.Game) { g.DrawOffer = &storage.DrawOffer{Seat: 1, Ply: 4} }))
	if err := click(m, rec, "ann", customid.DrawDecline.Build(string(g1), "4")); err != nil {
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
			m, rec, store, boards, _ := newFlowWithTurns(t, opened(tc.setup))
			err := click(m, rec, tc.who, tc.id)
			if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, tc.want) {
				t.Errorf("refusal %q, want it to say %q", text, tc.want)
			}
			if v := store.Load(g1).Version; v != 1 || len(boards.shown) != 0 || len(rec.Responses()) != 0 {
				t.Errorf("a refused click changed the game to version %d, showed %v, answered %d times", v, boards.shown, len(rec.Responses()))
			}
		})
	}
}

func TestDrawClicksAreRefusedWhereTheyDoNotBelong(t *testing.T) {
	checkRefusals(t, []refusal{
		{"not a player", "carol", customid.DrawOffer.Build(string(g1), "4"), nil, "Only the players"},
		{"in the opening", "ann", customid.DrawOffer.Build(string(g1), "2"), func(g *storage.Game) { g.Moves = g.Moves[:2] }, "once each side has moved twice"},
		{"against an AI", "ann", customid.DrawOffer.Build(string(g1), "4"), func(g *storage.Game) { g.Players[1].ID = storage.AI("minimax") }, "an AI plays on"},
		{"an older board", "ann", customid.DrawOffer.Build(string(g1), "3"), nil, "out of date"},
		{"no offer to accept", "bob", customid.DrawAccept.Build(string(g1), "4"), nil, "no longer open"},
	})
}

func TestADrawClickOnABoardBehindItsEndedGameCatchesUp(t *testing.T) {
	m, rec, store, boards, _ := newFlowWithTurns(t, opened(ended))
	boards.behind = true
	if err := click(m, rec, "ann", customid.DrawOffer.Build(string(g1), "4")); err != nil {
		t.Fatal(err)
	}
	if v := store.Load(g1).Version; !slices.Equal(boards.shown, []string{"caught up"}) || v != 1 {
		t.Errorf("shown %v, the game at version %d; want the board caught up and nothing changed", boards.shown, v)
	}
}
