package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// suite lists the tests Run runs, by name.
var suite = []struct {
	name string
	run  func(*testing.T, Opener)
}{
	{"CreateLoadUpdate", testCreateLoadUpdate},
	{"StaleVersionConflicts", testStaleVersionConflicts},
	{"RacingUpdates", testRacingUpdates},
	{"StatusRules", testStatusRules},
	{"IndexesFollowTheGame", testIndexesFollowTheGame},
	{"HistoryNewestFirstWithLimit", testHistoryNewestFirstWithLimit},
	{"GuildSettings", testGuildSettings},
	{"BoardForms", testBoardForms},
	{"UpdateGuildSettings", testUpdateGuildSettings},
	{"RacingGuildSettingsUpdates", testRacingGuildSettingsUpdates},
	{"Secrets", testSecrets},
	{"RacingFirstSecrets", testRacingFirstSecrets},
	{"CancelledContext", testCancelledContext},
	{"CountOpenCountsEachGameOnce", testCountOpenCountsEachGameOnce},
	{"CreateGameLimits", testCreateGameLimits},
	{"ShowcasesCountAndReopen", testShowcasesCountAndReopen},
	{"ConcurrentCreateGameKeepsCaps", testConcurrentCreateGameKeepsCaps},
	{"ClaimRematchOnce", testClaimRematchOnce},
	{"RacingRematchClaims", testRacingRematchClaims},
	{"RematchClaimSurvivesReopening", testRematchClaimSurvivesReopening},
	{"CancelledGamesLeaveEveryIndex", testCancelledGamesLeaveEveryIndex},
	{"OnlyOpenGamesCanBeCancelled", testOnlyOpenGamesCanBeCancelled},
	{"OpenGames", testOpenGames},
	{"SoloPuzzleFromStartToSolved", testSoloPuzzleFromStartToSolved},
	{"AbandonedPuzzleIsHistoryButNotSolved", testAbandonedPuzzleIsHistoryButNotSolved},
	{"SolvedListsNewestFirstWithLimit", testSolvedListsNewestFirstWithLimit},
	{"PuzzleRulesInTheStore", testPuzzleRulesInTheStore},
	{"DeleteUserAnonymisesPuzzles", testDeleteUserAnonymisesPuzzles},
	{"FinishRatesBothLadders", testFinishRatesBothLadders},
	{"LeaderboardAndRank", testLeaderboardAndRank},
	{"AIRatingsStayFixed", testAIRatingsStayFixed},
	{"HumanVsHumanMovesBoth", testHumanVsHumanMovesBoth},
	{"DeleteUser", testDeleteUser},
	{"RatingsNeverCountTwice", testRatingsNeverCountTwice},
	{"CasualAbortedAndAgreedDraws", testCasualAbortedAndAgreedDraws},
	{"DueGamesOfShards", testDueGamesOfShards},
	{"OpenAndAwaitingAIOfShards", testOpenAndAwaitingAIOfShards},
	{"ClaimsExpire", testClaimsExpire},
	{"RacingClaims", testRacingClaims},
	{"DeleteUserDropsTheirClaims", testDeleteUserDropsTheirClaims},
	{"RacingTakesOfAnOpenChallenge", testRacingTakesOfAnOpenChallenge},
	{"OpenChallengeRules", testOpenChallengeRules},
	{"DailyAttempts", testDailyAttempts},
	{"RacingDailyChanges", testRacingDailyChanges},
	{"DailyPostsAndChannels", testDailyPostsAndChannels},
	{"Reviews", testReviews},
	{"InteractionsActOnce", testInteractionsActOnce},
	{"RacingDeliveries", testRacingDeliveries},
	{"ExpiredDeliveriesAreSwept", testExpiredDeliveriesAreSwept},
}

// clock is a settable time source for deadline tests.
// openTest opens a store in a fresh temporary directory with a fake clock
// and closes it (checking its invariants) at the end of the test.
// UserVsAI returns a new active game of kind between user and the AI
// strategy minimax, in guild g1.
func UserVsAI(kind storage.Kind, user string) *storage.Game {
	return &storage.Game{
		Kind:   kind,
		Status: storage.StatusActive,
		Players: []storage.Player{
			{ID: storage.User(user), Name: user},
			{ID: storage.AI("minimax")},
		},
		Settings: storage.Settings{MoveTime: 2 * time.Second},
		GuildID:  "g1", ChannelID: "c1", MessageID: "m1",
	}
}

// UserVsUser returns a new active game of kind between users a and b.
func UserVsUser(kind storage.Kind, a, b string) *storage.Game {
	g := UserVsAI(kind, a)
	g.Players[1] = storage.Player{ID: storage.User(b), Name: b}
	return g
}

// MustCreate creates g without limits or fails the test.
func MustCreate(t testing.TB, s storage.Store, g *storage.Game) *storage.Game {
	t.Helper()
	if err := s.CreateGame(context.Background(), g, storage.Limits{}); err != nil {
		t.Fatal(err)
	}
	return g
}

// IDs returns the ids of games.
func IDs(games []*storage.Game) []storage.GameID {
	var out []storage.GameID
	for _, g := range games {
		out = append(out, g.ID)
	}
	return out
}

func testCreateLoadUpdate(t *testing.T, o Opener) {
	ctx := context.Background()
	s, clk := openTest(t, o)
	g := MustCreate(t, s, UserVsAI(storage.Kind("tictactoe"), "alice"))
	if g.ID != "00000001" || g.Version != 1 || !g.CreatedAt.Equal(clk.Now()) {
		t.Fatalf("created game id %q version %d created %v", g.ID, g.Version, g.CreatedAt)
	}
	second := MustCreate(t, s, UserVsAI(storage.Kind("tictactoe"), "bob"))
	if second.ID <= g.ID {
		t.Fatalf("ids do not sort by creation: %q then %q", g.ID, second.ID)
	}

	clk.Advance(time.Minute)
	g.Moves = append(g.Moves, "b2")
	g.Position = "....X...."
	g.Turn = 1
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if g.Version != 2 || !g.UpdatedAt.Equal(clk.Now()) {
		t.Fatalf("after update: version %d updated %v", g.Version, g.UpdatedAt)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 2 || !slices.Equal(got.Moves, []string{"b2"}) || got.Position != "....X...." ||
		got.Turn != 1 || !slices.Equal(got.Players, g.Players) || got.Settings != g.Settings || got.MessageID != "m1" {
		t.Fatalf("loaded %+v, want %+v", got, g)
	}

	if _, err := s.Game(ctx, "zzzzzzzz"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("loading a missing game: %v, want ErrNotFound", err)
	}
}

func testStaleVersionConflicts(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	g := MustCreate(t, s, UserVsUser(storage.Kind("connect4"), "alice", "bob"))
	stale := *g
	g.Moves = []string{"d"}
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	stale.Moves = []string{"a"}
	err := s.UpdateGame(ctx, &stale)
	if !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("stale update: %v, want ErrConflict", err)
	}
	if stale.Version != 1 {
		t.Fatalf("a failed update changed the caller's version to %d", stale.Version)
	}
	if _, err := s.FinishGame(ctx, &stale, storage.Result{Winner: 0}); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("stale finish: %v, want ErrConflict", err)
	}
	got, _ := s.Game(ctx, g.ID)
	if got.Version != 2 || !slices.Equal(got.Moves, []string{"d"}) {
		t.Fatalf("stored game is version %d with moves %v after a rejected update", got.Version, got.Moves)
	}
}

