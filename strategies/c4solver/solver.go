// Package c4solver solves Connect Four positions exactly: the score of a
// position under perfect play from both sides, and a move that achieves
// it.
//
// Scores follow the convention of Pascal Pons' benchmark positions (see
// engine/connect4/testdata/README.md), from the point of view of the
// player to move: 0 for a draw; if the winning stone is move N of the
// game, (44 − N) div 2 when the player to move wins and its negation when
// the opponent does. Winning sooner scores higher; a weak solve gives only
// the sign, −1, 0 or 1.
//
// The solver is a null-window negamax with alpha-beta on bitboards (the
// layout of engine/connect4: stones of the player to move and all
// stones, 7 bits a column; their sum is a unique key). The root narrows an
// interval [lo, hi] that holds the score with null-window searches, biased
// towards 0, until it closes. Each search node
//
//   - prunes the moves that let the opponent win at once and plays a forced
//     block (two forced blocks lose: the node is decided without search);
//   - never has an immediate win: its parent only plays moves that leave
//     none to the opponent, and the root checks for one first, so the
//     node's score lies in a window that shrinks with the stones left;
//   - consults a transposition table of one-word entries holding the full
//     key, a lower and an upper bound on the score and the move that proved
//     the lower bound, which it tries first; the large table's buckets of
//     two keep the position of fewest moves they have seen beside the
//     latest, and before 20 moves a position and its mirror image share
//     an entry;
//   - orders the other moves by the number of winning cells each creates
//     for the mover (its threats), centre columns first among equals;
//   - with more than 14 empty cells, looks up all its children in the
//     table before searching any (enhanced transposition cutoff): a child's
//     stored bound may already decide the node, and the lookups' cache
//     misses overlap instead of coming one at a time;
//   - hands each child the threats just computed, which are the child's
//     opponent's winning cells.
//
// Positions with at most 14 empty cells, the great majority, use a second,
// 1 MiB table that stays in the processor's cache: for their small
// subtrees a cache miss costs more than it saves. The large table is
// advised to huge pages on Linux, and starts small, growing as it fills,
// so that small solves stay in the cache too.
//
// Bounds are proven facts about positions, so a Solver's tables stay valid
// across solves: reusing a Solver makes later solves faster, never wrong.
// An opening book (see Book), embedded in the binary, gives the exact
// scores of the first plies' positions, which would take minutes each,
// and the best moves of the later positions a player following it meets.
package c4solver

import (
	"context"
	"errors"
	"fmt"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/strategies/internal/clock"
)

// DefaultTableBytes is the transposition table size that New is usually
// given: 64 MiB, 8 Mi entries.
const DefaultTableBytes = 64 << 20

// Solver solves Connect Four positions with a transposition table of its
// own, kept from one solve to the next. It is not safe for concurrent use;
// give each goroutine its own.
type Solver struct {
	tt    table
	near  table
	clock clock.Manager // a solve's context, node budget and nodes
	count clock.Counter // the nodes since the last check-in
	book  *Book
	// stable makes bestMove ignore the table's move, so that the move it
	// picks, the first of the static order that achieves the score, does
	// not depend on earlier solves: books come out the same every time.
	stable bool
}

// New returns a solver whose large transposition table takes about
// tableBytes of memory (8 bytes an entry, at least 1,024 and at most
// 2³² − 1 entries), besides the fixed 1 MiB table of the positions near the
// end. The memory is not touched here: the solves page it in as they go,
// under their context, so that the first move of a process does not wait
// the tens to hundreds of milliseconds that touching 64 MiB takes before
// it can look at its clock.
func New(tableBytes int) *Solver {
	s := &Solver{tt: newTable(tableBytes, true), near: newTable(nearBytes, false), book: DefaultBook()}
	s.start(context.Background(), 0) // ready for tests that search below the root
	return s
}

// SetBook makes the solver consult b (nil: no book) instead of the
// embedded DefaultBook: for generating and testing books.
func (s *Solver) SetBook(b *Book) { s.book = b }

// SetStable makes the solver, when several moves achieve the score,
// pick the first in its static order (centre first) rather than the one
// its table suggests, so that the move does not depend on earlier
// solves: books must come out the same every time they are generated.
func (s *Solver) SetStable(stable bool) { s.stable = stable }

