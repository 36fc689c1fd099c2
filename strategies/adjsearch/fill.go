package adjsearch

import (
	"math/bits"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/strategies/internal/alphabeta"
	"github.com/gambitbot/gambit/strategies/internal/ttable"
)

// Games that fill the board. When every empty cell will be played (the
// plies left equal the empty cells: a 28-round game, from any position),
// who ends up owning a cell no longer depends on its colour now:
//
//   - a cell with no empty cell in or next to it is settled: nothing can
//     change it;
//   - any other cell, live, belongs at the end to whoever plays the last of
//     the empty cells in or next to it. That move either puts the mark
//     there or flips (or keeps) the cell, which is filled by then, and no
//     later move touches it.
//
// So the final mark difference is the settled cells' difference plus a
// value W(E) that depends only on the set E of empty cells: a game on sets
// in which a move takes a cell c out of E and scores the live cells that
// become settled (those of E ∪ neighbours(E) no longer in or next to
// E∖{c}), and W(E) = max over c of that gain minus W(E∖{c}). Neither the
// colours nor the side to move enter it, so every order of the same moves
// transposes: the last n plies are a graph of at most 2^n sets rather than
// a tree of n! lines, and the solver searches it on one bitboard with no
// board to update.

// fills reports whether every empty cell of b will be played.
func fills(b adjacency.Board) bool {
	return bits.OnesCount64(empties(b)) == b.PliesLeft()
}

// live returns the cells in or next to the empty cells e: those whose
// owner can still change.
func live(e uint64) uint64 { return e | adjacency.Dilate(e) }

// settled is the mark difference, for the side to move, over the cells of
// b whose owner can no longer change.
func settled(b adjacency.Board) int {
	mover, other := b.Marks()
	l := live(empties(b))
	return bits.OnesCount64(mover&^l) - bits.OnesCount64(other&^l)
}

// The keys of sets of empty cells, for the table.
var (
	zEmpty [adjacency.Cells]uint64
	zFill  uint64 // in every set's key, so that they differ from board keys
)

func init() {
	var keys [adjacency.Cells + 1]uint64
	engine.FillKeys(0xf1115ea7c4, keys[:])
	copy(zEmpty[:], keys[:])
	zFill = keys[adjacency.Cells]
}

// fillKey computes the key of the set of empty cells e.
func fillKey(e uint64) uint64 {
	h := zFill
	for ; e != 0; e &= e - 1 {
		h ^= zEmpty[bits.TrailingZeros64(e)]
	}
	return h
}

// solveKey is the key the solver files b under: the key of its empty
// cells in a game that fills the board, else h, its board key.
func (r *run) solveKey(b adjacency.Board, h uint64) uint64 {
	if r.fill {
		return fillKey(empties(b))
	}
	return h
}

// step is play for the solver: the board and solver key after the legal
// move on cell c.
func (r *run) step(b adjacency.Board, h uint64, c int) (adjacency.Board, uint64) {
	if r.fill {
		return b.After(engineMove(c)), h ^ zEmpty[c]
	}
	return play(b, h, c)
}

// fillTableMin: sets with fewer cells are not stored.
const fillTableMin = 4

