// Package puzzles holds the solvers of the one-player puzzles: the search
// algorithms of report 003 on the sliding-tile puzzles (engine/slidingtile)
// and on N-Queens (engine/nqueens), with the optimal searches that measure
// them. Each solver has a stable name; TileSolvers and QueensSolvers list
// them and README.md in strategies names their origins.
//
// A solver stops at its context's deadline or at Limits.Nodes, whichever
// comes first, with an error wrapping ErrLimit or the context's error.
// They are not the game strategies of package strategies: a puzzle has no
// opponent, and a solver returns a whole solution, not one move.
package puzzles

import (
	"context"
	"errors"
	"fmt"
)

// ErrLimit is wrapped by a solver's error when it stopped at Limits.Nodes
// (or at its depth cap) without a solution.
var ErrLimit = errors.New("limit reached without a solution")

// Limits bound a solver beyond its context's deadline.
type Limits struct {
	// Nodes caps the nodes expanded (see each solver for what a node is);
	// 0 means no cap.
	Nodes uint64
	// Depth caps the depth of the depth-first search "dfs"; 0 means the
	// puzzle's diameter (31 moves for the 8-puzzle, 80 for the 15-puzzle).
	Depth int
	// Seed seeds the randomised N-Queens solvers; 0 picks seed 1, so runs
	// replay.
	Seed uint64
}

// budget counts nodes against the limits and the context, checking the
// context at the first node and every 4,096 after.
type budget struct {
	ctx   context.Context
	max   uint64
	nodes uint64
	err   error
}

func newBudget(ctx context.Context, l Limits) *budget { return &budget{ctx: ctx, max: l.Nodes} }

// spend counts one node and reports whether the search must stop.
func (b *budget) spend() bool {
	b.nodes++
	if b.max != 0 && b.nodes > b.max {
		b.nodes--
		b.err = fmt.Errorf("%w: %d nodes", ErrLimit, b.max)
		return true
	}
	if b.nodes&4095 == 1 && b.ctx.Err() != nil {
		b.err = b.ctx.Err()
		return true
	}
	return false
}
