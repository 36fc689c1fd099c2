package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/bot/scheduler"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
)

// These tests run handlers through onInteraction and the game seam with a
// recorder in place of Discord: no stand-in, no gateway, no workers. The
// store is a real bbolt file, whose calls are recorded in the same log as
// the answers, so a test can tell what happened in which order.

// callLog is the ordered record of a unit test's store calls and answers.
type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *callLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, fmt.Sprintf(format, args...))
}

func (l *callLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = nil
}

func (l *callLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.calls)
}

// recorder is a responder that records every answer instead of sending it.
type recorder struct {
	log       *callLog
	mu        sync.Mutex
	responses []*discordgo.InteractionResponse
}

func (r *recorder) InteractionRespond(_ *discordgo.Interaction, resp *discordgo.InteractionResponse, _ ...discordgo.RequestOption) error {
	r.log.add("respond %d", resp.Type)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.responses = append(r.responses, resp)
	return nil
}

func (r *recorder) InteractionResponse(*discordgo.Interaction, ...discordgo.RequestOption) (*discordgo.Message, error) {
	r.log.add("get @original")
	return &discordgo.Message{ID: "original"}, nil
}

func (r *recorder) InteractionResponseEdit(*discordgo.Interaction, *discordgo.WebhookEdit, ...discordgo.RequestOption) (*discordgo.Message, error) {
	r.log.add("edit @original")
	return &discordgo.Message{ID: "original"}, nil
}

func (r *recorder) FollowupMessageCreate(*discordgo.Interaction, bool, *discordgo.WebhookParams, ...discordgo.RequestOption) (*discordgo.Message, error) {
	r.log.add("follow up")
	return &discordgo.Message{ID: "followup"}, nil
}

// only returns the one response recorded.
func (r *recorder) only(t *testing.T) *discordgo.InteractionResponse {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.responses) != 1 {
		t.Fatalf("%d responses, want 1: %v", len(r.responses), r.responses)
	}
	return r.responses[0]
}

// loggedStore records the calls of the store it wraps.
type loggedStore struct {
	storage.Store
	log *callLog
}

func (s loggedStore) Game(ctx context.Context, id storage.GameID) (*storage.Game, error) {
	s.log.add("store Game")
	return s.Store.Game(ctx, id)
}

func (s loggedStore) UpdateGame(ctx context.Context, g *storage.Game) error {
	s.log.add("store UpdateGame")
	return s.Store.UpdateGame(ctx, g)
}

func (s loggedStore) FinishGame(ctx context.Context, g *storage.Game, res storage.Result) ([]storage.RatingChange, error) {
	s.log.add("store FinishGame")
	return s.Store.FinishGame(ctx, g, res)
}

func (s loggedStore) GuildSettings(ctx context.Context, guildID string) (storage.GuildSettings, error) {
	s.log.add("store GuildSettings")
	return s.Store.GuildSettings(ctx, guildID)
}

// unit is a bot for handler unit tests: never run, answering into rec,
// its store's calls logged in log once setup is done.
type unit struct {
	b     *Bot
	rec   *recorder
	jobs  *submitted
	log   *callLog
	store storage.Store // unlogged, for setup and checks
}

func newUnit(t *testing.T) *unit {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "gambit.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	b, err := New(Config{Token: "unit-test", AI: AIConfig{SearchThreads: 1}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, st)
	if err != nil {
		t.Fatal(err)
	}
	log := &callLog{}
	rec := &recorder{log: log}
	b.discord.answers = rec
	b.useStore(loggedStore{Store: st, log: log})
	jobs := &submitted{}
	b.ai.Scheduler, b.ai.turns = jobs, poolTurns{jobs}
	return &unit{b: b, rec: rec, jobs: jobs, log: log, store: st}
}

