package strategies

import (
	"context"
	"slices"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// TestMCTSWinsAndBlocks: with enough playouts MCTS takes an immediate
// win and blocks an immediate loss.
func TestMCTSWinsAndBlocks(t *testing.T) {
	for _, c := range []struct {
		game, text string
		want       engine.Move
	}{
		{"tictactoe", "xx.oo.... x", 2}, // win on cell 3 (o threatens 6)
		{"tictactoe", "x...oo.x. x", 3}, // block cell 4
		{"connect4", "121212", 0},       // win in column 1 (o threatens 2)
		{"connect4", "172717", 6},       // block column 7
	} {
		g, err := catalog.Lookup(c.game)
		if err != nil {
			t.Fatal(err)
		}
		p, err := g.Position(c.text, games.Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := MCTS{}.Search(context.Background(), p, Limits{Nodes: 5000, Seed: 1})
		if err != nil || res.Move != c.want || res.Nodes != 5000 || res.PV[0] != res.Move {
			t.Errorf("%s %s: %+v, %v; want move %s", c.game, c.text, res, err, p.FormatMove(c.want))
		}
	}
}

// TestMCTSReproducible: the same seed and playout limit give the same
// search, another seed (very likely) another.
func TestMCTSReproducible(t *testing.T) {
	g, _ := catalog.Lookup("adjacency")
	p, err := g.Start(games.Options{Rounds: 8})
	if err != nil {
		t.Fatal(err)
	}
	limits := Limits{Nodes: 2000, Seed: 7}
	a, err := MCTS{}.Search(context.Background(), p, limits)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := MCTS{}.Search(context.Background(), p, limits)
	if a.Move != b.Move || a.Score != b.Score || a.Depth != b.Depth || !slices.Equal(a.PV, b.PV) {
		t.Errorf("same seed, different searches: %+v and %+v", a, b)
	}
	limits.Seed = 8
	c, _ := MCTS{}.Search(context.Background(), p, limits)
	if slices.Equal(a.PV, c.PV) {
		t.Errorf("seeds 7 and 8 gave the same principal variation %v", a.PV)
	}
}
