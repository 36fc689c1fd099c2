package puzzles_test

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/internal/flowtest"
	"github.com/gambitbot/gambit/bot/flows/puzzles"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
	solvers "github.com/gambitbot/gambit/strategies/puzzles"
)

// These tests construct the flow alone, over fakes and the flows' test
// store (flowtest): no bot, no stand-in, no game lock (the game routes'
// wrap is the fake's), the solvers run by the test instead of the AI
// workers. The wire is tested in package
// bot against the stand-in (TestPuzzleSolvedWithHintAndButtons,
// TestPuzzleSolveCompareAndGiveUp, the Compare tests of compare_test.go).

// started is one solo game the flow asked the fake Solo to start.
type started struct {
	game string
	pos  engine.Position
	day  string
}

// fakeSolo records the solo games started.
type fakeSolo struct{ started []started }

func (s *fakeSolo) Start(_ context.Context, _ *mux.Interaction, gm *games.Game, pos engine.Position, day string, _ func(*storage.Game) error) error {
	s.started = append(s.started, started{game: gm.Name, pos: pos, day: day})
	return nil
}

// fakeBoards records the notices of the boards shown.
type fakeBoards struct{ shown []string }

func (b *fakeBoards) OnBoard(ix *mux.Interaction, g *storage.Game) bool {
	return ix.Message != nil && ix.Message.ID == g.MessageID
}

func (b *fakeBoards) View(g *storage.Game, _ engine.Position, _ *render.Thinking, _ []storage.RatingChange, notice string) render.Message {
	return render.Message{Content: string(g.Status) + ": " + notice}
}

func (b *fakeBoards) Show(_ context.Context, _ *mux.Interaction, _ *storage.Game, msg render.Message) error {
	b.shown = append(b.shown, msg.Content)
	return nil
}

func (b *fakeBoards) Lang(*storage.Game) *i18n.Localizer { return i18n.For(i18n.English) }

// fixture is the flow over fakes, its solvers queued for the test to run.
type fixture struct {
	m      *mux.Mux
	rec    *muxtest.Recorder
	store  *flowtest.Store
	solo   *fakeSolo
	boards *fakeBoards
	hinted []storage.GameID
	queued []func()
	// lowPriority, if not nil, runs the solvers' searches in place of
	// running them at once: a test holds one there.
	lowPriority func(func())
}

// newFixture returns the flow over a store holding games (given their
// IDs, the first 00000001).
func newFixture(t *testing.T, games ...*storage.Game) *fixture {
	fx := &fixture{rec: &muxtest.Recorder{}, store: flowtest.New(t, nil), solo: &fakeSolo{}, boards: &fakeBoards{}}
	fx.store.Seed(nil, games...)
	seam := func(h func(ctx context.Context, ix *mux.Component, g *storage.Game) error) mux.ComponentHandler {
		return func(ctx context.Context, ix *mux.Component) error {
			g, err := fx.store.Game(ctx, storage.GameID(ix.Params["game"]))
			if err != nil {
				return err
			}
			return h(ctx, ix, g)
		}
	}
	f := puzzles.New(fx.store, fx.solo, fx.boards, seam, puzzles.Config{
		Submit: func(_ string, run func()) bool { fx.queued = append(fx.queued, run); return true },
		Hinted: func(_ context.Context, g *storage.Game) { fx.hinted = append(fx.hinted, g.ID) },
		LowPriority: func(search func()) {
			if fx.lowPriority != nil {
				fx.lowPriority(search)
				return
			}
			search()
		},
		Now: time.Now,
		Log: slog.New(slog.DiscardHandler),
	})
	fx.m = mux.New()
	f.Routes(fx.m)
	return fx
}

// tiles returns ann's 8-puzzle in play, steps random moves from the goal.
func tiles(t *testing.T, steps int) *storage.Game {
	t.Helper()
	q, err := solvers.Walk(rand.New(rand.NewPCG(7, 0)), 3, steps)
	if err != nil {
		t.Fatal(err)
	}
	gm := solo(t, "8puzzle")
	return &storage.Game{
		Kind: storage.Kind(gm.Name), Status: storage.StatusActive, MessageID: "board",
		Players: []storage.Player{{ID: storage.User("ann"), Name: "ann"}}, Start: q.String(), Position: q.String(),
		GuildID: "guild", ChannelID: "channel",
	}
}

