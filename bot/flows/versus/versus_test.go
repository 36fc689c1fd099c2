package versus_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/internal/flowtest"
	"github.com/gambitbot/gambit/bot/flows/versus"
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
// store (flowtest): no bot, no stand-in.
// The wire, and the game played to its end, are tested in package bot
// against the stand-in (bot/versus_test.go).

// world is the fakes of the flow over the flows' test store (flowtest):
// the game starter, the boards and the game seam, recording what the flow
// did, the store's writes among it.
type world struct {
	*flowtest.Store
	settings storage.GuildSettings
	did      []string
}

func newWorld(t *testing.T) *world { return &world{Store: flowtest.New(t, nil)} }

func (w *world) CreateGame(ctx context.Context, g *storage.Game, limits storage.Limits) error {
	if err := w.Store.CreateGame(ctx, g, limits); err != nil {
		return err
	}
	w.did = append(w.did, fmt.Sprintf("create %s vs %s casual=%v", g.Players[0].ID, g.Players[1].ID, g.Settings.Casual))
	return nil
}

func (w *world) UpdateGame(ctx context.Context, g *storage.Game) error {
	if err := w.Store.UpdateGame(ctx, g); err != nil {
		return err
	}
	w.did = append(w.did, "update "+string(g.Status))
	return nil
}

// listed returns the IDs of the open games the store lists under key.
func (w *world) listed(t *testing.T, key storage.PlayerID) []storage.GameID {
	t.Helper()
	games, err := w.ActiveGames(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	var ids []storage.GameID
	for _, g := range games {
		ids = append(ids, g.ID)
	}
	return ids
}

// showcase is a game of connect4 between two AIs in status, in place,
// started by member; ended, it names no starter any more, as the store
// keeps it.
func showcase(status storage.Status, place, member string) *storage.Game {
	gm, _ := catalog.Lookup("connect4")
	pos, _ := gm.Start(games.Options{})
	g := &storage.Game{Kind: "connect4", Status: status, Position: pos.String(), GuildID: place, ChannelID: "channel",
		Players:  []storage.Player{{ID: storage.AI("minimax")}, {ID: storage.AI("mcts")}},
		Settings: storage.Settings{StartedBy: storage.User(member)}}
	if status.Ended() {
		g.Result, g.Settings.StartedBy = &storage.Result{Winner: storage.Draw}, ""
	}
	return g
}

// duel is an active game of ann's against another member.
func duel() *storage.Game {
	g := showcase(storage.StatusActive, "guild", "")
	g.Players, g.Settings = []storage.Player{{ID: storage.User("ann"), Name: "ann"}, {ID: storage.User("bob"), Name: "bob"}}, storage.Settings{}
	return g
}

func (w *world) Begin(_ context.Context, g *storage.Game) error {
	gm, err := catalog.Lookup(string(g.Kind))
	if err != nil {
		return err
	}
	pos, err := gm.Start(games.Options{})
	if err != nil {
		return err
	}
	g.Status, g.Turn, g.Position = storage.StatusActive, 0, pos.String()
	return nil
}

func (w *world) Settings(context.Context, string) storage.GuildSettings { return w.settings }

func (w *world) View(g *storage.Game, _ engine.Position, thinking *render.Thinking, _ []storage.RatingChange, notice string) render.Message {
	text := "board of " + string(g.Status)
	if thinking != nil {
		text += ", AI thinking"
	}
	if notice != "" {
		text += ": " + notice
	}
	return render.Message{Content: text}
}

func (w *world) ShowNew(_ context.Context, _ *mux.Interaction, _ *storage.Game, msg render.Message) error {
	w.did = append(w.did, "new "+msg.Content)
	return nil
}

func (w *world) Show(_ context.Context, _ *mux.Interaction, _ *storage.Game, msg render.Message) error {
	w.did = append(w.did, "show "+msg.Content)
	return nil
}

func (w *world) OnBoard(*mux.Interaction, *storage.Game) bool { return true }

func (w *world) Hold(_ context.Context, _ *mux.Interaction, id storage.GameID, fn func() error) error {
	w.did = append(w.did, "hold "+string(id))
	return fn()
}

func (w *world) QueueAIFor(_ context.Context, _ *mux.Interaction, g *storage.Game, owner storage.PlayerID) *render.Thinking {
	w.did = append(w.did, "queue "+string(g.Players[g.Turn].ID)+" for "+string(owner))
	return &render.Thinking{}
}

// newFlow returns the flow over w on a Mux of its own, members capped at
// three open games.
func newFlow(w *world) *mux.Mux {
	m := mux.New()
	seam := func(h func(context.Context, *mux.Component, *storage.Game) error) mux.ComponentHandler {
		return func(ctx context.Context, ix *mux.Component) error {
			g, err := w.Game(ctx, storage.GameID(ix.Params["game"]))
			if err != nil {
				return err
			}
			return h(ctx, ix, g)
		}
	}
	versus.New(w, w, w, w, seam, versus.Config{MaxMoveTime: time.Minute, MaxOpen: 3, Instance: "test", Log: slog.New(slog.DiscardHandler)}).Routes(m)
	return m
}

// run runs /versus as member ann with opts (name, value pairs).
func run(m *mux.Mux, opts ...string) error {
	var o []*discordgo.ApplicationCommandInteractionDataOption
	for i := 0; i+1 < len(opts); i += 2 {
		o = append(o, muxtest.Option(opts[i], discordgo.ApplicationCommandOptionString, opts[i+1]))
	}
	raw := muxtest.Command(muxtest.Member("ann", 0), discordgo.EnglishUS, "versus", o...)
	raw.AppPermissions = discordgo.PermissionAdministrator
	return muxtest.Run(m, &muxtest.Recorder{}, raw)
}

func TestAShowcaseIsCountedAndItsTurnsQueuedForItsStarter(t *testing.T) {
	w := newWorld(t)
	if err := run(newFlow(w), "game", "connect4", "first", "minimax", "second", "mcts"); err != nil {
		t.Fatal(err)
	}
	id := storage.SequenceID(1)
	want := []string{
		"create ai:minimax vs ai:mcts casual=true",
		"hold " + string(id), "queue ai:minimax for user:ann", "new board of active, AI thinking",
	}
	if !slices.Equal(w.did, want) {
		t.Errorf("/versus did %v, want %v", w.did, want)
	}
	held, err := w.Claims(context.Background(), "versus-lock/guild")
	if err != nil {
		t.Fatal(err)
	}
	if _, locked := held["versus-lock/guild"]; locked {
		t.Error("the server's lock is still held")
	}
	if g := w.Load(id); g.Settings.StartedBy != storage.User("ann") {
		t.Errorf("the showcase names %q as its starter, want ann", g.Settings.StartedBy)
	}
	for _, key := range []storage.PlayerID{storage.ShowcasesOf(storage.User("ann")), storage.ShowcasesIn("guild")} {
		if got := w.listed(t, key); !slices.Equal(got, []storage.GameID{id}) {
			t.Errorf("the store lists %v under %s, want the showcase", got, key)
		}
	}
}

func TestVersusRefusesWhatItCannotStart(t *testing.T) {
	game := []string{"game", "connect4", "first", "minimax", "second", "mcts"}
	for _, c := range []struct {
		name  string
		opts  []string
		setup func(*testing.T, *world)
		want  string
	}{
		{"an unknown strategy", []string{"game", "connect4", "first", "nosuch", "second", "mcts"}, nil, "There is no AI"},
		{"a strategy of another game", []string{"game", "connect4", "first", "seed001-minimax", "second", "mcts"}, nil, "does not play Connect Four"},
		{"one strategy twice", []string{"game", "connect4", "first", "mcts", "second", "mcts"}, nil, "two different AIs"},
		{"a puzzle", []string{"game", "8puzzle", "first", "minimax", "second", "mcts"}, nil, "8puzzle"},
		{"a game the server does not allow", game, func(_ *testing.T, w *world) { w.settings.AllowedGames = []storage.Kind{"othello"} }, "not allowed"},
		{"a server's third showcase", game, func(_ *testing.T, w *world) {
			w.Seed(nil, showcase(storage.StatusActive, "guild", "bob"), showcase(storage.StatusActive, "guild", "bob"))
		}, "already runs 2"},
		{"a member at their cap", game, func(_ *testing.T, w *world) {
			w.Seed(nil, duel(), duel(), showcase(storage.StatusActive, "other", "ann"))
		}, "You have 3 open games"},
		{"a start under way here", game, func(t *testing.T, w *world) {
			if ok, err := w.Claim(context.Background(), "versus-lock/guild", "test/0000000000000001", time.Hour); !ok || err != nil {
				t.Fatalf("claim the server's lock: %v, %v", ok, err)
			}
		}, "try again"},
	} {
		w := newWorld(t)
		if c.setup != nil {
			c.setup(t, w)
		}
		err := run(newFlow(w), c.opts...)
		if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, c.want) {
			t.Errorf("%s: %q, want it to say %q", c.name, text, c.want)
		}
		if slices.ContainsFunc(w.did, func(s string) bool { return strings.HasPrefix(s, "create") }) {
			t.Errorf("%s: a game was created: %v", c.name, w.did)
		}
	}
}