// testRacingUpdates races two writers on one game many times: exactly one
// of each pair wins and the other gets ErrConflict.
func testRacingUpdates(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	g := MustCreate(t, s, UserVsUser(storage.Kind("tictactoe"), "alice", "bob"))
	for round := range 20 {
		var (
			wg   sync.WaitGroup
			errs [2]error
		)
		start := make(chan struct{})
		for i := range 2 {
			c := *g
			c.Moves = append(slices.Clone(g.Moves), fmt.Sprintf("r%dp%d", round, i))
			wg.Go(func() {
				<-start
				errs[i] = s.UpdateGame(ctx, &c)
			})
		}
		close(start)
		wg.Wait()
		wins := 0
		for _, err := range errs {
			switch {
			case err == nil:
				wins++
			case !errors.Is(err, storage.ErrConflict):
				t.Fatalf("round %d: unexpected error %v", round, err)
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: %d winners (%v), want exactly 1", round, wins, errs)
		}
		var err error
		if g, err = s.Game(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
		if g.Version != uint64(round+2) || len(g.Moves) != round+1 {
			t.Fatalf("round %d: version %d with %d moves", round, g.Version, len(g.Moves))
		}
	}
}

func testStatusRules(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)

	bad := UserVsAI(storage.Kind("tictactoe"), "alice")
	bad.Status = storage.StatusFinished
	if err := s.CreateGame(ctx, bad, storage.Limits{}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("creating a finished game: %v, want ErrInvalid", err)
	}
	bad = UserVsAI("Chess 960", "alice")
	if err := s.CreateGame(ctx, bad, storage.Limits{}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("creating a game of a malformed kind: %v, want ErrInvalid", err)
	}

	g := MustCreate(t, s, UserVsAI(storage.Kind("tictactoe"), "alice"))
	g.Status = storage.StatusFinished
	if err := s.UpdateGame(ctx, g); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("finishing through UpdateGame: %v, want ErrInvalid", err)
	}
	g.Status = storage.StatusActive
	g.Players[1].ID = storage.AI("random")
	if err := s.UpdateGame(ctx, g); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("changing a player: %v, want ErrInvalid", err)
	}
	g.Players[1].ID = storage.AI("minimax")
	g.Status = storage.StatusForfeited
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: 1, Outcome: storage.TimedOut}); err != nil {
		t.Fatal(err)
	}
	g.Status = storage.StatusForfeited
	if err := s.UpdateGame(ctx, g); !errors.Is(err, storage.ErrGameOver) {
		t.Fatalf("updating a forfeited game: %v, want ErrGameOver", err)
	}

	c := UserVsUser(storage.Kind("connect4"), "alice", "bob")
	c.Status = storage.StatusPending
	MustCreate(t, s, c)
	c.Status = storage.StatusActive
	if _, err := s.FinishGame(ctx, c, storage.Result{Winner: 0}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("finishing a pending challenge: %v, want ErrInvalid", err)
	}
	c.Status = storage.StatusDeclined
	if err := s.UpdateGame(ctx, c); err != nil {
		t.Fatalf("declining a challenge: %v", err)
	}
}

func testIndexesFollowTheGame(t *testing.T, o Opener) {
	ctx := context.Background()
	s, clk := openTest(t, o)
	alice := storage.User("alice")

	challenge := UserVsUser(storage.Kind("connect4"), "alice", "bob")
	challenge.Status = storage.StatusPending
	challenge.Deadline = clk.Now().Add(5 * time.Minute)
	MustCreate(t, s, challenge)
	ai := MustCreate(t, s, UserVsAI(storage.Kind("adjacency"), "alice"))
	other := MustCreate(t, s, UserVsAI(storage.Kind("tictactoe"), "carol"))

	active, err := s.ActiveGames(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	if want := []storage.GameID{challenge.ID, ai.ID}; !slices.Equal(IDs(active), want) {
		t.Fatalf("alice's active games %v, want %v", IDs(active), want)
	}
	// A prefix of a player id must not match another player.
	if active, _ := s.ActiveGames(ctx, storage.User("alic")); len(active) != 0 {
		t.Fatalf("user alic sees %v", IDs(active))
	}

	if waiting, _ := s.AwaitingAI(ctx, storage.Shards{}); len(waiting) != 0 {
		t.Fatalf("awaiting AI before any move: %v", IDs(waiting))
	}
	ai.Turn = 1
	if err := s.UpdateGame(ctx, ai); err != nil {
		t.Fatal(err)
	}
	other.Turn = 1
	if err := s.UpdateGame(ctx, other); err != nil {
		t.Fatal(err)
	}
	waiting, _ := s.AwaitingAI(ctx, storage.Shards{})
	if want := []storage.GameID{ai.ID, other.ID}; !slices.Equal(IDs(waiting), want) {
		t.Fatalf("awaiting AI %v, want %v", IDs(waiting), want)
	}

	if due, _ := s.DueGames(ctx, storage.Shards{}); len(due) != 0 {
		t.Fatalf("due before the deadline: %v", IDs(due))
	}
	clk.Advance(5 * time.Minute)
	due, _ := s.DueGames(ctx, storage.Shards{})
	if want := []storage.GameID{challenge.ID}; !slices.Equal(IDs(due), want) {
		t.Fatalf("due at the deadline %v, want %v", IDs(due), want)
	}
	challenge.Status = storage.StatusExpired
	if err := s.UpdateGame(ctx, challenge); err != nil {
		t.Fatal(err)
	}
	if !challenge.Deadline.IsZero() {
		t.Fatalf("expired challenge kept its deadline %v", challenge.Deadline)
	}
	if due, _ := s.DueGames(ctx, storage.Shards{}); len(due) != 0 {
		t.Fatalf("due after expiry: %v", IDs(due))
	}

	ai.Status = storage.StatusFinished
	ai.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, ai, storage.Result{Winner: 0}); err != nil {
		t.Fatal(err)
	}
	if active, _ := s.ActiveGames(ctx, alice); len(active) != 0 {
		t.Fatalf("alice still has active games %v", IDs(active))
	}
	if waiting, _ := s.AwaitingAI(ctx, storage.Shards{}); !slices.Equal(IDs(waiting), []storage.GameID{other.ID}) {
		t.Fatalf("awaiting AI after finishing: %v", IDs(waiting))
	}
	hist, err := s.History(ctx, alice, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(IDs(hist), []storage.GameID{ai.ID}) || hist[0].Result.Winner != 0 {
		t.Fatalf("alice's history %v", IDs(hist))
	}
}

func testHistoryNewestFirstWithLimit(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	var finished []storage.GameID
	for range 5 {
		g := MustCreate(t, s, UserVsAI(storage.Kind("tictactoe"), "alice"))
		g.Status = storage.StatusFinished
		if _, err := s.FinishGame(ctx, g, storage.Result{Winner: storage.Draw}); err != nil {
			t.Fatal(err)
		}
		finished = append(finished, g.ID)
	}
	MustCreate(t, s, UserVsAI(storage.Kind("tictactoe"), "alice")) // still active: not history
	slices.Reverse(finished)
	hist, err := s.History(ctx, storage.User("alice"), 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(IDs(hist), finished[:3]) {
		t.Fatalf("history %v, want %v", IDs(hist), finished[:3])
	}
	all, _ := s.History(ctx, storage.AI("minimax"), 0)
	if !slices.Equal(IDs(all), finished) {
		t.Fatalf("AI history %v, want %v", IDs(all), finished)
	}
}

func testGuildSettings(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	gs, err := s.GuildSettings(ctx, "g1")
	if err != nil || gs.MoveTime != 0 || !gs.Allows(storage.Kind("adjacency")) {
		t.Fatalf("unset settings %+v, %v: want the zero value", gs, err)
	}
	want := storage.GuildSettings{MoveTime: 3 * time.Second, TurnTimeout: time.Hour, AllowedGames: []storage.Kind{storage.Kind("connect4")}}
	if err := s.PutGuildSettings(ctx, "g1", want); err != nil {
		t.Fatal(err)
	}
	gs, err = s.GuildSettings(ctx, "g1")
	if err != nil || gs.MoveTime != want.MoveTime || gs.TurnTimeout != want.TurnTimeout ||
		!gs.Allows(storage.Kind("connect4")) || gs.Allows(storage.Kind("tictactoe")) {
		t.Fatalf("settings %+v, %v; want %+v", gs, err, want)
	}
	if err := s.PutGuildSettings(ctx, "g1", storage.GuildSettings{AllowedGames: []storage.Kind{"Chess 960"}}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("malformed game kind allowed: %v, want ErrInvalid", err)
	}
}

func testCancelledContext(t *testing.T, o Opener) {
	s, _ := openTest(t, o)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.CreateGame(ctx, UserVsAI(storage.Kind("tictactoe"), "alice"), storage.Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("create with a cancelled context: %v", err)
	}
	if _, err := s.ActiveGames(ctx, storage.User("alice")); !errors.Is(err, context.Canceled) {
		t.Fatalf("list with a cancelled context: %v", err)
	}
}

func testCountOpenCountsEachGameOnce(t *testing.T, o Opener) {
	ctx := context.Background()
	s, clk := openTest(t, o)
	count := func(wantPending, wantActive int) {
		t.Helper()
		p, a, err := s.CountOpen(ctx)
		if err != nil || p != wantPending || a != wantActive {
			t.Fatalf("CountOpen = %d pending, %d active, %v; want %d, %d", p, a, err, wantPending, wantActive)
		}
	}
	count(0, 0)
	challenge := UserVsUser(storage.Kind("connect4"), "alice", "bob")
	challenge.Status = storage.StatusPending
	challenge.Deadline = clk.Now().Add(time.Minute)
	MustCreate(t, s, challenge)
	MustCreate(t, s, UserVsUser(storage.Kind("tictactoe"), "alice", "bob"))
	ai := MustCreate(t, s, UserVsAI(storage.Kind("adjacency"), "carol"))
	count(1, 2)
	ai.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, ai, storage.Result{Winner: 0}); err != nil {
		t.Fatal(err)
	}
	challenge.Status = storage.StatusExpired
	if err := s.UpdateGame(ctx, challenge); err != nil {
		t.Fatal(err)
	}
	count(0, 1)
}

// createLimited creates g within limits and returns the *LimitError it
// was refused with, or nil if it was created; any other error fails the
// test.
func createLimited(t *testing.T, s storage.Store, g *storage.Game, limits storage.Limits) *storage.LimitError {
	t.Helper()
	err := s.CreateGame(context.Background(), g, limits)
	var le *storage.LimitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &le) && errors.Is(err, storage.ErrLimit):
		if g.ID != "" {
			t.Errorf("a refused game was given id %s", g.ID)
		}
		return le
	}
	t.Fatalf("create game: %v", err)
	return nil
}

