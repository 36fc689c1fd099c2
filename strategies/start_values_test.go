package strategies

import (
	"context"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
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
// first mover.
func TestShortGamesFromTheStart(t *testing.T) {
	maxRounds := 4 // 17 s here
	if testing.Short() {
		maxRounds = 3
	}
	for rounds := 2; rounds <= maxRounds; rounds++ {
		for _, first := range []engine.Side{engine.X, engine.O} {
			p, err := adjacency.New(rounds, first)
			if err != nil {
				t.Fatal(err)
			}
			total := 8 + 2*rounds
			want := alphaBeta(p, -total-1, total+1)
			res, err := Minimax{}.Search(context.Background(), p, Limits{HashMiB: 16})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Exact || res.Score != want {
				t.Errorf("%d rounds, %v first: score %d exact %v, alpha-beta %d", rounds, first, res.Score, res.Exact, want)
			}
		}
	}
}
