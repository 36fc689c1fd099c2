package challenges_test

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
	"github.com/gambitbot/gambit/bot/flows/challenges"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
)

// These tests construct the flow alone, over fakes: no bot, no stand-in,
// no game lock (the game routes' wrap is the fake's). The wire is tested
// in package bot against the stand-in (the challenge tests of
// bot/commands_test.go and bot/open_test.go, bot/reject_test.go).

// world is the fakes of one challenge: its store, the game starter, the
// boards and the game seam, recording what the flow did.
type world struct {
	g       *storage.Game
	created []*storage.Game
	taken   error // what TakeChallenge answers, once it has taken g for someone else
	atCap   bool  // CheckLimits refuses
	// atCapOnCreate makes CreateGame refuse alone: a cap reached after
	// the look ahead.
	atCapOnCreate bool
	settings      storage.GuildSettings
	did           []string
	behind        bool
	offline       bool // the click came from another message than g's
	claimed       bool // the rematch of g is claimed
}

func (w *world) Game(context.Context, storage.GameID) (*storage.Game, error) {
	now := *w.g
	if w.taken != nil {
		now.Status, now.Players = storage.StatusActive, []storage.Player{w.g.Players[0], {ID: storage.User("dave"), Name: "dave"}}
	}
	return &now, nil
}

func (w *world) CreateGame(_ context.Context, g *storage.Game, limits storage.Limits) error {
	if w.atCap || w.atCapOnCreate {
		return &storage.LimitError{Limit: storage.LimitOpen, Count: limits.MaxOpen}
	}
	g.ID = storage.GameID(fmt.Sprintf("new%d", len(w.created)+1))
	w.created = append(w.created, g)
	w.did = append(w.did, fmt.Sprintf("create %s %s vs %s", g.Status, g.Players[0].ID, g.Players[1].ID))
	return nil
}

func (w *world) UpdateGame(_ context.Context, g *storage.Game) error {
	w.did = append(w.did, "update "+string(g.Status))
	return nil
}

func (w *world) TakeChallenge(_ context.Context, g *storage.Game, limits storage.Limits) error {
	if w.taken != nil {
		return w.taken
	}
	w.did = append(w.did, "take for "+string(g.Players[1].ID)+" within "+string(rune('0'+limits.MaxOpen)))
	return nil
}

func (w *world) ClaimRematch(context.Context, storage.GameID) error {
	if w.claimed {
		return storage.ErrRematchTaken
	}
	w.claimed = true
	w.did = append(w.did, "claim rematch")
	return nil
}

func (w *world) ReleaseRematch(context.Context, storage.GameID) error {
	w.claimed = false
	w.did = append(w.did, "release rematch")
	return nil
}

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
	if id != string(w.g.ID) {
		return mux.Err("error.no_game", "ID", id)
	}
	return h(ctx, w.g)
}

// newFlow returns the flow over a challenge from ann to opponent, on a
// Mux of its own.
func newFlow(opponent storage.PlayerID) (*mux.Mux, *muxtest.Recorder, *world) {
	w := &world{g: &storage.Game{ID: "g1", Kind: "connect4", Status: storage.StatusPending, MessageID: "board", ChannelID: "channel",
		Players: []storage.Player{{ID: storage.User("ann"), Name: "ann"}, {ID: opponent, Name: string(opponent)}}}}
	m := mux.New()
	seam := func(h func(context.Context, *mux.Component, *storage.Game) error) mux.ComponentHandler {
		return func(ctx context.Context, ix *mux.Component) error { return h(ctx, ix, w.g) }
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
	m, rec, w := newFlow(storage.User("bob"))
	if err := click(m, rec, "bob", customid.Accept.Build("g1")); err != nil {
		t.Fatal(err)
	}
	if want := []string{"begin", "update active", "show active"}; !slices.Equal(w.did, want) {
		t.Errorf("accepting did %v, want %v", w.did, want)
	}

	m, rec, w = newFlow(storage.User("bob"))
	if err := click(m, rec, "bob", customid.Decline.Build("g1")); err != nil {
		t.Fatal(err)
	}
	if want := []string{"update declined", "show declined"}; !slices.Equal(w.did, want) {
		t.Errorf("declining did %v, want %v", w.did, want)
	}

	m, rec, w = newFlow(storage.User("bob"))
	if err := click(m, rec, "ann", customid.Decline.Build("g1")); err != nil {
		t.Fatal(err)
	}
	if want := []string{"update withdrawn", "show withdrawn"}; !slices.Equal(w.did, want) {
		t.Errorf("the challenger's Decline did %v, want %v", w.did, want)
	}
}

func TestAnOpenChallengeGoesToItsFirstTaker(t *testing.T) {
	m, rec, w := newFlow(storage.Anyone)
	if err := click(m, rec, "carol", customid.Take.Build("g1")); err != nil {
		t.Fatal(err)
	}
	if want := []string{"begin", "take for user:carol within 3", "show active"}; !slices.Equal(w.did, want) {
		t.Errorf("taking did %v, want %v", w.did, want)
	}

	m, rec, w = newFlow(storage.Anyone)
	w.taken = storage.ErrTaken
	err := click(m, rec, "carol", customid.Take.Build("g1"))
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
		{"the challenger accepts", storage.User("bob"), "ann", customid.Accept.Build("g1"), nil, "your own challenge"},
		{"another member accepts", storage.User("bob"), "carol", customid.Accept.Build("g1"), nil, "not for you"},
		{"an answered challenge", storage.User("bob"), "bob", customid.Accept.Build("g1"), func(w *world) { w.g.Status = storage.StatusDeclined }, "it was declined"},
		{"at the cap", storage.User("bob"), "bob", customid.Accept.Build("g1"), func(w *world) { w.atCap = true }, "3"},
		{"from another message", storage.User("bob"), "bob", customid.Accept.Build("g1"), func(w *world) { w.offline = true }, "does not exist"},
		{"one's own open challenge", storage.Anyone, "ann", customid.Take.Build("g1"), nil, "your open challenge"},
		{"withdrawing another's open challenge", storage.Anyone, "carol", customid.Decline.Build("g1"), nil, "Only <@ann>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, rec, w := newFlow(tc.opponent)
			if tc.setup != nil {
				tc.setup(w)
			}
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