func challengeOf(a, b string) *storage.Game {
	g := UserVsUser(storage.Kind("tictactoe"), a, b)
	g.Status = storage.StatusPending
	return g
}

func openCount(t *testing.T, s storage.Store, user string) int {
	t.Helper()
	open, err := s.ActiveGames(context.Background(), storage.User(user))
	if err != nil {
		t.Fatal(err)
	}
	return len(open)
}

func testCreateGameLimits(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	limits := storage.Limits{MaxOpen: 3, MaxChallenges: 2}
	want := func(what string, got *storage.LimitError, limit storage.Limit, count, max int) {
		t.Helper()
		if got == nil || got.Limit != limit || got.Count != count || got.Max != max || got.Player != storage.User("alice") {
			t.Errorf("%s: refused with %+v, want alice's %s at %d of %d", what, got, limit, count, max)
		}
	}

	// Two waiting challenges are alice's most; a third is refused, an AI
	// game is not.
	for _, opp := range []string{"bob", "carol"} {
		if le := createLimited(t, s, challengeOf("alice", opp), limits); le != nil {
			t.Fatalf("challenge to %s: %v", opp, le)
		}
	}
	want("a third challenge", createLimited(t, s, challengeOf("alice", "bob"), limits), storage.LimitChallenges, 2, 2)
	if le := createLimited(t, s, UserVsAI(storage.Kind("tictactoe"), "alice"), limits); le != nil {
		t.Fatalf("an AI game with 2 of 3 open: %v", le)
	}
	// Three open games are her most, whatever the new game is; the open cap
	// is named first.
	want("a fourth AI game", createLimited(t, s, UserVsAI(storage.Kind("connect4"), "alice"), limits), storage.LimitOpen, 3, 3)
	want("a fourth game as a challenge", createLimited(t, s, challengeOf("alice", "dave"), limits), storage.LimitOpen, 3, 3)
	if n := openCount(t, s, "alice"); n != 3 {
		t.Errorf("alice has %d open games after the refusals, want 3", n)
	}

	// Only the challenger is counted: bob, challenged by alice, may start
	// games, and dave may challenge alice although she is at her cap.
	if le := createLimited(t, s, UserVsAI(storage.Kind("tictactoe"), "bob"), limits); le != nil {
		t.Errorf("bob's game: %v", le)
	}
	if le := createLimited(t, s, challengeOf("dave", "alice"), limits); le != nil {
		t.Errorf("dave's challenge to alice: %v", le)
	}
	// That challenge does not count among alice's open games until she
	// accepts it: others cannot use up her cap by challenging her.
	want("alice's game with a challenge to her open", createLimited(t, s, UserVsAI(storage.Kind("tictactoe"), "alice"), limits), storage.LimitOpen, 3, 3)
	for _, from := range []string{"erin", "frank", "gina"} {
		if le := createLimited(t, s, challengeOf(from, "alice"), limits); le != nil {
			t.Fatalf("%s's challenge to alice: %v", from, le)
		}
	}
	want("alice's game with four challenges to her open", createLimited(t, s, UserVsAI(storage.Kind("tictactoe"), "alice"), limits), storage.LimitOpen, 3, 3)

	// Games that end free their places.
	open, err := s.ActiveGames(ctx, storage.User("alice"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range open[:2] { // her two challenges
		g.Status = storage.StatusDeclined
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if le := createLimited(t, s, challengeOf("alice", "erin"), limits); le != nil {
		t.Errorf("a challenge once two ended: %v", le)
	}

	// Zero limits are no caps.
	for range 5 {
		if le := createLimited(t, s, UserVsAI(storage.Kind("tictactoe"), "alice"), storage.Limits{}); le != nil {
			t.Fatalf("a game without limits: %v", le)
		}
	}
}

// testConcurrentCreateGameKeepsCaps races many creations by one member on
// a real database: exactly as many as the cap allows are stored.
func testConcurrentCreateGameKeepsCaps(t *testing.T, o Opener) {
	s, _ := openTest(t, o)
	limits := storage.Limits{MaxOpen: 10, MaxChallenges: 3}
	race := func(n int, game func(i int) *storage.Game) (created, refused int) {
		t.Helper()
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			start = make(chan struct{})
		)
		for i := range n {
			g := game(i)
			wg.Go(func() {
				<-start
				err := s.CreateGame(context.Background(), g, limits)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					created++
				case errors.Is(err, storage.ErrLimit):
					refused++
				default:
					t.Errorf("create game: %v", err)
				}
			})
		}
		close(start)
		wg.Wait()
		return created, refused
	}

	// Challenges from alice to many members: 3 may wait at once.
	if c, r := race(20, func(int) *storage.Game { return challengeOf("alice", "bob") }); c != 3 || r != 17 {
		t.Errorf("20 concurrent challenges with a cap of 3: %d created, %d refused", c, r)
	}
	// AI games fill her open games up to 10, the challenges included.
	if c, r := race(40, func(int) *storage.Game { return UserVsAI(storage.Kind("tictactoe"), "alice") }); c != 7 || r != 33 {
		t.Errorf("40 concurrent AI games with 3 of 10 open: %d created, %d refused", c, r)
	}
	if n := openCount(t, s, "alice"); n != 10 {
		t.Errorf("alice has %d open games, want the cap of 10", n)
	}
}

// finished creates a game and finishes it, for rematch claims.
func finished(t *testing.T, s storage.Store) *storage.Game {
	t.Helper()
	g := MustCreate(t, s, UserVsUser(storage.Kind("tictactoe"), "alice", "bob"))
	g.Status = storage.StatusFinished
	if _, err := s.FinishGame(context.Background(), g, storage.Result{Winner: 0, Outcome: storage.Resigned}); err != nil {
		t.Fatal(err)
	}
	return g
}

// testClaimRematchOnce checks that a rematch is claimed once, that a
// release lets it be claimed again, and that only ended games take a
// claim.
func testClaimRematchOnce(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	g := finished(t, s)
	if err := s.ClaimRematch(ctx, g.ID); err != nil {
		t.Fatalf("first claim: %v", err)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil || !got.Rematched || got.Version != g.Version+1 {
		t.Fatalf("after the claim: %+v (%v), want rematched at version %d", got, err, g.Version+1)
	}
	if err := s.ClaimRematch(ctx, g.ID); !errors.Is(err, storage.ErrRematchTaken) {
		t.Fatalf("second claim: %v, want ErrRematchTaken", err)
	}
	if err := s.ReleaseRematch(ctx, g.ID); err != nil {
		t.Fatalf("release: %v", err)
	}
	if err := s.ReleaseRematch(ctx, g.ID); err != nil {
		t.Fatalf("releasing an unclaimed game: %v", err)
	}
	if got, _ := s.Game(ctx, g.ID); got.Rematched || got.Version != g.Version+2 {
		t.Fatalf("after the release: %+v, want unclaimed at version %d", got, g.Version+2)
	}
	if err := s.ClaimRematch(ctx, g.ID); err != nil {
		t.Fatalf("claim after a release: %v", err)
	}

	open := MustCreate(t, s, UserVsUser(storage.Kind("tictactoe"), "alice", "bob"))
	if err := s.ClaimRematch(ctx, open.ID); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("claiming an active game: %v, want ErrInvalid", err)
	}
	if err := s.ClaimRematch(ctx, "zzzzzzzz"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("claiming a missing game: %v, want ErrNotFound", err)
	}
}

// testRacingRematchClaims claims one game's rematch from many goroutines
// at once: exactly one wins.
func testRacingRematchClaims(t *testing.T, o Opener) {
	s, _ := openTest(t, o)
	g := finished(t, s)
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = s.ClaimRematch(context.Background(), g.ID) })
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, storage.ErrRematchTaken):
			t.Errorf("a racing claim failed with %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d of %d racing claims won, want 1", won, n)
	}
}

