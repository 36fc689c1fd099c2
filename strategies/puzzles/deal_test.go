package puzzles

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// TestEveryCatalogPuzzleIsSolvable checks that every solo game of the
// catalog has its part here, registered under the way its plug-in is
// solved, and that every registered way is a catalog puzzle's: a puzzle
// without one would have no hints, solutions or comparisons.
func TestEveryCatalogPuzzleIsSolvable(t *testing.T) {
	for _, g := range catalog.All() {
		if _, ok := solvable[g.Solve]; ok != g.Solo() {
			t.Errorf("%s: registered %v, solo %v", g.Name, ok, g.Solo())
		}
	}
	for way := range solvable {
		if !slices.ContainsFunc(catalog.All(), func(g *games.Game) bool { return g.Solve == way && g.Solo() }) {
			t.Errorf("solving %d is no catalog puzzle's", way)
		}
	}
}

// TestDeal checks Deal on each puzzle and its refusal of a duel: an
// 8-puzzle of each level as long as the level says, N-Queens from its
// start.
func TestDeal(t *testing.T) {
	eight, _ := catalog.Lookup("8puzzle")
	start, _ := eight.Start(games.Options{})
	rng := rand.New(rand.NewPCG(3, 4))
	for _, level := range Levels() {
		p, err := Deal(context.Background(), rng, start, level)
		if err != nil {
			t.Fatalf("8puzzle %s: %v", level.Name, err)
		}
		sol, err := Shortest(context.Background(), p)
		if n := len(sol); err != nil || n < level.lo[3] || n > level.hi[3] {
			t.Errorf("8puzzle %s: dealt %v, %d moves from a solution (%v); want %d to %d", level.Name, p, n, err, level.lo[3], level.hi[3])
		}
	}
	queens, _ := catalog.Lookup("nqueens")
	start, _ = queens.Start(games.Options{Size: 6})
	if p, err := Deal(context.Background(), rng, start, Levels()[1]); err != nil || p.String() != start.String() {
		t.Errorf("nqueens: dealt %v, %v; want its start", p, err)
	}
	c4, _ := catalog.Lookup("connect4")
	duel, _ := c4.Start(games.Options{})
	if _, err := Deal(context.Background(), rng, duel, Levels()[1]); err == nil {
		t.Error("dealt a Connect Four game as a puzzle")
	}
	if moves, err := Shortest(context.Background(), duel); err == nil {
		t.Errorf("Shortest on Connect Four: %v", moves)
	}
	if entrants, err := Entrants(duel); err == nil {
		t.Errorf("Entrants on Connect Four: %d", len(entrants))
	}
}
