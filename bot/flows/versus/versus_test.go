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

// These tests construct the flow alone, over fakes: no bot, no stand-in.
// The wire, and the game played to its end, are tested in package bot
// against the stand-in (bot/versus_test.go).

// world is the fakes of the flow: its store (games, a member's open
// games besides, claims), the game starter, the boards and the game
// seam, recording what the flow did.
type world struct {
	games    map[storage.GameID]*storage.Game
	open     int // ann's open games besides those of games
	claims   map[string]string
	settings storage.GuildSettings
	did      []string
}

func newWorld() *world {
	return &world{games: map[storage.GameID]*storage.Game{}, claims: map[string]string{}}
}

func (w *world) Game(_ context.Context, id storage.GameID) (*storage.Game, error) {
	g, ok := w.games[id]
	if !ok {
		return nil, storage.ErrNotFound
	}
	cp := *g
	return &cp, nil
}

func (w *world) CreateGame(_ context.Context, g *storage.Game, _ storage.Limits) error {
	g.ID = storage.GameID(fmt.Sprintf("new%d", len(w.games)+1))
	cp := *g
	w.games[g.ID] = &cp
	w.did = append(w.did, fmt.Sprintf("create %s vs %s casual=%v", g.Players[0].ID, g.Players[1].ID, g.Settings.Casual))
	return nil
}

func (w *world) UpdateGame(_ context.Context, g *storage.Game) error {
	cp := *g
	w.games[g.ID] = &cp
	w.did = append(w.did, "update "+string(g.Status))
	return nil
}

// ActiveGames lists the open games of games listed under key, as the
// stores list them (storage.Game.ShowcaseKeys), and ann's open besides.
func (w *world) ActiveGames(_ context.Context, key storage.PlayerID) ([]*storage.Game, error) {
	var out []*storage.Game
	for _, g := range w.games {
		if slices.Contains(g.ShowcaseKeys(), key) || g.Status.Open() && g.Seat(key) >= 0 {
			out = append(out, g)
		}
	}
	if key == storage.User("ann") {
		for range w.open {
			out = append(out, &storage.Game{Status: storage.StatusActive})
		}
	}
	return out, nil
}

func (w *world) Claim(_ context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if o, ok := w.claims[key]; ok && o != owner {
		return false, nil
	}
	w.claims[key] = owner
	if !strings.HasPrefix(key, "versus-lock/") {
		w.did = append(w.did, "claim "+key)
	}
	return true, nil
}

func (w *world) Release(_ context.Context, key, owner string) error {
	if w.claims[key] == owner {
		delete(w.claims, key)
		if !strings.HasPrefix(key, "versus-lock/") {
			w.did = append(w.did, "release "+key)
		}
	}
	return nil
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
	w := newWorld()
	if err := run(newFlow(w), "game", "connect4", "first", "minimax", "second", "mcts"); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"create ai:minimax vs ai:mcts casual=true",
		"hold new1", "queue ai:minimax for user:ann", "new board of active, AI thinking",
	}
	if !slices.Equal(w.did, want) {
		t.Errorf("/versus did %v, want %v", w.did, want)
	}
	if _, locked := w.claims["versus-lock/guild"]; locked {
		t.Error("the server's lock is still held")
	}
	if g := w.games["new1"]; g.Settings.StartedBy != storage.User("ann") || !slices.Equal(g.ShowcaseKeys(), []storage.PlayerID{storage.ShowcasesOf(storage.User("ann")), storage.ShowcasesIn("guild")}) {
		t.Errorf("the showcase names %q as its starter, listed under %q; want ann's, and hers and the server's", g.Settings.StartedBy, g.ShowcaseKeys())
	}
}

// showcase is an open showcase of place started by member.
func showcase(id storage.GameID, place, member string) *storage.Game {
	return &storage.Game{ID: id, Status: storage.StatusActive, GuildID: place,
		Players:  []storage.Player{{ID: storage.AI("minimax")}, {ID: storage.AI("mcts")}},
		Settings: storage.Settings{StartedBy: storage.User(member)}}
}

