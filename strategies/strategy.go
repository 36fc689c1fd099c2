// Package strategies holds Gambit's AI players: every algorithm of the
// original reports and stronger ones of our own, each behind the Strategy
// interface and registered under a stable name.
//
// A search's only time limit is its context's deadline: Search returns
// soon after it with the best move found so far, and an already-expired
// context still gets a legal move at once. Limits add optional caps on
// depth, nodes, memory and threads, and a progress callback. The
// package's example is the place to start reading.
package strategies

import (
	"context"
	"errors"
	"time"

	"github.com/gambitbot/gambit/engine"
)

// Strategy is an AI player.
type Strategy interface {
	// Search chooses a move for the side to move in pos, searching until
	// ctx's deadline or a limit is reached. It leaves pos as it found it
	// and is safe to call from several goroutines on different positions.
	// It fails only when pos has no legal move (ErrNoMoves) or is of a
	// game the strategy does not play (ErrUnsupported).
	Search(ctx context.Context, pos engine.Position, limits Limits) (Result, error)
}

// Errors of Search, wrapped with context.
var (
	// ErrNoMoves reports a finished game: there is nothing to search.
	ErrNoMoves = errors.New("the game is over: no legal moves")
	// ErrUnsupported reports a position of a game the strategy does not
	// play.
	ErrUnsupported = errors.New("game not supported by this strategy")
)

// DefaultHashMiB is the transposition-table memory of a search when Limits
// do not say.
const DefaultHashMiB = 64

// Limits bound a search beyond its context's deadline. The zero value sets
// no limit: one thread, DefaultHashMiB of table, search until the deadline
// (or until the game is solved).
type Limits struct {
	// Depth caps the nominal depth in plies; 0 means no cap.
	Depth int
	// Nodes caps the nodes searched (roughly: searches check it every few
	// hundred nodes); 0 means no cap. With a node cap and no deadline, a
	// search starts from empty tables (transposition tables, Connect
	// Four's solver's) and is reproducible (given Seed, for randomised
	// strategies), or, with Memory, from what Memory kept.
	Nodes uint64
	// HashMiB is the transposition-table memory in MiB; 0 means
	// DefaultHashMiB.
	HashMiB int
	// Threads caps the search threads; 0 or 1 means one. The bot keeps the
	// sum over concurrent searches within the machine's cores.
	Threads int
	// Seed seeds randomised strategies (tie-breaks, playouts), so that a
	// node-limited search can be replayed; 0 picks a random seed.
	Seed uint64
	// Memory, if not nil, holds the tables a search keeps for the next
	// one given the same Memory, in place of the process's (Connect
	// Four's solver): a run of node-capped searches made with one Memory,
	// one after the other, answers the same whatever else the process
	// searched, and each learns from the ones before (a review's
	// positions).
	Memory *Memory
	// Progress, if not nil, is called as the search improves its answer
	// (after each completed iteration of an iterative search), from the
	// searching goroutine; it must return quickly.
	Progress func(Progress)
}

// Memory is what searches keep for the next one given it (Limits.Memory).
// It is not safe for concurrent searches: give each run of searches its
// own.
type Memory struct{ kept map[string]any }

// NewMemory returns an empty Memory.
func NewMemory() *Memory { return &Memory{kept: map[string]any{}} }

// keep returns what m keeps under key, made by make the first time.
func (m *Memory) keep(key string, make func() any) any {
	x, ok := m.kept[key]
	if !ok {
		x = make()
		m.kept[key] = x
	}
	return x
}

// Progress reports a search's current answer.
type Progress struct {
	// Depth is the deepest completed iteration, in plies.
	Depth int
	// Move is the best move so far.
	Move engine.Move
	// Score is its score (see Result.Score).
	Score int
	// Exact reports that Score is the game's exact value.
	Exact bool
	// Nodes counts the positions searched so far.
	Nodes uint64
	// Elapsed is the time since the search started.
	Elapsed time.Duration
}

// Result is the answer of a search.
type Result struct {
	// Move is the chosen move, always legal.
	Move engine.Move
	// Score is the value of the position for the side to move in the
	// game's unit: Adjacency, own marks minus the opponent's at the end;
	// Connect Four, Pons' convention when exact (see engine/connect4),
	// otherwise a heuristic; Tic-Tac-Toe, +1 win, 0 draw, −1 loss. When
	// Exact is false it is the strategy's estimate in the same unit.
	Score int
	// Units is the score in the search's internal units (games.AI.Unit
	// per unit of Score), finer than Score where the generic search's
	// estimate is below a unit (Gomoku's, in wins); Adjacency's is Score
	// times its Unit. Only minimax sets it; other strategies leave it 0.
	Units int
	// Exact reports that Score is the game's exact value under perfect
	// play from both sides.
	Exact bool
	// Depth is the deepest completed iteration in plies (for an exact
	// solve, the plies to the end of the game).
	Depth int
	// Nodes counts the positions searched.
	Nodes uint64
	// PV is the principal variation: the expected line, starting with
	// Move. It may be just Move.
	PV []engine.Move
}
