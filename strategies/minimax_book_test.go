package strategies

import (
	"context"
	"testing"

	"github.com/gambitbot/gambit/engine/othello"
	"github.com/gambitbot/gambit/games/catalog"
)

// TestMinimaxPlaysFromTheOthelloBook: at Othello's start minimax answers
// from the opening book without searching (no nodes, the book's depth),
// the book's move for its seed, reported to Progress; a search capped
// shallower than the book searches instead.
func TestMinimaxPlaysFromTheOthelloBook(t *testing.T) {
	g, err := catalog.Lookup("othello")
	if err != nil {
		t.Fatal(err)
	}
	p := othello.New()
	for _, seed := range []uint64{0, 1, 2, 3} {
		move, units, depth, ok := g.AI.Book(p, seed)
		if !ok {
			t.Fatal("the start is not in the book")
		}
		var reported []Progress
		res, err := Minimax{}.Search(context.Background(), p, Limits{Seed: seed, Progress: func(pr Progress) { reported = append(reported, pr) }})
		if err != nil {
			t.Fatal(err)
		}
		if res.Move != move || res.Units != units || res.Depth != depth || res.Nodes != 0 || len(reported) != 1 || reported[0].Move != move {
			t.Errorf("seed %d: move %v units %d depth %d nodes %d, reported %v; the book says %v, %d, depth %d", seed, res.Move, res.Units, res.Depth, res.Nodes, reported, move, units, depth)
		}
	}
	_, _, depth, _ := g.AI.Book(p, 0)
	res, err := Minimax{}.Search(context.Background(), p, Limits{Depth: depth - 1})
	if err != nil || res.Nodes == 0 || res.Depth != depth-1 || !p.Legal(res.Move) {
		t.Errorf("capped at %d plies: move %v, depth %d, nodes %d, error %v; want a search", depth-1, res.Move, res.Depth, res.Nodes, err)
	}
}
