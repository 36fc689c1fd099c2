package strategies

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/strategies/c4solver"
)

// TestConnectFourFromTheBook: minimax answers the empty board exactly
// from c4solver's opening book — the centre, a win with the board's last
// stone, +1 in Pons' convention — after its short heuristic search and no
// solve: without the book that solve takes minutes and the hang guard
// fails the test.
func TestConnectFourFromTheBook(t *testing.T) {
	for _, tc := range []struct {
		moves string
		col   int // the best column (1–7); 0: any of several
		score int
	}{
		{"", 4, 1},
		{"4", 4, -1}, // o's best reply loses only with the first player's last stone
		{"1", 0, 2},
	} {
		p, err := connect4.Parse(tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		res := searchWithHangGuard(t, context.Background(), p, Limits{Threads: 1})
		if !res.Exact || res.Score != tc.score || tc.col != 0 && int(res.Move)+1 != tc.col {
			t.Errorf("position %q: move %d, score %d, exact %v; want column %d, exact score %d", tc.moves, res.Move+1, res.Score, res.Exact, tc.col, tc.score)
		}
		if res.Nodes > 1_000_000 { // the heuristic search to depth 12 only
			t.Errorf("position %q: %d nodes: the solver searched", tc.moves, res.Nodes)
		}
	}
}

// TestConnectFourPlaysTheBook: in games from the start against random
// moves, as first and as second player, minimax answers each of its turns
// up to the book's deepest exactly, with the book's score and move, after
// its short heuristic search and no solve (c4solver's tests hold the
// book's moves to the solver's). Under -race -short 2 games, one a side,
// not 8.
func TestConnectFourPlaysTheBook(t *testing.T) {
	book := c4solver.DefaultBook()
	solver := c4solver.New(1 << 20)
	rng := rand.New(rand.NewPCG(4, 18))
	gamesPlayed := 8
	if racetest.Short(t, "2 games, not 8") {
		gamesPlayed = 2
	}
	for game := range gamesPlayed {
		p := connect4.New()
		aiSide := engine.Side(game % 2)
		for p.Ply() <= book.Deepest() && !p.Terminal() {
			var buf [connect4.Width]engine.Move
			moves := p.Moves(buf[:0])
			m := moves[rng.IntN(len(moves))]
			if p.SideToMove() == aiSide {
				want, err := solver.Solve(context.Background(), p)
				if err != nil || want.Nodes != 0 {
					t.Fatalf("game %d, position %s: the book's answer %+v, %v: not in the book", game, p, want, err)
				}
				res := searchWithHangGuard(t, context.Background(), p, Limits{Threads: 1})
				if !res.Exact || res.Score != want.Score || res.Move != want.BestMove || res.Nodes > 1_000_000 {
					t.Errorf("game %d, position %s: move %d, score %d, exact %v, %d nodes; want the book's column %d, score %d, no solve",
						game, p, res.Move+1, res.Score, res.Exact, res.Nodes, want.BestMove+1, want.Score)
				}
				m = res.Move
			}
			p.Play(m)
		}
	}
}
