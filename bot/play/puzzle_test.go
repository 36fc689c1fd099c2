package play_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/engine/slidingtile"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// TestOptimumIsTheShortestSolutionFromTheStart checks that a solo
// puzzle's optimum is counted from its start, not from where it stands,
// and that a record the solvers cannot read is an error, not an optimum.
func TestOptimumIsTheShortestSolutionFromTheStart(t *testing.T) {
	start, err := puzzles.Walk(rand.New(rand.NewPCG(3, 0)), 3, 12)
	if err != nil {
		t.Fatal(err)
	}
	want, err := puzzles.Shortest(context.Background(), start)
	if err != nil {
		t.Fatal(err)
	}
	g := &storage.Game{ID: "g1", Kind: "8puzzle", Start: start.String(), Position: slidingtile.Goal(3).String()} // solved since
	got, err := play.Optimum(context.Background(), g)
	if err != nil || got != len(want) || got == 0 {
		t.Errorf("optimum %d (%v), want the %d moves of the shortest solution from the start", got, err, len(want))
	}
	g.Start = "not a position"
	if n, err := play.Optimum(context.Background(), g); err == nil {
		t.Errorf("the optimum of an unreadable start is %d, want an error", n)
	}
}
