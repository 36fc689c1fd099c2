package challenges_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/challenges"
	"github.com/gambitbot/gambit/bot/flows/internal/flowtest"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
)

// These tests construct the flow alone, over fakes and the flows' test
// store (flowtest): no bot, no stand-in, no game lock (the game routes'
// wrap is the fake's). The wire is tested
// in package bot against the stand-in (the challenge tests of
// bot/commands_test.go and bot/open_test.go, bot/reject_test.go).

// world is the fakes of one challenge over the flows' test store
// (flowtest): the game starter, the boards and the game seam, recording
// what the flow did, the store's writes among it.
type world struct {
	*flowtest.Store
	g       *storage.Game   // the challenge, g1
	others  []*storage.Game // more games stored beside it
	created []*storage.Game
	// takenBy, if not empty, takes the open challenge first, just before
	// the flow's own TakeChallenge: a race lost to that member.
	takenBy  string
	atCap    bool // CheckLimits refuses
	settings storage.GuildSettings
	did      []string
	behind   bool
	offline  bool // the click came from another message than g's
}

func (w *world) CreateGame(ctx context.Context, g *storage.Game, limits storage.Limits) error {
	if err := w.Store.CreateGame(ctx, g, limits); err != nil {
		return err
	}
	w.created = append(w.created, g)
	w.did = append(w.did, fmt.Sprintf("create %s %s vs %s", g.Status, g.Players[0].ID, g.Players[1].ID))
	return nil
}

func (w *world) UpdateGame(ctx context.Context, g *storage.Game) error {
	if err := w.Store.UpdateGame(ctx, g); err != nil {
		return err
	}
	w.did = append(w.did, "update "+string(g.Status))
	return nil
}

func (w *world) TakeChallenge(ctx context.Context, g *storage.Game, limits storage.Limits) error {
	if w.takenBy != "" {
		first := w.Load(g.ID)
		first.Status, first.Players = storage.StatusActive, []storage.Player{first.Players[0], {ID: storage.User(w.takenBy), Name: w.takenBy}}
		if err := w.Store.TakeChallenge(ctx, first, limits); err != nil {
			return err
		}
	}
	if err := w.Store.TakeChallenge(ctx, g, limits); err != nil {
		return err
	}
	w.did = append(w.did, "take for "+string(g.Players[1].ID)+" within "+string(rune('0'+limits.MaxOpen)))
	return nil
}

func (w *world) ClaimRematch(ctx context.Context, id storage.GameID) error {
	if err := w.Store.ClaimRematch(ctx, id); err != nil {
		return err
	}
	w.did = append(w.did, "claim rematch")
	return nil
}

func (w *world) ReleaseRematch(ctx context.Context, id storage.GameID) error {
	if err := w.Store.ReleaseRematch(ctx, id); err != nil {
		return err
	}
	w.did = append(w.did, "release rematch")
	return nil
}

// claimed reports whether the rematch of g1 is claimed in the store.
func (w *world) claimed() bool { return w.Load(g1).Rematched }

// g1 is the challenge's ID in the store.
var g1 = storage.SequenceID(1)

// finish ends g, won by its first player.
func finish(g *storage.Game) { g.Status, g.Result = storage.StatusFinished, &storage.Result{Winner: 0} }

func (w *world) Begin(_ context.Context, g *storage.Game) error {
	g.Status = storage.StatusActive
	g.Turn = 0
	if g.Settings.First == "opponent" {
		g.Turn = 1
	}
	w.did = append(w.did, "begin")
	return nil
}

func (w *world) CheckLimits(_ context.Context, _ string, challenge bool) error {
	if w.atCap {
		return mux.Err("play.too_many_games", "Count", 3)
	}
	return nil
}

func (w *world) Limits() storage.Limits { return storage.Limits{MaxOpen: 3} }

func (w *world) Settings(context.Context, string) storage.GuildSettings { return w.settings }

func (w *world) EndedBehind(*mux.Interaction, *storage.Game) bool { return w.behind }

func (w *world) CatchUp(context.Context, *mux.Interaction, *storage.Game) error {
	w.did = append(w.did, "caught up")
	return nil
}

func (w *world) OnBoard(*mux.Interaction, *storage.Game) bool { return !w.offline }

func (w *world) Adopt(context.Context, *mux.Interaction, *storage.Game) error { return nil }

func (w *world) Update(_ context.Context, _ *mux.Interaction, g *storage.Game) error {
	w.did = append(w.did, "show "+string(g.Status))
	return nil
}

func (w *world) View(g *storage.Game, pos engine.Position, thinking *render.Thinking, _ []storage.RatingChange, _ string) render.Message {
	text := "board of " + string(g.Status)
	if pos == nil {
		text += ", no position"
	}
	if thinking != nil {
		text += ", AI thinking"
	}
	return render.Message{Content: text}
}

func (w *world) ShowNew(_ context.Context, _ *mux.Interaction, _ *storage.Game, msg render.Message) error {
	w.did = append(w.did, "new "+msg.Content)
	return nil
}

func (w *world) Rematched(g *storage.Game, notice string, _ *discordgo.Message) render.Message {
	return render.Message{Content: "rematched " + string(g.ID) + ": " + notice}
}

func (w *world) Lang(*storage.Game) *i18n.Localizer { return i18n.Default }

func (w *world) Hold(_ context.Context, _ *mux.Interaction, id storage.GameID, fn func() error) error {
	w.did = append(w.did, "hold "+string(id))
	return fn()
}

func (w *world) QueueAI(_ context.Context, _ *mux.Interaction, g *storage.Game) *render.Thinking {
	if !g.Players[g.Turn].ID.IsAI() {
		return nil
	}
	w.did = append(w.did, "queue AI")
	return &render.Thinking{}
}