// Reset empties the transposition tables, so that the next solve starts
// from nothing, as a fresh Solver would: for measurements; the answers
// are the same either way.
func (s *Solver) Reset() { s.tt.clear(); s.near.clear() }

// Result is the outcome of a solve.
type Result struct {
	// Score is the exact score for the player to move (a weak solve:
	// its sign, −1, 0 or 1).
	Score int
	// BestMove achieves Score (a weak solve: the same sign; when the
	// player to move loses, any move). It is engine.NoMove when the game
	// is over.
	BestMove engine.Move
	// Nodes counts the positions searched.
	Nodes uint64
}

// Solve returns the exact score of p and a move that achieves it. It
// honours ctx: once ctx is done the search stops within a few
// microseconds and Solve returns an error wrapping ctx.Err(). A finished
// game returns its final score (connect4's Score for the player to move).
func (s *Solver) Solve(ctx context.Context, p *connect4.Position) (Result, error) {
	return s.solve(ctx, p, false, 0)
}

// ErrNodeBudget is the error of a solve stopped by its node budget (see
// SolveWithin).
var ErrNodeBudget = errors.New("c4solver: node budget used up")

// SolveWithin is Solve with a node budget as well: the search also stops,
// as it does for a done context, once it has searched maxNodes nodes
// (looked at every 1,024 nodes; 0 means no budget), and the error then
// wraps ErrNodeBudget. A search that stops for a node budget rather than a
// clock stops at the same node on every machine.
func (s *Solver) SolveWithin(ctx context.Context, p *connect4.Position, maxNodes uint64) (Result, error) {
	return s.solve(ctx, p, false, maxNodes)
}

// SolveWeak is Solve for the sign of the score only: 1 when the player to
// move wins, 0 for a draw, −1 for a loss. It is faster.
func (s *Solver) SolveWeak(ctx context.Context, p *connect4.Position) (Result, error) {
	return s.solve(ctx, p, true, 0)
}

// MoveScore is the exact score of one move: the score for the player to
// move if it plays Move, in the convention of Solve.
type MoveScore struct {
	Move  engine.Move
	Score int
	// Nodes counts the positions searched to score the move.
	Nodes uint64
}

// MoveScores returns the exact score of every legal move of p, in column
// order: one solve per move, so it costs about as much as solving p
// several times over. It honours ctx as Solve does.
func (s *Solver) MoveScores(ctx context.Context, p *connect4.Position) ([]MoveScore, error) {
	var buf [connect4.Width]engine.Move
	moves := p.Moves(buf[:0])
	out := make([]MoveScore, 0, len(moves))
	for _, m := range moves {
		child := *p
		child.Play(m)
		r, err := s.Solve(ctx, &child)
		if err != nil {
			return nil, fmt.Errorf("c4solver: scoring move %s of %s: %w", p.FormatMove(m), p, err)
		}
		out = append(out, MoveScore{Move: m, Score: -r.Score, Nodes: r.Nodes})
	}
	return out, nil
}

func (s *Solver) solve(ctx context.Context, p *connect4.Position, weak bool, budget uint64) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("c4solver: solving %s: %w", p, err)
	}
	if p.Terminal() {
		score := p.Score(p.SideToMove())
		if weak {
			score = sign(score)
		}
		return Result{Score: score, BestMove: engine.NoMove}, nil
	}
	side := p.SideToMove()
	s.start(ctx, budget)
	score, col := s.root(p.Bitboard(side), p.Bitboard(engine.X)|p.Bitboard(engine.O), p.Ply(), weak)
	nodes := s.finish()
	if s.clock.Stopped() {
		cause := s.clock.Err()
		if cause == nil {
			cause = ErrNodeBudget
		}
		return Result{Nodes: nodes}, fmt.Errorf("c4solver: solving %s: stopped after %d nodes: %w", p, nodes, cause)
	}
	return Result{Score: score, BestMove: engine.Move(col), Nodes: nodes}, nil
}

// start readies the solver for a solve under ctx and a node budget (0:
// none).
func (s *Solver) start(ctx context.Context, budget uint64) {
	s.clock.Start(ctx, budget, nil)
	s.count = clock.Counter{M: &s.clock}
}

// finish ends a solve and returns its nodes.
func (s *Solver) finish() uint64 {
	s.count.Flush()
	return s.clock.Nodes()
}

