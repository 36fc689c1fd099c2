package strategies

import (
	"context"
	"testing"

	"github.com/gambitbot/gambit/engine/connect4"
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
