package bot_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
)

// callbacks counts the bot's callbacks to interaction id: its answers,
// accepted or refused.
func callbacks(srv *discordtest.Server, id string) int {
	n := 0
	for _, r := range srv.Requests() {
		if strings.Contains(r.Path, "/interactions/"+id+"/") && strings.HasSuffix(r.Path, "/callback") {
			n++
		}
	}
	return n
}

// awaitRedelivery waits until the bot either logs the second delivery of
// interaction id as a duplicate or acts on it — answers it a second time
// (Discord refuses that one, 40060) — and reports whether it was taken
// for a duplicate.
func awaitRedelivery(h *harness, id string) bool {
	h.t.Helper()
	deadline := time.Now().Add(waitTimeout())
	for {
		for _, line := range strings.Split(h.logs.String(), "\n") {
			if strings.Contains(line, "duplicate delivery") && strings.Contains(line, "interaction="+id) {
				return true
			}
		}
		if callbacks(h.srv, id) > 1 {
			return false
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("the second delivery of interaction %s was neither acted on nor taken for a duplicate", id)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// restartOnReopenedStore stops the bot, closes its bbolt file, opens it
// again and starts a new bot on it, as a restarted process would.
func (h *harness) restartOnReopenedStore() {
	h.t.Helper()
	h.stop()
	path := h.store.Path()
	if err := h.store.Close(); err != nil {
		h.t.Fatal(err)
	}
	var err error
	if h.store, err = bolt.Open(path, &bolt.Options{AIRatings: bot.AIRatings}); err != nil {
		h.t.Fatal(err)
	}
	h.run()
}

// TestReplayedInteractionActsOnceAfterRestart: the same signed /play and
// /challenge, delivered again to `gambit serve`'s endpoint after the
// process restarted (within the 5 minutes a signature is good for, as a
// replay or a proxy's retry would), are answered as duplicates: no new
// game, no new message, no second answer.
func TestReplayedInteractionActsOnceAfterRestart(t *testing.T) {
	t.Parallel()
	h := start(t, withHTTP())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	play, m := h.command(alice, "play", opt("game", "tictactoe"), opt("ai", "minimax"))
	if m.Ephemeral() {
		t.Fatalf("/play refused: %s", m.Content)
	}
	challenge, m := h.command(alice, "challenge", opt("game", "connect4"), opt("user", bob))
	if m.Ephemeral() {
		t.Fatalf("/challenge refused: %s", m.Content)
	}
	games := func() int {
		t.Helper()
		open, err := h.store.ActiveGames(h.ctx(), storage.User(alice))
		if err != nil {
			t.Fatal(err)
		}
		return len(open)
	}
	if n := games(); n != 2 {
		t.Fatalf("%d open games after /play and /challenge, want 2", n)
	}
	h.restartOnReopenedStore()
	messages := len(h.srv.Messages(h.srv.ChannelID()))
	for _, ix := range []*discordtest.Interaction{play, challenge} {
		if err := ix.Redeliver(); err != nil {
			t.Fatal(err)
		}
		if !awaitRedelivery(h, ix.ID) {
			t.Errorf("interaction %s, delivered again after a restart, was acted on: answered %d times", ix.ID, callbacks(h.srv, ix.ID))
		}
	}
	if n := games(); n != 2 {
		t.Errorf("%d open games after /play and /challenge were delivered again, want the 2 of their first delivery", n)
	}
	if n := len(h.srv.Messages(h.srv.ChannelID())); n != messages {
		t.Errorf("%d messages in the channel after the second deliveries, want the %d of the first", n, messages)
	}
}

// unrecordable is a store that cannot record interactions, as one that
// is unreachable would fail.
type unrecordable struct{ storage.Store }

func (unrecordable) FirstDelivery(context.Context, string, time.Duration) (bool, error) {
	return false, errors.New("connection refused")
}

// TestUnrecordedInteractionIsRefusedClearly: when the store cannot record
// an interaction, the bot does not act on it (a second delivery could not
// be told apart) and tells the member so, to try again.
func TestUnrecordedInteractionIsRefusedClearly(t *testing.T) {
	t.Parallel()
	h := start(t, withStoreWrapped(func(s storage.Store) storage.Store { return unrecordable{s} }))
	alice := h.srv.AddUser("alice").ID
	_, m := h.command(alice, "play", opt("game", "tictactoe"), opt("ai", "minimax"))
	if !m.Ephemeral() || !strings.Contains(m.Content, "could not record your request, so it did nothing") {
		t.Errorf("/play with the store unable to record it was answered %q (ephemeral %v); want the member told nothing was done", m.Content, m.Ephemeral())
	}
	if open, err := h.store.ActiveGames(h.ctx(), storage.User(alice)); err != nil || len(open) != 0 {
		t.Errorf("%d open games after an unrecorded /play (%v), want none", len(open), err)
	}
	for _, m := range h.srv.Messages(h.srv.ChannelID()) {
		if !m.Ephemeral() {
			t.Errorf("a public message after an unrecorded /play: %q", m.Content)
		}
	}
}