func TestEndedShowcasesNoLongerCount(t *testing.T) {
	w := newWorld(t)
	w.Seed(nil, showcase(storage.StatusFinished, "guild", "bob"), showcase(storage.StatusFinished, "guild", "bob"))
	if err := run(newFlow(w), "game", "connect4", "first", "minimax", "second", "mcts"); err != nil {
		t.Fatalf("a showcase beside two ended ones: %v", err)
	}
}

func TestStopIsTheStartersOrAManagers(t *testing.T) {
	g1 := storage.SequenceID(1)
	stop := func(who string, perms int64, status storage.Status) (*world, error) {
		w := newWorld(t)
		w.Seed(nil, showcase(status, "guild", "ann"))
		return w, muxtest.Run(newFlow(w), &muxtest.Recorder{}, muxtest.Click(muxtest.Member(who, perms), discordgo.EnglishUS, customid.VersusStop.Build(string(g1))))
	}
	w, err := stop("ann", 0, storage.StatusActive)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"update cancelled", "show board of cancelled: ⏹️ Stopped by ann."}; !slices.Equal(w.did, want) {
		t.Errorf("the starter's Stop did %v, want %v", w.did, want)
	}
	if w, err = stop("carol", discordgo.PermissionManageGuild, storage.StatusActive); err != nil || w.Load(g1).Status != storage.StatusCancelled {
		t.Errorf("a manager's Stop: %v, game %s; want it cancelled", err, w.Load(g1).Status)
	}
	w, err = stop("bob", discordgo.PermissionSendMessages, storage.StatusActive)
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "Only the member who started") || len(w.did) != 0 {
		t.Errorf("another member's Stop: %q, did %v; want a refusal", text, w.did)
	}
	w, err = stop("ann", 0, storage.StatusFinished)
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "ended already") || len(w.did) != 0 {
		t.Errorf("Stop on an ended game: %q, did %v", text, w.did)
	}
}
