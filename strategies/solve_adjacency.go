package strategies

import (
	adjgame "github.com/gambitbot/gambit/games/adjacency"
	"math"
	"math/bits"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
)

// exactSolver is implemented by rules that have a dedicated solver for
// the iteration that searches to the end of the game.
type exactSolver interface {
	// solve returns the best move, its exact score in internal units, and
	// whether the solve finished before the search was told to stop. first
	// and guess are the heuristic search's best move and score.
	solve(t *thread, first engine.Move, guess int) (engine.Move, int, bool)
	// reach says when to solve rather than deepen: in p, once a heuristic
	// iteration of at least depth plies has completed, if ok.
	reach(p engine.Position) (depth int, ok bool)
	// sharesTable reports whether the solver keeps its results in the
	// search's transposition table, so that helper threads solving the
	// same position speed the main thread up.
	sharesTable() bool
}

// sharesTable: the Adjacency solver stores solved bounds in the shared
// table; with two threads the median 16-ply solve took 551 ms instead of
// 745 ms.
func (adjacencyRules) sharesTable() bool { return true }

// solverBits is the size of the largest tree the Adjacency solver is
// started on, as log2 of its number of lines of play: 18 plies over 18
// empty cells, log2(18!) ≈ 52.5, which it usually solves within seconds.
const solverBits = 52.5

// reach: once the lines of play to the end number at most 2^solverBits
// (E·(E−1)·…·(E−L+1) for E empty cells and L plies left), after a quick
// heuristic search to depth 6 for a guess.
func (adjacencyRules) reach(p engine.Position) (depth int, ok bool) {
	b := p.(*adjacency.Position).Board
	empty := 64 - b.Count(engine.X) - b.Count(engine.O)
	size := 0.0
	for i := range b.PliesLeft() {
		size += math.Log2(float64(empty - i))
	}
	return 6, size <= solverBits
}

// solve finds the exact final mark difference of an Adjacency position by
// null-window probes, as MTD(f) does: each asks "is the value at least
// v?" of a fail-soft alpha-beta search to the end of the game, and the
// bound it returns is the next probe, until the lower and upper bounds
// meet (the final difference has the parity of the number of marks at the
// end, so probes step by two). The first probe is at guess, the heuristic
// search's estimate, and each probe tries first the heuristic search's
// best move.
//
// The search plays on adjacency.Board values, orders moves by the marks
// they capture (counted for all empty cells at once by a bit-sliced adder),
// answers positions with one ply left without generating moves, and shares
// the transposition table with the generic search (solved bounds only).
func (adjacencyRules) solve(t *thread, first engine.Move, guess int) (engine.Move, int, bool) {
	b := t.pos.(*adjacency.Position).Board
	total := b.Count(engine.X) + b.Count(engine.O) + b.PliesLeft()
	lo, hi := -total, total // the final difference lies in [lo, hi], of total's parity
	g := max(lo, min(hi, guess/adjgame.Unit))
	if (g-total)%2 != 0 {
		g++
	}
	best := engine.NoMove
	for lo < hi {
		v := g // probe "value ≥ v?" with lo < v ≤ hi
		if v <= lo {
			v = lo + 2
		}
		move, score := t.solveRoot(b, v-1, first)
		t.checkIn() // probes may be shorter than the nodes between check-ins
		if t.s.stop.Load() {
			return engine.NoMove, 0, false
		}
		if score >= v {
			lo, best = score, move
		} else {
			hi = score
		}
		g = score
	}
	if best == engine.NoMove { // every probe failed low: any move reaching lo
		best, _ = t.solveRoot(b, lo-1, first)
	}
	return best, lo * adjgame.Unit, !t.s.stop.Load()
}

// solveRoot searches the root with the null window (alpha, alpha+1),
// first first, and returns the move that did best and its fail-soft score.
func (t *thread) solveRoot(b adjacency.Board, alpha int, first engine.Move) (engine.Move, int) {
	best, bestScore := engine.NoMove, -infinity
	order := newCaptureOrder(b, first)
	for m, ok := order.next(); ok; m, ok = order.next() {
		score := -t.solveAdjacency(b.After(m), -alpha-1, -alpha)
		if score > bestScore {
			best, bestScore = m, score
		}
		if score > alpha || t.s.stop.Load() {
			break
		}
	}
	return best, bestScore
}

