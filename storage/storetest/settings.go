package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// testBoardForms checks the board form of a guild's settings and a
// user's own: unset they are the default, saved they read back after a
// restart, an unknown form is refused, and erasing the user erases theirs.
func testBoardForms(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	if us, err := s.UserSettings(ctx, "alice"); err != nil || us != (storage.UserSettings{}) {
		t.Fatalf("unset user settings %+v, %v: want the zero value", us, err)
	}
	if err := s.PutGuildSettings(ctx, "g1", storage.GuildSettings{Board: storage.BoardBoth}); err != nil {
		t.Fatal(err)
	}
	for user, form := range map[string]storage.BoardForm{"alice": storage.BoardEmoji, "bob": storage.BoardPicture} {
		if err := s.PutUserSettings(ctx, user, storage.UserSettings{Board: form}); err != nil {
			t.Fatal(err)
		}
	}
	s.Admin = s.reopen()
	if gs, err := s.GuildSettings(ctx, "g1"); err != nil || gs.Board != storage.BoardBoth {
		t.Fatalf("guild settings after a restart %+v, %v: want the board in both forms", gs, err)
	}
	if us, err := s.UserSettings(ctx, "alice"); err != nil || us.Board != storage.BoardEmoji {
		t.Fatalf("alice's settings after a restart %+v, %v: want the emoji grid", us, err)
	}
	if err := s.PutUserSettings(ctx, "alice", storage.UserSettings{Board: "ascii"}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("an unknown board form saved: %v, want ErrInvalid", err)
	}
	if err := s.PutGuildSettings(ctx, "g1", storage.GuildSettings{Board: "ascii"}); !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("an unknown board form saved for a guild: %v, want ErrInvalid", err)
	}
	if _, err := s.DeleteUser(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if us, err := s.UserSettings(ctx, "alice"); err != nil || us != (storage.UserSettings{}) {
		t.Fatalf("alice's settings after erasing her %+v, %v: want none", us, err)
	}
	if us, err := s.UserSettings(ctx, "bob"); err != nil || us.Board != storage.BoardPicture {
		t.Fatalf("bob's settings after erasing alice %+v, %v: want his picture", us, err)
	}
}

// testUpdateGuildSettings checks UpdateGuildSettings: it starts from the
// zero settings, changes only what change edits, returns what it saved,
// which reads back after a restart; a change that fails or leaves
// invalid settings saves nothing, and the empty guild ID is refused.
func testUpdateGuildSettings(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	got, err := s.UpdateGuildSettings(ctx, "g1", func(gs *storage.GuildSettings) error {
		if !reflect.DeepEqual(*gs, storage.GuildSettings{}) {
			t.Errorf("a guild without settings is changed from %+v, want the zero value", *gs)
		}
		gs.MoveTime = 3 * time.Second
		return nil
	})
	if err != nil || got.MoveTime != 3*time.Second {
		t.Fatalf("first update: %+v, %v", got, err)
	}
	got, err = s.UpdateGuildSettings(ctx, "g1", func(gs *storage.GuildSettings) error {
		gs.Board = storage.BoardEmoji
		return nil
	})
	want := storage.GuildSettings{MoveTime: 3 * time.Second, Board: storage.BoardEmoji}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("second update: %+v, %v; want %+v", got, err, want)
	}
	boom := errors.New("boom")
	if _, err := s.UpdateGuildSettings(ctx, "g1", func(gs *storage.GuildSettings) error {
		gs.Casual = true
		return boom
	}); !errors.Is(err, boom) {
		t.Errorf("a failing change: %v, want its error", err)
	}
	if _, err := s.UpdateGuildSettings(ctx, "g1", func(gs *storage.GuildSettings) error {
		gs.Casual, gs.Board = true, "ascii"
		return nil
	}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a change to an unknown board form: %v, want ErrInvalid", err)
	}
	if _, err := s.UpdateGuildSettings(ctx, "", func(*storage.GuildSettings) error { return nil }); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("settings of the empty guild ID: %v, want ErrInvalid", err)
	}
	if _, err := s.UpdateGuildSettings(ctx, "g2", func(*storage.GuildSettings) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("a failing change of a new guild: %v, want its error", err)
	}
	s.Admin = s.reopen()
	if gs, err := s.GuildSettings(ctx, "g1"); err != nil || !reflect.DeepEqual(gs, want) {
		t.Errorf("after the failed changes and a restart: %+v, %v; want %+v", gs, err, want)
	}
	if channels, err := s.DailyChannels(ctx); err != nil || len(channels) != 0 {
		t.Errorf("daily channels %v, %v; want none", channels, err)
	}
}

// testRacingGuildSettingsUpdates runs many UpdateGuildSettings of one
// guild at once, each changing its own field or adding to one, as admins
// sending /settings together would: no change is lost.
func testRacingGuildSettingsUpdates(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	const rounds, adds = 5, 16
	fields := []func(*storage.GuildSettings){
		func(gs *storage.GuildSettings) { gs.TurnTimeout = time.Hour },
		func(gs *storage.GuildSettings) { gs.AllowedGames = []storage.Kind{"connect4"} },
		func(gs *storage.GuildSettings) { gs.Casual = true },
		func(gs *storage.GuildSettings) { gs.Board = storage.BoardBoth },
		func(gs *storage.GuildSettings) { gs.DailyChannel = "c1" },
	}
	want := storage.GuildSettings{MoveTime: adds * time.Millisecond, TurnTimeout: time.Hour,
		AllowedGames: []storage.Kind{"connect4"}, Casual: true, Board: storage.BoardBoth, DailyChannel: "c1"}
	for round := range rounds {
		guild := fmt.Sprintf("g%d", round)
		begin := make(chan struct{})
		var wg sync.WaitGroup
		errs := make(chan error, adds+len(fields))
		update := func(edit func(*storage.GuildSettings)) {
			wg.Go(func() {
				<-begin
				_, err := s.UpdateGuildSettings(ctx, guild, func(gs *storage.GuildSettings) error {
					edit(gs)
					return nil
				})
				errs <- err
			})
		}
		for range adds {
			update(func(gs *storage.GuildSettings) { gs.MoveTime += time.Millisecond })
		}
		for _, f := range fields {
			update(f)
		}
		close(begin)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if gs, err := s.GuildSettings(ctx, guild); err != nil || !reflect.DeepEqual(gs, want) {
			t.Errorf("round %d: %+v, %v; want every change: %+v", round, gs, err, want)
		}
	}
}
