package review_test

import (
	"bytes"
	"context"
	"image/gif"
	"image/png"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/flows/internal/flowtest"
	"github.com/gambitbot/gambit/bot/flows/review"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
	gamereview "github.com/gambitbot/gambit/strategies/review"
)

// These tests construct the flow alone, over fakes and the flows' test
// store (flowtest): no bot, no stand-in. The wire and what crosses processes are tested in package
// bot against the stand-in: the Review button under a finished board
// (TestReviewIsDeferredMadeOnceAndOpenToAll), replicas sharing a store
// (TestAReplicaRefusesAMembersSecondReview,
// TestTheServersReviewRateHoldsAcrossReplicas), a worker of the queue
// (TestReviewsGoToTheQueueAndAWorkerMakesThem), the shutdown
// (TestShutdownStopsAReviewInTheMaking) and the AI's threads beside the
// reviews' (TestReviewsLeaveTheAIASearchThread).

// clock is a manual clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// store is the flows' test store (flowtest), on the test's clock, which
// can lose the reviews it kept (forget), as one restored from a backup
// taken before them would.
type store struct {
	*flowtest.Store

	mu        sync.Mutex
	games     []storage.GameID
	forgotten map[storage.GameID]bool // reviews lost, until kept again
}

func newStore(t *testing.T, c *clock) *store {
	return &store{Store: flowtest.New(t, c.Now), forgotten: map[storage.GameID]bool{}}
}

// add puts games into the store, each given the next ID: a test adds its
// games once.
func (s *store) add(games ...*storage.Game) {
	s.Seed(nil, games...)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range games {
		s.games = append(s.games, g.ID)
	}
}

func (s *store) Review(ctx context.Context, id storage.GameID, version uint64) (*storage.Review, error) {
	s.mu.Lock()
	lost := s.forgotten[id]
	s.mu.Unlock()
	if lost {
		return nil, storage.ErrNotFound
	}
	return s.Store.Review(ctx, id, version)
}

func (s *store) PutReview(ctx context.Context, r *storage.Review) error {
	if err := s.Store.PutReview(ctx, r); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.forgotten, r.Game)
	return nil
}

// kept returns the review kept of game id, nil if none.
func (s *store) kept(id storage.GameID) *storage.Review {
	r, err := s.Review(context.Background(), id, s.Load(id).Version)
	if err != nil {
		return nil
	}
	return r
}

// forget drops the reviews kept.
func (s *store) forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range s.games {
		s.forgotten[id] = true
	}
}