// solo returns the puzzle name from the catalog.
func solo(t *testing.T, name string) *games.Game {
	t.Helper()
	gm, err := catalog.Lookup(name)
	if err != nil || !gm.Solo() {
		t.Fatalf("no puzzle %s: %v", name, err)
	}
	return gm
}

// click is who's click on customID of ann's board "board".
func click(who, customID string) *discordgo.Interaction {
	raw := muxtest.Click(muxtest.Member(who, 0), discordgo.EnglishUS, customID)
	raw.AppPermissions = discordgo.PermissionAdministrator
	return raw
}

// puzzleCommand is ann's /puzzle with options (name, value pairs; n an
// integer).
func puzzleCommand(opts ...any) *discordgo.Interaction {
	var o []*discordgo.ApplicationCommandInteractionDataOption
	for i := 0; i+1 < len(opts); i += 2 {
		typ := discordgo.ApplicationCommandOptionString
		if _, ok := opts[i+1].(float64); ok {
			typ = discordgo.ApplicationCommandOptionInteger
		}
		o = append(o, muxtest.Option(opts[i].(string), typ, opts[i+1]))
	}
	raw := muxtest.Command(muxtest.Member("ann", 0), discordgo.EnglishUS, "puzzle", o...)
	raw.AppPermissions = discordgo.PermissionAdministrator
	return raw
}

func TestPuzzleDealsTheMembersOwnSoloGame(t *testing.T) {
	fx := newFixture(t)
	if err := muxtest.Run(fx.m, fx.rec, puzzleCommand("game", "nqueens", "n", 6.0)); err != nil {
		t.Fatal(err)
	}
	if err := muxtest.Run(fx.m, fx.rec, puzzleCommand("game", "8puzzle", "difficulty", "easy")); err != nil {
		t.Fatal(err)
	}
	if len(fx.solo.started) != 2 {
		t.Fatalf("started %v, want the two puzzles", fx.solo.started)
	}
	queens, tiles := fx.solo.started[0], fx.solo.started[1]
	if queens.game != "nqueens" || queens.day != "" || len(solo(t, "nqueens").Look.Board(queens.pos, nil).Rows) != 6 {
		t.Errorf("N-Queens started as %+v, want a 6×6 board that is no daily attempt", queens)
	}
	if tiles.game != "8puzzle" || tiles.day != "" || tiles.pos.Terminal() {
		t.Errorf("the 8-puzzle started as %+v, want a scrambled board that is no daily attempt", tiles)
	}
	if len(fx.rec.Responses()) != 0 {
		t.Errorf("the flow answered %d times itself; the board's start answers", len(fx.rec.Responses()))
	}
}

func TestPuzzleRefusesOptionsThatDoNotFitTheGame(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  []any
		want  string
		perms int64
	}{
		{"a channel where the bot may not keep a board", []any{"game", "8puzzle"}, "missing these permissions", discordgo.PermissionViewChannel},
		{"no such puzzle", []any{"game", "chess"}, "Unknown puzzle", 0},
		{"n on sliding tiles", []any{"game", "8puzzle", "n", 6.0}, "N-Queens only", 0},
		{"n too large", []any{"game", "nqueens", "n", 13.0}, "between 4 and 12", 0},
		{"a difficulty on N-Queens", []any{"game", "nqueens", "difficulty", "hard"}, "sliding-tile puzzles", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFixture(t)
			raw := puzzleCommand(tc.opts...)
			if tc.perms != 0 {
				raw.AppPermissions = tc.perms
			}
			err := muxtest.Run(fx.m, fx.rec, raw)
			if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, tc.want) {
				t.Errorf("refusal %q, want it to say %q", text, tc.want)
			}
			if len(fx.solo.started) != 0 {
				t.Errorf("a refused /puzzle started %v", fx.solo.started)
			}
		})
	}
}

func TestHintCountsOnTheGameAndTheDailyAttemptAndShowsTheMovePrivately(t *testing.T) {
	g := tiles(t, 6)
	fx := newFixture(t, g)
	if err := muxtest.Run(fx.m, fx.rec, click("ann", customid.Hint.Build(string(g.ID), render.Ply(g)))); err != nil {
		t.Fatal(err)
	}
	answer := fx.rec.Only(t)
	if answer.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(answer.Data.Content, "Next:") {
		t.Errorf("the hint answered %+v, want the next move shown to ann alone", answer.Data)
	}
	if got := fx.store.Load(g.ID); got.Hints != 1 || len(fx.hinted) != 1 {
		t.Errorf("hints %d on the game, %v told; want one hint counted and told", got.Hints, fx.hinted)
	}
}

