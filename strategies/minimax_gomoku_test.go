package strategies

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/gomoku"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/strategies/gomsearch"
)

// gomokuSearch runs minimax on the Gomoku game of moves with a node cap.
func gomokuSearch(t *testing.T, moves string, nodes uint64) (*gomoku.Position, Result) {
	t.Helper()
	p, err := gomoku.Parse(moves)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Minimax{}.Search(context.Background(), p, Limits{Nodes: nodes, HashMiB: 16})
	if err != nil {
		t.Fatalf("%s: %v", moves, err)
	}
	return p, res
}

// nearStones reports whether m is within two points of a stone of p.
func nearStones(p *gomoku.Position, m engine.Move) bool {
	col, row := int(m%gomoku.MaxSize), int(m/gomoku.MaxSize)
	for dr := -2; dr <= 2; dr++ {
		for dc := -2; dc <= 2; dc++ {
			c, r := col+dc, row+dr
			if c < 0 || r < 0 || c >= p.Size() || r >= p.Size() {
				continue
			}
			if _, ok := p.Stone(gomoku.Cell(c, r)); ok {
				return true
			}
		}
	}
	return false
}

// TestMinimaxGomokuStopsTheOpenThree: in the game of the outside
// engine's report, Black's f11 f12 f13 is an open three (f10 and f14
// free, and f9 and f15): White must take f10 or f14 or lose to the open
// four at once. The generic search played a1.
func TestMinimaxGomokuStopsTheOpenThree(t *testing.T) {
	const moves = "h8 h9 h10 g8 i10 g10 i9 i8 f11 g9 g11 g7 g6 j8 h11 j7 k6 e11 f12 e13 f13"
	p, res := gomokuSearch(t, moves, 200_000)
	if got := p.FormatMove(res.Move); got != "f10" && got != "f14" {
		t.Errorf("%s: White plays %s (score %d, exact %v), want f10 or f14 against the open three", moves, got, res.Score, res.Exact)
	}
}

// TestMinimaxGomokuResistsWhenLost: in lost positions the move chosen
// is the one that loses latest, near the stones — here the block of
// Black's four (e8–h8, the five at i8), which loses only to the open
// three on l3–l5 two moves later, and the defence of the open three in
// the report's game — never a point far from every stone, as the
// generic search's b1 and a1, which lost at once.
func TestMinimaxGomokuResistsWhenLost(t *testing.T) {
	for _, c := range []struct {
		moves string
		want  []string
	}{
		{"e8 a15 f8 o15 g8 a1 l3 o1 l4 h15 l5 d8 h8", []string{"i8"}},
		{"h8 h9 h10 g8 i10 g10 i9 i8 f11 g9 g11 g7 g6 j8 h11 j7 k6 e11 f12 e13 f13", []string{"f10", "f14"}},
	} {
		p, res := gomokuSearch(t, c.moves, 200_000)
		got := p.FormatMove(res.Move)
		if !res.Exact || res.Score != -1 {
			t.Errorf("%s: score %d exact %v, want a proven loss", c.moves, res.Score, res.Exact)
		}
		if !nearStones(p, res.Move) || !slices.Contains(c.want, got) {
			t.Errorf("%s: plays %s, want one of %v (near the stones)", c.moves, got, c.want)
		}
	}
}

// TestMinimaxGomokuIsTheEngine: minimax on Gomoku answers as
// strategies/gomsearch does with the same limits: the own engine is
// hooked in, on every board size. Under -race -short on 2 positions, a
// full board's and a small one's.
func TestMinimaxGomokuIsTheEngine(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 2))
	positions := 6
	if racetest.Short(t, "2 positions, not 6") {
		positions = 2
	}
	for i := range positions {
		p := randomPosition(t, rng, "gomoku", 0, 200+rng.IntN(20)).(*gomoku.Position)
		if i%2 == 1 { // a small board too
			q, _ := gomoku.New(9)
			for range 10 {
				moves := q.Moves(nil)
				q.Play(moves[rng.IntN(len(moves))])
			}
			p, _ = gomoku.Parse(q.String())
		}
		if p.Terminal() {
			continue
		}
		got, err := Minimax{}.Search(context.Background(), p, Limits{Nodes: 20_000, HashMiB: 4})
		if err != nil {
			t.Fatal(err)
		}
		want, err := gomsearch.New(4).Search(context.Background(), p, gomsearch.Options{Nodes: 20_000})
		if err != nil {
			t.Fatal(err)
		}
		if got.Move != want.Move || got.Nodes != want.Nodes || got.Depth != want.Depth || !p.Legal(got.Move) {
			t.Errorf("%v: minimax %v (nodes %d depth %d), the engine %v (nodes %d depth %d)", p, got.Move, got.Nodes, got.Depth, want.Move, want.Nodes, want.Depth)
		}
	}
}