// testRematchClaimSurvivesReopening checks that a claim is durable: the
// store opened again refuses a second one.
func testRematchClaimSurvivesReopening(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	g := finished(t, s)
	if err := s.ClaimRematch(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	s.Admin = s.reopen()
	if err := s.ClaimRematch(ctx, g.ID); !errors.Is(err, storage.ErrRematchTaken) {
		t.Fatalf("a claim after reopening: %v, want ErrRematchTaken", err)
	}
}

// testCancelledGamesLeaveEveryIndex cancels a pending challenge and an
// active game awaiting the AI: both leave the open, AI and deadline
// indexes, enter no history, change no rating, and stay cancelled.
func testCancelledGamesLeaveEveryIndex(t *testing.T, o Opener) {
	ctx := context.Background()
	s, clk := openTest(t, o)
	alice := storage.User("alice")

	challenge := UserVsUser(storage.Kind("connect4"), "alice", "bob")
	challenge.Status = storage.StatusPending
	challenge.Deadline = clk.Now().Add(5 * time.Minute)
	MustCreate(t, s, challenge)
	ai := UserVsAI(storage.Kind("tictactoe"), "alice")
	ai.Turn = 1 // the AI to move
	MustCreate(t, s, ai)
	human := UserVsUser(storage.Kind("tictactoe"), "alice", "bob")
	human.Deadline = clk.Now().Add(time.Hour)
	MustCreate(t, s, human)
	if waiting, _ := s.AwaitingAI(ctx, storage.Shards{}); !slices.Equal(IDs(waiting), []storage.GameID{ai.ID}) {
		t.Fatalf("awaiting AI before cancelling: %v", IDs(waiting))
	}

	clk.Advance(time.Minute)
	for _, g := range []*storage.Game{challenge, ai, human} {
		before := g.Version
		g.Status = storage.StatusCancelled
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatalf("cancelling game %s: %v", g.ID, err)
		}
		if g.Version != before+1 || !g.Deadline.IsZero() || g.Result != nil || !g.UpdatedAt.Equal(clk.Now()) {
			t.Fatalf("cancelled game %s: version %d (was %d), deadline %v, result %v", g.ID, g.Version, before, g.Deadline, g.Result)
		}
		got, err := s.Game(ctx, g.ID)
		if err != nil || got.Status != storage.StatusCancelled || got.Version != g.Version {
			t.Fatalf("stored game %s after cancelling: %+v, %v", g.ID, got, err)
		}
	}

	for _, p := range []storage.PlayerID{alice, storage.User("bob"), storage.AI("minimax")} {
		if open, err := s.ActiveGames(ctx, p); err != nil || len(open) != 0 {
			t.Errorf("open games of %s after cancelling: %v, %v", p, IDs(open), err)
		}
		if hist, err := s.History(ctx, p, 0); err != nil || len(hist) != 0 {
			t.Errorf("history of %s after cancelling: %v, %v", p, IDs(hist), err)
		}
		if _, err := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), p, 0); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("%s is rated after a cancelled game: %v", p, err)
		}
	}
	if waiting, _ := s.AwaitingAI(ctx, storage.Shards{}); len(waiting) != 0 {
		t.Errorf("awaiting AI after cancelling: %v", IDs(waiting))
	}
	clk.Advance(2 * time.Hour)
	if due, _ := s.DueGames(ctx, storage.Shards{}); len(due) != 0 {
		t.Errorf("due after cancelling: %v", IDs(due))
	}
	if p, a, err := s.CountOpen(ctx); err != nil || p != 0 || a != 0 {
		t.Errorf("CountOpen after cancelling = %d, %d, %v; want none", p, a, err)
	}
	if st, err := s.Stats(ctx); err != nil || st.Games[storage.StatusCancelled] != 3 {
		t.Errorf("Stats counts %v cancelled games (%v), want 3", st.Games, err)
	}

	// Cancelled is final.
	ai.Status = storage.StatusActive
	if err := s.UpdateGame(ctx, ai); !errors.Is(err, storage.ErrGameOver) {
		t.Errorf("reviving a cancelled game: %v, want ErrGameOver", err)
	}
	ai.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, ai, storage.Result{Winner: 0}); !errors.Is(err, storage.ErrGameOver) {
		t.Errorf("finishing a cancelled game: %v, want ErrGameOver", err)
	}
	if rep, err := s.DeleteUser(ctx, "alice"); err != nil || len(rep.Removed) != 0 || rep.Anonymised != 0 {
		t.Errorf("deleting alice touched cancelled games: %+v, %v", rep, err)
	}
}

