package strategies

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
)

// seed002Depth is report 002's fixed search depth.
const seed002Depth = 3

// Seed002AlphaBeta replicates the Adjacency bot of report 002 ("Minimax
// Algorithm and Alpha Beta Pruning in Adjacency Strategy Game", section 2,
// "Implementasi Minimax Alpha Beta Pruning", methods move, minmax,
// createSuccessor, getEmptyBlock and getBoardScore) as written:
//
//   - A fixed depth of 3 plies (move calls minmax with depth 3), whatever
//     the move time.
//   - The search knows nothing of the game's end: like the listing's
//     minmax, it stops only at depth 0 or a full board, so near the end of
//     a game it counts replies that will never be played (Depth is 3
//     even with one ply left).
//   - createSuccessor's board simulation: the new mark is always the
//     bot's (it writes −1, the bot's mark, for either side), and the
//     marks next to it flip to the side whose turn it is; so an opponent's
//     simulated move gives the bot the cell and the opponent the bot's
//     neighbouring marks, and a later bot move next to it flips nothing
//     there.
//   - getBoardScore: the bot's marks minus the opponent's on the
//     simulated board.
//   - Order: getEmptyBlock's, rows from the top (rank 8) down and cells
//     left to right in each, then sorted (stably) by the board score
//     after the move, best for the bot first at its own turns and worst
//     for it first at the opponent's; the first move that scores best is
//     played.
//
// Report 002's bot crashed with one empty cell left; here the search of
// that position is one ply deep and plays the cell, and a deadline
// returns the best move found so far (or the first in its order). Score
// is the root value in marks of the simulated board, never Exact.
type Seed002AlphaBeta struct{}

// Search implements Strategy.
func (Seed002AlphaBeta) Search(ctx context.Context, pos engine.Position, limits Limits) (Result, error) {
	p, ok := pos.(*adjacency.Position)
	if !ok {
		return Result{}, fmt.Errorf("strategies: seed002-alphabeta: %T: %w", pos, ErrUnsupported)
	}
	if p.Terminal() {
		return Result{}, fmt.Errorf("strategies: seed002-alphabeta %v: %w", p, ErrNoMoves)
	}
	me := p.SideToMove()
	t := &seed002Tree{bot: p.Bitboard(me), opp: p.Bitboard(me.Other())}
	s := &seedSearch{tree: t}
	return s.run(ctx, limits, []int{capDepth(seed002Depth, limits)}, 1, 0), nil
}

// seed002Tree is report 002's simulated board: the bot's and the
// opponent's marks, the bot to move at even plies.
type seed002Tree struct {
	bot, opp uint64
	ply      int
	hist     [maxPly][2]uint64
	keys     [engine.MaxMoves]int
}

// after returns the marks after the side to move of the simulation puts
// its mark on c, as createSuccessor does.
func (t *seed002Tree) after(c engine.Move) (bot, opp uint64) {
	bot, opp = t.bot|1<<c, t.opp // the new mark is the bot's, whoever moves
	near := adjacency.Dilate(1 << c)
	if t.ply%2 == 0 {
		flips := near & opp
		return bot | flips, opp &^ flips
	}
	flips := near & bot
	return bot &^ flips, opp | flips
}

func (t *seed002Tree) children(buf []engine.Move) []engine.Move {
	buf = buf[:0]
	empty := ^(t.bot | t.opp)
	for rank := 7; rank >= 0; rank-- {
		for row := uint8(empty >> (8 * rank)); row != 0; row &= row - 1 {
			buf = append(buf, engine.Move(8*rank+bits.TrailingZeros8(row)))
		}
	}
	// Insertion sort on the score after the move, stable: the bot's best
	// first at its turns, its worst first at the opponent's.
	sign := 1
	if t.ply%2 == 1 {
		sign = -1
	}
	for i, m := range buf {
		bot, opp := t.after(m)
		k := sign * (bits.OnesCount64(bot) - bits.OnesCount64(opp))
		j := i
		for ; j > 0 && t.keys[j-1] < k; j-- {
			buf[j], t.keys[j] = buf[j-1], t.keys[j-1]
		}
		buf[j], t.keys[j] = m, k
	}
	return buf
}

func (t *seed002Tree) play(m engine.Move) {
	t.hist[t.ply] = [2]uint64{t.bot, t.opp}
	t.bot, t.opp = t.after(m)
	t.ply++
}

func (t *seed002Tree) undo() {
	t.ply--
	t.bot, t.opp = t.hist[t.ply][0], t.hist[t.ply][1]
}

func (t *seed002Tree) value() int { return bits.OnesCount64(t.bot) - bits.OnesCount64(t.opp) }
