package daily_test

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/daily"
	"github.com/gambitbot/gambit/bot/flows/internal/flowtest"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
	dailies "github.com/gambitbot/gambit/strategies/daily"
)

// These tests construct the flow alone, over fakes and the flows' test
// store (flowtest): no bot, no stand-in. The wire and what crosses processes are tested in package
// bot against the stand-in: the post and a best-move answer
// (TestDailyBestMovePostedAndAnswered), an attempt's private board and
// its result (TestDailyAttemptIsPrivate), the races of Play and Give up
// (TestDailyAttemptRacedRepostedAndGivenUp), an end lost to a crash
// (TestDailyAttemptSettledAfterALostEnd); the store's claim of a post
// across processes is storage/storetest's.

// key is the install's key in the test's store.
var key = []byte("0123456789abcdef0123456789abcdef")

// store is the flows' test store (flowtest) counting the daily posts'
// claims.
type store struct {
	*flowtest.Store
	claimed atomic.Int32 // ClaimDailyPost calls
}

func (s *store) ClaimDailyPost(ctx context.Context, guild, day string) (bool, error) {
	s.claimed.Add(1)
	return s.Store.ClaimDailyPost(ctx, guild, day)
}

// fakeSolo starts a solo game in the store, as the bot does, and
// records the day it was started for.
type fakeSolo struct {
	store *store
	days  []string
}

func (s *fakeSolo) Start(ctx context.Context, ix *mux.Interaction, gm *games.Game, pos engine.Position, day string, created func(*storage.Game) error) error {
	s.days = append(s.days, day)
	g := &storage.Game{Kind: storage.Kind(gm.Name), Status: storage.StatusActive,
		Players: []storage.Player{{ID: storage.User(ix.Caller().ID), Name: ix.Caller().Username}}, Settings: storage.Settings{Daily: day},
		Start: pos.String(), Position: pos.String(), GuildID: ix.GuildID, ChannelID: ix.ChannelID}
	if err := s.store.CreateGame(ctx, g, storage.Limits{}); err != nil {
		return err
	}
	if created != nil {
		return created(g)
	}
	return nil
}

// fakeBoards records the boards shown again.
type fakeBoards struct{ shown []storage.GameID }

func (b *fakeBoards) Message(g *storage.Game) (render.Message, error) {
	return render.Message{Content: string(g.ID)}, nil
}

func (b *fakeBoards) ShowNew(_ context.Context, _ *mux.Interaction, g *storage.Game, _ render.Message) error {
	b.shown = append(b.shown, g.ID)
	return nil
}

// fakeTurns loads a game for the handler, without a lock.
type fakeTurns struct{ store *store }

func (t fakeTurns) OnGame(ctx context.Context, _ *mux.Interaction, id string, h func(context.Context, *storage.Game) error) error {
	g, err := t.store.Game(ctx, storage.GameID(id))
	if err != nil {
		return err
	}
	return h(ctx, g)
}

// fakeOutgoing records the messages posted: their channels, and how many
// pictures each carries.
type fakeOutgoing struct {
	mu    sync.Mutex
	posts []string
}

func (o *fakeOutgoing) SendChannelMessage(channel string, msg render.Message) (*discordgo.Message, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.posts = append(o.posts, fmt.Sprintf("%s: %d pictures", channel, len(msg.Files)))
	return &discordgo.Message{ID: "posted"}, nil
}

func (o *fakeOutgoing) Posts() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.posts...)
}

// fixture is the flow over fakes on a day of kind, with its routes and
// PostResults on a Mux.
type fixture struct {
	f      *daily.Flow
	m      *mux.Mux
	rec    *muxtest.Recorder
	store  *store
	solo   *fakeSolo
	boards *fakeBoards
	out    *fakeOutgoing
	shards storage.Shards
	day    string
}