// fillNode is the fail-soft alpha-beta value W of the non-empty set of
// empty cells e, whose key is h.
func (t *thread) fillNode(e, h uint64, alpha, beta int) int {
	t.count.Tick()
	l := live(e)
	size := bits.OnesCount64(l)
	switch {
	case e&(e-1) == 0: // the last move settles every live cell
		return size
	case size <= alpha: // W lies within ±size
		return size
	case -size >= beta:
		return -size
	case t.r.clock.Stopped():
		return 0
	}
	n := bits.OnesCount64(e)
	hint := noCell
	if n >= fillTableMin {
		if hit, ok := t.r.tt.Probe(h); ok && hit.Solved {
			hint = int(hit.Move)
			score := hit.Score / Unit
			if hit.Bound.Settles(score, alpha, beta) {
				return score
			}
		}
	}
	var keys [adjacency.Cells]uint16
	k := FillMoves(e, hint, &keys)
	origAlpha := alpha
	best, bestScore := noCell, -infinity
	for _, key := range keys[:k] {
		c, gain := int(uint8(key)), gainOf(key, e)
		score := gain - t.fillNode(e&^(1<<c), h^zEmpty[c], gain-beta, gain-alpha)
		if score > bestScore {
			best, bestScore = c, score
			alpha = max(alpha, score)
		}
		if alpha >= beta || t.r.clock.Stopped() {
			break
		}
	}
	if n >= fillTableMin && !t.r.clock.Stopped() {
		best, bd := outcome(best, bestScore, origAlpha, beta)
		t.r.tt.Store(h, uint16(best), bestScore*Unit, n, bd, true)
	}
	return bestScore
}

// lastOnes returns, for the empty cells e, the live cells with exactly
// one empty cell in or next to them: a move settles those in or next to
// its cell, for the mover.
func lastOnes(e uint64) uint64 {
	sets := adjacency.CaptureSets(e) // by empty orthogonal neighbours
	return sets[1]&^e | sets[0]&e
}

// closedCells[c] is cell c and its orthogonal neighbours.
var closedCells [adjacency.Cells]uint64

func init() {
	for c := range closedCells {
		closedCells[c] = 1<<c | adjacency.Dilate(1<<c)
	}
}

// gainSets returns, for the empty cells e, the empty cells by the number
// of live cells their move settles (0 to 5): the cell itself if it has
// count 1, and its neighbours of count 1 (see lastOnes), counted for all
// cells at once by a bit-sliced adder.
func gainSets(e uint64) [6]uint64 {
	ones := lastOnes(e)
	by := adjacency.CaptureSets(ones) // by neighbours of count 1
	var gain [6]uint64
	for k := range 5 {
		gain[k] |= by[k] &^ ones & e
		gain[k+1] |= by[k] & ones & e
	}
	return gain
}

// FillMoves fills keys with the moves of the set of empty cells e, best
// first: the hint, then by the cells they settle, most first, ties to the
// higher cell. (Putting last, or first, the moves that leave the opponent
// cells to settle cost 13–56% more nodes on the self-play endgames; the
// heuristic search's killer moves put after the hint, or first among the
// moves that settle nothing, 3–110% more from the opening.) A key is
// gain<<8 | cell, the hint's 0xff00 | cell; a hint that is not a cell of
// e (−1, noCell) puts nothing first. It returns the number of moves.
func FillMoves(e uint64, hint int, keys *[adjacency.Cells]uint16) int {
	gain := gainSets(e)
	k := 0
	if hint >= 0 && hint < adjacency.Cells && e&(1<<hint) != 0 {
		keys[0] = 0xff00 | uint16(hint)
		k = 1
		for g := range gain {
			gain[g] &^= 1 << hint
		}
	}
	for g := len(gain) - 1; g >= 0; g-- {
		for rest := gain[g]; rest != 0; k++ {
			c := 63 - bits.LeadingZeros64(rest)
			rest &^= 1 << c
			keys[k] = uint16(g)<<8 | uint16(c)
		}
	}
	return k
}

// gainOf is the number of cells a FillMoves key's move settles.
func gainOf(key uint16, e uint64) int {
	if key>>8 == 0xff {
		return bits.OnesCount64(closedCells[uint8(key)] & lastOnes(e))
	}
	return int(key >> 8)
}

// set is a set of empty cells and its key in the heuristic search.
type set struct{ e, h uint64 }

// setMoves yields the moves of a set of empty cells e in FillMoves'
// order, one at a time: a node of the heuristic search often cuts off at
// its first move, and needs no more of them.
type setMoves struct {
	e    uint64
	gain [6]uint64 // the cells not yet taken, by gain (gainSets)
	g    int       // the highest gain that may have cells left
	hint int       // the hint, to take first; noCell once taken or if none
}

