package review

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/strategies"
)

// spender is a strategy that plays the first legal move and reports
// searching spend(limit) nodes of its node limit, recording each limit.
type spender struct {
	spend func(limit uint64) uint64

	mu     sync.Mutex
	limits []uint64
}

func (s *spender) Search(_ context.Context, pos engine.Position, l strategies.Limits) (strategies.Result, error) {
	s.mu.Lock()
	s.limits = append(s.limits, l.Nodes)
	s.mu.Unlock()
	nodes := l.Nodes
	if s.spend != nil {
		nodes = s.spend(l.Nodes)
	}
	return strategies.Result{Move: pos.Moves(nil)[0], Nodes: nodes}, nil
}

// gomokuMoves returns the first n moves (at most 225) of a Gomoku game
// that fills the board without five in a row, a draw: black's stones
// where (column + 2·row) mod 4 < 2, row by row, and its start.
func gomokuMoves(t testing.TB, n int) (*games.Game, engine.Position, []string) {
	t.Helper()
	gm := game(t, "gomoku")
	start, err := gm.Position("start", games.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var points [2][]string
	for row := range 15 {
		for col := range 15 {
			side := 1
			if (col+2*row)%4 < 2 {
				side = 0
			}
			points[side] = append(points[side], string(rune('a'+col))+strconv.Itoa(row+1))
		}
	}
	pos, moves := start.Clone(), []string(nil)
	for i := 0; len(moves) < n; i++ {
		m, err := pos.ParseMove(points[i%2][i/2])
		if err != nil || pos.Terminal() {
			t.Fatalf("move %d: %v (the game ended: %v)", i+1, err, pos.Terminal())
		}
		moves = append(moves, pos.FormatMove(m))
		pos.Play(m)
	}
	return gm, start, moves
}

// TestAReviewStopsBetweenPositionsWhenCancelled cancels a review's
// context once its third position is searched: no later position is
// searched, and the review ends with the cancellation.
func TestAReviewStopsBetweenPositionsWhenCancelled(t *testing.T) {
	gm, start, moves := gomokuMoves(t, 8)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &spender{}
	_, err := Analyze(ctx, s, gm, start, moves, Budget{Nodes: 100}, func(done, _ int) {
		if done == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("the cancelled review ended with %v, want context.Canceled", err)
	}
	if len(s.limits) != 3 {
		t.Errorf("%d positions were searched, want 3: none after the cancellation", len(s.limits))
	}
}

// TestTheGameBudgetBoundsAReview reviews games of 9 and 99 moves with a
// Game cap: every position gets its share of what the earlier ones left,
// at most Nodes, and the review searches no more than the cap however
// long the game; what a position leaves unspent goes to the later ones.
func TestTheGameBudgetBoundsAReview(t *testing.T) {
	budget := Budget{Nodes: 200, Game: 1000}
	for _, n := range []int{9, 99} {
		gm, start, moves := gomokuMoves(t, n)
		s := &spender{}
		r, err := Analyze(context.Background(), s, gm, start, moves, budget, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Nodes > budget.Game {
			t.Errorf("%d moves: %d nodes searched, over the game's %d", n, r.Nodes, budget.Game)
		}
		if want := min(budget.Nodes, budget.Game/uint64(n+1)); s.limits[0] != want {
			t.Errorf("%d moves: the first position's cap is %d, want %d", n, s.limits[0], want)
		}
		for i, l := range s.limits {
			if l == 0 || l > budget.Nodes {
				t.Errorf("%d moves: position %d's cap is %d, want 1 to %d", n, i+1, l, budget.Nodes)
			}
		}
	}
	// A position that spends nothing leaves its share to the others.
	gm, start, moves := gomokuMoves(t, 9)
	s := &spender{spend: func(uint64) uint64 { return 0 }}
	if _, err := Analyze(context.Background(), s, gm, start, moves, Budget{Game: 1000}, nil); err != nil {
		t.Fatal(err)
	}
	if last := s.limits[len(s.limits)-1]; last != 1000/1 {
		t.Errorf("the last position's cap is %d after the others spent nothing, want the whole 1000", last)
	}
}

// TestStandardBudgetIsReproducible: the bot's and gambit review's budget
// uses no time, so that the same game reviewed twice gets the same
// labels, and it caps every game's nodes in all.
func TestStandardBudgetIsReproducible(t *testing.T) {
	for _, name := range []string{"gomoku", "connect4", "othello", "adjacency", "tictactoe"} {
		if b := Standard(name); b.Time != 0 || b.Game == 0 {
			t.Errorf("Standard(%q) = %+v: want a node cap on the game and no time", name, b)
		}
	}
}

// BenchmarkStandardReview reviews 60-move games of Othello (a random game,
// cmd/gambit/testdata/othello-random-60.moves) and Gomoku (the first 60
// moves of the full-board draw) with the Standard budget, the bot's: the
// time of a review of a long game of the two slowest searches, which the
// budget holds to a few seconds of one thread (docs/ai.md, Reviews).
// Reported: the time of a review and the nodes it searched.
func BenchmarkStandardReview(b *testing.B) {
	for _, c := range []struct{ game, file string }{
		{"othello", "othello-random-60.moves"},
		{"gomoku", "gomoku-full-board.moves"},
	} {
		b.Run(c.game, func(b *testing.B) {
			text, err := os.ReadFile("../../cmd/gambit/testdata/" + c.file)
			if err != nil {
				b.Fatal(err)
			}
			moves := strings.Fields(string(text))[:60]
			gm := game(b, c.game)
			start, err := gm.Position("start", games.Options{})
			if err != nil {
				b.Fatal(err)
			}
			var nodes uint64
			for b.Loop() {
				r, err := Analyze(context.Background(), strategies.Minimax{}, gm, start, moves, Standard(c.game), nil)
				if err != nil {
					b.Fatal(err)
				}
				nodes = r.Nodes
			}
			b.ReportMetric(float64(nodes), "nodes/op")
		})
	}
}
