package strategies

import (
	"context"
	"fmt"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
)

// Seed001Minimax replicates the Adjacency bot of report 001 ("Minimax
// Algorithm and Alpha Beta Pruning in Adjacency Strategy Game", section 2,
// "Proses Pencarian dengan Minimax dan Alpha Beta Pruning"). The report
// has no listing; the replica follows the section's description, and
// reproduces where it departs from a correct search:
//
//   - Depth schedule: iterative deepening by two plies, 2, 4, 6, … up to
//     the plies left (the last iteration is the plies left when they are
//     odd); only a completed iteration's move is played, so a move time
//     that ends an iteration early throws it away.
//   - Transposition table: the report's "simple version", a hash table
//     from a position (board and side to move, Zobrist-hashed) to "the
//     evaluation found". Every interior node stores the value alpha-beta
//     returned for it, although after a cut-off that value is only a
//     bound, and a later visit to the position by another move order
//     takes it as exact: the search's values, and so its moves, can be
//     wrong. The entries hold no depth either; the replica starts each
//     iteration with an empty table (otherwise every iteration would
//     repeat the depth-2 values, against the report's account of
//     consistently reaching depth 4), so within an iteration a position
//     is always met at the same remaining depth and the bounds are the
//     only error. The table holds Limits.HashMiB (at most 16 MiB; the
//     report's was unbounded), one position a slot, the newest kept.
//   - Move ordering: the previous iteration's principal variation first
//     (the report's "best move heuristic"), then the report's h(s): +1
//     for each opponent mark orthogonally next to the cell, −1 for each
//     own mark diagonally next to it that shares an empty orthogonal
//     neighbour with it (a group the opponent could flip at once); ties
//     in cell order a1, b1, … h8. With the table's bug the order changes
//     the values, not only the speed.
//   - Evaluation: the report's U(s) = O − X, the bot's marks minus the
//     opponent's at the horizon, with no look at parity, threats or
//     stability; plain fail-soft alpha-beta, nothing else (no principal
//     variation search, killers, history or reductions).
//
// Score is the root value in marks, never Exact (the table may have made
// it wrong); Depth is the last completed iteration.
type Seed001Minimax struct{}

// Search implements Strategy.
func (Seed001Minimax) Search(ctx context.Context, pos engine.Position, limits Limits) (Result, error) {
	p, ok := pos.(*adjacency.Position)
	if !ok {
		return Result{}, fmt.Errorf("strategies: seed001-minimax: %T: %w", pos, ErrUnsupported)
	}
	if p.Terminal() {
		return Result{}, fmt.Errorf("strategies: seed001-minimax %v: %w", p, ErrNoMoves)
	}
	q := p.Clone().(*adjacency.Position)
	return newSeed001Search(q).run(ctx, limits, seed001Depths(capDepth(q.PliesLeft(), limits)), 1, 0), nil
}

// newSeed001Search returns report 001's search of q.
func newSeed001Search(q *adjacency.Position) *seedSearch {
	return &seedSearch{tree: seed001Tree(q), key: func() uint64 { return q.Hash() }, pvFirst: true}
}

// seed001Tree is report 001's view of the game from q: h(s) move order,
// U(s) evaluation for the side to move at the root.
func seed001Tree(q *adjacency.Position) *positionTree {
	bot := q.SideToMove()
	var keys [engine.MaxMoves]int
	return &positionTree{
		pos: q,
		sort: func(moves []engine.Move) {
			// Insertion sort on h(s), highest first, stable.
			for i, m := range moves {
				h := seed001H(q.Board, m)
				j := i
				for ; j > 0 && keys[j-1] < h; j-- {
					moves[j], keys[j] = moves[j-1], keys[j-1]
				}
				moves[j], keys[j] = m, h
			}
		},
		score: func(p engine.Position) int { return p.Score(bot) },
	}
}

// seed001H is report 001's ordering heuristic h(s) for the side to move
// putting a mark on the empty cell c.
func seed001H(b adjacency.Board, c engine.Move) int {
	me := b.SideToMove()
	own := b.Bitboard(me)
	empty := ^(own | b.Bitboard(me.Other()))
	h := b.Captures(c)
	file, rank := int(c%8), int(c/8)
	for _, df := range [2]int{-1, 1} {
		for _, dr := range [2]int{-1, 1} {
			f, r := file+df, rank+dr
			if f < 0 || f > 7 || r < 0 || r > 7 || own&(1<<(8*r+f)) == 0 {
				continue
			}
			// The two cells next to both c and the diagonal mark.
			if empty&(1<<(8*rank+f)) != 0 || empty&(1<<(8*r+file)) != 0 {
				h--
			}
		}
	}
	return h
}

// seed001Depths is report 001's schedule 2, 4, 6, … ending at maxDepth.
func seed001Depths(maxDepth int) []int {
	var depths []int
	for d := 2; d < maxDepth; d += 2 {
		depths = append(depths, d)
	}
	return append(depths, maxDepth)
}
