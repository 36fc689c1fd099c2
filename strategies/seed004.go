package strategies

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
)

const (
	// seed004Depth is report 004's search depth.
	seed004Depth = 5
	// seed004Win stands for report 004's ±10000000000000 for a won or
	// lost game: far beyond any heuristic value (at most a few hundred)
	// and within a 32-bit int.
	seed004Win = 1_000_000
)

// Seed004Minimax replicates the Connect Four bot of report 004
// ("Penerapan Algoritma MiniMax dengan Memanfaatkan Greedy dalam
// Aplikasi Strategi Game Connect Four", section III, figures 3–6:
// evaluateWindow, scorePosition, minimax and the main program), playing
// the side to move as the report's AI_PIECE:
//
//   - Alpha-beta minimax to depth 5, columns tried left to right, the
//     first that scores best played (the listing's random.choice default
//     is always overwritten).
//   - A finished game scores ±huge (the bot won or lost) or 0 (a full
//     board), with no adjustment for depth: a win in five plies is worth
//     a win now, so with a win on the board the bot may play a slower
//     forced win in a column further left, and a loss now is no worse
//     than a loss later.
//   - At depth 0 it scores the position for the bot (AI_PIECE, whoever is
//     to move there) with scorePosition, as the code has it (the prose
//     says 3 for the centre column; the code 4): +4 for each bot stone in
//     the centre column, and for every window of four cells — across,
//     up, and both diagonals, 69 in all — +100 for four bot stones, +5
//     for three and an empty cell, +2 for two and two empty cells, and
//     −4 for three opponent stones and an empty cell.
//
// Score is in the report's points (not Pons' unit), ±1,000,000 for a
// forced win or loss within the horizon; never Exact.
type Seed004Minimax struct{}

// Search implements Strategy.
func (Seed004Minimax) Search(ctx context.Context, pos engine.Position, limits Limits) (Result, error) {
	p, ok := pos.(*connect4.Position)
	if !ok {
		return Result{}, fmt.Errorf("strategies: seed004-minimax: %T: %w", pos, ErrUnsupported)
	}
	if p.Terminal() {
		return Result{}, fmt.Errorf("strategies: seed004-minimax %v: %w", p, ErrNoMoves)
	}
	bot := p.SideToMove()
	t := &positionTree{pos: p.Clone(), score: func(q engine.Position) int { return seed004Value(q.(*connect4.Position), bot) }}
	s := &seedSearch{tree: t}
	return s.run(ctx, limits, []int{capDepth(seed004Depth, limits)}, 1, 0), nil
}

// seed004Value is report 004's value of p for the bot: ±seed004Win or 0
// for a finished game, scorePosition otherwise.
func seed004Value(p *connect4.Position, bot engine.Side) int {
	switch p.Result(bot) {
	case engine.Win:
		return seed004Win
	case engine.Loss:
		return -seed004Win
	case engine.Draw:
		return 0
	}
	return seed004Heuristic(p, bot)
}

// seed004Windows are the 69 windows of four cells as bit masks (bit 7c+r
// for column c, row r from the bottom, as connect4 lays out its
// bitboards).
var seed004Windows = func() []uint64 {
	var windows []uint64
	cell := func(c, r int) uint64 { return 1 << (7*c + r) }
	for c := range connect4.Width {
		for r := range connect4.Height {
			for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				ec, er := c+3*d[0], r+3*d[1]
				if ec >= connect4.Width || er < 0 || er >= connect4.Height {
					continue
				}
				var w uint64
				for i := range 4 {
					w |= cell(c+i*d[0], r+i*d[1])
				}
				windows = append(windows, w)
			}
		}
	}
	return windows
}()

// seed004Centre is the centre column (COLUMN_COUNT//2).
const seed004Centre = 0b111111 << (7 * (connect4.Width / 2))

// seed004Heuristic is report 004's scorePosition(board, piece) for
// piece = side s.
func seed004Heuristic(p *connect4.Position, s engine.Side) int {
	own, opp := p.Bitboard(s), p.Bitboard(s.Other())
	score := 4 * bits.OnesCount64(own&seed004Centre)
	for _, w := range seed004Windows {
		mine, theirs := bits.OnesCount64(own&w), bits.OnesCount64(opp&w)
		empty := 4 - mine - theirs
		switch {
		case mine == 4:
			score += 100
		case mine == 3 && empty == 1:
			score += 5
		case mine == 2 && empty == 2:
			score += 2
		}
		if theirs == 3 && empty == 1 {
			score -= 4
		}
	}
	return score
}
