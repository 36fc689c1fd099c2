package othsolve

import (
	"math/bits"

	"github.com/gambitbot/gambit/engine/othello"
	eval "github.com/gambitbot/gambit/games/othello"
)

// The layers of the search, by the number of empty squares (see the
// package documentation).
const (
	// tableEmpties: from here up, nodes use the transposition table.
	tableEmpties = 10
	// fastestEmpties: from here up, moves are ordered fastest first and
	// nodes try the stability cut-off.
	fastestEmpties = 7
	// evalEmpties: from here up, moves are ordered by a shallow search
	// of the evaluation as well (evalDepth).
	evalEmpties = 12
)

const corners = 1<<0 | 1<<7 | 1<<56 | 1<<63

// move is a move in a node's list: its square, the discs it flips and its
// value for the order (higher first).
type move struct {
	sq    int
	flips uint64
	value int
}

// solve returns the score of the position with n empty squares for the
// side to move, fail-soft within (alpha, beta).
func (s *Solver) solve(own, opp uint64, alpha, beta, n int) int {
	switch {
	case n >= tableEmpties:
		v, _ := s.deep(own, opp, alpha, beta, n)
		return v
	case n >= fastestEmpties:
		return s.mid(own, opp, alpha, beta, n)
	case n >= 5:
		return s.parity(own, opp, alpha, beta, n, false)
	case n == 4:
		return s.solve4(own, opp, alpha, beta, false)
	}
	var sq [3]int
	empty := ^(own | opp)
	for i := range n {
		sq[i] = bits.TrailingZeros64(empty)
		empty &= empty - 1
	}
	switch n {
	case 3:
		return s.solve3(own, opp, alpha, beta, sq[0], sq[1], sq[2], false)
	case 2:
		return s.solve2(own, opp, alpha, beta, sq[0], sq[1], false)
	case 1:
		return s.last1(own, opp, sq[0])
	}
	return s.final(own, opp)
}

// stabilityCut returns the most the side to move can score given the
// opponent's stable discs, and whether that is at most alpha. It looks
// only when alpha is high enough for the cut to be likely.
func stabilityCut(own, opp uint64, alpha, n int) (int, bool) {
	if alpha < min(2*n, 56) {
		return 0, false
	}
	bound := 64 - 2*bits.OnesCount64(stableDiscs(opp, own))
	return bound, bound <= alpha
}

// deep searches a node of tableEmpties empties or more: with the table,
// enhanced transposition cut-offs and the evaluation in the move order.
// It returns the score and the best move (noSquare if none beat alpha).
func (s *Solver) deep(own, opp uint64, alpha, beta, n int) (int, int) {
	s.nodes++
	if s.nodes >= s.nextCheck && s.check() {
		return 0, noSquare
	}
	if bound, ok := stabilityCut(own, opp, alpha, n); ok {
		return bound, noSquare
	}
	hint := noSquare
	if e, ok := s.tt.probe(own, opp); ok {
		switch {
		case int(e.lower) >= beta:
			return int(e.lower), int(e.move)
		case int(e.upper) <= alpha:
			return int(e.upper), noSquare
		}
		hint = int(e.move)
	}
	moves := othello.LegalMoves(own, opp)
	if moves == 0 {
		if othello.LegalMoves(opp, own) == 0 {
			return s.final(own, opp), noSquare
		}
		v, _ := s.deep(opp, own, -beta, -alpha, n)
		return -v, noSquare
	}
	var buf [32]move
	list := buf[:0]
	for ; moves != 0; moves &= moves - 1 {
		sq := bits.TrailingZeros64(moves)
		bit := uint64(1) << sq
		f := flips(own, opp, sq)
		// Enhanced transposition cut-off: a child already known to be bad
		// enough for the opponent decides the node.
		if e, ok := s.tt.probe(opp&^f, own|f|bit); ok && -int(e.upper) >= beta {
			return -int(e.upper), sq
		}
		list = append(list, move{sq: sq, flips: f})
	}
	s.order(own, opp, list, hint, n)
	best, bestSq := -65, noSquare
	a := alpha
	for i := range list {
		m := &list[i]
		bit := uint64(1) << m.sq
		co, cp := opp&^m.flips, own|m.flips|bit
		var v int
		if i == 0 {
			v = -s.solve(co, cp, -beta, -a, n-1)
		} else {
			v = -s.solve(co, cp, -a-1, -a, n-1)
			if v > a && v < beta {
				v = -s.solve(co, cp, -beta, -a, n-1)
			}
		}
		if s.err != nil {
			return 0, noSquare
		}
		if v > best {
			best, bestSq = v, m.sq
			if v > a {
				a = v
				if a >= beta {
					break
				}
			}
		}
	}
	s.tt.store(own, opp, alpha, beta, best, bestSq, n)
	return best, bestSq
}