// dayOf returns the first day from 2026-01-01 on whose puzzle is of kind.
func dayOf(t *testing.T, kind dailies.Kind) time.Time {
	t.Helper()
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for range 30 {
		if k, err := dailies.KindOn(dailies.Day(at)); err == nil && k == kind {
			return at
		}
		at = at.Add(24 * time.Hour)
	}
	t.Fatalf("no day of %s in January", kind)
	return time.Time{}
}

func newFixture(t *testing.T, kind dailies.Kind) *fixture {
	t.Helper()
	now := dayOf(t, kind)
	store := &store{Store: flowtest.New(t, func() time.Time { return now })}
	store.Seed(func(sink storage.Sink) error { return sink.Secret(storage.DailyKey, key) })
	fx := &fixture{rec: &muxtest.Recorder{}, store: store, solo: &fakeSolo{store: store}, boards: &fakeBoards{}, out: &fakeOutgoing{}, day: dailies.Day(now)}
	fx.f = daily.New(store, fx.solo, fx.boards, fakeTurns{store}, daily.Config{
		Outgoing: fx.out, Lang: func(string, string) *i18n.Localizer { return i18n.For(i18n.English) },
		Shards: func() storage.Shards { return fx.shards }, Now: func() time.Time { return now }, Log: slog.New(slog.DiscardHandler),
	})
	if err := fx.f.LoadKey(context.Background()); err != nil {
		t.Fatal(err)
	}
	fx.m = mux.New()
	fx.f.Routes(fx.m)
	fx.m.Use(fx.f.PostResults)
	return fx
}

// first is the ID of the first game the store creates.
var first = storage.SequenceID(1)

// attemptGame stores who's new game of the fixture's day's puzzle, in
// guild "guild", as a Play would, and returns it.
func (fx *fixture) attemptGame(t *testing.T, who string) *storage.Game {
	t.Helper()
	g := &storage.Game{Kind: "nqueens", Status: storage.StatusActive, Players: []storage.Player{{ID: storage.User(who), Name: who}},
		GuildID: "guild", Settings: storage.Settings{Daily: fx.day}}
	if err := fx.store.CreateGame(context.Background(), g, storage.Limits{}); err != nil {
		t.Fatal(err)
	}
	return g
}

