package storetest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// testDailyAttempts plays a server's daily puzzle through: an attempt
// begins at the first change, keeps its hints, ends solved and never
// changes again; the day's list holds everyone's, the earliest first; the
// solved days make a streak; all of it outlives a restart, and erasing a
// member erases their attempts.
func testDailyAttempts(t *testing.T, o Opener) {
	ctx := context.Background()
	s, clk := openTest(t, o)
	alice, bob := storage.Player{ID: storage.User("alice"), Name: "Alice"}, storage.Player{ID: storage.User("bob"), Name: "Bob"}
	if _, err := s.DailyAttempt(ctx, "g1", "2025-03-01", alice.ID); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("an attempt nobody began: %v, want ErrNotFound", err)
	}
	hint := func(a *storage.DailyAttempt) error { a.Hints++; return nil }
	for range 2 {
		if _, err := s.UpdateDailyAttempt(ctx, "g1", "2025-03-01", alice, hint); err != nil {
			t.Fatal(err)
		}
	}
	clk.Advance(time.Minute)
	if _, err := s.UpdateDailyAttempt(ctx, "g1", "2025-03-01", bob, func(a *storage.DailyAttempt) error {
		a.Status, a.Moves = storage.DailySolved, 1
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	a, err := s.UpdateDailyAttempt(ctx, "g1", "2025-03-01", alice, func(a *storage.DailyAttempt) error {
		if a.Hints != 2 || a.Status != storage.DailyPlaying {
			t.Errorf("alice's attempt before her solve: %+v, want playing with 2 hints", a)
		}
		a.Status, a.GameID = storage.DailySolved, "g0001"
		return nil
	})
	if err != nil || a.Status != storage.DailySolved || a.Hints != 2 || a.GameID != "g0001" || a.Player != alice || !a.UpdatedAt.Equal(clk.Now()) {
		t.Fatalf("alice's solve: %+v, %v", a, err)
	}
	called := false
	if _, err := s.UpdateDailyAttempt(ctx, "g1", "2025-03-01", alice, func(*storage.DailyAttempt) error { called = true; return nil }); !errors.Is(err, storage.ErrGameOver) || called {
		t.Fatalf("a change to a solved attempt: %v (change called: %v), want ErrGameOver without the call", err, called)
	}
	boom := errors.New("boom")
	if _, err := s.UpdateDailyAttempt(ctx, "g1", "2025-03-02", alice, func(a *storage.DailyAttempt) error { a.Hints = 9; return boom }); !errors.Is(err, boom) {
		t.Fatalf("a failing change: %v, want it returned", err)
	}
	if _, err := s.DailyAttempt(ctx, "g1", "2025-03-02", alice.ID); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("a failing change saved an attempt: %v", err)
	}
	if _, err := s.UpdateDailyAttempt(ctx, "g1", "2025-03-02", alice, func(a *storage.DailyAttempt) error { a.Hints = -1; return nil }); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("a negative hint count: %v, want ErrInvalid", err)
	}
	if _, err := s.UpdateDailyAttempt(ctx, "g1", "1 March", alice, hint); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("a day that is no date: %v, want ErrInvalid", err)
	}
	// Alice solved the 27th and 28th of February too, and in another
	// server the 29th… of no year: her streak in g1 is three days.
	for _, day := range []string{"2025-02-27", "2025-02-28", "2025-02-25"} {
		if _, err := s.UpdateDailyAttempt(ctx, "g1", day, alice, func(a *storage.DailyAttempt) error { a.Status = storage.DailySolved; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.UpdateDailyAttempt(ctx, "g2", "2025-03-01", alice, func(a *storage.DailyAttempt) error { a.Status = storage.DailyGaveUp; return nil }); err != nil {
		t.Fatal(err)
	}

	s.Admin = s.reopen()
	list, err := s.DailyAttempts(ctx, "g1", "2025-03-01")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Player != bob || list[1].Player != alice || list[1].Hints != 2 {
		t.Fatalf("the day's attempts after a restart: %+v, want bob's solve then alice's with 2 hints", list)
	}
	days, err := s.DailySolvedDays(ctx, "g1", alice.ID, 0)
	if want := []string{"2025-03-01", "2025-02-28", "2025-02-27", "2025-02-25"}; err != nil || !slices.Equal(days, want) {
		t.Fatalf("alice's solved days %v, %v; want %v", days, err, want)
	}
	if days, err := s.DailySolvedDays(ctx, "g1", alice.ID, 2); err != nil || len(days) != 2 || days[0] != "2025-03-01" {
		t.Fatalf("alice's two newest solved days %v, %v", days, err)
	}
	if n := storage.Streak(days, "2025-03-01"); n != 3 {
		t.Errorf("alice's streak %d, want 3", n)
	}
	if days, err := s.DailySolvedDays(ctx, "g2", alice.ID, 0); err != nil || len(days) != 0 {
		t.Fatalf("alice gave up in g2 but solved %v, %v", days, err)
	}

	if _, err := s.DeleteUser(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if list, err := s.DailyAttempts(ctx, "g1", "2025-03-01"); err != nil || len(list) != 1 || list[0].Player != bob {
		t.Fatalf("the day's attempts after erasing alice: %+v, %v; want bob's alone", list, err)
	}
	if days, err := s.DailySolvedDays(ctx, "g1", alice.ID, 0); err != nil || len(days) != 0 {
		t.Fatalf("alice's solved days after erasing her: %v, %v", days, err)
	}
}

// testRacingDailyChanges counts hints from many goroutines at once on one
// attempt: none is lost.
func testRacingDailyChanges(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	alice := storage.Player{ID: storage.User("alice")}
	const n = 16
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if _, err := s.UpdateDailyAttempt(ctx, "g1", "2025-03-01", alice, func(a *storage.DailyAttempt) error { a.Hints++; return nil }); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if a, err := s.DailyAttempt(ctx, "g1", "2025-03-01", alice.ID); err != nil || a.Hints != n {
		t.Fatalf("after %d hints at once: %+v, %v", n, a, err)
	}
}

// testDailyPostsAndChannels claims a server's daily post from many
// goroutines (one gets it, also after a restart) and lists the servers
// that chose a daily channel.
func testDailyPostsAndChannels(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		wins int
	)
	for range 8 {
		wg.Go(func() {
			ok, err := s.ClaimDailyPost(ctx, "g1", "2025-03-01")
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d claims of one daily post succeeded, want 1", wins)
	}
	s.Admin = s.reopen()
	if ok, err := s.ClaimDailyPost(ctx, "g1", "2025-03-01"); err != nil || ok {
		t.Fatalf("a daily post claimed again after a restart: %v, %v", ok, err)
	}
	if ok, err := s.ClaimDailyPost(ctx, "g1", "2025-03-02"); err != nil || !ok {
		t.Fatalf("the next day's post: %v, %v", ok, err)
	}
	if _, err := s.ClaimDailyPost(ctx, "g1", "tomorrow"); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("a post on no date: %v, want ErrInvalid", err)
	}

	if got, err := s.DailyChannels(ctx); err != nil || len(got) != 0 {
		t.Fatalf("daily channels of an empty store: %v, %v", got, err)
	}
	for g, ch := range map[string]string{"g1": "c1", "g2": "", "g3": "c3"} {
		if err := s.PutGuildSettings(ctx, g, storage.GuildSettings{DailyChannel: ch, Casual: true}); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.DailyChannels(ctx); err != nil || len(got) != 2 || got["g1"] != "c1" || got["g3"] != "c3" {
		t.Fatalf("daily channels %v, %v; want g1 and g3", got, err)
	}
}