// solveAdjacency is the fail-soft alpha-beta value of b, searched to the
// end of the game, in marks.
func (t *thread) solveAdjacency(b adjacency.Board, alpha, beta int) int {
	t.nodes++
	if t.nodes&nodeCheckMask == 0 {
		t.checkIn()
	}
	me, them := b.SideToMove(), b.SideToMove().Other()
	mine, theirs := b.Bitboard(me), b.Bitboard(them)
	diff := bits.OnesCount64(mine) - bits.OnesCount64(theirs)
	left := b.PliesLeft()
	switch {
	case left == 0:
		return diff
	case left == 1: // the best last move: one mark plus twice its flips
		return diff + 1 + 2*adjgame.MaxFlips(theirs, ^(mine|theirs))
	case left == 2:
		return lastTwo(b, beta)
	case t.s.stop.Load():
		return 0
	}
	useTable := left >= 5
	var hash uint64
	hint := engine.NoMove
	if useTable {
		hash = b.Hash()
		hit, ok := t.s.tt.probe(hash)
		if ok && hit.solved {
			hint = hit.move
		}
		if ok && hit.solved {
			score := hit.score / adjgame.Unit
			switch {
			case hit.bound == boundExact,
				hit.bound == boundLower && score >= beta,
				hit.bound == boundUpper && score <= alpha:
				return score
			}
		}
	}
	origAlpha := alpha
	best, bestScore := engine.NoMove, -infinity
	order := newCaptureOrder(b, hint)
	for m, ok := order.next(); ok; m, ok = order.next() {
		score := -t.solveAdjacency(b.After(m), -beta, -alpha)
		if score > bestScore {
			best, bestScore = m, score
			alpha = max(alpha, score)
		}
		if alpha >= beta {
			break
		}
	}
	if useTable && !t.s.stop.Load() {
		bd := boundExact
		switch {
		case bestScore <= origAlpha:
			bd, best = boundUpper, engine.NoMove // no move stood out
		case bestScore >= beta:
			bd = boundLower
		}
		t.s.tt.store(hash, best, bestScore*adjgame.Unit, left, bd, true)
	}
	return bestScore
}

// lastTwo is the fail-soft value of b with two plies left: each move is
// answered by the opponent's best last move, worked out without search.
func lastTwo(b adjacency.Board, beta int) int {
	best := -infinity
	order := newCaptureOrder(b, engine.NoMove)
	for m, ok := order.next(); ok; m, ok = order.next() {
		c := b.After(m)
		mine, theirs := c.Bitboard(c.SideToMove()), c.Bitboard(c.SideToMove().Other())
		reply := bits.OnesCount64(mine) - bits.OnesCount64(theirs) + 1 + 2*adjgame.MaxFlips(theirs, ^(mine|theirs))
		if best = max(best, -reply); best >= beta {
			break
		}
	}
	return best
}

// captureOrder yields the moves of a board in search order: a hint first
// (the best move found before), then those capturing four opponent marks,
// three, two, one and none — report 001's h(s) order, counted for all
// empty cells at once — and among equal captures those with fewer empty
// neighbours first, as the marks they leave are harder to take back. It
// works the sets out as it goes, since a cut-off often comes at the first
// move.
type captureOrder struct {
	captures, exposure [5]uint64
	empty, cur         uint64
	hint               engine.Move
	k, e               int // the current set: captures[k] & exposure[e]
}

func newCaptureOrder(b adjacency.Board, hint engine.Move) captureOrder {
	empty := ^(b.Bitboard(engine.X) | b.Bitboard(engine.O))
	o := captureOrder{
		captures: adjacency.CaptureSets(b.Bitboard(b.SideToMove().Other())),
		exposure: adjacency.CaptureSets(empty),
		empty:    empty,
		hint:     hint,
		k:        4,
		e:        -1,
	}
	if hint < adjacency.Cells && empty&(1<<hint) != 0 {
		o.cur = 1 << hint
		o.e = -2 // the hint's own "set" comes before the first real one
	}
	return o
}

// next returns the next move, or false when there are no more.
func (o *captureOrder) next() (engine.Move, bool) {
	for o.cur == 0 {
		if o.e++; o.e >= len(o.exposure) {
			if o.k--; o.k < 0 {
				return engine.NoMove, false
			}
			o.e = 0
		}
		if o.e < 0 {
			continue
		}
		o.cur = o.captures[o.k] & o.exposure[o.e] & o.empty
		if o.hint < adjacency.Cells {
			o.cur &^= 1 << o.hint
		}
	}
	m := engine.Move(bits.TrailingZeros64(o.cur))
	o.cur &= o.cur - 1
	return m, true
}
