package privacy_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/internal/flowtest"
	"github.com/gambitbot/gambit/bot/flows/privacy"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/storage"
)

// These tests construct the flow alone, over fakes and the flows' test
// store (flowtest): no bot, no stand-in.
// The wire is tested in package bot against the stand-in
// (TestPrivacyDeleteErasesTheUsersData and bot/privacy_test.go).

// newStore returns the flows' test store (flowtest) holding ann's data:
// two open games (the first with a board), a rating and a finished game.
func newStore(t *testing.T) *flowtest.Store {
	s := flowtest.New(t, nil)
	with := func(status storage.Status, opponent string) *storage.Game {
		return &storage.Game{Kind: "connect4", Status: status, Players: []storage.Player{{ID: storage.User("ann"), Name: "ann"}, {ID: storage.User(opponent), Name: opponent}}}
	}
	board, pending, finished := with(storage.StatusActive, "bob"), with(storage.StatusPending, "carol"), with(storage.StatusFinished, "bob")
	board.MessageID, finished.Result = "board1", &storage.Result{Winner: 0}
	s.Seed(func(sink storage.Sink) error {
		return sink.Rating(storage.Global("connect4"), storage.NewRating(storage.User("ann")))
	},
		board, pending, finished)
	return s
}

// g1 is ann's game with a board.
var g1 = storage.SequenceID(1)

// erased reports whether ann's data has been erased from s: her game g1
// is gone.
func erased(t *testing.T, s *flowtest.Store) bool {
	t.Helper()
	_, err := s.Game(context.Background(), g1)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		t.Fatal(err)
	}
	return err != nil
}

// fakeBot records what the flow asked of the rest of the bot.
type fakeBot struct {
	calls  []string
	aiFail bool
}

func (b *fakeBot) ForgetForm(userID string) { b.calls = append(b.calls, "forget form "+userID) }

func (b *fakeBot) ForgetAI(_ context.Context, userID string) error {
	b.calls = append(b.calls, "forget AI "+userID)
	if b.aiFail {
		return errors.New("the queue is down")
	}
	return nil
}

func (b *fakeBot) Cancelled(_ context.Context, g *storage.Game) error {
	b.calls = append(b.calls, "cancelled "+string(g.ID))
	return nil
}

func newFlow(store privacy.Store, bot privacy.Bot) (*mux.Mux, *muxtest.Recorder) {
	m := mux.New()
	privacy.New(store, bot, slog.New(slog.NewTextHandler(io.Discard, nil))).Routes(m)
	return m, &muxtest.Recorder{}
}

func TestPrivacyDeleteAsksThenErasesAndRetiresTheBoards(t *testing.T) {
	store, bot := newStore(t), &fakeBot{}
	m, rec := newFlow(store, bot)
	ann := muxtest.Member("ann", 0)
	ask := muxtest.Command(ann, discordgo.Locale(i18n.Indonesian), "privacy", &discordgo.ApplicationCommandInteractionDataOption{Name: "delete", Type: discordgo.ApplicationCommandOptionSubCommand})
	if err := muxtest.Run(m, rec, ask); err != nil {
		t.Fatal(err)
	}
	asked := rec.Only(t)
	if asked.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || asked.Data.Content != i18n.For(i18n.Indonesian).T("privacy.confirm") {
		t.Errorf("asked %+v, want the confirmation in Indonesian, privately", asked.Data)
	}
	if erased(t, store) {
		t.Fatal("erased before the member confirmed")
	}

	if err := muxtest.Run(m, rec, muxtest.Click(ann, discordgo.EnglishUS, customid.PrivacyDelete.Build("ann"))); err != nil {
		t.Fatal(err)
	}
	if !erased(t, store) {
		t.Error("ann's data was not erased")
	}
	// The answer before the boards: their edits may wait on rate limits.
	if want := []string{"forget form ann", "forget AI ann", "cancelled " + string(g1)}; !slices.Equal(bot.calls, want) {
		t.Errorf("asked the bot %v, want %v (no board for the other open game)", bot.calls, want)
	}
	done := rec.Responses()[1]
	if done.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(done.Data.Content, "2 open games cancelled") {
		t.Errorf("answer %d %q, want the confirmation replaced by what was erased", done.Type, done.Data.Content)
	}
}

func TestPrivacyDeleteRefusesAnotherMembersButton(t *testing.T) {
	store, bot := newStore(t), &fakeBot{}
	m, rec := newFlow(store, bot)
	err := muxtest.Run(m, rec, muxtest.Click(muxtest.Member("bob", 0), discordgo.EnglishUS, customid.PrivacyDelete.Build("ann")))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "someone else's data") {
		t.Errorf("refusal %q", text)
	}
	if erased(t, store) || len(bot.calls) != 0 {
		t.Errorf("a refused click erased ann's data or asked the bot %v", bot.calls)
	}
}

func TestPrivacyDeleteSaysWhatIsLeftWhenTheAIQueueFails(t *testing.T) {
	store, bot := newStore(t), &fakeBot{aiFail: true}
	m, rec := newFlow(store, bot)
	if err := muxtest.Run(m, rec, muxtest.Click(muxtest.Member("ann", 0), discordgo.EnglishUS, customid.PrivacyDelete.Build("ann"))); err != nil {
		t.Fatal(err)
	}
	resp := rec.Only(t)
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 ||
		!strings.Contains(resp.Data.Content, "click the button again") {
		t.Errorf("answer %d %+v, want a private note to click again, the button kept", resp.Type, resp.Data)
	}
	if !slices.Contains(bot.calls, "cancelled "+string(g1)) {
		t.Errorf("the boards were not retired after the AI queue failed: %v", bot.calls)
	}
}