func TestSolveEndsThePuzzleSolvedByGambit(t *testing.T) {
	g := tiles(t, 6)
	g.Moves = []string{"u"} // one move of ann's own, whatever it was
	fx := newFixture(t, g)
	if err := muxtest.Run(fx.m, fx.rec, click("ann", customid.Solve.Build(string(g.ID), render.Ply(g)))); err != nil {
		t.Fatal(err)
	}
	got := fx.store.Load(g.ID)
	if got.Version != g.Version+1 || got.Status != storage.StatusAbandoned || got.Result.Outcome != storage.SolvedByGambit {
		t.Fatalf("stored %s with %+v at version %d, want the game finished solved by Gambit in one change", got.Status, got.Result, got.Version)
	}
	if got.Result.MovesUsed != 1 {
		t.Errorf("moves used %d, want ann's own 1", got.Result.MovesUsed)
	}
	if len(fx.boards.shown) != 1 || !strings.Contains(fx.boards.shown[0], "Gambit solved it") {
		t.Errorf("boards shown %q, want the board with Gambit's solution", fx.boards.shown)
	}
}

func TestPuzzleButtonsRefuseOthersAndOutdatedBoards(t *testing.T) {
	for _, tc := range []struct {
		name, who, ply, message string
		want                    string
	}{
		{"another member", "bob", "", "board", "<@ann>"},
		{"an older board", "ann", "9", "board", "out of date"},
		{"a forged custom ID elsewhere", "ann", "", "elsewhere", "out of date"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := tiles(t, 6)
			fx := newFixture(t, g)
			ply := tc.ply
			if ply == "" {
				ply = render.Ply(g)
			}
			for _, id := range []string{customid.Hint.Build(string(g.ID), ply), customid.Solve.Build(string(g.ID), ply), customid.Compare.Build(string(g.ID), ply)} {
				raw := click(tc.who, id)
				raw.Message.ID = tc.message
				err := muxtest.Run(fx.m, fx.rec, raw)
				if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, tc.want) {
					t.Errorf("%s: refusal %q, want it to say %q", id, text, tc.want)
				}
			}
			if v := fx.store.Load(g.ID).Version; v != g.Version || len(fx.hinted) != 0 || len(fx.queued) != 0 || len(fx.rec.Responses()) != 0 {
				t.Errorf("refused clicks changed the game to version %d, hinted %v, queued %d solvers, answered %d times",
					v, fx.hinted, len(fx.queued), len(fx.rec.Responses()))
			}
		})
	}
}

func TestCompareAnswersFirstRunsOnePerPuzzleAndEndsWithItsLastSolver(t *testing.T) {
	g := tiles(t, 8)
	fx := newFixture(t, g)
	compare := customid.Compare.Build(string(g.ID), render.Ply(g))
	if err := muxtest.Run(fx.m, fx.rec, click("ann", compare)); err != nil {
		t.Fatal(err)
	}
	answer := fx.rec.Only(t)
	if answer.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(answer.Data.Content, "not done yet") {
		t.Fatalf("Compare answered %+v, want the solvers listed to ann alone, none done", answer.Data)
	}
	if len(fx.queued) < 2 {
		t.Fatalf("%d solvers queued, want one job per solver", len(fx.queued))
	}
	err := muxtest.Run(fx.m, fx.rec, click("ann", compare))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "still being compared") {
		t.Errorf("a second Compare while the first runs: %q, want it told the comparison runs", text)
	}
	for _, run := range fx.queued {
		run()
	}
	fx.queued = nil
	if err := muxtest.Run(fx.m, fx.rec, click("ann", compare)); err != nil {
		t.Errorf("Compare once every solver was done: %v", err)
	}
	if len(fx.queued) == 0 {
		t.Error("Compare once every solver was done queued no solver")
	}
}

