// Package othsolve solves Othello endgames exactly: the final disc
// difference under perfect play from both sides, a move that achieves
// it and a principal variation, in the style of the strong programs (Edax,
// Zebra).
//
// A position is two bitboards (engine/othello's layout: bit c for cell c,
// a1 = 0, rows from the top), the discs of the side to move and of its
// opponent. Scores are from the side to move's point of view and count
// the discs on the board at the end, as engine/othello's Score does:
// empty squares of a game that ends early go to nobody. NewScoring gives
// a solver of tournament scoring instead, where they go to the winner (the
// convention of published test suites such as the FFO positions).
//
// The search is a fail-soft principal variation search (null windows for
// every move but the first) in layers by the number of empty squares:
//
//   - from ten empties up, nodes use a transposition table of lower and
//     upper bounds with the best move (tried first) and look up every child
//     before searching any (enhanced transposition cut-off); from twelve up
//     the other moves are ordered by the static evaluation
//     (games/othello.Evaluate) of the position after each, searched 0 to 3
//     plies deeper as empties grow, as well as fastest first;
//   - from seven empties up, moves are ordered fastest first: the fewest
//     replies for the opponent (corners counting double), then the fewest
//     empty squares next to the mover's discs, a move into a quadrant with
//     an odd number of empties, and the square's worth; and
//     the opponent's stable discs (edges, full lines, and discs held by
//     them) bound the score: when that bound is at most alpha the node is
//     cut;
//   - with five or six empties, the empty squares are tried without move
//     generation, those in a region (quadrant) with an odd number of
//     empties first (parity ordering), corners and edges before the
//     squares next to a corner;
//   - the last four, three and two empties have their own solvers, which
//     try the empty squares in parity order, and the last one is scored by
//     counting the discs it flips.
//
// Flips are computed along rays from the square with no loop, and a
// square with no opponent disc next to it is rejected at once.
//
// Bounds are proven facts about positions, so a Solver's table stays
// valid across solves: reusing a Solver makes later solves of the same game
// faster, never wrong.
package othsolve

import (
	"context"
	"errors"
	"fmt"
	"math/bits"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/othello"
	"github.com/gambitbot/gambit/strategies/internal/clock"
)

// Scoring says who gets the empty squares of a game that ends before the
// board is full.
type Scoring int

const (
	// BoardCount scores the discs on the board: empty squares count for
	// nobody, as in engine/othello's Score.
	BoardCount Scoring = iota
	// EmptiesToWinner gives the empty squares to the winner, as
	// tournaments and the published test suites do.
	EmptiesToWinner
)

// DefaultTableBytes is a transposition table's size when New is given 0.
const DefaultTableBytes = 64 << 20

// Solver solves Othello positions. It is not safe for concurrent use;
// keep one per goroutine.
type Solver struct {
	tt      table
	scoring Scoring

	ctx       context.Context
	nodes     uint64
	limit     uint64 // stop once nodes reaches it; 0: never
	nextCheck uint64
	err       error // why the solve stopped, nil while it runs
}

// New returns a solver with a transposition table of about tableBytes
// bytes (DefaultTableBytes if 0 or less, at least 24 KiB), scoring the
// discs on the board.
func New(tableBytes int) *Solver { return NewScoring(tableBytes, BoardCount) }

// NewScoring is New with the given scoring.
func NewScoring(tableBytes int, scoring Scoring) *Solver {
	if tableBytes <= 0 {
		tableBytes = DefaultTableBytes
	}
	return &Solver{tt: newTable(tableBytes), scoring: scoring}
}

// Result is a solved position.
type Result struct {
	// Move is a best move: a square, othello.Pass when the side to move
	// has none, or engine.NoMove when the game is over.
	Move engine.Move
	// Score is the final disc difference for the side to move under
	// perfect play, in the solver's Scoring.
	Score int
	// Nodes counts the positions searched, the principal variation's
	// included.
	Nodes uint64
	// PV is a principal variation: Move and the best replies to the end of
	// the game, passes included (none when the game is over).
	PV []engine.Move
}

// ErrNodeBudget is the error of a solve stopped by its node budget.
var ErrNodeBudget = errors.New("othsolve: node budget used up")

// checkEvery is how many nodes pass at least between looks at the context
// and the node budget, as in the generic search: a look comes at the
// first node of seven empties or more after them, so a solve overshoots
// its budget by a few thousand nodes at most.
const checkEvery = clock.Interval

