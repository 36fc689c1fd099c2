package bot_test

import (
	"context"
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