// testOnlyOpenGamesCanBeCancelled checks the status rules around
// cancelling: FinishGame cannot cancel, ended games cannot be cancelled.
func testOnlyOpenGamesCanBeCancelled(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	g := MustCreate(t, s, UserVsAI(storage.Kind("tictactoe"), "alice"))
	g.Status = storage.StatusCancelled
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: 0}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("cancelling through FinishGame: %v, want ErrInvalid", err)
	}
	g.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: storage.Draw}); err != nil {
		t.Fatal(err)
	}
	g.Status = storage.StatusCancelled
	if err := s.UpdateGame(ctx, g); !errors.Is(err, storage.ErrGameOver) {
		t.Fatalf("cancelling a finished game: %v, want ErrGameOver", err)
	}
	if hist, _ := s.History(ctx, storage.User("alice"), 0); !slices.Equal(IDs(hist), []storage.GameID{g.ID}) {
		t.Fatalf("history of alice %v, want the finished game", IDs(hist))
	}
}

// testOpenGames lists the pending and active games one filter keeps (here
// those of one guild), oldest first and each once, and no ended games.
func testOpenGames(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	inGuild := func(g *storage.Game, guild string) *storage.Game {
		g.GuildID = guild
		return MustCreate(t, s, g)
	}
	challenge := UserVsUser(storage.Kind("connect4"), "alice", "bob")
	challenge.Status = storage.StatusPending
	inGuild(challenge, "g1")
	human := inGuild(UserVsUser(storage.Kind("tictactoe"), "alice", "bob"), "g1")
	inGuild(UserVsAI(storage.Kind("tictactoe"), "carol"), "g2")
	ai := inGuild(UserVsAI(storage.Kind("adjacency"), "carol"), "g1")
	finished := inGuild(UserVsAI(storage.Kind("tictactoe"), "dave"), "g1")
	finished.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, finished, storage.Result{Winner: 1}); err != nil {
		t.Fatal(err)
	}
	// A prefix of a guild id is another guild.
	inGuild(UserVsAI(storage.Kind("tictactoe"), "erin"), "g")

	inG1 := func(g *storage.Game) bool { return g.GuildID == "g1" }
	got, err := s.OpenGames(ctx, storage.Shards{}, inG1)
	if err != nil {
		t.Fatal(err)
	}
	if want := []storage.GameID{challenge.ID, human.ID, ai.ID}; !slices.Equal(IDs(got), want) {
		t.Fatalf("open games of g1 %v, want %v", IDs(got), want)
	}
	if got[0].Status != storage.StatusPending || got[1].Version != human.Version {
		t.Fatalf("listed games are not the stored ones: %+v", got)
	}
	if got, err := s.OpenGames(ctx, storage.Shards{}, func(g *storage.Game) bool { return g.GuildID == "g3" }); err != nil || len(got) != 0 {
		t.Fatalf("open games of a guild without games: %v, %v", IDs(got), err)
	}
	if all, err := s.OpenGames(ctx, storage.Shards{}, nil); err != nil || len(all) != 5 {
		t.Fatalf("all open games: %v, %v; want the 5 open ones", IDs(all), err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.OpenGames(cctx, storage.Shards{}, inG1); !errors.Is(err, context.Canceled) {
		t.Fatalf("with a cancelled context: %v", err)
	}

	human.Status = storage.StatusCancelled
	if err := s.UpdateGame(ctx, human); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.OpenGames(ctx, storage.Shards{}, inG1); !slices.Equal(IDs(got), []storage.GameID{challenge.ID, ai.ID}) {
		t.Fatalf("open games of g1 after cancelling one: %v", IDs(got))
	}
}

// Puzzle returns a new solo game of user. The kind is a duel's: storage
// knows a puzzle by its one player, not by its kind.
func Puzzle(kind storage.Kind, user string) *storage.Game {
	return &storage.Game{
		Kind:     kind,
		Status:   storage.StatusActive,
		Players:  []storage.Player{{ID: storage.User(user), Name: user}},
		Start:    "X.O.X.O..",
		Position: "X.O.X.O..",
		GuildID:  "g1", ChannelID: "c1", MessageID: "m1",
	}
}

// ratingKeys counts the keys under the ratings and rank buckets.
func testSoloPuzzleFromStartToSolved(t *testing.T, o Opener) {
	ctx := context.Background()
	s, clk := openTest(t, o)
	alice := storage.User("alice")
	g := MustCreate(t, s, Puzzle(storage.Kind("tictactoe"), "alice"))
	if active, err := s.ActiveGames(ctx, alice); err != nil || !slices.Equal(IDs(active), []storage.GameID{g.ID}) {
		t.Fatalf("active games: %v, %v", IDs(active), err)
	}
	if pending, active, err := s.CountOpen(ctx); err != nil || pending != 0 || active != 1 {
		t.Fatalf("CountOpen = %d, %d, %v; want 0, 1", pending, active, err)
	}

	for i, m := range []string{"2", "4"} {
		clk.Advance(time.Minute)
		g.Moves = append(g.Moves, m)
		g.Last = &storage.LastMove{Move: m}
		g.Turn = g.Next(g.Turn)
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
	}
	if g.Turn != 0 || g.Version != 3 {
		t.Fatalf("after two moves: turn %d version %d, want 0 and 3", g.Turn, g.Version)
	}
	if due, err := s.DueGames(ctx, storage.Shards{}); err != nil || len(due) != 0 {
		t.Fatalf("due games: %v, %v", IDs(due), err)
	}

	g.Status = storage.StatusFinished
	changes, err := s.FinishGame(ctx, g, storage.Result{Winner: 0, MovesUsed: 2, Optimal: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 0 || ratingCount(t, s) != 0 {
		t.Fatalf("a solved puzzle was rated: %d changes, %d rating keys", len(changes), ratingCount(t, s))
	}
	if _, err := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), alice, 1); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("rank after a puzzle: %v, want ErrNotFound", err)
	}
	got, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Solved() || got.Result.MovesUsed != 2 || got.Result.Optimal != 2 || got.Start != "X.O.X.O.." || len(got.Players) != 1 {
		t.Fatalf("loaded %+v with result %+v", got, got.Result)
	}
	if active, err := s.ActiveGames(ctx, alice); err != nil || len(active) != 0 {
		t.Fatalf("active games after solving: %v, %v", IDs(active), err)
	}
	if h, err := s.History(ctx, alice, 10); err != nil || !slices.Equal(IDs(h), []storage.GameID{g.ID}) {
		t.Fatalf("history: %v, %v", IDs(h), err)
	}
	if solved, err := s.Solved(ctx, alice, storage.Kind("tictactoe"), 10); err != nil || !slices.Equal(IDs(solved), []storage.GameID{g.ID}) {
		t.Fatalf("solved tictactoe puzzles: %v, %v", IDs(solved), err)
	}
	if solved, err := s.Solved(ctx, alice, storage.Kind("connect4"), 10); err != nil || len(solved) != 0 {
		t.Fatalf("solved connect4 puzzles: %v, %v", IDs(solved), err)
	}
}