// TestCompareShowsEveryResultOnlyOnceItEnds holds the last solver while
// it labels the solutions, and meanwhile lets another worker's edit go
// out: that edit must not show every result done, or a member who sees
// it and clicks Compare is told the comparison still runs. Three
// solvers end on three workers: the first's edit held, the second
// finding the first editing, the last labelling.
func TestCompareShowsEveryResultOnlyOnceItEnds(t *testing.T) {
	g := tiles(t, 8)
	fx := newFixture(t, g)
	compare := customid.Compare.Build(string(g.ID), render.Ply(g))
	if err := muxtest.Run(fx.m, fx.rec, click("ann", compare)); err != nil {
		t.Fatal(err)
	}
	jobs := fx.queued
	fx.queued = nil
	if len(jobs) < 3 {
		t.Fatalf("%d solvers queued, want 3 or more", len(jobs))
	}
	for _, run := range jobs[:len(jobs)-3] {
		run()
	}

	var mu sync.Mutex
	var shown []string // the edits sent, in order
	var hold chan struct{}
	editing := make(chan struct{})
	fx.rec.OnEdit = func(edit *discordgo.WebhookEdit) {
		mu.Lock()
		held := hold
		hold = nil
		mu.Unlock()
		if held != nil {
			editing <- struct{}{}
			<-held
		}
		mu.Lock()
		shown = append(shown, *edit.Content)
		mu.Unlock()
	}
	searches := 3 // the three solvers', then the labelling
	labelling, labelled := make(chan struct{}), make(chan struct{})
	fx.lowPriority = func(search func()) {
		mu.Lock()
		searches--
		last := searches < 0
		mu.Unlock()
		if last {
			close(labelling)
			<-labelled
		}
		search()
	}

	first, second, last := jobs[len(jobs)-3], jobs[len(jobs)-2], jobs[len(jobs)-1]
	release := make(chan struct{})
	mu.Lock()
	hold = release
	mu.Unlock()
	var firstDone, lastDone sync.WaitGroup
	firstDone.Go(first)
	<-editing // the first's edit is held
	second()  // shown by the first's worker, which is editing
	lastDone.Go(last)
	<-labelling
	close(release)
	firstDone.Wait() // the first's worker has sent the second's result
	mu.Lock()
	for _, content := range shown {
		if !strings.Contains(content, "not done yet") {
			t.Errorf("while the last solver labels the solutions, an edit shows every result:\n%s", content)
		}
	}
	mu.Unlock()
	err := muxtest.Run(fx.m, fx.rec, click("ann", compare))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "still being compared") {
		t.Errorf("Compare while the last solver labels: %q, want it told the comparison runs", text)
	}

	close(labelled)
	lastDone.Wait()
	mu.Lock()
	final := shown[len(shown)-1]
	mu.Unlock()
	if strings.Contains(final, "not done yet") {
		t.Fatalf("the last edit shows a solver not done:\n%s", final)
	}
	if err := muxtest.Run(fx.m, fx.rec, click("ann", compare)); err != nil {
		t.Errorf("Compare once every result is shown: %v", err)
	}
}

func TestNewPuzzleDealsAnotherOfTheEndedPuzzlesKind(t *testing.T) {
	g := tiles(t, 6)
	g.Status, g.Result = storage.StatusFinished, &storage.Result{Winner: 0}
	duel := &storage.Game{Kind: "tictactoe", Status: storage.StatusFinished, Result: &storage.Result{Winner: storage.Draw}, Position: "start",
		Players: []storage.Player{{ID: storage.User("ann")}, {ID: storage.User("bob")}}}
	fx := newFixture(t, g, duel)
	if err := muxtest.Run(fx.m, fx.rec, click("bob", customid.NewPuzzle.Build(string(g.ID)))); err != nil {
		t.Fatal(err)
	}
	if len(fx.solo.started) != 1 || fx.solo.started[0].game != string(g.Kind) || fx.solo.started[0].day != "" {
		t.Fatalf("started %+v, want one 8-puzzle for bob, no daily attempt", fx.solo.started)
	}
	none := storage.SequenceID(9)
	for id, want := range map[storage.GameID]string{duel.ID: "out of date", none: string(none) + " does not exist"} {
		err := muxtest.Run(fx.m, fx.rec, click("bob", customid.NewPuzzle.Build(string(id))))
		if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, want) {
			t.Errorf("New puzzle under %s: %q, want it to say %q", id, text, want)
		}
	}
	if len(fx.solo.started) != 1 {
		t.Errorf("refused clicks started %v", fx.solo.started[1:])
	}
}