func TestVersusRefusesWhatItCannotStart(t *testing.T) {
	game := []string{"game", "connect4", "first", "minimax", "second", "mcts"}
	for _, c := range []struct {
		name  string
		opts  []string
		setup func(*world)
		want  string
	}{
		{"an unknown strategy", []string{"game", "connect4", "first", "nosuch", "second", "mcts"}, nil, "There is no AI"},
		{"a strategy of another game", []string{"game", "connect4", "first", "seed001-minimax", "second", "mcts"}, nil, "does not play Connect Four"},
		{"one strategy twice", []string{"game", "connect4", "first", "mcts", "second", "mcts"}, nil, "two different AIs"},
		{"a puzzle", []string{"game", "8puzzle", "first", "minimax", "second", "mcts"}, nil, "8puzzle"},
		{"a game the server does not allow", game, func(w *world) { w.settings.AllowedGames = []storage.Kind{"othello"} }, "not allowed"},
		{"a server's third showcase", game, func(w *world) {
			for _, id := range []storage.GameID{"a", "b"} {
				w.games[id] = showcase(id, "guild", "bob")
			}
		}, "already runs 2"},
		{"a member at their cap", game, func(w *world) {
			w.open = 2
			w.games["c"] = showcase("c", "other", "ann")
		}, "You have 3 open games"},
		{"a start under way here", game, func(w *world) { w.claims["versus-lock/guild"] = "test/0000000000000001" }, "try again"},
	} {
		w := newWorld()
		if c.setup != nil {
			c.setup(w)
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
	w := newWorld()
	for _, id := range []storage.GameID{"a", "b"} {
		w.games[id] = showcase(id, "guild", "bob")
		w.games[id].Status = storage.StatusFinished
	}
	if err := run(newFlow(w), "game", "connect4", "first", "minimax", "second", "mcts"); err != nil {
		t.Fatalf("a showcase beside two ended ones: %v", err)
	}
}

func TestStopIsTheStartersOrAManagers(t *testing.T) {
	stop := func(who string, perms int64, setup func(*world)) (*world, error) {
		w := newWorld()
		gm, _ := catalog.Lookup("connect4")
		pos, _ := gm.Start(games.Options{})
		w.games["g1"] = &storage.Game{ID: "g1", Kind: "connect4", Status: storage.StatusActive, Position: pos.String(), GuildID: "guild", ChannelID: "channel",
			Players: []storage.Player{{ID: storage.AI("minimax")}, {ID: storage.AI("mcts")}}, Settings: storage.Settings{StartedBy: storage.User("ann")}}
		if setup != nil {
			setup(w)
		}
		return w, muxtest.Run(newFlow(w), &muxtest.Recorder{}, muxtest.Click(muxtest.Member(who, perms), discordgo.EnglishUS, customid.VersusStop.Build("g1")))
	}
	w, err := stop("ann", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"update cancelled", "show board of cancelled: ⏹️ Stopped by ann."}; !slices.Equal(w.did, want) {
		t.Errorf("the starter's Stop did %v, want %v", w.did, want)
	}
	if w, err = stop("carol", discordgo.PermissionManageGuild, nil); err != nil || w.games["g1"].Status != storage.StatusCancelled {
		t.Errorf("a manager's Stop: %v, game %s; want it cancelled", err, w.games["g1"].Status)
	}
	w, err = stop("bob", discordgo.PermissionSendMessages, nil)
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "Only the member who started") || len(w.did) != 0 {
		t.Errorf("another member's Stop: %q, did %v; want a refusal", text, w.did)
	}
	w, err = stop("ann", 0, func(w *world) { w.games["g1"].Status = storage.StatusFinished })
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "ended already") || len(w.did) != 0 {
		t.Errorf("Stop on an ended game: %q, did %v", text, w.did)
	}
}
