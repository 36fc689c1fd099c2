package postgres

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

// TestFinishAgainstAnAIIsNotHeldByItsOtherGames: while another
// transaction holds the AI's lock, as a finish against that AI does from
// its AI's tally to its commit, a user's game against the AI still does
// its own work — it writes its game — and waits only to count the game in
// the AI's tally, because an AI's rating never moves. Whether and where
// FinishGame waits is read from pg_locks, not from a timer.
func TestFinishAgainstAnAIIsNotHeldByItsOtherGames(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t, time.Now)
	defer s.Close()
	ctx := context.Background()
	// An AI of this test only: advisory locks are the database's, shared
	// with the tests running beside it in other schemas.
	ai := storage.AI(fmt.Sprintf("probe%d", time.Now().UnixNano()))
	g := storetest.UserVsAI("connect4", "u1")
	g.Players[1].ID = ai
	storetest.MustCreate(t, s, g)
	key := uint64(playerKey(ai))

	holder, err := s.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback(ctx)
	if err := lockPlayers(ctx, holder, ai); err != nil {
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
		var waiting, wroteGame bool
		if err := s.pool.QueryRow(ctx, `SELECT true, EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = w.pid
			AND l.relation = 'games'::regclass AND l.mode = 'RowExclusiveLock' AND l.granted)
			FROM pg_locks w WHERE w.locktype = 'advisory' AND NOT w.granted AND w.classid = $1 AND w.objid = $2
			UNION ALL SELECT false, false LIMIT 1`, uint32(key>>32), uint32(key)).Scan(&waiting, &wroteGame); err != nil {
			t.Fatal(err)
		}
		if !waiting {
			continue
		}
		_ = holder.Rollback(ctx) // let the finish through
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if !wroteGame {
			t.Fatal("finishing a game against an AI waited for the AI's lock before writing its game")
		}
		return
	}
}

// TestFinishesAgainstOneAICountEveryGame: many users finishing their games
// against one AI at once, without the AI's player lock, still add every
// game to the AI's tally in both ladders.
func TestFinishesAgainstOneAICountEveryGame(t *testing.T) {
	t.Parallel()
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