// root solves the unfinished position cur/mask after ply moves: its score
// (weak: the sign) and the column of a move that achieves it. Before the
// book's last ply both come from the book, and later from the entries
// that hold the move; a position of the book's last ply without one
// reads its score and searches only for the move.
func (s *Solver) root(cur, mask uint64, ply int, weak bool) (score, col int) {
	if win := playable(mask) & winningCells(cur, mask); win != 0 {
		if weak {
			return 1, column(win)
		}
		return (cells + 1 - ply) / 2, column(win)
	}
	if s.book != nil && ply < s.book.plies {
		if score, col, ok := s.book.fromChildren(cur, mask, ply); ok {
			if weak {
				score = sign(score)
			}
			return score, col
		}
	}
	oppWin := winningCells(cur^mask, mask)
	if s.book != nil && ply >= s.book.plies && ply <= s.book.deepest {
		if score, col, ok := s.book.lookup(cur, mask); ok {
			if weak {
				score = sign(score)
			}
			if col < 0 { // at the book's last ply, a position without its move
				col = s.bestMove(cur, mask, oppWin, ply, score, weak)
			}
			return score, col
		}
	}
	// The score lies in [lo, hi]; each null-window search moves one end.
	// Probing halfway between 0 and the far end rather than in the middle
	// tries the quick wins and losses first, which are the cheapest to
	// prove or refute. A weak solve stops once the sign is known and,
	// after one such probe for a quick win, asks only about the sign: on
	// Pons' sets the best compromise between asking only about the sign
	// (slow on quick wins) and probing twice first (slow on long games).
	lo, hi := -(cells-ply)/2, (cells+1-ply)/2
	for first := true; lo < hi && !s.clock.Stopped(); first = false {
		if weak && (lo > 0 || hi < 0) {
			break
		}
		med := probe(lo, hi, ply, weak, first)
		if v := s.negamax(cur, mask, oppWin, ply, med); v <= med {
			hi = v
		} else {
			lo = v
		}
	}
	if s.clock.Stopped() {
		return 0, 0
	}
	score = lo
	if weak {
		score = sign(score)
	}
	return score, s.bestMove(cur, mask, oppWin, ply, score, weak)
}

// probe returns the null window (med, med+1) the root searches next when
// the score lies in [lo, hi] (lo < hi), after ply moves: halfway between
// 0 and the far end, or, for a weak solve after its first probe, about
// the sign. Before stepPly moves a strong solve asks about the sign first
// and then steps one score at a time away from 0: the first moves' scores
// are small, and there each probe near the score costs hundreds of
// millions of nodes (the empty board without the book: 732 M nodes
// instead of 898 M).
func probe(lo, hi, ply int, weak, first bool) int {
	if !weak && ply < stepPly {
		switch {
		case lo >= 0:
			return lo
		case hi <= 0:
			return hi - 1
		}
		return 0
	}
	med := lo + (hi-lo)/2
	if med <= 0 && lo/2 < med {
		med = lo / 2
	} else if med >= 0 && hi/2 > med {
		med = hi / 2
	}
	if weak && !first {
		med = max(-1, min(med, 0))
	}
	return med
}

// stepPly: see probe.
const stepPly = 4

// bestMove returns the column of a move that achieves score (weak: its
// sign) in the position of root, whose score it is.
func (s *Solver) bestMove(cur, mask, oppWin uint64, ply, score int, weak bool) int {
	possible := nonLosing(mask, oppWin)
	if possible == 0 {
		return column(playable(mask)) // every move loses at once
	}
	_, _, ttMove := s.get(cur+mask, ply)
	if s.stable {
		ttMove = -1
	}
	var moves moveList
	moves.fill(cur, mask, possible, ttMove)
	if weak && score < 0 {
		cell, _ := moves.at(0)
		return column(cell) // every move loses
	}
	// A move achieves score if its child scores at most −score; the last
	// candidate needs no test.
	for i := range moves.n - 1 {
		cell, threats := moves.at(i)
		if s.negamax(cur^mask, mask|cell, threats, ply+1, -score) <= -score || s.clock.Stopped() {
			return column(cell)
		}
	}
	cell, _ := moves.at(moves.n - 1)
	return column(cell)
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
