package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

// TestFinishAgainstAnAIIsNotHeldByItsOtherGames: while another transaction
// holds the AI's player lock, as a finish against that AI did for its
// whole transaction, a user's game against the AI still finishes, because
// an AI's rating never moves; the user's own lock is still taken. Whether
// FinishGame waits is read from pg_locks, not from a timer.
func TestFinishAgainstAnAIIsNotHeldByItsOtherGames(t *testing.T) {
	s, _ := openTest(t, time.Now)
	defer s.Close()
	ctx := context.Background()
	g := storetest.MustCreate(t, s, storetest.UserVsAI("connect4", "u1"))

	holder, err := s.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback(ctx)
	if err := lockPlayers(ctx, holder, storage.AI("minimax")); err != nil {
		t.Fatal(err)
	}

	done := make(chan error, 1)
	go func() {
		g.Status = storage.StatusFinished
		_, err := s.FinishGame(ctx, g, storage.Result{Winner: 0})
		done <- err
	}()
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			return
		default:
		}
		var waiting int
		if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			_ = holder.Rollback(ctx) // let the finish through before failing
			<-done
			t.Fatal("finishing a game against an AI waited for the AI's lock, held by another transaction")
		}
	}
}

// TestFinishesAgainstOneAICountEveryGame: many users finishing their games
// against one AI at once, without the AI's player lock, still add every
// game to the AI's tally in both ladders.
func TestFinishesAgainstOneAICountEveryGame(t *testing.T) {
	s, _ := openTest(t, time.Now)
	defer s.Close()
	ctx := context.Background()
	const games = 16
	var all []*storage.Game
	for i := range games {
		all = append(all, storetest.MustCreate(t, s, storetest.UserVsAI("connect4", "u"+string(rune('a'+i)))))
	}
	errs := make(chan error, games)
	for i, g := range all {
		go func() {
			g.Status = storage.StatusFinished
			_, err := s.FinishGame(ctx, g, storage.Result{Winner: i % 2})
			errs <- err
		}()
	}
	for range games {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []storage.Ladder{storage.Global("connect4"), {Kind: "connect4", Guild: "g1"}} {
		var r storage.Rating
		if err := s.view(ctx, func(tx pgx.Tx) (err error) {
			r, _, err = getRating(ctx, tx, l, storage.AI("minimax"))
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if r.Games != games || r.Wins != games/2 || r.Losses != games/2 || r.Rating != storetest.MinimaxRating {
			t.Errorf("the AI's rating in %s after %d games won and lost in turn: %+v", l, games, r)
		}
	}
}