// game stores an active game of kind between alice and opponent, alice to
// move, shown on the board message "board".
func (u *unit) game(t *testing.T, kind storage.Kind, opponent storage.Player) *storage.Game {
	t.Helper()
	ctx := context.Background()
	g := &storage.Game{
		Kind: kind, Players: []storage.Player{{ID: storage.User("alice"), Name: "alice"}, opponent},
		GuildID: "guild", ChannelID: "channel",
	}
	if err := u.b.games.begin(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := u.store.CreateGame(ctx, g, storage.Limits{}); err != nil {
		t.Fatal(err)
	}
	g.MessageID = "board"
	if err := u.store.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	u.log.reset() // the test's calls only
	return g
}

// click delivers a click by user on the component customID of message.
func (u *unit) click(user, message, customID string) {
	u.b.onInteraction(&discordgo.Interaction{
		ID: "ix-" + customID, AppID: "app", Token: "token-" + customID, Type: discordgo.InteractionMessageComponent,
		GuildID: "guild", ChannelID: "channel",
		Member:  &discordgo.Member{User: &discordgo.User{ID: user, Username: user}},
		Message: &discordgo.Message{ID: message, ChannelID: "channel"},
		Data:    discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: discordgo.ButtonComponent},
	}, nil)
}

// firstMove returns a legal move of g in its notation.
func firstMove(t *testing.T, g *storage.Game) string {
	t.Helper()
	pos, err := position(g)
	if err != nil {
		t.Fatal(err)
	}
	return pos.FormatMove(pos.Moves(nil)[0])
}

// submitted is a scheduler that records the jobs submitted to it and runs
// none: a handler's unit test sees what the flows hand over at the seam.
type submitted struct {
	mu   sync.Mutex
	jobs []scheduler.Job
}

func (s *submitted) Submit(_ context.Context, j scheduler.Job) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.jobs = append(s.jobs, j)
	return 0, true
}

// queued returns the AI turns submitted so far.
func (u *unit) queued() []*aiJob {
	u.jobs.mu.Lock()
	defer u.jobs.mu.Unlock()
	var jobs []*aiJob
	for _, j := range u.jobs.jobs {
		jobs = append(jobs, j.(*aiJob))
	}
	return jobs
}

func released(j *aiJob) bool {
	select {
	case <-j.ready:
		return true
	default:
		return false
	}
}

func TestAClickOnAnOldBoardIsRefusedWithoutWritingTheStore(t *testing.T) {
	u := newUnit(t)
	g := u.game(t, "tictactoe", storage.Player{ID: storage.User("bob"), Name: "bob"})
	// A board re-posted since: the click comes from the old message.
	u.click("alice", "old-board", customid.Move.Build(string(g.ID), render.Ply(g), firstMove(t, g)))

	if got, want := u.log.all(), []string{"store Game", fmt.Sprintf("respond %d", discordgo.InteractionResponseChannelMessageWithSource)}; !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q: the load, then the refusal", got, want)
	}
	resp := u.rec.only(t)
	if resp.Data.Flags != discordgo.MessageFlagsEphemeral || !strings.Contains(resp.Data.Content, "This board is out of date") {
		t.Errorf("answer %+v, want the ephemeral out-of-date refusal", resp.Data)
	}
	after, err := u.store.Game(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != g.Version || len(after.Moves) != 0 {
		t.Errorf("game changed to version %d with %d moves; want version %d unplayed", after.Version, len(after.Moves), g.Version)
	}
}

func TestAMoveIsCommittedBeforeItsAnswerUpdatesTheBoard(t *testing.T) {
	u := newUnit(t)
	g := u.game(t, "tictactoe", storage.Player{ID: storage.User("bob"), Name: "bob"})
	u.click("alice", "board", customid.Move.Build(string(g.ID), render.Ply(g), firstMove(t, g)))

	calls := u.log.all()
	commit := slices.Index(calls, "store UpdateGame")
	answer := slices.Index(calls, fmt.Sprintf("respond %d", discordgo.InteractionResponseUpdateMessage))
	if commit < 0 || answer < 0 || commit > answer {
		t.Errorf("calls %q: want the commit (UpdateGame) before the answer updating the board", calls)
	}
	after, err := u.store.Game(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Moves) != 1 || after.Turn != 1 {
		t.Fatalf("stored game has %d moves, turn %d; want the move played and bob to move", len(after.Moves), after.Turn)
	}
	raw, err := json.Marshal(u.rec.only(t).Data.Components)
	if err != nil {
		t.Fatal(err)
	}
	if next := customid.Move.Build(string(g.ID), render.Ply(after), "x"); !strings.Contains(string(raw), strings.TrimSuffix(next, "x")) {
		t.Errorf("the updated board has no move buttons for ply %s: %s", render.Ply(after), raw)
	}
}

