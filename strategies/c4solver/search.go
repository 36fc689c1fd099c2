package c4solver

import "math/bits"

// moveList is a node's non-losing moves, best first, each with the
// winning cells its player has after it (the child's oppWin).
type moveList struct {
	cells   [width]uint64
	threats [width]uint64
	order   [width]uint // best first: the move's score<<3 | its index in cells
	n       int
}

// centreRank ranks the columns from the centre out: the order in which
// ties are broken, centre first (a higher rank is tried earlier).
var centreRank = [width]uint{3, 5, 7, 8, 6, 4, 2}

// fill lists the moves of possible (cells, one per column) from the
// position cur/mask, ordered by the number of winning cells each creates
// for the mover, centre first among equals, with first (a column, or −1)
// ahead of all.
func (l *moveList) fill(cur, mask, possible uint64, first int) {
	n := 0
	for ; possible != 0; possible &= possible - 1 {
		cell := possible & -possible
		threats := winningCells(cur|cell, mask|cell)
		col := column(cell)
		score := uint(bits.OnesCount64(threats))<<4 | centreRank[col]
		if col == first {
			score = 1 << 10 // above any count of winning cells
		}
		l.cells[n], l.threats[n] = cell, threats
		key := score<<3 | uint(n)
		j := n
		for ; j > 0 && l.order[j-1] < key; j-- {
			l.order[j] = l.order[j-1]
		}
		l.order[j] = key
		n++
	}
	l.n = n
}

// at returns the i-th best move and its threats.
func (l *moveList) at(i int) (cell, threats uint64) {
	k := l.order[i] & 7
	return l.cells[k], l.threats[k]
}

// cutoff looks up the children of the position cur/mask among moves in
// the table and returns the score a child's stored upper bound proves
// above alpha and its column (enhanced transposition cutoff), or ok false.
// The lookups are independent loads, so their cache misses overlap, and
// they bring the children's entries into the cache for their searches.
func (s *Solver) cutoff(cur, mask uint64, ply int, moves *moveList, alpha int) (v, col int, ok bool) {
	for i := range moves.n {
		cell := moves.cells[i]
		if _, upper, _ := s.get((cur^mask)+(mask|cell), ply+1); -upper > alpha {
			return -upper, column(cell), true
		}
	}
	return 0, 0, false
}

// negamax tests whether the score of the position cur/mask after ply
// moves is above alpha: it searches the null window (alpha, alpha+1). The
// player to move must not be able to win at once; oppWin are the
// opponent's winning cells. The result v is a lower bound on the score
// when v > alpha and an upper bound when v <= alpha (fail-soft: often
// tighter than alpha itself). It returns 0 once the search is stopped.
func (s *Solver) negamax(cur, mask, oppWin uint64, ply, alpha int) int {
	if s.count.Tick() {
		return 0 // the check-in at this node stopped the solve
	}
	possible := nonLosing(mask, oppWin)
	if possible == 0 {
		return -(cells - ply) / 2 // the opponent wins with the next move
	}
	if ply >= cells-2 {
		return 0 // neither of the last two stones can win
	}
	// Neither side wins with its next move: the bounds of the position,
	// tightened by what the table knows.
	key := cur + mask
	ttLower, ttUpper, ttMove := s.get(key, ply)
	if lower := max(-(cells-2-ply)/2, ttLower); lower > alpha {
		return lower
	}
	if upper := min((cells-1-ply)/2, ttUpper); upper <= alpha {
		return upper
	}

	var moves moveList
	moves.fill(cur, mask, possible, ttMove)
	if ply < nearPly {
		if v, col, ok := s.cutoff(cur, mask, ply, &moves, alpha); ok {
			s.put(key, ply, v, noUpper, col)
			return v
		}
	}
	best := -cells
	for i := range moves.n {
		cell, threats := moves.at(i)
		v := -s.negamax(cur^mask, mask|cell, threats, ply+1, -alpha-1)
		if s.clock.Stopped() {
			return 0
		}
		if v > alpha {
			s.put(key, ply, v, noUpper, column(cell))
			return v
		}
		best = max(best, v)
	}
	s.put(key, ply, noLower, best, -1)
	return best
}

// The solver keeps two tables. Positions with at most 14 empty cells
// (nearPly moves or more played) are by far the most numerous and have
// small subtrees: a lookup in a large table, a cache miss, would cost
// them more than it saves. They go to a near table of nearBytes, which
// stays in the processor's cache; the earlier positions go to the large
// table, where the enhanced transposition cutoff also looks up their
// children. Both constants were tuned on Pons' sets (docs/ai.md, "The
// Connect Four solver").
const (
	nearPly   = 28
	nearBytes = 1 << 20
)

// get returns the bounds and best move (column, or −1) the tables hold
// for the position key after ply moves. Before symPly moves a position and
// its mirror image share the entry of the smaller key, the move mirrored.
func (s *Solver) get(key uint64, ply int) (lower, upper, move int) {
	if ply >= nearPly {
		return s.near.get(key)
	}
	if ply < symPly {
		if m := mirrorKey(key); m < key {
			lower, upper, move = s.tt.get(m)
			return lower, upper, mirrorMove(move)
		}
	}
	return s.tt.get(key)
}

// put records bounds and a move for the position key after ply moves, as
// get reads them.
func (s *Solver) put(key uint64, ply, lower, upper, move int) {
	switch {
	case ply >= nearPly:
		s.near.put(key, ply, lower, upper, move)
	case ply < symPly:
		if m := mirrorKey(key); m < key {
			s.tt.put(m, ply, lower, upper, mirrorMove(move))
			return
		}
		fallthrough
	default:
		s.tt.put(key, ply, lower, upper, move)
	}
}

// symPly is the moves played before which mirror images share an entry:
// early, where the mirror image of a position is often met and its subtree
// is large, the mirroring costs little.
const symPly = 20

// mirrorKey is mirror for the search: the columns moved in one step each
// rather than one after the other.
func mirrorKey(key uint64) uint64 {
	const c = 1<<colBits - 1
	return key&(c<<(3*colBits)) |
		key&(c<<(2*colBits))<<(2*colBits) | key>>(2*colBits)&(c<<(2*colBits)) |
		key&(c<<colBits)<<(4*colBits) | key>>(4*colBits)&(c<<colBits) |
		key&c<<(6*colBits) | key>>(6*colBits)&c
}

// mirrorMove returns the column of move (−1: none) in the mirror image.
func mirrorMove(move int) int {
	if move < 0 {
		return move
	}
	return width - 1 - move
}
