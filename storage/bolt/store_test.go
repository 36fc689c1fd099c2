package bolt

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// clock is a settable time source for deadline tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// openTest opens a store in a fresh temporary directory with a fake clock
// and closes it (checking its invariants) at the end of the test.
func openTest(t testing.TB) (*Store, *clock) {
	t.Helper()
	clk := &clock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
	s, err := Open(filepath.Join(t.TempDir(), "gambit.db"), &Options{Clock: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if problems, err := s.Check(context.Background()); err != nil || len(problems) > 0 {
			t.Errorf("Check at end of test: %v %q", err, problems)
		}
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s, clk
}

func userVsAI(kind storage.Kind, user string) *storage.Game {
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

func userVsUser(kind storage.Kind, a, b string) *storage.Game {
	g := userVsAI(kind, a)
	g.Players[1] = storage.Player{ID: storage.User(b), Name: b}
	return g
}

func mustCreate(t testing.TB, s *Store, g *storage.Game) *storage.Game {
	t.Helper()
	if err := s.CreateGame(context.Background(), g, storage.Limits{}); err != nil {
		t.Fatal(err)
	}
	return g
}

func ids(games []*storage.Game) []storage.GameID {
	var out []storage.GameID
	for _, g := range games {
		out = append(out, g.ID)
	}
	return out
}

func TestCreateLoadUpdate(t *testing.T) {
	ctx := context.Background()
	s, clk := openTest(t)
	g := mustCreate(t, s, userVsAI(storage.Kind("tictactoe"), "alice"))
	if g.ID != "00000001" || g.Version != 1 || !g.CreatedAt.Equal(clk.now()) {
		t.Fatalf("created game id %q version %d created %v", g.ID, g.Version, g.CreatedAt)
	}
	second := mustCreate(t, s, userVsAI(storage.Kind("tictactoe"), "bob"))
	if second.ID <= g.ID {
		t.Fatalf("ids do not sort by creation: %q then %q", g.ID, second.ID)
	}

	clk.advance(time.Minute)
	g.Moves = append(g.Moves, "b2")
	g.Position = "....X...."
	g.Turn = 1
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if g.Version != 2 || !g.UpdatedAt.Equal(clk.now()) {
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

func TestStaleVersionConflicts(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	g := mustCreate(t, s, userVsUser(storage.Kind("connect4"), "alice", "bob"))
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

// TestRacingUpdates races two writers on one game many times: exactly one
// of each pair wins and the other gets ErrConflict.
func TestRacingUpdates(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	g := mustCreate(t, s, userVsUser(storage.Kind("tictactoe"), "alice", "bob"))
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

func TestStatusRules(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)

	bad := userVsAI(storage.Kind("tictactoe"), "alice")
	bad.Status = storage.StatusFinished
	if err := s.CreateGame(ctx, bad, storage.Limits{}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("creating a finished game: %v, want ErrInvalid", err)
	}
	bad = userVsAI("Chess 960", "alice")
	if err := s.CreateGame(ctx, bad, storage.Limits{}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("creating a game of a malformed kind: %v, want ErrInvalid", err)
	}

	g := mustCreate(t, s, userVsAI(storage.Kind("tictactoe"), "alice"))
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
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: 1, Reason: "timeout"}); err != nil {
		t.Fatal(err)
	}
	g.Status = storage.StatusForfeited
	if err := s.UpdateGame(ctx, g); !errors.Is(err, storage.ErrGameOver) {
		t.Fatalf("updating a forfeited game: %v, want ErrGameOver", err)
	}

	c := userVsUser(storage.Kind("connect4"), "alice", "bob")
	c.Status = storage.StatusPending
	mustCreate(t, s, c)
	c.Status = storage.StatusActive
	if _, err := s.FinishGame(ctx, c, storage.Result{Winner: 0}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("finishing a pending challenge: %v, want ErrInvalid", err)
	}
	c.Status = storage.StatusDeclined
	if err := s.UpdateGame(ctx, c); err != nil {
		t.Fatalf("declining a challenge: %v", err)
	}
}

func TestIndexesFollowTheGame(t *testing.T) {
	ctx := context.Background()
	s, clk := openTest(t)
	alice := storage.User("alice")

	challenge := userVsUser(storage.Kind("connect4"), "alice", "bob")
	challenge.Status = storage.StatusPending
	challenge.Deadline = clk.now().Add(5 * time.Minute)
	mustCreate(t, s, challenge)
	ai := mustCreate(t, s, userVsAI(storage.Kind("adjacency"), "alice"))
	other := mustCreate(t, s, userVsAI(storage.Kind("tictactoe"), "carol"))

	active, err := s.ActiveGames(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	if want := []storage.GameID{challenge.ID, ai.ID}; !slices.Equal(ids(active), want) {
		t.Fatalf("alice's active games %v, want %v", ids(active), want)
	}
	// A prefix of a player id must not match another player.
	if active, _ := s.ActiveGames(ctx, storage.User("alic")); len(active) != 0 {
		t.Fatalf("user alic sees %v", ids(active))
	}

	if waiting, _ := s.AwaitingAI(ctx); len(waiting) != 0 {
		t.Fatalf("awaiting AI before any move: %v", ids(waiting))
	}
	ai.Turn = 1
	if err := s.UpdateGame(ctx, ai); err != nil {
		t.Fatal(err)
	}
	other.Turn = 1
	if err := s.UpdateGame(ctx, other); err != nil {
		t.Fatal(err)
	}
	waiting, _ := s.AwaitingAI(ctx)
	if want := []storage.GameID{ai.ID, other.ID}; !slices.Equal(ids(waiting), want) {
		t.Fatalf("awaiting AI %v, want %v", ids(waiting), want)
	}

	if due, _ := s.DueGames(ctx); len(due) != 0 {
		t.Fatalf("due before the deadline: %v", ids(due))
	}
	clk.advance(5 * time.Minute)
	due, _ := s.DueGames(ctx)
	if want := []storage.GameID{challenge.ID}; !slices.Equal(ids(due), want) {
		t.Fatalf("due at the deadline %v, want %v", ids(due), want)
	}
	challenge.Status = storage.StatusExpired
	if err := s.UpdateGame(ctx, challenge); err != nil {
		t.Fatal(err)
	}
	if !challenge.Deadline.IsZero() {
		t.Fatalf("expired challenge kept its deadline %v", challenge.Deadline)
	}
	if due, _ := s.DueGames(ctx); len(due) != 0 {
		t.Fatalf("due after expiry: %v", ids(due))
	}

	ai.Status = storage.StatusFinished
	ai.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, ai, storage.Result{Winner: 0}); err != nil {
		t.Fatal(err)
	}
	if active, _ := s.ActiveGames(ctx, alice); len(active) != 0 {
		t.Fatalf("alice still has active games %v", ids(active))
	}
	if waiting, _ := s.AwaitingAI(ctx); !slices.Equal(ids(waiting), []storage.GameID{other.ID}) {
		t.Fatalf("awaiting AI after finishing: %v", ids(waiting))
	}
	hist, err := s.History(ctx, alice, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids(hist), []storage.GameID{ai.ID}) || hist[0].Result.Winner != 0 {
		t.Fatalf("alice's history %v", ids(hist))
	}
}

func TestHistoryNewestFirstWithLimit(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	var finished []storage.GameID
	for range 5 {
		g := mustCreate(t, s, userVsAI(storage.Kind("tictactoe"), "alice"))
		g.Status = storage.StatusFinished
		if _, err := s.FinishGame(ctx, g, storage.Result{Winner: storage.Draw}); err != nil {
			t.Fatal(err)
		}
		finished = append(finished, g.ID)
	}
	mustCreate(t, s, userVsAI(storage.Kind("tictactoe"), "alice")) // still active: not history
	slices.Reverse(finished)
	hist, err := s.History(ctx, storage.User("alice"), 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids(hist), finished[:3]) {
		t.Fatalf("history %v, want %v", ids(hist), finished[:3])
	}
	all, _ := s.History(ctx, storage.AI("minimax"), 0)
	if !slices.Equal(ids(all), finished) {
		t.Fatalf("AI history %v, want %v", ids(all), finished)
	}
}

func TestGuildSettings(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
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

func TestCancelledContext(t *testing.T) {
	s, _ := openTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.CreateGame(ctx, userVsAI(storage.Kind("tictactoe"), "alice"), storage.Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("create with a cancelled context: %v", err)
	}
	if _, err := s.ActiveGames(ctx, storage.User("alice")); !errors.Is(err, context.Canceled) {
		t.Fatalf("list with a cancelled context: %v", err)
	}
}

func TestCountOpenCountsEachGameOnce(t *testing.T) {
	ctx := context.Background()
	s, clk := openTest(t)
	count := func(wantPending, wantActive int) {
		t.Helper()
		p, a, err := s.CountOpen(ctx)
		if err != nil || p != wantPending || a != wantActive {
			t.Fatalf("CountOpen = %d pending, %d active, %v; want %d, %d", p, a, err, wantPending, wantActive)
		}
	}
	count(0, 0)
	challenge := userVsUser(storage.Kind("connect4"), "alice", "bob")
	challenge.Status = storage.StatusPending
	challenge.Deadline = clk.now().Add(time.Minute)
	mustCreate(t, s, challenge)
	mustCreate(t, s, userVsUser(storage.Kind("tictactoe"), "alice", "bob"))
	ai := mustCreate(t, s, userVsAI(storage.Kind("adjacency"), "carol"))
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