func TestAMoveAgainstTheAIReleasesItsTurnWithTheBoardsToken(t *testing.T) {
	u := newUnit(t)
	g := u.game(t, "tictactoe", storage.Player{ID: storage.AI("random"), Name: "random"})
	u.click("alice", "board", customid.Move.Build(string(g.ID), render.Ply(g), firstMove(t, g)))

	jobs := u.queued()
	if len(jobs) != 1 {
		t.Fatalf("%d AI turns queued, want 1", len(jobs))
	}
	if !released(jobs[0]) {
		t.Fatal("the AI turn was not released after the board was answered: its worker would wait forever")
	}
	if tok := jobs[0].tok; tok.token != "token-"+customid.Move.Build(string(g.ID), "0", firstMove(t, g)) || !tok.board || tok.message != "board" {
		t.Errorf("worker's token %+v, want the click's token editing the board message", tok)
	}
}

// TestAnAITurnIsReleasedWhateverItsHandlerDoes queues an AI turn from a
// handler that then fails or panics: the worker must be let go all the
// same, with no token (the board was not shown by this interaction).
func TestAnAITurnIsReleasedWhateverItsHandlerDoes(t *testing.T) {
	const pattern customid.Pattern = "v1/test-ai/{game}/{end}"
	for _, end := range []string{"error", "usererror", "panic", "ok"} {
		t.Run(end, func(t *testing.T) {
			u := newUnit(t)
			g := u.game(t, "tictactoe", storage.Player{ID: storage.AI("random"), Name: "random"})
			g.Turn = 1 // the AI to move
			if err := u.store.UpdateGame(context.Background(), g); err != nil {
				t.Fatal(err)
			}
			mux.NewGroup(u.b.intake.mux, u.b.withGame).Component(pattern, func(ctx context.Context, ix *component, g *storage.Game) error {
				if u.b.queueAI(ctx, ix.Interaction, g) == nil {
					t.Error("no AI turn queued for a game awaiting the AI")
				}
				switch ix.Params["end"] {
				case "error":
					return errors.New("something of ours broke")
				case "usererror":
					return mux.Err("error.game_over")
				case "panic":
					panic("a handler broke after queueing the AI")
				}
				return nil
			})
			u.click("alice", "board", pattern.Build(string(g.ID), end))

			jobs := u.queued()
			if len(jobs) != 1 {
				t.Fatalf("%d AI turns queued, want 1", len(jobs))
			}
			if !released(jobs[0]) {
				t.Fatal("the AI turn was not released: its worker would wait forever")
			}
			if jobs[0].tok != (webhookToken{}) {
				t.Errorf("worker's token %+v, want none: no answer showed the board", jobs[0].tok)
			}
			if end != "ok" {
				if resp := u.rec.only(t); resp.Data.Flags != discordgo.MessageFlagsEphemeral {
					t.Errorf("answer %+v, want an ephemeral reply", resp.Data)
				}
			}
		})
	}
}

// TestAHandlerCannotTakeASecondGamesLock checks the rule that code holding
// one game's lock never takes another's, whether or not the two games
// share a stripe: the attempt is refused as a panic (answered with an
// apology), never left to deadlock, and the first lock is released.
func TestAHandlerCannotTakeASecondGamesLock(t *testing.T) {
	const pattern customid.Pattern = "v1/test-nested/{game}"
	u := newUnit(t)
	g := u.game(t, "tictactoe", storage.Player{ID: storage.User("bob"), Name: "bob"})
	ran := false
	mux.NewGroup(u.b.intake.mux, u.b.withGame).Component(pattern, func(ctx context.Context, ix *component, _ *storage.Game) error {
		return u.b.holdGame(ctx, ix.Interaction, "other", func() error {
			ran = true
			return nil
		})
	})
	u.click("alice", "board", pattern.Build(string(g.ID)))

	if ran {
		t.Error("the second lock was taken")
	}
	if resp := u.rec.only(t); !strings.Contains(resp.Data.Content, "something broke on our side") {
		t.Errorf("answer %q, want the apology for a panic", resp.Data.Content)
	}
	// The game's lock was released: a click on it goes through.
	u.click("alice", "board", customid.Move.Build(string(g.ID), render.Ply(g), firstMove(t, g)))
	if after, err := u.store.Game(context.Background(), g.ID); err != nil || len(after.Moves) != 1 {
		t.Errorf("after the refused lock, a move was not played: %v", err)
	}
}