func testAbandonedPuzzleIsHistoryButNotSolved(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	alice := storage.User("alice")
	solved := MustCreate(t, s, Puzzle(storage.Kind("connect4"), "alice"))
	solved.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, solved, storage.Result{Winner: 0, MovesUsed: 9}); err != nil {
		t.Fatal(err)
	}
	g := MustCreate(t, s, Puzzle(storage.Kind("connect4"), "alice"))
	g.Moves = []string{"4"}
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	// A gave-up puzzle finished as if solved is refused.
	g.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: storage.Nobody, Outcome: storage.GaveUp}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("finishing a puzzle with winner Nobody: %v, want ErrInvalid", err)
	}
	g.Status = storage.StatusForfeited
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: 0, Outcome: storage.TimedOut}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("forfeiting a puzzle: %v, want ErrInvalid", err)
	}
	g.Status = storage.StatusAbandoned
	changes, err := s.FinishGame(ctx, g, storage.Result{Winner: storage.Nobody, Outcome: storage.GaveUp, MovesUsed: 1})
	if err != nil || len(changes) != 0 {
		t.Fatalf("abandoning: %v changes, %v", changes, err)
	}
	if err := s.UpdateGame(ctx, g); !errors.Is(err, storage.ErrGameOver) {
		t.Fatalf("a move after abandoning: %v, want ErrGameOver", err)
	}
	if h, err := s.History(ctx, alice, 10); err != nil || !slices.Equal(IDs(h), []storage.GameID{g.ID, solved.ID}) {
		t.Fatalf("history: %v, %v; want the abandoned and the solved puzzle", IDs(h), err)
	}
	if list, err := s.Solved(ctx, alice, storage.Kind("connect4"), 10); err != nil || !slices.Equal(IDs(list), []storage.GameID{solved.ID}) {
		t.Fatalf("solved puzzles: %v, %v; want only %s", IDs(list), err, solved.ID)
	}
	if ratingCount(t, s) != 0 {
		t.Fatal("an abandoned puzzle was rated")
	}
}

func testSolvedListsNewestFirstWithLimit(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	var want []storage.GameID
	for range 3 {
		g := MustCreate(t, s, Puzzle(storage.Kind("tictactoe"), "alice"))
		g.Status = storage.StatusFinished
		if _, err := s.FinishGame(ctx, g, storage.Result{MovesUsed: 3}); err != nil {
			t.Fatal(err)
		}
		want = append([]storage.GameID{g.ID}, want...)
	}
	// Another player's solution is not alice's.
	bob := MustCreate(t, s, Puzzle(storage.Kind("tictactoe"), "bob"))
	bob.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, bob, storage.Result{MovesUsed: 3}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Solved(ctx, storage.User("alice"), storage.Kind("tictactoe"), 2)
	if err != nil || !slices.Equal(IDs(got), want[:2]) {
		t.Fatalf("Solved(limit 2) = %v, %v; want %v", IDs(got), err, want[:2])
	}
}

func testPuzzleRulesInTheStore(t *testing.T, o Opener) {
	ctx := context.Background()
	s, clk := openTest(t, o)
	for name, g := range map[string]*storage.Game{
		"a challenge": func() *storage.Game {
			g := Puzzle(storage.Kind("tictactoe"), "alice")
			g.Status = storage.StatusPending
			return g
		}(),
		"a deadline": func() *storage.Game {
			g := Puzzle(storage.Kind("tictactoe"), "alice")
			g.Deadline = clk.Now().Add(time.Hour)
			return g
		}(),
		"an AI player": {Kind: storage.Kind("tictactoe"), Status: storage.StatusActive, Players: []storage.Player{{ID: storage.AI("minimax")}}},
		"no player":    {Kind: storage.Kind("tictactoe"), Status: storage.StatusActive},
		"three players": func() *storage.Game {
			g := UserVsUser(storage.Kind("tictactoe"), "alice", "bob")
			g.Players = append(g.Players, storage.Player{ID: storage.User("carol")})
			return g
		}(),
	} {
		if err := s.CreateGame(ctx, g, storage.Limits{}); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("creating a puzzle with %s: %v, want ErrInvalid", name, err)
		}
	}
	// A puzzle counts against its player's open games like a duel.
	MustCreate(t, s, Puzzle(storage.Kind("tictactoe"), "alice"))
	if err := s.CreateGame(ctx, Puzzle(storage.Kind("tictactoe"), "alice"), storage.Limits{MaxOpen: 1}); !errors.Is(err, storage.ErrLimit) {
		t.Fatalf("a second puzzle over a cap of 1: %v, want ErrLimit", err)
	}
	// A duel cannot become a puzzle, nor a puzzle a duel.
	g := MustCreate(t, s, UserVsAI(storage.Kind("tictactoe"), "bob"))
	g.Players = g.Players[:1]
	if err := s.UpdateGame(ctx, g); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("dropping a duel's second player: %v, want ErrInvalid", err)
	}
	// A duel cannot be abandoned.
	g, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	g.Status = storage.StatusAbandoned
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: storage.Nobody}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("abandoning a duel: %v, want ErrInvalid", err)
	}
}

func testDeleteUserAnonymisesPuzzles(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	open := MustCreate(t, s, Puzzle(storage.Kind("tictactoe"), "alice"))
	solved := MustCreate(t, s, Puzzle(storage.Kind("tictactoe"), "alice"))
	solved.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, solved, storage.Result{MovesUsed: 4}); err != nil {
		t.Fatal(err)
	}
	rep, err := s.DeleteUser(ctx, "alice")
	if err != nil || len(rep.Removed) != 1 || rep.Removed[0].ID != open.ID || rep.Anonymised != 1 {
		t.Fatalf("DeleteUser = %+v, %v", rep, err)
	}
	g, err := s.Game(ctx, solved.ID)
	if err != nil || g.Players[0].ID != storage.Anonymous || !g.Solved() {
		t.Fatalf("the solved puzzle after deletion: %+v, %v", g, err)
	}
	if list, err := s.Solved(ctx, storage.User("alice"), storage.Kind("tictactoe"), 0); err != nil || len(list) != 0 {
		t.Fatalf("alice's solved puzzles after deletion: %v, %v", IDs(list), err)
	}
	// Check (at the end of the test) finds no stray solved-puzzle entry.
}

// Play finishes a new game between a and b in guild g1 with the given winner.
func Play(t testing.TB, s storage.Store, kind storage.Kind, a, b storage.PlayerID, winner int) []storage.RatingChange {
	t.Helper()
	ctx := context.Background()
	g := &storage.Game{Kind: kind, Status: storage.StatusActive, GuildID: "g1",
		Players: []storage.Player{{ID: a}, {ID: b}}}
	MustCreate(t, s, g)
	g.Status = storage.StatusFinished
	changes, err := s.FinishGame(ctx, g, storage.Result{Winner: winner})
	if err != nil {
		t.Fatal(err)
	}
	return changes
}

