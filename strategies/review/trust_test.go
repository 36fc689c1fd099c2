package review

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/strategies"
)

// theGame is Connect Four's 4 4 3 5 5 4 3 4 3 4, o's win after x leaves
// its vertical three open.
var theGame = strings.Fields("4 4 3 5 5 4 3 4 3 4")

// theReview is theGame's Standard review, made once for the tests that
// read it.
var theReview = sync.OnceValue(func() *Review {
	gm, _ := catalog.Lookup("connect4")
	start, _ := gm.New(games.Options{})
	r, err := Analyze(context.Background(), strategies.Minimax{}, gm, start, theGame, Standard("connect4"), nil)
	if err != nil {
		panic(err)
	}
	return r
})

// TestALostGameRatesMovesByHowLongTheyHoldOut: once a game is lost, the
// moves are compared by how long they hold out. In Tic-Tac-Toe 1 4 2 5
// 3, o is lost after its 4 (x forks whatever o does), but blocking at 3
// holds out two more moves; its 5 lets x win at once: a blunder, not the
// best. In Connect Four 4 4 3 5 5 4 3 4 3 4, x's 3 at move 9 leaves o's
// vertical three in column 4 open, which o completes at once, where
// blocking it holds out for many moves. Under -race -short only
// Tic-Tac-Toe's game is reviewed: Connect Four's Standard review costs 9 s
// of CPU under -race, and the search runs on one goroutine.
func TestALostGameRatesMovesByHowLongTheyHoldOut(t *testing.T) {
	cases := []struct {
		game, moves string
		move        int // 1-based
	}{
		{"tictactoe", "1 4 2 5 3", 4},
		{"connect4", "4 4 3 5 5 4 3 4 3 4", 9},
	}
	if racetest.Short(t, "Tic-Tac-Toe's game, not Connect Four's") {
		cases = cases[:1]
	}
	for _, c := range cases {
		var r *Review
		if c.game == "connect4" {
			r = theReview()
		} else {
			r = analyze(t, c.game, "start", strings.Fields(c.moves), Standard(c.game))
		}
		m := r.Moves[c.move-1]
		if m.Label != Blunder {
			t.Errorf("%s %s: move %d (%s, best %s, %+v → %+v) is %v; want a blunder: it loses at once where the best move holds out",
				c.game, c.moves, c.move, m.Move, m.Best, m.Before, m.After, m.Label)
		}
	}
}

// TestConnectFourIsExactWithinTheStandardBudget: Connect Four is solved,
// and its solver (with its opening book) reaches every position of a
// short game within the Standard budget: every move is judged exactly,
// before and after. The Standard review costs 9 s of CPU under -race, on
// one goroutine: -race -short leaves it out.
func TestConnectFourIsExactWithinTheStandardBudget(t *testing.T) {
	if racetest.Short(t, "no Standard review") {
		t.SkipNow()
	}
	for i, m := range theReview().Moves {
		if !m.Before.Exact || !m.After.Exact {
			t.Errorf("move %d (%s): %+v → %+v; want both exact", i+1, m.Move, m.Before, m.After)
		}
	}
}

// TestAReviewDoesNotDependOnEarlierSearches reviews a Connect Four game,
// then another that shares its positions, then the game again under a
// context with a deadline (a queued review's): the reviews are the same,
// value for value and label for label, as the bot and gambit review must
// be whatever else their process searched. Under -short the budget is
// 1/64 of Standard's (its three reviews cost 20 s of CPU under -race, a
// fifth of that so): four of its ten moves are then judged by searches
// stopped at their cap, where what an earlier search left behind would
// show most (within Standard's every search ends exact); under -race
// -short 1/1024 (1.3 s of CPU, 7.5 s at 1/64), where more of them stop
// at their cap; without -short (.ci/run's long step) it is Standard's.
func TestAReviewDoesNotDependOnEarlierSearches(t *testing.T) {
	budget := Standard("connect4")
	var first *Review
	if testing.Short() {
		div := uint64(64)
		if racetest.Short(t, "1/1024 of Standard's budget, not 1/64") {
			div = 1024
		}
		budget.Nodes /= div
		budget.Game /= div
		first = analyze(t, "connect4", "start", theGame, budget)
		if first.Judged() == len(first.Moves) {
			t.Fatalf("every move judged exactly within %+v: no search stopped at its cap", budget)
		}
	} else {
		first = theReview()
	}
	analyze(t, "connect4", "start", strings.Fields("4 4 3 5 5 4 3 2 2 4 4"), budget)
	gm := game(t, "connect4")
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	start, _ := gm.New(games.Options{})
	again, err := Analyze(ctx, strategies.Minimax{}, gm, start, theGame, budget, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range first.Moves {
		if first.Moves[i] != again.Moves[i] {
			t.Errorf("move %d: first %+v, then %+v", i+1, first.Moves[i], again.Moves[i])
		}
	}
}