// racingStore is a store on which another replica changes a game once,
// between this bot's load of it and its first write: before that write,
// the other replica's change (other) is committed.
type racingStore struct {
	loggedStore
	once  sync.Once
	other func()
}

func (s *racingStore) UpdateGame(ctx context.Context, g *storage.Game) error {
	s.once.Do(s.other)
	return s.loggedStore.UpdateGame(ctx, g)
}

// TestAClickRacingTheSaveOfItsBoardIsPlayed is the race of two replicas:
// replica A has shown a new board and is saving its message ID when the
// first click on that board reaches replica B, which loaded the game
// before the save. B's write loses the version check; the seam reloads
// the game and runs the handler again, so the move is played rather than
// refused with "the game changed at the same moment".
func TestAClickRacingTheSaveOfItsBoardIsPlayed(t *testing.T) {
	u := newUnit(t)
	g := u.game(t, "tictactoe", storage.Player{ID: storage.User("bob"), Name: "bob"})
	ctx := context.Background()
	g.MessageID = "" // shown, its ID not saved yet
	if err := u.store.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	u.b.useStore(&racingStore{loggedStore: loggedStore{Store: u.store, log: u.log}, other: func() {
		a, err := u.store.Game(ctx, g.ID)
		if err != nil {
			t.Error(err)
			return
		}
		a.MessageID = "board" // replica A saves the board it showed
		if err := u.store.UpdateGame(ctx, a); err != nil {
			t.Error(err)
		}
		u.log.add("replica A saves the board")
	}})
	u.log.reset()
	u.click("alice", "board", customid.Move.Build(string(g.ID), render.Ply(g), firstMove(t, g)))

	resp := u.rec.only(t)
	if resp.Type != discordgo.InteractionResponseUpdateMessage {
		t.Errorf("answer %d %q, want the board updated with the move (%d); calls %q",
			resp.Type, resp.Data.Content, discordgo.InteractionResponseUpdateMessage, u.log.all())
	}
	after, err := u.store.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Moves) != 1 || after.MessageID != "board" {
		t.Errorf("stored game has moves %v and board %q; want the move played on board", after.Moves, after.MessageID)
	}
}

// conflictingStore refuses every update as stale.
type conflictingStore struct{ loggedStore }

func (s conflictingStore) UpdateGame(ctx context.Context, g *storage.Game) error {
	s.log.add("store UpdateGame")
	return fmt.Errorf("test: update game %s: %w", g.ID, storage.ErrConflict)
}

// TestTheSeamRetriesAConflictABoundedNumberOfTimes: a game that changes
// under every attempt gets the race's answer after a few reloads, not an
// endless loop.
func TestTheSeamRetriesAConflictABoundedNumberOfTimes(t *testing.T) {
	u := newUnit(t)
	g := u.game(t, "tictactoe", storage.Player{ID: storage.User("bob"), Name: "bob"})
	u.b.useStore(conflictingStore{loggedStore{Store: u.store, log: u.log}})
	u.click("alice", "board", customid.Move.Build(string(g.ID), render.Ply(g), firstMove(t, g)))

	resp := u.rec.only(t)
	if resp.Data.Flags != discordgo.MessageFlagsEphemeral || !strings.Contains(resp.Data.Content, "changed while you moved") {
		t.Errorf("answer %+v, want the ephemeral answer to a lost race", resp.Data)
	}
	loads := 0
	for _, c := range u.log.all() {
		if c == "store Game" {
			loads++
		}
	}
	if loads != 1+conflictRetries {
		t.Errorf("the game was loaded %d times, want %d: the first try and %d retries; calls %q", loads, 1+conflictRetries, conflictRetries, u.log.all())
	}
}
