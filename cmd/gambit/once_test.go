package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
)

// TestReplayedInteractionActsOnceOnAnotherProcess: two `gambit serve`
// processes on one PostgreSQL database, as two replicas behind a load
// balancer. /play and /challenge go to the first; the same signed
// interactions delivered again to the second — a proxy's retry, or a
// replay within the 5 minutes a signature is good for — are taken for
// duplicates there: no new game, no new message, no second answer.
func TestReplayedInteractionActsOnceOnAnotherProcess(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	srv := discordtest.New(discordtest.AnswerUntilTestDeadline(t))
	t.Cleanup(srv.Close)
	env := []string{envDatabaseURL + "=" + url, "GAMBIT_LOG_LEVEL=debug"}
	first := startServing(t, srv, os.Args[0], "serve", t.TempDir(), env...)
	second := startServing(t, srv, os.Args[0], "serve", t.TempDir(), env...)
	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	if err := srv.DeliverOverHTTP(ctx, first.endpoint); err != nil {
		t.Fatal(err)
	}
	alice, bob := srv.AddUser("alice").ID, srv.AddUser("bob").ID
	send := func(name string, opts ...discordtest.Option) *discordtest.Interaction {
		t.Helper()
		ix, err := srv.SendCommand(discordtest.SlashCommand{UserID: alice, Name: name, Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		if m, err := ix.Reply(ctx); err != nil || m.Ephemeral() {
			t.Fatalf("/%s: %+v, %v; first's output:\n%s", name, m, err, first.logs)
		}
		return ix
	}
	play := send("play", discordtest.Option{Name: "game", Value: "tictactoe"}, discordtest.Option{Name: "ai", Value: "minimax"})
	challenge := send("challenge", discordtest.Option{Name: "game", Value: "connect4"}, discordtest.Option{Name: "user", Value: bob})

	store, err := postgres.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	games := func() int {
		t.Helper()
		open, err := store.ActiveGames(ctx, storage.User(alice))
		if err != nil {
			t.Fatal(err)
		}
		return len(open)
	}
	if n := games(); n != 2 {
		t.Fatalf("%d open games after /play and /challenge, want 2", n)
	}
	messages := len(srv.Messages(srv.ChannelID()))

	if err := srv.DeliverOverHTTP(ctx, second.endpoint); err != nil {
		t.Fatal(err)
	}
	for _, ix := range []*discordtest.Interaction{play, challenge} {
		if err := ix.Redeliver(); err != nil {
			t.Fatal(err)
		}
		if !awaitDuplicate(ctx, t, srv, second, ix.ID) {
			t.Errorf("interaction %s, delivered again to another process, was acted on: answered %d times", ix.ID, answers(srv, ix.ID))
		}
	}
	if n := games(); n != 2 {
		t.Errorf("%d open games after /play and /challenge were delivered again, want the 2 of their first delivery", n)
	}
	if n := len(srv.Messages(srv.ChannelID())); n != messages {
		t.Errorf("%d messages in the channel after the second deliveries, want the %d of the first", n, messages)
	}
	srv.AssertNoViolations(t)
}

// answers counts the callbacks to interaction id: its answers, accepted
// or refused.
func answers(srv *discordtest.Server, id string) int {
	n := 0
	for _, r := range srv.Requests() {
		if strings.Contains(r.Path, "/interactions/"+id+"/") && strings.HasSuffix(r.Path, "/callback") {
			n++
		}
	}
	return n
}

// awaitDuplicate waits until process p either logs the second delivery of
// interaction id as a duplicate or acts on it (answers it a second time,
// which Discord refuses), and reports whether it was taken for a
// duplicate.
func awaitDuplicate(ctx context.Context, t *testing.T, srv *discordtest.Server, p *crashProc, id string) bool {
	t.Helper()
	for {
		for _, line := range strings.Split(p.logs.String(), "\n") {
			if strings.Contains(line, "duplicate delivery") && strings.Contains(line, "interaction="+id) {
				return true
			}
		}
		if answers(srv, id) > 1 {
			return false
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the second delivery of interaction %s was neither acted on nor taken for a duplicate; its output:\n%s", id, p.logs)
		case <-time.After(5 * time.Millisecond):
		}
	}
}
