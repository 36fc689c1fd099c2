package bot_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// unannouncing is a store whose first AnnounceRound fails: the process
// that posted a round's pairings was killed before it recorded them —
// with unthreading, also before it recorded the round's thread, its
// first SetRoundThread failing.
type unannouncing struct {
	storage.Store
	unthreading bool
	killed      atomic.Bool
	unthreaded  atomic.Bool
}

func (s *unannouncing) AnnounceRound(ctx context.Context, id storage.TournamentID, n int) (*storage.Tournament, bool, error) {
	if s.killed.CompareAndSwap(false, true) {
		return nil, false, errors.New("the process was killed")
	}
	return s.Store.AnnounceRound(ctx, id, n)
}

func (s *unannouncing) SetRoundThread(ctx context.Context, id storage.TournamentID, n int, thread string) (*storage.Tournament, bool, error) {
	if s.unthreading && s.unthreaded.CompareAndSwap(false, true) {
		return nil, false, errors.New("the process was killed")
	}
	return s.Store.SetRoundThread(ctx, id, n, thread)
}

// TestTournamentPairingsPostedAgainAfterAKillShowOnce: the process that
// paired round 1 posted its pairings and started its thread, and was
// killed before it recorded them; the advance after storage.AnnounceGrace
// posts them again, with the same nonce, within Discord's window for
// nonces: the channel holds them once, the thread started from them is
// the round's, and the advance does not try to start another.
func TestTournamentPairingsPostedAgainAfterAKillShowOnce(t *testing.T) {
	t.Parallel()
	store := &unannouncing{}
	h := start(t, withClock(), withStoreWrapped(func(s storage.Store) storage.Store { store.Store = s; return store }))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	id := swiss(t, h, alice, bob, 1)
	pairings := h.waitPosted("Round 1")
	tr := h.waitTournament(id, "round 1 paired and its thread recorded", func(tr *storage.Tournament) bool {
		return len(tr.Rounds) == 1 && tr.Rounds[0].Thread != "" && store.killed.Load()
	})
	if !tr.Rounds[0].Unannounced {
		t.Fatal("round 1's pairings were recorded as posted, though the record failed")
	}
	h.clock.Advance(time.Minute + time.Second) // past the grace and a sweep; Discord's window is minutes
	tr = h.waitTournament(id, "round 1's pairings recorded by a later advance", func(tr *storage.Tournament) bool { return !tr.Rounds[0].Unannounced })
	logs := h.logs.String()
	if !strings.Contains(logs, "posting a round's pairings that were lost") {
		t.Fatalf("no advance posted round 1's pairings again; logs:\n%s", logs)
	}
	if n := h.posted("Round 1"); n != 1 {
		t.Errorf("round 1's pairings are %d times in the channel, want once", n)
	}
	if tr.Rounds[0].Thread != pairings.ID {
		t.Errorf("round 1's thread is %s, want the one started from its pairings, %s", tr.Rounds[0].Thread, pairings.ID)
	}
	if strings.Contains(logs, "thread was not started") {
		t.Errorf("the later advance started round 1's thread again; logs:\n%s", logs)
	}
}

// TestTournamentThreadStartedBeforeAKillIsTheRounds: the process that
// paired round 1 posted its pairings and started its thread, and was
// killed before it recorded either; the advance that posts the pairings
// again gets the first post back (its nonce), whose thread Discord
// refuses to start twice: the thread started from it, which has its ID,
// is recorded as the round's.
func TestTournamentThreadStartedBeforeAKillIsTheRounds(t *testing.T) {
	t.Parallel()
	store := &unannouncing{unthreading: true}
	h := start(t, withClock(), withStoreWrapped(func(s storage.Store) storage.Store { store.Store = s; return store }))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	id := swiss(t, h, alice, bob, 1)
	pairings := h.waitPosted("Round 1")
	h.waitTournament(id, "round 1 paired, its thread and post unrecorded", func(tr *storage.Tournament) bool {
		return len(tr.Rounds) == 1 && store.killed.Load() && store.unthreaded.Load()
	})
	h.clock.Advance(time.Minute + time.Second)
	tr := h.waitTournament(id, "round 1's pairings recorded by a later advance", func(tr *storage.Tournament) bool { return !tr.Rounds[0].Unannounced })
	if n := h.posted("Round 1"); n != 1 {
		t.Errorf("round 1's pairings are %d times in the channel, want once", n)
	}
	if tr.Rounds[0].Thread != pairings.ID {
		t.Errorf("round 1's thread is %q, want the one started from its pairings, %s; logs:\n%s", tr.Rounds[0].Thread, pairings.ID, h.logs.String())
	}
}