func (w *world) OnGame(ctx context.Context, _ *mux.Interaction, id string, h func(context.Context, *storage.Game) error) error {
	g, err := w.load(ctx, id)
	if err != nil {
		return err
	}
	return h(ctx, g)
}

// load loads game id for a handler, as the bot's seam does.
func (w *world) load(ctx context.Context, id string) (*storage.Game, error) {
	g, err := w.Game(ctx, storage.GameID(id))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, mux.Err("error.no_game", "ID", id)
	}
	return g, err
}

// newFlow returns the flow over a challenge from ann to opponent, g1, as
// setups leave it and the world, on a Mux of its own.
func newFlow(t *testing.T, opponent storage.PlayerID, setups ...func(*world)) (*mux.Mux, *muxtest.Recorder, *world) {
	w := &world{Store: flowtest.New(t, nil), g: &storage.Game{Kind: "connect4", Status: storage.StatusPending, MessageID: "board", ChannelID: "channel",
		Players: []storage.Player{{ID: storage.User("ann"), Name: "ann"}, {ID: opponent, Name: string(opponent)}}}}
	for _, f := range setups {
		f(w)
	}
	w.Seed(nil, append([]*storage.Game{w.g}, w.others...)...)
	m := mux.New()
	seam := func(h func(context.Context, *mux.Component, *storage.Game) error) mux.ComponentHandler {
		return func(ctx context.Context, ix *mux.Component) error {
			g, err := w.load(ctx, ix.Params["game"])
			if err != nil {
				return err
			}
			return h(ctx, ix, g)
		}
	}
	challenges.New(w, w, w, w, seam, challenges.Config{
		DefaultAI: "minimax", ChallengeTTL: time.Hour, MaxMoveTime: time.Minute,
		AppID: func() string { return "999" }, Now: func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) },
		Log: slog.New(slog.DiscardHandler),
	}).Routes(m)
	return m, &muxtest.Recorder{}, w
}

func click(m *mux.Mux, rec *muxtest.Recorder, who string, customID string) error {
	return muxtest.Run(m, rec, muxtest.Click(muxtest.Member(who, 0), discordgo.EnglishUS, customID))
}

func TestTheChallengedMemberAcceptsOrDeclines(t *testing.T) {
	m, rec, w := newFlow(t, storage.User("bob"))
	if err := click(m, rec, "bob", customid.Accept.Build(string(g1))); err != nil {
		t.Fatal(err)
	}
	if want := []string{"begin", "update active", "show active"}; !slices.Equal(w.did, want) {
		t.Errorf("accepting did %v, want %v", w.did, want)
	}

	m, rec, w = newFlow(t, storage.User("bob"))
	if err := click(m, rec, "bob", customid.Decline.Build(string(g1))); err != nil {
		t.Fatal(err)
	}
	if want := []string{"update declined", "show declined"}; !slices.Equal(w.did, want) {
		t.Errorf("declining did %v, want %v", w.did, want)
	}

	m, rec, w = newFlow(t, storage.User("bob"))
	if err := click(m, rec, "ann", customid.Decline.Build(string(g1))); err != nil {
		t.Fatal(err)
	}
	if want := []string{"update withdrawn", "show withdrawn"}; !slices.Equal(w.did, want) {
		t.Errorf("the challenger's Decline did %v, want %v", w.did, want)
	}
}

func TestAnOpenChallengeGoesToItsFirstTaker(t *testing.T) {
	m, rec, w := newFlow(t, storage.Anyone)
	if err := click(m, rec, "carol", customid.Take.Build(string(g1))); err != nil {
		t.Fatal(err)
	}
	if want := []string{"begin", "take for user:carol within 3", "show active"}; !slices.Equal(w.did, want) {
		t.Errorf("taking did %v, want %v", w.did, want)
	}

	m, rec, w = newFlow(t, storage.Anyone)
	w.takenBy = "dave"
	err := click(m, rec, "carol", customid.Take.Build(string(g1)))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "Too late") || !strings.Contains(text, "dave") {
		t.Errorf("a challenge taken first by dave: %q", text)
	}
}

func TestChallengeClicksAreRefusedWhereTheyDoNotBelong(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opponent storage.PlayerID
		who, id  string
		setup    func(*world)
		want     string
	}{
		{"the challenger accepts", storage.User("bob"), "ann", customid.Accept.Build(string(g1)), nil, "your own challenge"},
		{"another member accepts", storage.User("bob"), "carol", customid.Accept.Build(string(g1)), nil, "not for you"},
		{"an answered challenge", storage.User("bob"), "bob", customid.Accept.Build(string(g1)), func(w *world) { w.g.Status = storage.StatusDeclined }, "it was declined"},
		{"at the cap", storage.User("bob"), "bob", customid.Accept.Build(string(g1)), func(w *world) { w.atCap = true }, "3"},
		{"from another message", storage.User("bob"), "bob", customid.Accept.Build(string(g1)), func(w *world) { w.offline = true }, "does not exist"},
		{"one's own open challenge", storage.Anyone, "ann", customid.Take.Build(string(g1)), nil, "your open challenge"},
		{"withdrawing another's open challenge", storage.Anyone, "carol", customid.Decline.Build(string(g1)), nil, "Only <@ann>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var setups []func(*world)
			if tc.setup != nil {
				setups = append(setups, tc.setup)
			}
			m, rec, w := newFlow(t, tc.opponent, setups...)
			err := click(m, rec, tc.who, tc.id)
			if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, tc.want) {
				t.Errorf("refusal %q, want it to say %q", text, tc.want)
			}
			if len(w.did) != 0 || len(rec.Responses()) != 0 {
				t.Errorf("a refused click did %v and answered %d times", w.did, len(rec.Responses()))
			}
		})
	}
}