// mid searches a node of fastestEmpties to tableEmpties−1 empties: moves
// fastest first, no table.
func (s *Solver) mid(own, opp uint64, alpha, beta, n int) int {
	s.nodes++
	if s.nodes >= s.nextCheck && s.check() {
		return 0
	}
	if bound, ok := stabilityCut(own, opp, alpha, n); ok {
		return bound
	}
	moves := othello.LegalMoves(own, opp)
	if moves == 0 {
		if othello.LegalMoves(opp, own) == 0 {
			return s.final(own, opp)
		}
		return -s.mid(opp, own, -beta, -alpha, n)
	}
	var buf [32]move
	list := buf[:0]
	for ; moves != 0; moves &= moves - 1 {
		sq := bits.TrailingZeros64(moves)
		list = append(list, move{sq: sq, flips: flips(own, opp, sq)})
	}
	s.order(own, opp, list, noSquare, n)
	best := -65
	for i := range list {
		m := &list[i]
		bit := uint64(1) << m.sq
		v := -s.solve(opp&^m.flips, own|m.flips|bit, -beta, -alpha, n-1)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// order sorts the moves best first: the hint, then by the fewest replies
// (corners counting double), the fewest empty squares next to the mover's
// discs (the opponent's potential moves), a move into a quadrant with an
// odd number of empties (parity), from evalEmpties up a shallow search of
// the evaluation, and the square's worth.
func (s *Solver) order(own, opp uint64, list []move, hint, n int) {
	if len(list) < 2 {
		return
	}
	depth := evalDepth(n)
	odd := oddRegions(^(own | opp))
	for i := range list {
		m := &list[i]
		if m.sq == hint {
			m.value = 1 << 30
			continue
		}
		bit := uint64(1) << m.sq
		co, cp := opp&^m.flips, own|m.flips|bit
		replies := othello.LegalMoves(co, cp)
		m.value = -(bits.OnesCount64(replies)+bits.OnesCount64(replies&corners))<<10 + squareWorth[m.sq]
		m.value -= bits.OnesCount64(around(cp)&^(co|cp)) << 5 // the opponent's potential mobility
		m.value += int(odd>>m.sq&1) << 9
		if depth >= 0 {
			m.value -= s.evalSearch(co, cp, depth, -64*eval.Unit, 64*eval.Unit) << 5
		}
	}
	for i := 1; i < len(list); i++ {
		m := list[i]
		j := i
		for ; j > 0 && list[j-1].value < m.value; j-- {
			list[j] = list[j-1]
		}
		list[j] = m
	}
}

// evalDepth is the depth of the evaluation search that orders the moves
// of a node of n empties, −1 for none.
func evalDepth(n int) int {
	switch {
	case n < evalEmpties:
		return -1
	case n < 16:
		return 0
	case n < 20:
		return 1
	case n < 24:
		return 2
	}
	return 3
}

// evalSearch is an alpha-beta search of the static evaluation to depth
// plies, in the evaluation's units.
func (s *Solver) evalSearch(own, opp uint64, depth, alpha, beta int) int {
	s.nodes++
	if depth == 0 {
		return eval.Evaluate(own, opp)
	}
	moves := othello.LegalMoves(own, opp)
	if moves == 0 {
		if othello.LegalMoves(opp, own) == 0 {
			return s.final(own, opp) * eval.Unit
		}
		return -s.evalSearch(opp, own, depth, -beta, -alpha)
	}
	best := -65 * eval.Unit
	for ; moves != 0; moves &= moves - 1 {
		bit := moves & -moves
		f := flips(own, opp, bits.TrailingZeros64(bit))
		v := -s.evalSearch(opp&^f, own|f|bit, depth-1, -beta, -alpha)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// squareWorth ranks the squares among moves otherwise equal: corners
// first, X-squares (diagonally next to a corner) last.
var squareWorth = func() (w [64]int) {
	quarter := [4][4]int{
		{9, 2, 7, 6},
		{2, 0, 3, 4},
		{7, 3, 5, 5},
		{6, 4, 5, 5},
	}
	for sq := range 64 {
		r, c := sq/8, sq%8
		w[sq] = quarter[min(r, 7-r)][min(c, 7-c)]
	}
	return
}()

// quadrants are the four 4×4 regions of the board, for parity.
var quadrants = [4]uint64{0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F << 32, 0xF0F0F0F0 << 32}

// oddRegions returns the squares of the quadrants that have an odd number
// of empty squares: the last move of such a region tends to be the side
// to move's, so its squares are tried first.
func oddRegions(empty uint64) uint64 {
	var odd uint64
	for _, q := range quadrants {
		if bits.OnesCount64(empty&q)&1 == 1 {
			odd |= q
		}
	}
	return odd
}

// goodSquares are the squares other than the X- and C-squares (next to
// a corner), tried first within a parity class.
const goodSquares = ^uint64(0x42C300000000C342)

// parity searches a node of five or six empties: the empty squares in
// the order of parity, then square class, with no move generation.
// passed says that the opponent has just passed.
func (s *Solver) parity(own, opp uint64, alpha, beta, n int, passed bool) int {
	s.nodes++
	empty := ^(own | opp)
	odd := oddRegions(empty)
	best := -65
	for _, set := range [4]uint64{empty & odd & goodSquares, empty & odd &^ goodSquares, empty &^ odd & goodSquares, empty &^ odd &^ goodSquares} {
		for ; set != 0; set &= set - 1 {
			bit := set & -set
			f := flips(own, opp, bits.TrailingZeros64(bit))
			if f == 0 {
				continue
			}
			v := -s.solve(opp&^f, own|f|bit, -beta, -alpha, n-1)
			if v > best {
				best = v
				if v > alpha {
					alpha = v
					if alpha >= beta {
						return best
					}
				}
			}
		}
	}
	if best == -65 {
		if passed {
			return s.final(own, opp)
		}
		return -s.parity(opp, own, -beta, -alpha, n, true)
	}
	return best
}

// solve4 solves a position of four empties, in parity order.
func (s *Solver) solve4(own, opp uint64, alpha, beta int, passed bool) int {
	s.nodes++
	empty := ^(own | opp)
	var sq [4]int
	i := 0
	odd := oddRegions(empty)
	for _, set := range [2]uint64{empty & odd, empty &^ odd} {
		for ; set != 0; set &= set - 1 {
			sq[i] = bits.TrailingZeros64(set)
			i++
		}
	}
	best := -65
	for j, x := range sq {
		bit := uint64(1) << x
		f := flips(own, opp, x)
		if f == 0 {
			continue
		}
		var r [3]int
		copy(r[:], sq[:j])
		copy(r[j:], sq[j+1:])
		v := -s.solve3(opp&^f, own|f|bit, -beta, -alpha, r[0], r[1], r[2], false)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					return best
				}
			}
		}
	}
	if best == -65 {
		if passed {
			return s.final(own, opp)
		}
		return -s.solve4(opp, own, -beta, -alpha, true)
	}
	return best
}

// solve3 solves a position whose empties are x, y and z.
func (s *Solver) solve3(own, opp uint64, alpha, beta, x, y, z int, passed bool) int {
	s.nodes++
	best := -65
	for _, t := range [3][3]int{{x, y, z}, {y, x, z}, {z, x, y}} {
		bit := uint64(1) << t[0]
		f := flips(own, opp, t[0])
		if f == 0 {
			continue
		}
		v := -s.solve2(opp&^f, own|f|bit, -beta, -alpha, t[1], t[2], false)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					return best
				}
			}
		}
	}
	if best == -65 {
		if passed {
			return s.final(own, opp)
		}
		return -s.solve3(opp, own, -beta, -alpha, x, y, z, true)
	}
	return best
}