// held returns the claims standing under prefix.
func (s *store) held(t *testing.T, prefix string) map[string]string {
	t.Helper()
	c, err := s.Claims(context.Background(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// keepClaim is the bot's KeepClaim without the renewals: the test's claims
// live long enough.
func (s *store) keepClaim(ctx context.Context, key, owner, _ string, _ ...any) (context.Context, func(), bool, error) {
	if ok, err := s.Claim(ctx, key, owner, time.Minute); !ok || err != nil {
		return nil, nil, false, err
	}
	claimed, lose := context.WithCancel(ctx)
	return claimed, func() {
		lose()
		_ = s.Release(context.WithoutCancel(ctx), key, owner)
	}, true, nil
}

// analyst reviews within a small node budget, counting the analyses; a
// test may hold each one (hold), script its progress or make it fail.
type analyst struct {
	count   atomic.Int32
	reached chan storage.GameID // if not nil, told of each analysis as it starts
	hold    chan struct{}       // if not nil, each analysis waits for a value or its context's end
	script  func(progress func(done, total int))
	err     error
}

func (a *analyst) Analyze(ctx context.Context, g *storage.Game, gm *games.Game, start engine.Position, progress func(done, total int)) (*gamereview.Review, error) {
	a.count.Add(1)
	if a.reached != nil {
		a.reached <- g.ID
	}
	if a.hold != nil {
		select {
		case <-a.hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if a.err != nil {
		return nil, a.err
	}
	if a.script != nil {
		a.script(progress)
	}
	return review.Minimax{Budget: &gamereview.Budget{Nodes: 20_000, Threads: 1, HashMiB: 1}}.Analyze(ctx, g, gm, start, nil)
}

// recorder records the answers to interactions by their tokens.
type recorder struct {
	*muxtest.Recorder // the bookkeeping of what goes out

	mu        sync.Mutex
	changed   *sync.Cond
	responses map[string][]*discordgo.InteractionResponse
	edits     map[string][]*discordgo.WebhookEdit
}

func newRecorder() *recorder {
	r := &recorder{Recorder: &muxtest.Recorder{}, responses: map[string][]*discordgo.InteractionResponse{}, edits: map[string][]*discordgo.WebhookEdit{}}
	r.changed = sync.NewCond(&r.mu)
	return r
}

func (r *recorder) InteractionRespond(i *discordgo.Interaction, resp *discordgo.InteractionResponse, _ ...discordgo.RequestOption) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.responses[i.Token] = append(r.responses[i.Token], resp)
	return nil
}

func (r *recorder) InteractionResponseEdit(i *discordgo.Interaction, e *discordgo.WebhookEdit, _ ...discordgo.RequestOption) (*discordgo.Message, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.edits[i.Token] = append(r.edits[i.Token], e)
	r.changed.Broadcast()
	return &discordgo.Message{ID: "original"}, nil
}

// answer waits for the answer to the interaction of token that follows
// its "thinking…" and its progress: the review, or what went wrong.
func (r *recorder) answer(token string) *discordgo.WebhookEdit {
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		for _, e := range r.edits[token] {
			if !isProgress(e) {
				return e
			}
		}
		r.changed.Wait()
	}
}

// progress returns the progress edits of the answer of token so far.
func (r *recorder) progress(token string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.edits[token] {
		if isProgress(e) {
			out = append(out, *e.Content)
		}
	}
	return out
}

func (r *recorder) answered(token string) ([]*discordgo.InteractionResponse, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.responses[token], len(r.edits[token])
}

func isProgress(e *discordgo.WebhookEdit) bool {
	return e.Content != nil && strings.Contains(*e.Content, "Reviewing the game")
}

// env is a review flow over fakes, on a Mux of its own.
type env struct {
	t       *testing.T
	clock   *clock
	store   *store
	rec     *recorder
	analyst *analyst
	flow    *review.Flow
	m       *mux.Mux
	n       atomic.Int32 // interactions sent
}

// newEnv starts a flow with a rate of 20 reviews an hour, two threads, a
// progress edit every 5 s and sketches for pictures; change may change
// its Config.
func newEnv(t *testing.T, change ...func(*review.Config)) *env {
	c := &clock{t: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	e := &env{t: t, clock: c, store: newStore(t, c), rec: newRecorder(), analyst: &analyst{}, m: mux.New()}
	cfg := e.config()
	for _, f := range change {
		f(&cfg)
	}
	e.flow = review.New(e.store, cfg)
	e.flow.Routes(e.m)
	wait := e.flow.Start()
	t.Cleanup(func() {
		e.flow.Stop()
		wait()
	})
	return e
}

// config is the Config of a flow of e, in this process or a worker's.
func (e *env) config() review.Config {
	return review.Config{
		Rate: 20, Window: time.Hour, ProgressInterval: 5 * time.Second, Threads: 2,
		Analyst: e.analyst, Draw: sketch, KeepClaim: e.store.keepClaim, Answers: e.rec, Outgoing: e.rec,
		Instance: "here", Now: e.clock.Now, Log: slog.New(slog.DiscardHandler),
	}
}

// sketch stands for the pictures of a review (review.Pictures, whose
// drawing the first test checks): a replay, and the turning point if
// there is one.
func sketch(_ *games.Game, _ engine.Position, moves []string, _ *gamereview.Review, turning int) (render.ReviewPictures, error) {
	pics := render.ReviewPictures{Replay: []byte(strings.Join(moves, " "))}
	if turning >= 0 {
		pics.Turning = []byte(moves[turning])
	}
	return pics, nil
}

// send handles raw, made unique, and returns its token and what the
// handler returned.
func (e *env) send(raw *discordgo.Interaction) (string, error) {
	n := e.n.Add(1)
	raw.ID, raw.Token = raw.ID+"-"+strconv.Itoa(int(n)), raw.Token+"-"+strconv.Itoa(int(n))
	ix := mux.NewInteraction(raw, e.rec, e.rec, time.Now(), e.clock.Now(), nil)
	return raw.Token, e.m.Handler()(context.Background(), ix)
}

// ask sends user's /review game:id in guild's channel.
func (e *env) ask(user, guild, channel string, id storage.GameID) (string, error) {
	raw := muxtest.Command(muxtest.Member(user, 0), discordgo.EnglishUS, "review", muxtest.Option("game", discordgo.ApplicationCommandOptionString, string(id)))
	raw.GuildID, raw.ChannelID = guild, channel
	return e.send(raw)
}

// review asks as ask does and returns the answer that follows the
// deferred one, failing the test on a refusal.
func (e *env) review(user, guild, channel string, id storage.GameID) *discordgo.WebhookEdit {
	e.t.Helper()
	token, err := e.ask(user, guild, channel, id)
	if err != nil {
		e.t.Fatalf("%s's review of %s: %v", user, id, err)
	}
	e.deferred(token)
	return e.rec.answer(token)
}

// deferred checks that token's interaction was answered with a private
// "thinking…".
func (e *env) deferred(token string) {
	e.t.Helper()
	resp, _ := e.rec.answered(token)
	if len(resp) != 1 || resp[0].Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || resp[0].Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		e.t.Fatalf("answered %+v, want one private deferred answer", resp)
	}
}

// refused checks that err is the member's refusal saying want, and that
// nothing was answered.
func (e *env) refused(token string, err error, want string) {
	e.t.Helper()
	if text := muxtest.UserError(e.t, err, i18n.English); !strings.Contains(text, want) {
		e.t.Errorf("refused %q, want %q", text, want)
	}
	if resp, edits := e.rec.answered(token); len(resp)+edits != 0 {
		e.t.Errorf("a refusal answered %d times and edited %d: the bot's chain answers it", len(resp), edits)
	}
}

// ticTacToe is a finished Tic-Tac-Toe game in guild's channel in which a
// (x) beat c: c's edge at move 2 loses (x forks), the turning point. It
// gets its ID once added to the store.
func ticTacToe(t *testing.T, guild, channel, a, c string) *storage.Game {
	t.Helper()
	moves := []string{"5", "2", "1", "9", "7", "3", "4"}
	gm, err := catalog.Lookup("tictactoe")
	if err != nil {
		t.Fatal(err)
	}
	pos, err := gm.New(games.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range moves {
		m, err := pos.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		pos.Play(m)
	}
	return &storage.Game{
		Kind: "tictactoe", Status: storage.StatusFinished, Version: 9, GuildID: guild, ChannelID: channel,
		Players: []storage.Player{{ID: storage.User(a), Name: a}, {ID: storage.User(c), Name: c}},
		Moves:   moves, Position: pos.String(), Turn: 1, Result: &storage.Result{Winner: 0},
	}
}

// shown checks that e is ticTacToe's review: the turning point (the
// edge, move 2, a blunder with a corner best), the moves labelled, and the
// pictures of the turning point and the replay attached.
func shown(t *testing.T, e *discordgo.WebhookEdit) {
	t.Helper()
	if e.Embeds == nil || len(*e.Embeds) == 0 {
		t.Fatalf("the answer %q has no review", *e.Content)
	}
	embed := (*e.Embeds)[0]
	text := embed.Title + "\n" + embed.Description
	for _, want := range []string{"Review", "Tic-Tac-Toe", "**Turning point:** move 2", "played **2**, a blunder; the best was **",
		"1. ❌ **5** — best", "2. 🔵 **2** — blunder, best **"} {
		if !strings.Contains(text, want) {
			t.Errorf("the review lacks %q:\n%s", want, text)
		}
	}
	var names []string
	for _, f := range e.Files {
		names = append(names, f.Name)
	}
	if !slices.Contains(names, render.TurningName) || !slices.Contains(names, render.ReplayName) {
		t.Errorf("attached %v, want the turning point and the replay", names)
	}
}

// pictured checks the pictures of e, ticTacToe's review: the turning
// point, and a replay of 8 frames.
func pictured(t *testing.T, e *discordgo.WebhookEdit) {
	t.Helper()
	files := map[string][]byte{}
	for _, f := range e.Files {
		data, err := io.ReadAll(f.Reader)
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name] = data
	}
	if _, err := png.Decode(bytes.NewReader(files[render.TurningName])); err != nil {
		t.Errorf("the turning point's picture: %v", err)
	}
	if anim, err := gif.DecodeAll(bytes.NewReader(files[render.ReplayName])); err != nil || len(anim.Image) != 8 {
		t.Errorf("the replay: %v; want 8 frames", err)
	}
}

// says checks that e is a message saying want, without a review.
func says(t *testing.T, e *discordgo.WebhookEdit, want string) {
	t.Helper()
	if e.Content == nil || !strings.Contains(*e.Content, want) || e.Embeds != nil && len(*e.Embeds) != 0 {
		t.Errorf("answered %v with %v, want %q and no review", e.Content, e.Embeds, want)
	}
}
