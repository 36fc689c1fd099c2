package play

import (
	"context"
	"fmt"
	"time"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// SolverTime bounds a puzzle solver working for an interaction, which
// must be answered within 3 seconds: the optimal solvers need milliseconds
// on the starts /puzzle deals, so a timeout means an unusual position.
const SolverTime = 2 * time.Second

// Optimum returns the fewest moves that solve g, a solo puzzle, from its
// start, within SolverTime: the optimum a solved puzzle's result is
// measured against, which the game seam records as the solving move is
// committed.
func Optimum(ctx context.Context, g *storage.Game) (int, error) {
	gm, err := Game(g)
	if err != nil {
		return 0, err
	}
	start, err := gm.Position(g.Start, games.Options{})
	if err != nil {
		return 0, fmt.Errorf("play: start of game %s: %w", g.ID, err)
	}
	ctx, cancel := context.WithTimeout(ctx, SolverTime)
	defer cancel()
	moves, err := puzzles.Shortest(ctx, start)
	if err != nil {
		return 0, fmt.Errorf("play: optimum of game %s: %w", g.ID, err)
	}
	return len(moves), nil
}
