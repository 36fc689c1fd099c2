package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/aiqueue"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
	"github.com/gambitbot/gambit/storage/storetest"
)

// TestWorkerProcessPlaysATurnAnotherProcessQueued: a `gambit worker`
// process, which opens no gateway, plays the AI turn another process
// queued on PostgreSQL: it commits the move and posts the board over
// REST, and stops on SIGTERM.
func TestWorkerProcessPlaysATurnAnotherProcessQueued(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	srv := discordtest.New()
	defer srv.Close()
	ctx := context.Background()
	store, err := postgres.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ann := srv.AddUser("ann")
	g := storetest.UserVsAI("tictactoe", ann.ID)
	g.Players[0], g.Players[1] = g.Players[1], g.Players[0] // the AI opens
	g.GuildID, g.ChannelID, g.MessageID = srv.GuildID(), srv.ChannelID(), ""
	storetest.MustCreate(t, store, g)
	q, err := aiqueue.NewQueue(store.Pool(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if err := q.EnqueueAI(ctx, bot.AITurn{Game: g.ID, Owner: string(storage.User(ann.ID)), Deadline: time.Now(), MoveTime: 100 * time.Millisecond, Queued: time.Now()}); err != nil {
		t.Fatal(err)
	}

	cmd, logs := startGambit(t, t.TempDir(), true, []string{"worker"},
		"DISCORD_TOKEN="+srv.Token(), "DISCORD_API_URL="+srv.URL(), envDatabaseURL+"="+url, "GAMBIT_SEARCH_THREADS=1")
	logs.wait(t, regexp.MustCompile(`AI worker running`))
	wait, cancel := discordtest.UntilTestDeadline(t, ctx)
	defer cancel()
	// The board with the AI's move: on a loaded machine a "thinking…"
	// board may come first.
	if _, err := srv.WaitMessage(wait, func(m discordtest.Message) bool {
		b, ok := parseCrashBoard(m.Readable())
		return m.ChannelID == srv.ChannelID() && ok && b.game == g.ID && b.ply == 1
	}); err != nil {
		t.Fatalf("no board with the AI's move posted: %v; worker's output:\n%s", err, logs)
	}
	played, err := store.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(played.Moves) != 1 || played.Turn != 1 || played.Status != storage.StatusActive {
		t.Errorf("after the worker: %d moves, seat %d to move, %s; want the AI's one move and ann to play", len(played.Moves), played.Turn, played.Status)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("the worker stopped with %v; output:\n%s", err, logs)
	}
}

// TestWorkerNeedsPostgreSQL: gambit worker without a PostgreSQL database
// stops at once, saying that the bot plays the turns of the file itself.
func TestWorkerNeedsPostgreSQL(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "secret-token-value")
	t.Setenv(envDatabaseURL, "")
	code, _, errOut := gambit("worker")
	if code != 1 || !strings.Contains(errOut, envDatabaseURL) || !strings.Contains(errOut, "gambit bot plays them itself") {
		t.Errorf("gambit worker on the file: exit %d, stderr %q; want status 1 naming %s", code, errOut, envDatabaseURL)
	}
}

// TestAITurnsSetting: GAMBIT_AI_TURNS takes here or workers; any other
// value, and workers on the database file, stop the bot before it starts.
func TestAITurnsSetting(t *testing.T) {
	for v, want := range map[string]bool{"": true, "here": true, "workers": false} {
		t.Setenv(envAITurns, v)
		if got, err := aiTurnsHere(); err != nil || got != want {
			t.Errorf("%s=%q: here %v, %v; want %v", envAITurns, v, got, err, want)
		}
	}
	t.Setenv("DISCORD_TOKEN", "secret-token-value")
	t.Setenv("GAMBIT_DB", filepath.Join(t.TempDir(), "gambit.db"))
	t.Setenv("DISCORD_API_URL", "http://127.0.0.1:1")
	t.Setenv(envDatabaseURL, "")
	for _, v := range []string{"elsewhere", "workers"} {
		t.Setenv(envAITurns, v)
		if code, _, errOut := gambit("bot"); code != 1 || !strings.Contains(errOut, envAITurns) {
			t.Errorf("%s=%s: exit %d, stderr %q; want status 1 naming the setting", envAITurns, v, code, errOut)
		}
	}
}