// solve2 solves a position whose empties are x and y.
func (s *Solver) solve2(own, opp uint64, alpha, beta, x, y int, passed bool) int {
	s.nodes++
	best := -65
	if f := flips(own, opp, x); f != 0 {
		best = -s.last1(opp&^f, own|f|1<<x, y)
		if best >= beta {
			return best
		}
	}
	if f := flips(own, opp, y); f != 0 {
		best = max(best, -s.last1(opp&^f, own|f|1<<y, x))
	}
	if best == -65 {
		if passed {
			return s.final(own, opp)
		}
		return -s.solve2(opp, own, -beta, -alpha, x, y, true)
	}
	return best
}

// last1 scores the position whose one empty square is x, by counting the
// discs a disc there flips: 63 discs are on the board.
func (s *Solver) last1(own, opp uint64, x int) int {
	s.nodes++
	d := 2*bits.OnesCount64(own) - 63
	if f := flips(own, opp, x); f != 0 {
		return d + 2*bits.OnesCount64(f) + 1
	}
	if f := flips(opp, own, x); f != 0 {
		return d - 2*bits.OnesCount64(f) - 1
	}
	if s.scoring == EmptiesToWinner {
		if d > 0 {
			return d + 1
		}
		return d - 1
	}
	return d
}

// around returns the squares next to b in any of the eight directions.
func around(b uint64) uint64 {
	row := b | (b<<1)&^fileA | (b>>1)&^fileH
	return row | row<<8 | row>>8
}