// reset readies m for e with hint first (if it is a cell of e).
func (m *setMoves) reset(e uint64, hint int) {
	m.e, m.gain, m.g, m.hint = e, gainSets(e), len(m.gain)-1, noCell
	if hint >= 0 && hint < adjacency.Cells && e&(1<<hint) != 0 {
		m.hint = hint
		for g := range m.gain {
			m.gain[g] &^= 1 << hint
		}
	}
}

// next returns the next move and the cells it settles; ok false when
// none is left.
func (m *setMoves) next() (c, gain int, ok bool) {
	if c = m.hint; c != noCell {
		m.hint = noCell
		return c, bits.OnesCount64(closedCells[c] & lastOnes(m.e)), true
	}
	for ; m.g >= 0; m.g-- {
		if rest := m.gain[m.g]; rest != 0 {
			c = 63 - bits.LeadingZeros64(rest)
			m.gain[m.g] = rest &^ (1 << c)
			return c, m.g, true
		}
	}
	return noCell, 0, false
}

// setGame is the thread as the heuristic search of a game that fills the
// board, an alphabeta.Game: the fail-soft depth-limited value W of the
// non-empty set of empty cells, in Units, in the same set game as the
// solver, so that every order of the same moves transposes here too. A
// move gains the cells it settles. A set's leaf value is fillEval, a set
// of one cell's its exact value. Moves that settle nothing are reduced
// late, and pruned late near the frontier, as on boards: the pruning
// halves the nodes to depth 16 from the opening (5.40 M to 2.66 M) and
// played even against the search without it at equal nodes (100,000 a
// move, 12 openings with each on both sides: 11 wins, 1 draw, 12 losses,
// +4 marks in all).
type setGame thread

// Enter implements alphabeta.Game.
func (g *setGame) Enter(p set, depth, ply, alpha, beta int) (int, int, bool) {
	g.pvLen[ply] = 0
	g.count.Tick()
	switch {
	case p.e&(p.e-1) == 0:
		return noCell, bits.OnesCount64(live(p.e)) * Unit, true
	case depth <= 0:
		return noCell, fillEval(p.e), true
	case g.r.clock.Stopped():
		return noCell, 0, true
	}
	return (*thread)(g).probe(p.h, depth, alpha, beta)
}

// Moves implements alphabeta.Game.
func (g *setGame) Moves(p set, ply int, hint int) { g.setMoves[ply].reset(p.e, hint) }

// Play implements alphabeta.Game: a move that settles nothing is reduced,
// and pruned late near the frontier (see lateMoves).
func (g *setGame) Play(p set, ply, i, depth, _ int) (int, set, int, int, bool) {
	c, gain, ok := g.setMoves[ply].next()
	if !ok {
		return noCell, p, 0, 0, false
	}
	gain, red := gain*Unit, 0
	if gain == 0 && !g.r.e.cfg.plain {
		if i >= lateMoves(depth) {
			return c, p, 0, 0, false
		}
		red = alphabeta.Reduction(depth, i)
	}
	return c, set{p.e &^ (1 << c), p.h ^ zEmpty[c]}, gain, red, true
}

// Undo implements alphabeta.Game: sets are values, never undone.
func (g *setGame) Undo(set) {}

// Raise implements alphabeta.Game.
func (g *setGame) Raise(ply, c int) { (*thread)(g).updatePV(ply, c) }

// Cutoff implements alphabeta.Game: the set game keeps no killers or
// history (its order is FillMoves').
func (g *setGame) Cutoff(set, int, int, int) {}

// Store implements alphabeta.Game.
func (g *setGame) Store(p set, c, score, depth int, b ttable.Bound) {
	g.r.tt.Store(p.h, uint16(c), score, depth, b, false)
}

// fillEval estimates W of the set of empty cells e, in Units: the learned
// set-game evaluation with the embedded weights (filleval.go).
func fillEval(e uint64) int {
	return fillWeights.Eval(e)
}
