package storetest

import (
	"context"
	"errors"
	"testing"

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
