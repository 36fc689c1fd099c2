package tournament_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/flows/tournament"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

func (s *fakeStore) AnnounceRound(_ context.Context, id storage.TournamentID, n int) (*storage.Tournament, bool, error) {
	set := false
	t, err := s.change(id, func(old *storage.Tournament) (storage.Tournament, error) {
		rec, ok, err := storage.Announce(old, n, s.now())
		set = ok
		return rec, err
	})
	return t, set, err
}

// stoppingBoards are the boards of a process that stops right after it
// paired a round: the post of the round's pairings and its boards never
// happen.
type stoppingBoards struct{ *fakeBoards }

func (b stoppingBoards) Show(context.Context, storage.GameID) error {
	return errors.New("the process stopped")
}

func (b stoppingBoards) Send(ctx context.Context, channelID, nonce string, msg render.Message) (string, error) {
	if strings.Contains(text(msg.Embeds), "Round ") {
		return "", errors.New("the process stopped")
	}
	return b.fakeBoards.Send(ctx, channelID, nonce, msg)
}

// A process that stops between a round's pairing and the post of its
// pairings (the tournament kill drill, cmd/gambit, killed one there)
// lost them for good: the round's boards are posted again at the next
// start, its pairings were not. Now any advance posts them once they are
// announceGrace old, and the podium waits for them.
func TestPairingsLostToAStopArePostedOnce(t *testing.T) {
	fx, _ := pairedByAStoppingProcess(t)
	tr := fx.only(t)
	if len(tr.Rounds) != 2 || !tr.Rounds[1].Unannounced {
		t.Fatalf("after the stopping process paired round 2: %+v", tr.Rounds)
	}
	// Round 2 ends within the grace: no podium before its pairings.
	for _, b := range tr.Rounds[1].Boards {
		fx.flow.GameEnded(context.Background(), fx.store.end(t, b.Game, 0, false))
	}
	if tr := fx.only(t); tr.Status != storage.TournamentRunning {
		t.Fatalf("the tournament is %s before round 2's pairings were posted", tr.Status)
	}
	fx.clock.Advance(31 * time.Second)
	fx.flow.Tick(context.Background(), storage.Shards{})
	fx.flow.Tick(context.Background(), storage.Shards{}) // a second sweep posts nothing more
	fx.clock.Advance(time.Minute)
	fx.flow.Tick(context.Background(), storage.Shards{})

	posts := fx.boards.texts()
	count := func(s string) int {
		n := 0
		for _, p := range posts {
			if strings.Contains(p, s) {
				n++
			}
		}
		return n
	}
	if count("Round 1") != 1 || count("Round 2") != 1 || count("The tournament is over") != 1 {
		t.Fatalf("round 1's pairings posted %d times, round 2's %d, the podium %d; want once each: %q",
			count("Round 1"), count("Round 2"), count("The tournament is over"), posts)
	}
	if len(posts) != 3 || !strings.Contains(posts[1], "Standings after round 1") || !strings.Contains(posts[2], "The tournament is over") {
		t.Errorf("the channel, in order: %q; want round 1, round 2 with the standings after round 1, the podium", posts)
	}
	if tr := fx.only(t); tr.Status != storage.TournamentFinished || tr.Rounds[1].Unannounced {
		t.Errorf("at the end: %s, round 2 unannounced %v", tr.Status, tr.Rounds[1].Unannounced)
	}
	// Each post carries its own nonce, which Discord takes.
	nonces := map[string]bool{}
	for _, m := range fx.boards.placedNow().sent {
		if m.Nonce == "" || len(m.Nonce) > 25 || nonces[m.Nonce] {
			t.Errorf("a post has the nonce %q; want one of 1 to 25 characters, its own (the others: %v)", m.Nonce, nonces)
		}
		nonces[m.Nonce] = true
	}
}

// pairedByAStoppingProcess announces and starts a Swiss of two rounds
// of four members, whose round 1 ends in a process that stops as it
// pairs round 2 (stoppingFlow): round 2 is paired, neither posted nor
// shown.
func pairedByAStoppingProcess(t *testing.T) (*fixture, string) {
	t.Helper()
	fx := newFixture(storage.DefaultTournamentCaps)
	stopping := stoppingFlow(fx)
	id := fx.announce(t, sub("create", str("format", "swiss"), str("game", "tictactoe"), num("rounds", 2)), alice, bob, carol, dave)
	fx.start(t, id)
	for _, b := range fx.only(t).Rounds[0].Boards {
		stopping.GameEnded(context.Background(), fx.store.end(t, b.Game, 1, false))
	}
	return fx, id
}

// stoppingFlow is a second process over fx's store that stops after
// each pairing (stoppingBoards).
func stoppingFlow(fx *fixture) *tournament.Flow {
	return tournament.New(fx.store, stoppingBoards{&fakeBoards{}}, tournament.Config{
		Caps: storage.DefaultTournamentCaps, AIMoveTime: time.Second, SweepEvery: time.Minute, Go: func(f func()) { f() }, Now: fx.clock.Now,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
}

// The boards of a round whose pairing process stopped before it showed
// them (a River job's first attempt, in the tournament kill drill: the
// retry found the round recorded and showed nothing) waited for the
// next start of a bot; now an advance shows them once the round is
// announceGrace old.
func TestBoardsLostToAStopAreShown(t *testing.T) {
	fx, id := pairedByAStoppingProcess(t)
	round2 := fx.only(t).Rounds[1]
	fx.flow.Tick(context.Background(), storage.Shards{})
	if n := len(fx.boards.shown); n != 2 {
		t.Fatalf("%d boards shown within the grace, want round 1's 2", n)
	}
	fx.clock.Advance(31 * time.Second)
	if err := fx.flow.Advance(context.Background(), storage.TournamentID(id)); err != nil {
		t.Fatal(err)
	}
	shown := fx.boards.shown[2:]
	if len(shown) != 2 || !slices.Contains(shown, round2.Boards[0].Game) || !slices.Contains(shown, round2.Boards[1].Game) {
		t.Errorf("after the grace, shown %v; want round 2's boards %+v", shown, round2.Boards)
	}
}