// Solve returns the exact score of the position where the side to move
// has the discs own and its opponent opp (which must not overlap), a best
// move and a principal variation. It stops soon after ctx is done or once
// it has searched budgetNodes nodes (0: no budget), with an error saying
// it did not finish (wrapping ctx's error or ErrNodeBudget); the Result
// then holds only the nodes searched. A search stopped by its node
// budget stops at the same node on every machine.
func (s *Solver) Solve(ctx context.Context, own, opp uint64, budgetNodes uint64) (Result, error) {
	if own&opp != 0 {
		return Result{}, fmt.Errorf("othsolve: solve: the sides' discs overlap on %d squares", bits.OnesCount64(own&opp))
	}
	s.ctx, s.nodes, s.limit, s.err = ctx, 0, budgetNodes, nil
	defer func() { s.ctx = nil }() // a pooled solver keeps no context alive
	s.nextCheck = 0
	s.tt.newSolve()
	if s.check() {
		return Result{}, s.stopError()
	}
	var r Result
	r.Score, r.Move = s.root(own, opp)
	if s.err == nil && r.Move != engine.NoMove {
		r.PV = s.principalVariation(own, opp, r.Score, r.Move)
	}
	r.Nodes = s.nodes
	if s.err != nil {
		return Result{Nodes: s.nodes}, s.stopError()
	}
	return r, nil
}

func (s *Solver) stopError() error {
	return fmt.Errorf("othsolve: solve stopped after %d nodes: %w", s.nodes, s.err)
}

// check looks at the context and the node budget, and reports whether the
// solve must stop.
func (s *Solver) check() bool {
	if s.err != nil {
		return true
	}
	s.nextCheck = s.nodes + checkEvery
	if s.limit > 0 {
		if s.nodes >= s.limit {
			s.err = ErrNodeBudget
			return true
		}
		s.nextCheck = min(s.nextCheck, s.limit)
	}
	if err := s.ctx.Err(); err != nil {
		s.err = err
		return true
	}
	return false
}

// root solves the root position: its score and best move. Its window,
// (−64, 64), gives the exact score, since none lies outside it; once a
// move reaches 64 (a wipe-out, or a full board of one colour) the others
// need no search.
func (s *Solver) root(own, opp uint64) (int, engine.Move) {
	n := bits.OnesCount64(^(own | opp))
	if othello.LegalMoves(own, opp) == 0 {
		if othello.LegalMoves(opp, own) == 0 {
			return s.final(own, opp), engine.NoMove
		}
		return -s.solve(opp, own, -64, 64, n), othello.Pass
	}
	score, best := s.deep(own, opp, -64, 64, n)
	return score, engine.Move(best)
}

// principalVariation follows best moves from the solved root: at each
// position the table's move, checked, or else the first move whose
// child has the opposite score.
func (s *Solver) principalVariation(own, opp uint64, score int, first engine.Move) []engine.Move {
	pv := []engine.Move{first}
	m := first
	for s.err == nil && m != engine.NoMove {
		if m != othello.Pass {
			bit := uint64(1) << m
			f := othello.Flips(own, opp, bit)
			own, opp = own|f|bit, opp&^f
		}
		own, opp, score = opp, own, -score
		m = s.bestMoveOf(own, opp, score)
		if m == engine.NoMove {
			break
		}
		pv = append(pv, m)
	}
	return pv
}

// bestMoveOf returns a move of the position that keeps its score,
// othello.Pass, or engine.NoMove once the game is over (or the solve has
// to stop).
func (s *Solver) bestMoveOf(own, opp uint64, score int) engine.Move {
	moves := othello.LegalMoves(own, opp)
	if moves == 0 {
		if othello.LegalMoves(opp, own) == 0 {
			return engine.NoMove
		}
		return othello.Pass
	}
	n := bits.OnesCount64(^(own | opp))
	if e, ok := s.tt.probe(own, opp); ok && e.move != noSquare && moves>>e.move&1 == 1 {
		if s.moveKeeps(own, opp, int(e.move), score, n) {
			return engine.Move(e.move)
		}
		moves &^= 1 << e.move
	}
	for ; moves != 0 && s.err == nil; moves &= moves - 1 {
		if sq := bits.TrailingZeros64(moves); s.moveKeeps(own, opp, sq, score, n) {
			return engine.Move(sq)
		}
	}
	return engine.NoMove
}

// moveKeeps reports whether the move on sq scores score.
func (s *Solver) moveKeeps(own, opp uint64, sq, score, n int) bool {
	bit := uint64(1) << sq
	f := othello.Flips(own, opp, bit)
	return -s.solve(opp&^f, own|f|bit, -score-1, -score+1, n-1) == score
}

// final returns the score of a finished game.
func (s *Solver) final(own, opp uint64) int {
	o, p := bits.OnesCount64(own), bits.OnesCount64(opp)
	d := o - p
	if s.scoring == EmptiesToWinner {
		switch e := 64 - o - p; {
		case d > 0:
			d += e
		case d < 0:
			d -= e
		}
	}
	return d
}
