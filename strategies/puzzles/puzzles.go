// Package puzzles holds the solvers of the one-player puzzles: the search
// algorithms of report 003 on the sliding-tile puzzles (engine/slidingtile)
// and on N-Queens (engine/nqueens), with the optimal searches that measure
// them. Each solver has a stable name; TileSolvers and QueensSolvers list
// them and docs/ai.md, "Puzzle solvers", names their origins.
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

// ErrMemory is matched by a solver's error (a *MemoryError) when the
// states it would hold exceed Limits.Memory: it stops before taking more.
var ErrMemory = errors.New("memory budget reached")

// MemoryError is the error of a solver stopped by its memory budget.
type MemoryError struct {
	// Budget is the budget in bytes.
	Budget uint64
}

// Error says which budget was reached: "memory budget of 512 MiB
// reached".
func (e *MemoryError) Error() string {
	return "memory budget of " + bytesText(e.Budget) + " reached"
}

// Is makes errors.Is(err, ErrMemory) true.
func (e *MemoryError) Is(target error) bool { return target == ErrMemory }

// DefaultMemory is the memory budget of a solver whose Limits.Memory is 0:
// 512 MiB.
const DefaultMemory = 512 << 20

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
	// Memory is the most bytes the solver may hold in its states (the
	// open and closed sets of a graph search, the boards of N-Queens),
	// counted as entries times an estimate of each entry's size; 0 means
	// DefaultMemory. The pattern databases, built once per process and
	// shared, are not counted.
	Memory uint64
	// Progress, if not nil, is called while a pattern database the solve
	// needs is built on first use (idastar-pdb78's, minutes of CPU): the
	// placements its tables have reached so far and their total, after
	// each level of the build. The bot leaves it nil.
	Progress func(done, total int)
}

// checkWork is the work, in units of about a cell or a row scanned,
// between two looks at the clock: tens of microseconds.
const checkWork = 1 << 16

// nodeWork is the work of a node of the sliding-tile searches, so that
// they look at the clock every 4,096 nodes.
const nodeWork = checkWork / 4096

// budget counts nodes against the limits, work against the context and
// the bytes held against the memory budget. It looks at the context at
// the first node and then after every checkWork units of work.
type budget struct {
	ctx   context.Context
	max   uint64
	nodes uint64
	err   error
	// due is the work left before the next look at the clock; work
	// counts all the work charged.
	due, work uint64
	// check looks at the clock: the context's Err unless a test sets it.
	check func() error
	// memory is the budget in bytes, held what the solver holds.
	memory, held uint64
}

func newBudget(ctx context.Context, l Limits) *budget {
	memory := l.Memory
	if memory == 0 {
		memory = DefaultMemory
	}
	return &budget{ctx: ctx, max: l.Nodes, check: ctx.Err, memory: memory}
}

// spend counts one node and reports whether the search must stop.
func (b *budget) spend() bool {
	b.nodes++
	if b.max != 0 && b.nodes > b.max {
		b.nodes--
		b.err = fmt.Errorf("%w: %d nodes", ErrLimit, b.max)
		return true
	}
	return b.charge(nodeWork)
}

// charge counts units of work, looks at the clock when checkWork units
// have been done since it last did, and reports whether the search must
// stop.
func (b *budget) charge(units uint64) bool {
	b.work += units
	if units < b.due {
		b.due -= units
		return false
	}
	b.due = checkWork
	if err := b.check(); err != nil {
		b.err = err
		return true
	}
	return false
}

// hold counts count more entries of size bytes each held by the solver
// and reports whether that is over the memory budget; then b.err says so
// and the caller must stop without taking them.
func (b *budget) hold(count, size uint64) bool {
	if count > (b.memory-b.held)/size {
		b.err = &MemoryError{Budget: b.memory}
		return true
	}
	b.held += count * size
	return false
}

// release counts count entries of size bytes no longer held.
func (b *budget) release(count, size uint64) { b.held -= count * size }

// bytesText writes a number of bytes in MiB when it is a whole number of
// them.
func bytesText(n uint64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