func testFinishRatesBothLadders(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	alice, bot := storage.User("alice"), storage.AI("minimax")
	changes := Play(t, s, storage.Kind("connect4"), alice, bot, 0)
	if len(changes) != 4 {
		t.Fatalf("%d rating changes, want 4 (2 players × global and guild ladders)", len(changes))
	}
	for _, c := range changes {
		moved := c.After.Rating > c.Before.Rating
		if moved != (c.After.Player == alice) || c.After.Games != 1 || c.Before.Games != 0 {
			t.Fatalf("change in %s: %+v → %+v", c.Ladder, c.Before, c.After)
		}
	}
	for _, l := range []storage.Ladder{storage.Global(storage.Kind("connect4")), {Kind: storage.Kind("connect4"), Guild: "g1"}} {
		v, err := s.Rank(ctx, l, alice, 1)
		if err != nil {
			t.Fatal(err)
		}
		if v.Player.Rating.Wins != 1 || !v.Player.Rating.Provisional() || v.Player.Rank != 0 {
			t.Fatalf("alice in %s: %+v, want one provisional win", l, v.Player)
		}
	}
	if _, err := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), alice, 1); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("rank in an unplayed ladder: %v, want ErrNotFound", err)
	}
	// After one game the board lists the AI, established at its fixed
	// rating, and below it alice, provisional and unranked.
	top, err := s.Leaderboard(ctx, storage.Global(storage.Kind("connect4")), 10)
	if err != nil || len(top) != 2 || top[0].Rating.Player != bot || top[0].Rank != 1 ||
		top[1].Rating.Player != alice || top[1].Rank != 0 || !top[1].Rating.Provisional() {
		t.Fatalf("leaderboard after one game: %+v, %v", top, err)
	}
	if top, err := s.Leaderboard(ctx, storage.Global(storage.Kind("connect4")), 1); err != nil || len(top) != 1 || top[0].Rating.Player != bot {
		t.Fatalf("leaderboard of one: %+v, %v", top, err)
	}
}

// testLeaderboardAndRank settles a small ladder: players who beat the AI
// more often rank higher, provisional players are listed after the
// established ones, unranked.
func testLeaderboardAndRank(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	kind := storage.Kind("adjacency")
	l := storage.Global(kind)
	bot := storage.AI("minimax")
	// Player p<i> beats the bot in i of every 5 games, 25 games each, so the
	// ratings settle in the order p4 > p3 > p2 > p1 > p0.
	for round := range 25 {
		for i := range 5 {
			winner := 1
			if round%5 < i {
				winner = 0
			}
			Play(t, s, kind, storage.User(fmt.Sprintf("p%d", i)), bot, winner)
		}
	}
	newcomer := storage.User("newcomer")
	Play(t, s, kind, newcomer, bot, 0)

	top, err := s.Leaderboard(ctx, l, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(top) != 3 || top[0].Rank != 1 || top[2].Rank != 3 || top[0].Rating.Player != storage.User("p4") {
		t.Fatalf("top 3: %+v", top)
	}
	all, _ := s.Leaderboard(ctx, l, 100)
	// p1…p4 and the bot, then the newcomer.
	// p1…p4 and the bot, established, then the newcomer and p0 (losing every
	// game to a much stronger opponent says little, so p0's deviation stays
	// above 110), provisional.
	established := slices.IndexFunc(all, func(st storage.Standing) bool { return st.Rank == 0 })
	if established != 5 || len(all) != 7 {
		t.Fatalf("leaderboard: %+v, want 5 established ratings, then 2 provisional", all)
	}
	for i, st := range all[established:] {
		if st.Rank != 0 || !st.Rating.Provisional() || (i > 0 && st.Rating.Rating > all[established+i-1].Rating.Rating) {
			t.Fatalf("provisional part of the leaderboard: %+v", all[established:])
		}
	}
	if all[5].Rating.Player != newcomer || all[6].Rating.Player != storage.User("p0") {
		t.Fatalf("provisional players %s and %s, want the newcomer and p0", all[5].Rating.Player, all[6].Rating.Player)
	}
	all = all[:established]
	for i := 1; i < len(all); i++ {
		if all[i].Rating.Rating > all[i-1].Rating.Rating || all[i].Rank != i+1 {
			t.Fatalf("leaderboard out of order at %d: %+v", i, all)
		}
	}
	for i, st := range all {
		if st.Rating.Player == newcomer || st.Rating.Provisional() {
			t.Fatalf("provisional rating on the leaderboard: %+v", st)
		}
		v, err := s.Rank(ctx, l, st.Rating.Player, 2)
		if err != nil {
			t.Fatal(err)
		}
		if v.Player.Rank != i+1 {
			t.Fatalf("%s ranks %d, leaderboard says %d", st.Rating.Player, v.Player.Rank, i+1)
		}
		wantAbove, wantBelow := min(i, 2), min(len(all)-i-1, 2)
		if len(v.Above) != wantAbove || len(v.Below) != wantBelow {
			t.Fatalf("%s has %d above and %d below, want %d and %d", st.Rating.Player, len(v.Above), len(v.Below), wantAbove, wantBelow)
		}
		for j, n := range v.Above {
			if n != all[i-wantAbove+j] {
				t.Fatalf("neighbour above %d of %s: %+v, want %+v", j, st.Rating.Player, n, all[i-wantAbove+j])
			}
		}
		for j, n := range v.Below {
			if n != all[i+1+j] {
				t.Fatalf("neighbour below %d of %s: %+v, want %+v", j, st.Rating.Player, n, all[i+1+j])
			}
		}
	}
	v, _ := s.Rank(ctx, l, newcomer, 2)
	if v.Player.Rank != 0 || len(v.Above)+len(v.Below) != 0 || !v.Player.Rating.Provisional() {
		t.Fatalf("newcomer's view %+v: want provisional, unranked", v)
	}
}

// testAIRatingsStayFixed plays a human against AIs: the human's rating
// moves, each AI plays at its fixed rating (minimax's calibrated one, an
// uncalibrated strategy's the default) and only its record changes.
func testAIRatingsStayFixed(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	kind := storage.Kind("connect4")
	alice := storage.User("alice")
	for _, ai := range []struct {
		id    storage.PlayerID
		fixed float64
	}{{storage.AI("minimax"), MinimaxRating}, {storage.AI("random"), storage.DefaultAIRating}} {
		for game, winner := range []int{0, 1, 1, storage.Draw} {
			var human, bot storage.RatingChange
			for _, c := range Play(t, s, kind, alice, ai.id, winner) {
				if c.Ladder != storage.Global(kind) {
					continue
				}
				if c.After.Player == alice {
					human = c
				} else {
					bot = c
				}
			}
			for _, r := range []storage.Rating{bot.Before, bot.After} {
				if r.Player != ai.id || r.Rating != ai.fixed || r.Deviation != storage.AIDeviation || r.Provisional() {
					t.Fatalf("%s in game %d: %+v, want fixed at %v ± %v", ai.id, game, r, ai.fixed, storage.AIDeviation)
				}
			}
			if bot.After.Games != game+1 || bot.After.Games != bot.After.Wins+bot.After.Losses+bot.After.Draws {
				t.Fatalf("%s's record after %d games: %+v", ai.id, game+1, bot.After)
			}
			// The human's change is the Glicko-2 update against the fixed rating.
			want := human.Before.Apply(bot.Before, storage.Result{Winner: winner}.Score(0), human.After.UpdatedAt)
			if human.After != want || human.After.Rating == human.Before.Rating {
				t.Fatalf("alice in game %d against %s: %+v → %+v, want %+v", game, ai.id, human.Before, human.After, want)
			}
		}
		v, err := s.Rank(ctx, storage.Global(kind), ai.id, 0)
		if err != nil || v.Player.Rating.Rating != ai.fixed || v.Player.Rating.Deviation != storage.AIDeviation || v.Player.Rating.Games != 4 {
			t.Fatalf("stored rating of %s: %+v, %v", ai.id, v.Player, err)
		}
	}
}

// testHumanVsHumanMovesBoth checks that a game between two people rates
// both by the plain Glicko-2 update, from 1500 ± 350 to 1500 ± 162.
func testHumanVsHumanMovesBoth(t *testing.T, o Opener) {
	s, _ := openTest(t, o)
	alice, bob := storage.User("alice"), storage.User("bob")
	changes := Play(t, s, storage.Kind("tictactoe"), alice, bob, 0)
	if len(changes) != 4 {
		t.Fatalf("%d rating changes, want 4", len(changes))
	}
	for _, c := range changes {
		opp := storage.NewRating(bob)
		score := 1.0
		if c.After.Player == bob {
			opp, score = storage.NewRating(alice), 0
		}
		want := storage.NewRating(c.After.Player).Apply(opp, score, c.After.UpdatedAt)
		if c.After != want || math.Abs(math.Abs(c.After.Rating-1500)-162) > 1 {
			t.Fatalf("%s in %s: %+v, want %+v", c.After.Player, c.Ladder, c.After, want)
		}
	}
}

func testDeleteUser(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	alice, bob := storage.User("alice"), storage.User("bob")
	finished := MustCreate(t, s, UserVsUser(storage.Kind("tictactoe"), "alice", "bob"))
	finished.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, finished, storage.Result{Winner: 0}); err != nil {
		t.Fatal(err)
	}
	open := MustCreate(t, s, UserVsAI(storage.Kind("connect4"), "alice"))
	kept := MustCreate(t, s, UserVsAI(storage.Kind("connect4"), "bob"))
	bobBefore, _ := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), bob, 0)

	rep, err := s.DeleteUser(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Removed) != 1 || rep.Removed[0].ID != open.ID || rep.Anonymised != 1 || rep.Ratings != 2 {
		t.Fatalf("report %+v: want the open game removed, 1 game anonymised, 2 ratings removed", rep)
	}
	if _, err := s.Game(ctx, open.ID); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("alice's open game still loads: %v", err)
	}
	g, err := s.Game(ctx, finished.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g.Players[0] != (storage.Player{ID: storage.Anonymous}) || g.Players[1].ID != bob || g.Version != finished.Version+1 {
		t.Fatalf("finished game after deletion: players %+v version %d", g.Players, g.Version)
	}
	if h, _ := s.History(ctx, bob, 0); len(h) != 1 || h[0].ID != finished.ID {
		t.Fatalf("bob lost the game from his history: %v", IDs(h))
	}
	if h, _ := s.History(ctx, alice, 0); len(h) != 0 {
		t.Fatalf("alice still has history %v", IDs(h))
	}
	if _, err := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), alice, 0); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("alice is still rated: %v", err)
	}
	bobAfter, _ := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), bob, 0)
	if bobAfter.Player.Rating != bobBefore.Player.Rating {
		t.Fatal("deleting alice changed bob's rating")
	}
	if _, err := s.Game(ctx, kept.ID); err != nil {
		t.Fatalf("bob's game went with alice: %v", err)
	}
}

