package strategies

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/internal/racetest"
)

// alphaBeta is plain fail-hard negamax alpha-beta to the end of the game,
// with no table and no move ordering: a reference independent of the
// search's machinery, fast enough for short games.
func alphaBeta(p engine.Position, alpha, beta int) int {
	if p.Terminal() {
		return p.Score(p.SideToMove())
	}
	for _, m := range p.Moves(nil) {
		p.Play(m)
		v := -alphaBeta(p, -beta, -alpha)
		p.Undo()
		if v >= beta {
			return beta
		}
		alpha = max(alpha, v)
	}
	return alpha
}

// TestShortGamesFromTheStart: minimax solves the start of short Adjacency
// games — the board nearly empty, the regime of the 8-round games whose
// opening it cannot solve — and agrees with plain alpha-beta, for either
// first mover, and a few random moves in as well. The starts up to 4
// rounds are draws, so the positions after random moves, some of them won
// or lost, keep the test from passing on a search that always says 0.
func TestShortGamesFromTheStart(t *testing.T) {
	maxRounds := 4 // about 30 s here
	switch {
	case racetest.Short(t, "games of 2 rounds, not up to 3"):
		maxRounds = 2
	case testing.Short():
		maxRounds = 3
	}
	rng := rand.New(rand.NewPCG(31, 32))
	decided := 0
	for rounds := 2; rounds <= maxRounds; rounds++ {
		for _, first := range []engine.Side{engine.X, engine.O} {
			for played := range 3 {
				p, err := adjacency.New(rounds, first)
				if err != nil {
					t.Fatal(err)
				}
				for range played {
					moves := p.Moves(nil)
					p.Play(moves[rng.IntN(len(moves))])
				}
				total := 8 + 2*rounds
				want := alphaBeta(p, -total-1, total+1)
				res, err := Minimax{}.Search(context.Background(), p, Limits{HashMiB: 16})
				if err != nil {
					t.Fatal(err)
				}
				if !res.Exact || res.Score != want {
					t.Errorf("%d rounds, %v first, %d random moves, %v: score %d exact %v, alpha-beta %d",
						rounds, first, played, p, res.Score, res.Exact, want)
				}
				if want != 0 {
					decided++
				}
			}
		}
	}
	t.Logf("%d of the positions won or lost", decided)
	if decided == 0 {
		t.Error("every position was a draw: the test cannot tell a search that always answers 0")
	}
}
