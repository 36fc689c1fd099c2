package strategies

import (
	"context"
	"fmt"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/tictactoe"
)

// seed003Win is report 003's score of a won game (−10 lost, 0 drawn).
const seed003Win = 10

// Seed003Minimax replicates the tic-tac-toe bot of report 003 (section 3,
// "Minimax - TicTacToe", function minimax and the main loop), playing the
// side to move (the report's CPU, X):
//
//   - Full minimax to the end of the game, scoring a finished game +10
//     (the bot has a line), −10 (the opponent has) or 0 (a full board),
//     with no adjustment for depth: a win in five moves scores the same
//     as a win now, and a loss now the same as a loss later, so the bot
//     may take the long road to a win and does not resist a lost game.
//   - Cells are tried in order 1–9 and the first that scores best is
//     played (the score[] scan with a strict comparison, which index1
//     keeps after the root's scan).
//   - The listing's pruning test (min_val > max_val, true until the loop
//     ends) never prunes, so it walks the whole tree; the replica prunes
//     with alpha-beta, which gives the same values and the same first
//     best move, faster.
//
// Score is +1, 0 or −1 (the report's score divided by 10) and Exact: the
// values of full minimax are the game's.
type Seed003Minimax struct{}

// Search implements Strategy.
func (Seed003Minimax) Search(ctx context.Context, pos engine.Position, limits Limits) (Result, error) {
	p, ok := pos.(*tictactoe.Position)
	if !ok {
		return Result{}, fmt.Errorf("strategies: seed003-minimax: %T: %w", pos, ErrUnsupported)
	}
	if p.Terminal() {
		return Result{}, fmt.Errorf("strategies: seed003-minimax %v: %w", p, ErrNoMoves)
	}
	bot := p.SideToMove()
	t := &positionTree{pos: p.Clone(), score: func(q engine.Position) int { return seed003Win * q.Score(bot) }}
	plies := p.PliesLeft()
	s := &seedSearch{tree: t}
	return s.run(ctx, limits, []int{capDepth(plies, limits)}, seed003Win, plies), nil
}