// testRatingsNeverCountTwice replays a stale FinishGame after a successful
// one: it fails and the ratings stay as they were.
func testRatingsNeverCountTwice(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	g := MustCreate(t, s, UserVsAI(storage.Kind("tictactoe"), "alice"))
	retry := *g
	g.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: 0}); err != nil {
		t.Fatal(err)
	}
	retry.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, &retry, storage.Result{Winner: 0}); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("replayed finish: %v, want ErrConflict", err)
	}
	v, _ := s.Rank(ctx, storage.Global(storage.Kind("tictactoe")), storage.User("alice"), 0)
	if v.Player.Rating.Games != 1 {
		t.Fatalf("alice has %d rated games, want 1", v.Player.Rating.Games)
	}
}

// testCasualAbortedAndAgreedDraws: a casual game ends with a result and in
// history but moves no rating; an aborted game has neither and leaves every
// list; a draw offer is kept with the game, cleared when it closes, and a
// draw agreed is rated as a draw; the rated default of guild settings is
// kept.
func testCasualAbortedAndAgreedDraws(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	alice, bob := storage.User("alice"), storage.User("bob")
	ttt := storage.Kind("tictactoe")

	casual := UserVsUser(ttt, "alice", "bob")
	casual.Settings.Casual = true
	MustCreate(t, s, casual)
	casual.Status = storage.StatusFinished
	if changes, err := s.FinishGame(ctx, casual, storage.Result{Winner: 0}); err != nil || len(changes) != 0 {
		t.Fatalf("finishing a casual game: changes %+v, %v; want none", changes, err)
	}
	if _, err := s.Rank(ctx, storage.Global(ttt), alice, 0); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("alice is rated after a casual game: %v", err)
	}
	if hist, err := s.History(ctx, alice, 0); err != nil || !slices.Equal(IDs(hist), []storage.GameID{casual.ID}) {
		t.Errorf("history after a casual game: %v, %v", IDs(hist), err)
	}
	if got, err := s.Game(ctx, casual.ID); err != nil || !got.Settings.Casual {
		t.Errorf("casual game reloaded: %+v, %v", got, err)
	}

	aborted := UserVsAI(ttt, "alice")
	aborted.Moves = []string{"5", "1", "9"}
	MustCreate(t, s, aborted)
	aborted.Status = storage.StatusAborted
	if err := s.UpdateGame(ctx, aborted); err != nil {
		t.Fatalf("aborting: %v", err)
	}
	if open, err := s.ActiveGames(ctx, alice); err != nil || len(open) != 0 {
		t.Errorf("open games after aborting: %v, %v", IDs(open), err)
	}
	if hist, err := s.History(ctx, alice, 0); err != nil || len(hist) != 1 {
		t.Errorf("history after aborting: %v, %v; want the casual game alone", IDs(hist), err)
	}
	late := UserVsAI(ttt, "alice")
	late.Moves = []string{"5", "1", "9", "3"}
	MustCreate(t, s, late)
	late.Status = storage.StatusAborted
	if err := s.UpdateGame(ctx, late); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("aborting after each side moved twice: %v, want ErrInvalid", err)
	}

	drawn := UserVsUser(ttt, "alice", "bob")
	drawn.Moves = []string{"5"}
	MustCreate(t, s, drawn)
	drawn.DrawOffer = &storage.DrawOffer{Seat: 1, Ply: 1}
	if err := s.UpdateGame(ctx, drawn); err != nil {
		t.Fatalf("offering a draw: %v", err)
	}
	if got, err := s.Game(ctx, drawn.ID); err != nil || got.DrawOffer == nil || *got.DrawOffer != (storage.DrawOffer{Seat: 1, Ply: 1}) {
		t.Fatalf("draw offer reloaded: %+v, %v", got, err)
	}
	drawn.Status = storage.StatusFinished
	changes, err := s.FinishGame(ctx, drawn, storage.Result{Winner: storage.Draw, Outcome: storage.DrawAgreed})
	if err != nil || len(changes) != 4 {
		t.Fatalf("agreeing a draw: %d changes, %v; want 4", len(changes), err)
	}
	if got, err := s.Game(ctx, drawn.ID); err != nil || got.DrawOffer != nil || got.Result.Outcome != storage.DrawAgreed {
		t.Fatalf("agreed draw reloaded: %+v, %v", got, err)
	}
	for _, p := range []storage.PlayerID{alice, bob} {
		if v, err := s.Rank(ctx, storage.Global(ttt), p, 0); err != nil || v.Player.Rating.Draws != 1 || v.Player.Rating.Games != 1 {
			t.Errorf("%s after a draw agreed: %+v, %v; want one draw", p, v.Player.Rating, err)
		}
	}

	if err := s.PutGuildSettings(ctx, "g1", storage.GuildSettings{Casual: true}); err != nil {
		t.Fatal(err)
	}
	if gs, err := s.GuildSettings(ctx, "g1"); err != nil || !gs.Casual {
		t.Errorf("guild settings reloaded: %+v, %v; want casual", gs, err)
	}
}
