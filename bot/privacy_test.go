package bot_test

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
)

// TestPrivacyDeleteLeavesTheMemberInNoBucket: after /privacy delete, the
// member's Discord ID is in no key and no value of any bucket of the
// database file, nested buckets included — games open, ended and
// pending, ratings in two ladders, their own settings, a solo puzzle and
// the interactions they sent are all there before.
func TestPrivacyDeleteLeavesTheMemberInNoBucket(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID

	finished := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	h.move(alice, finished.ID, "5")
	resignByUI(t, h, bob, finished.ID)
	challengeAndAccept(t, h, alice, bob, storage.Kind("connect4"))
	if _, m := h.command(alice, "play", opt("game", "adjacency"), opt("opponent", carol)); m.Ephemeral() {
		t.Fatalf("the challenge to carol: %s", m.Content)
	}
	playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "minimax"))
	if _, m := h.command(alice, "puzzle", opt("game", "nqueens"), opt("n", 6)); m.Ephemeral() {
		t.Fatalf("/puzzle: %s", m.Content)
	}
	if _, m := h.command(alice, "board", opt("form", "emoji")); !m.Ephemeral() {
		t.Fatalf("/board form:emoji: %q", m.Content)
	}
	if where := h.findInEveryBucket(alice); len(where) == 0 {
		t.Fatal("the member's ID is in no bucket before /privacy delete: the test looks in the wrong place")
	}

	_, ask := h.command(alice, "privacy", discordtest.Option{Name: "delete"})
	erase, ok := find(ask, customid.PrivacyDelete, nil)
	if !ok {
		t.Fatalf("/privacy delete: no button in %q", ask.Content)
	}
	// Counted in words: "1 finished game", never "game(s)".
	done := regexp.MustCompile(`^Your data was erased: [2-9] open games cancelled, [1-9] ratings? removed, 1 finished game anonymised\.$`)
	if r := h.click(alice, ask.ID, erase); !done.MatchString(r.Content) {
		t.Fatalf("erasing answered %q, want it to match %s", r.Content, done)
	}
	for _, where := range h.findInEveryBucket(alice) {
		t.Errorf("the member's ID is still in %s", where)
	}
}

// findInEveryBucket stops the bot, reads every key and value of every
// bucket of its database file, nested ones too, and returns where text
// is found (bucket path and key); the store is then open again.
func (h *harness) findInEveryBucket(text string) []string {
	h.t.Helper()
	h.stop()
	path := h.store.Path()
	if err := h.store.Close(); err != nil {
		h.t.Fatal(err)
	}
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		h.t.Fatal(err)
	}
	var where []string
	var walk func(path string, b *bbolt.Bucket)
	walk = func(path string, b *bbolt.Bucket) {
		_ = b.ForEach(func(k, v []byte) error {
			if v == nil {
				walk(path+"/"+string(k), b.Bucket(k))
				return nil
			}
			if bytes.Contains(k, []byte(text)) || bytes.Contains(v, []byte(text)) {
				where = append(where, path+" "+string(k)+": "+string(v))
			}
			return nil
		})
	}
	err = db.View(func(tx *bbolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
			if bytes.Contains(name, []byte(text)) {
				where = append(where, "bucket "+string(name))
			}
			walk(string(name), b)
			return nil
		})
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		h.t.Fatal(err)
	}
	if h.store, err = bolt.Open(path, &bolt.Options{AIRatings: bot.AIRatings}); err != nil {
		h.t.Fatal(err)
	}
	h.run()
	return where
}

// forgetfulQueue is an AI queue whose first ForgetAI fails, as one whose
// database is briefly unreachable would.
type forgetfulQueue struct{ calls atomic.Int32 }

func (*forgetfulQueue) EnqueueAI(context.Context, ...bot.AITurn) error { return nil }

func (q *forgetfulQueue) ForgetAI(context.Context, string) error {
	if q.calls.Add(1) == 1 {
		return errors.New("connection refused")
	}
	return nil
}

// TestPrivacyDeleteSaysWhenTheAITurnsStay: when the AI queue cannot erase
// the member's turns, the rest is erased all the same, the member is told
// that not everything was and to click again, and the button, clicked
// again, finishes the job.
func TestPrivacyDeleteSaysWhenTheAITurnsStay(t *testing.T) {
	t.Parallel()
	q := &forgetfulQueue{}
	h := start(t, withConfig(func(c *bot.Config) { c.AI.Queue = q }))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	challengeAndAccept(t, h, alice, bob, storage.Kind("connect4"))
	_, ask := h.command(alice, "privacy", discordtest.Option{Name: "delete"})
	erase, _ := find(ask, customid.PrivacyDelete, nil)
	if r := h.click(alice, ask.ID, erase); !r.Ephemeral() || !strings.Contains(r.Content, "could not be yet") {
		t.Errorf("erasing with the AI queue failing answered %q (ephemeral %v); want the member told to click again", r.Content, r.Ephemeral())
	}
	if open, err := h.store.ActiveGames(h.ctx(), storage.User(alice)); err != nil || len(open) != 0 {
		t.Errorf("%d open games of alice (%v) after the erasure whose AI turns failed; want the rest erased", len(open), err)
	}
	if r := h.click(alice, ask.ID, erase); !strings.Contains(r.Content, "Your data was erased") {
		t.Errorf("the second click answered %q", r.Content)
	}
	if n := q.calls.Load(); n != 2 {
		t.Errorf("ForgetAI called %d times, want once per click", n)
	}
}
