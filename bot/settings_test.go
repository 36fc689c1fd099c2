package bot_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// TestConcurrentSettingsKeepBothChanges: two admins send /settings at the
// same moment, one movetime:7 and the other rated:false, 20 rounds over:
// both are told their settings were saved, and both changes are kept in
// every round, because each command changes only the fields it names.
func TestConcurrentSettingsKeepBothChanges(t *testing.T) {
	t.Parallel()
	concurrentSettings(t, start(t))
}

// TestConcurrentSettingsKeepBothChangesOnPostgres is
// TestConcurrentSettingsKeepBothChanges with the bot on PostgreSQL.
func TestConcurrentSettingsKeepBothChangesOnPostgres(t *testing.T) {
	t.Parallel()
	concurrentSettings(t, start(t, withPostgres()))
}

// concurrentSettings runs the rounds of TestConcurrentSettingsKeepBothChanges.
func concurrentSettings(t *testing.T, h *harness) {
	const rounds = 20
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	guild := h.srv.GuildID()
	ctx := context.Background()
	kept := 0
	for round := range rounds {
		if err := h.db().PutGuildSettings(ctx, guild, storage.GuildSettings{Board: storage.BoardEmoji}); err != nil {
			t.Fatal(err)
		}
		cmds := []discordtest.SlashCommand{
			{UserID: alice, Name: "settings", Options: []discordtest.Option{opt("movetime", 7)}},
			{UserID: bob, Name: "settings", Options: []discordtest.Option{opt("rated", false)}},
		}
		replies := make([]discordtest.Message, len(cmds))
		errs := make([]error, len(cmds))
		begin := make(chan struct{})
		var wg sync.WaitGroup
		for i, cmd := range cmds {
			wg.Go(func() {
				<-begin
				ix, err := h.srv.SendCommand(cmd)
				if err == nil {
					replies[i], err = ix.Reply(h.ctx())
				}
				errs[i] = err
			})
		}
		close(begin)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d: /settings of %s: %v", round, cmds[i].UserID, err)
			}
			if s := embedText(readable(replies[i])); !strings.Contains(s, "Settings saved") {
				t.Fatalf("round %d: /settings of %s answered:\n%s", round, cmds[i].UserID, s)
			}
		}
		s, err := h.db().GuildSettings(ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case s.MoveTime == 7*time.Second && s.Casual && s.Board == storage.BoardEmoji:
			kept++
		default:
			t.Errorf("round %d: stored %+v; want movetime 7s and casual from the two admins, the emoji board from before", round, s)
		}
	}
	t.Logf("%d of %d rounds kept both changes", kept, rounds)
}

// TestSettingsGamesTakesWhatSettingsShows: the games option reads what
// /settings shows back — the games' titles in the member's language, a
// list separated by commas, spaces or "and", "all" in words — and its
// autocomplete completes the last game of the list.
func TestSettingsGamesTakesWhatSettingsShows(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	allowed := func(what string, m discordtest.Message) string {
		t.Helper()
		for _, e := range m.Embeds {
			for _, f := range e.Fields {
				if f.Name == "Allowed games" || f.Name == "Permainan yang diizinkan" {
					return f.Value
				}
			}
		}
		t.Fatalf("%s: no allowed games in the reply %q / %q", what, m.Content, embedText(m))
		return ""
	}
	stored := func() []storage.Kind {
		t.Helper()
		s, err := h.store.GuildSettings(context.Background(), h.srv.GuildID())
		if err != nil {
			t.Fatal(err)
		}
		return s.AllowedGames
	}
	for _, tc := range []struct {
		games string
		want  []storage.Kind // nil: all
		shown string
	}{
		{"Connect Four, Othello", []storage.Kind{"connect4", "othello"}, "Connect Four, Othello"},
		{"all of them", nil, "all"},
		{"tic tac toe and Gomoku", []storage.Kind{"tictactoe", "gomoku"}, "Tic-Tac-Toe, Gomoku"},
		{"connect4 othello", []storage.Kind{"connect4", "othello"}, "Connect Four, Othello"},
		{"Connect Four Othello; ADJACENCY", []storage.Kind{"connect4", "othello", "adjacency"}, "Connect Four, Othello, Adjacency"},
		{"All", nil, "all"},
	} {
		_, m := h.command(alice, "settings", opt("games", tc.games))
		if got := allowed(tc.games, m); got != tc.shown {
			t.Errorf("games:%q shows %q, want %q", tc.games, got, tc.shown)
		}
		if got := stored(); !slices.Equal(got, tc.want) {
			t.Errorf("games:%q stored %v, want %v", tc.games, got, tc.want)
		}
		// What /settings shows, given back, is the same setting.
		if _, m := h.command(alice, "settings", opt("games", tc.shown)); allowed(tc.shown, m) != tc.shown || !slices.Equal(stored(), tc.want) {
			t.Errorf("games:%q (as shown) stored %v, want %v", tc.shown, stored(), tc.want)
		}
	}

	// In Indonesian, "semua" is all, as /settings shows it.
	h.srv.SetLocale(alice, "id")
	h.command(alice, "settings", opt("games", "Othello"))
	if _, m := h.command(alice, "settings", opt("games", "Semua")); allowed("Semua", m) != "semua" || stored() != nil {
		t.Errorf("games:Semua in Indonesian shows %q and stored %v, want semua and every game", allowed("Semua", m), stored())
	}
	h.srv.SetLocale(alice, "en-US")

	for _, tc := range []struct{ games, want string }{
		{"Connect Four, chess", `Unknown game "chess" in the games option: write all, or games from Adjacency, Connect Four, Tic-Tac-Toe, Othello or Gomoku`},
		{"all, Othello", `"all" means every game: write it alone`},
	} {
		_, m := h.command(alice, "settings", opt("games", tc.games))
		refused(t, "/settings games:"+tc.games, m, tc.want)
	}

	for _, tc := range []struct {
		typed string
		want  []string
	}{
		{"", []string{"all", "Adjacency", "Connect Four", "Tic-Tac-Toe", "Othello", "Gomoku"}},
		{"Connect Four, Oth", []string{"Connect Four, Othello"}},
		{"connect4, t", []string{"Connect Four, Tic-Tac-Toe"}},
		{"Othello, ", []string{"Othello, Adjacency", "Othello, Connect Four", "Othello, Tic-Tac-Toe", "Othello, Gomoku"}},
		{"chess, O", nil},
	} {
		got := choiceValues(askChoices(t, h, alice, "", "settings", focused("games", tc.typed)))
		if !slices.Equal(got, tc.want) && !(len(got) == 0 && tc.want == nil) {
			t.Errorf("games autocomplete for %q: %q, want %q", tc.typed, got, tc.want)
		}
	}
}