// puzzle returns guild "guild"'s puzzle of the fixture's day.
func (fx *fixture) puzzle(t *testing.T) dailies.Puzzle {
	t.Helper()
	p, err := dailies.ForDay(context.Background(), key, fx.day, "guild")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// click is who's click on customID of the post.
func click(who, customID string) *discordgo.Interaction {
	return muxtest.Click(muxtest.Member(who, 0), discordgo.EnglishUS, customID)
}

// TestTheDailyPuzzleIsPostedOncePerServerAndDayInTheShardsHere ticks the
// timers' call three times: the day's post is claimed in the store once,
// not at every tick, and posted in the servers of this process's shards.
func TestTheDailyPuzzleIsPostedOncePerServerAndDayInTheShardsHere(t *testing.T) {
	fx := newFixture(t, dailies.Queens)
	// "guild" is no snowflake: it goes with shard 0; 1<<22 is on shard 1.
	for guild, channel := range map[string]string{"guild": "daily-here", "4194304": "daily-there"} {
		if _, err := fx.store.UpdateGuildSettings(context.Background(), guild, func(gs *storage.GuildSettings) error {
			gs.DailyChannel = channel
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	fx.shards = storage.Shards{Count: 2, IDs: []int{0}}
	for range 3 {
		fx.f.PostDailies(context.Background())
	}
	posts := fx.out.Posts()
	if len(posts) != 1 || posts[0] != "daily-here: 1 pictures" {
		t.Fatalf("posted %q, want today's puzzle once, in the channel of the guild of this process's shard", posts)
	}
	if n := fx.store.claimed.Load(); n != 1 {
		t.Errorf("the post claimed %d times over three ticks, want once: the flow remembers the day's claims", n)
	}
}

func TestABestMoveIsAnsweredOnceAndItsResultPostedOnce(t *testing.T) {
	fx := newFixture(t, dailies.Connect4)
	p := fx.puzzle(t)
	answer := click("ann", customid.DailyMove.Build("guild", fx.day, p.Answer))
	if err := muxtest.Run(fx.m, fx.rec, answer); err != nil {
		t.Fatal(err)
	}
	if reply := fx.rec.Only(t); reply.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Errorf("the answer was shown to the channel: %+v", reply.Data)
	}
	a, err := fx.store.DailyAttempt(context.Background(), "guild", fx.day, storage.User("ann"))
	if err != nil || a.Status != storage.DailySolved || a.Moves != 1 {
		t.Fatalf("ann's attempt %+v (%v), want it solved in one move", a, err)
	}
	if posts := fx.out.Posts(); len(posts) != 1 || !strings.HasPrefix(posts[0], "channel: ") {
		t.Fatalf("posted %q, want ann's result once in the channel clicked", posts)
	}
	err = muxtest.Run(fx.m, fx.rec, answer)
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "solved") {
		t.Errorf("a second answer: %q, want ann told she solved it", text)
	}
	if posts := fx.out.Posts(); len(posts) != 1 {
		t.Errorf("posted %q after a second answer, want the one result", posts)
	}
}

func TestAClickOnAnotherDaysOrServersPostIsRefused(t *testing.T) {
	fx := newFixture(t, dailies.Connect4)
	p := fx.puzzle(t)
	for _, id := range []string{
		customid.DailyMove.Build("guild", "2025-12-31", p.Answer),
		customid.DailyMove.Build("elsewhere", fx.day, p.Answer),
		customid.DailyHint.Build("guild", "2025-12-31"),
	} {
		if err := muxtest.Run(fx.m, fx.rec, click("ann", id)); err == nil {
			t.Errorf("%s was answered", id)
		}
	}
	if list, _ := fx.store.DailyAttempts(context.Background(), "guild", fx.day); len(list) != 0 || len(fx.out.Posts()) != 0 {
		t.Errorf("refused clicks left attempts %v and posts %q", list, fx.out.Posts())
	}
}

func TestPlayStartsTheMembersOwnAttemptOnceAndShowsItAgain(t *testing.T) {
	fx := newFixture(t, dailies.Queens)
	play := click("ann", customid.DailyPlay.Build("guild", fx.day))
	if err := muxtest.Run(fx.m, fx.rec, play); err != nil {
		t.Fatal(err)
	}
	if len(fx.solo.days) != 1 || fx.solo.days[0] != fx.day {
		t.Fatalf("solo games started for days %q, want one attempt at %s", fx.solo.days, fx.day)
	}
	a, err := fx.store.DailyAttempt(context.Background(), "guild", fx.day, storage.User("ann"))
	if err != nil || a.GameID != first || a.Status != storage.DailyPlaying {
		t.Fatalf("ann's attempt %+v (%v), want it playing game %s", a, err, first)
	}
	if err := muxtest.Run(fx.m, fx.rec, play); err != nil {
		t.Fatal(err)
	}
	if len(fx.solo.days) != 1 || len(fx.boards.shown) != 1 || fx.boards.shown[0] != first {
		t.Errorf("Play again started %d games and showed %v, want %s's board shown again", len(fx.solo.days), fx.boards.shown, first)
	}
}

func TestAnAttemptWhoseEndWasLostIsSettledByDailyAndPostedOnce(t *testing.T) {
	fx := newFixture(t, dailies.Queens)
	if err := muxtest.Run(fx.m, fx.rec, click("ann", customid.DailyPlay.Build("guild", fx.day))); err != nil {
		t.Fatal(err)
	}
	// The game ends solved, and the process dies before the attempt is
	// settled.
	g := fx.store.Load(first)
	g.Status = storage.StatusFinished
	if _, err := fx.store.FinishGame(context.Background(), g, storage.Result{Winner: 0, MovesUsed: 8}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := muxtest.Run(fx.m, fx.rec, muxtest.Command(muxtest.Member("ann", 0), discordgo.EnglishUS, "daily")); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := fx.store.DailyAttempt(context.Background(), "guild", fx.day, storage.User("ann"))
	if a.Status != storage.DailySolved || a.Moves != 8 {
		t.Errorf("ann's attempt %+v, want it settled solved in 8 moves", a)
	}
	if posts := fx.out.Posts(); len(posts) != 1 {
		t.Errorf("posted %q, want the result once", posts)
	}
}

func TestAHintCountsOnTheAttemptOfItsGameOnly(t *testing.T) {
	fx := newFixture(t, dailies.Queens)
	attempt := &storage.Game{ID: "g1", Players: []storage.Player{{ID: storage.User("ann")}}, GuildID: "guild", Settings: storage.Settings{Daily: fx.day}}
	other := &storage.Game{ID: "g2", Players: []storage.Player{{ID: storage.User("bob")}}, GuildID: "guild"}
	fx.f.CountHint(context.Background(), attempt)
	fx.f.CountHint(context.Background(), other)
	list, _ := fx.store.DailyAttempts(context.Background(), "guild", fx.day)
	if len(list) != 1 || list[0].Player.ID != storage.User("ann") || list[0].Hints != 1 {
		t.Errorf("attempts %+v, want ann's alone with one hint", list)
	}
}

func TestARecorderSettlesTheAttemptOfADailyGameItFinishes(t *testing.T) {
	fx := newFixture(t, dailies.Queens)
	rec := daily.Recorder(fx.store, slog.New(slog.DiscardHandler))
	g := fx.attemptGame(t, "ann")
	g.Status = storage.StatusAbandoned
	if _, err := rec.FinishGame(context.Background(), g, storage.Result{Winner: storage.Nobody, Outcome: storage.GaveUp, MovesUsed: 3}); err != nil {
		t.Fatal(err)
	}
	a, err := fx.store.DailyAttempt(context.Background(), "guild", fx.day, storage.User("ann"))
	if err != nil || a.Status != storage.DailyGaveUp || a.GameID != g.ID || a.Moves != 3 {
		t.Errorf("ann's attempt %+v (%v), want it given up with %s's 3 moves", a, err, g.ID)
	}
	// The attempt has ended: its ErrGameOver is no failure of the game's,
	// another of ann's games of the day (a second Play's, left by a
	// crash) that ends.
	again := fx.attemptGame(t, "ann")
	again.Status = storage.StatusAbandoned
	if _, err := rec.FinishGame(context.Background(), again, storage.Result{Winner: storage.Nobody, Outcome: storage.GaveUp}); err != nil {
		t.Errorf("finishing another game of the ended attempt: %v, want the game's own answer, nil", err)
	}
}

// TestForgedPracticeClicksShowNoDaily forges the practice buttons with
// the seed of the day's best-move puzzle: each is refused, shows no
// answer and no hint, and records nothing, so that the member still meets
// the day's puzzle fresh.
func TestForgedPracticeClicksShowNoDaily(t *testing.T) {
	fx := newFixture(t, dailies.Connect4)
	p := fx.puzzle(t)
	kind, seed := string(p.Kind), strconv.FormatUint(dailies.Seed(key, fx.day, "guild"), 10)
	for _, id := range []string{
		customid.PracticeGiveUp.Build(kind, seed),
		customid.PracticeHint.Build(kind, seed, "1"),
		customid.PracticeMove.Build(kind, seed, p.Answer),
	} {
		err := muxtest.Run(fx.m, fx.rec, click("carol", id))
		if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "out of date") {
			t.Errorf("a forged %s: %q, want it refused as out of date", id, text)
		}
	}
	if n := len(fx.rec.Responses()); n != 0 {
		t.Errorf("the forged clicks were answered %d times", n)
	}
	if list, _ := fx.store.DailyAttempts(context.Background(), "guild", fx.day); len(list) != 0 {
		t.Errorf("the forged clicks left attempts %+v", list)
	}
}
