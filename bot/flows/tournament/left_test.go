package tournament_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/flows/tournament"
	"github.com/gambitbot/gambit/storage"
)

// TestTickSkipsTheGuildsTheBotLeft: a tournament of a guild the bot was
// removed from does not start at its time (nor does anything else of
// Tick's happen to it); in a guild the bot is in, it does.
func TestTickSkipsTheGuildsTheBotLeft(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "swiss"), str("game", "tictactoe"), num("start", 5)), alice, bob)
	fx.clock.Advance(6 * time.Minute)
	var asked []string
	left := tournament.New(fx.store, fx.boards, tournament.Config{
		Caps: storage.DefaultTournamentCaps, AIMoveTime: 2 * time.Second, SweepEvery: time.Minute, Go: func(f func()) { f() }, Now: fx.clock.Now,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Left: func(guildID string) bool { asked = append(asked, guildID); return true },
	})
	left.Tick(context.Background(), storage.Shards{})
	if tr := fx.only(t); tr.Status != storage.TournamentAnnounced || len(asked) == 0 || asked[0] != tr.GuildID {
		t.Fatalf("after a tick of a bot removed from its guild (asked about %q): %s, want announced still", asked, tr.Status)
	}
	fx.flow.Tick(context.Background(), storage.Shards{})
	if tr := fx.only(t); string(tr.ID) != id || tr.Status != storage.TournamentRunning {
		t.Errorf("after a tick of a bot in its guild: %s, want running", tr.Status)
	}
}
