package alphabeta

import (
	"github.com/gambitbot/gambit/strategies/internal/clock"
	"github.com/gambitbot/gambit/strategies/internal/ttable"
)

// Infinity bounds every score: the searches' scores fit the table's 16
// bits.
const Infinity = 30000

// Game is what Search asks of one engine: its positions P (with what the
// engine carries down with them, a key), its moves M and the thread's
// own move-ordering state. A Game is one search thread's: Search calls it
// from that thread alone.
type Game[P any, M comparable] interface {
	// Leaf opens the node of p at ply (ply ≥ 1): it counts the node and
	// empties its principal variation, and returns p's value in the window
	// (alpha, beta) and true if the search ends there: a finished game, the
	// depth reached, another search taking over (its value returned), or
	// the search stopped (any value: it is thrown away).
	Leaf(p P, depth, ply, alpha, beta int) (int, bool)
	// Probe looks p up in the table: the move to try first (Search.None if
	// none) and the stored score if it settles the window (alpha, beta) at
	// depth.
	Probe(p P, depth, alpha, beta int) (hint M, score int, ok bool)
	// Moves makes ply's list of the moves of p in the order they are
	// tried, hint first.
	Moves(p P, ply int, hint M)
	// Next returns the i-th move of ply's list (ok false past the last),
	// what the move gains its mover on the way (0 but where a search
	// scores as it goes), the plies its null-window search is reduced by,
	// and whether it is a late move that ends the list once one move has
	// been searched. At the root (ply 0) no move is reduced or pruned.
	Next(p P, ply, i, depth int, hint M) (m M, gain, reduction int, late, ok bool)
	// Play returns the position after m, and Undo takes the move back
	// (nothing to do where Play makes a new position).
	Play(p P, m M) P
	Undo(p P)
	// Raise records that m raised alpha at ply: the principal variation
	// at ply becomes m and the one of the ply below.
	Raise(ply int, m M)
	// Cutoff records that m failed high at ply, depth plies deep (killers,
	// history).
	Cutoff(p P, ply int, m M, depth int)
	// Store keeps p's result in the table: the best move (None when no
	// move beat alpha), score and bound, depth plies deep.
	Store(p P, m M, score, depth int, b ttable.Bound)
}

// Search is one thread's alpha-beta search of a Game: negamax, fail-soft,
// with principal variation search (every move after the first searched
// with a null window, reduced as the Game says, and searched again at
// full depth and window if it beats alpha), killer and history updates at
// cut-offs, and the table probed and stored at every node. Every engine
// on it keeps its own evaluation, move generation and order, table policy
// and pruning in its Game.
//
// G is a type parameter, not an interface value, so that each engine gets
// its own instantiation; the Game's methods are still called through
// Go's generic dictionaries, once or twice a node and a move — the
// engines' measurements in docs/ai.md compare it with their loops of
// their own.
type Search[P any, M comparable, G Game[P, M]] struct {
	// Game is the engine's side of the search.
	Game G
	// Clock is the search's time manager, shared by its threads.
	Clock *clock.Manager
	// None is the Game's "no move".
	None M
}

// Root searches the root p depth plies deep with the window (−Infinity,
// Infinity), hint first. It returns the best move and score and whether
// every move was searched; a search the clock stops returns the best move
// of those whose search finished (None if none did).
func (s *Search[P, M, G]) Root(p P, depth int, hint M) (M, int, bool) {
	return s.node(p, hint, depth, 0, -Infinity, Infinity)
}

// Negamax returns the value of p at ply for its side to move, searched
// depth plies deep with the window (alpha, beta): fail-soft, so a value
// outside the window bounds the true one.
func (s *Search[P, M, G]) Negamax(p P, depth, ply, alpha, beta int) int {
	if score, leaf := s.Game.Leaf(p, depth, ply, alpha, beta); leaf {
		return score
	}
	hint, score, ok := s.Game.Probe(p, depth, alpha, beta)
	if ok {
		return score
	}
	if _, score, complete := s.node(p, hint, depth, ply, alpha, beta); complete {
		return score
	}
	return 0 // stopped: unwinding, the value is thrown away
}

// node is the move loop of p: Root's at ply 0, Negamax's below. At the
// root a stopped search does not search a move again, and its best move
// so far is its answer.
func (s *Search[P, M, G]) node(p P, hint M, depth, ply, alpha, beta int) (M, int, bool) {
	g := s.Game
	g.Moves(p, ply, hint)
	origAlpha := alpha
	best, bestScore := s.None, -Infinity
	for i := 0; ; i++ {
		m, gain, red, late, ok := g.Next(p, ply, i, depth, hint)
		if !ok || late && bestScore > -Infinity {
			break
		}
		// The child's window, less what the move gains on the way.
		c, a, b := g.Play(p, m), alpha-gain, beta-gain
		var score int
		if i == 0 {
			score = -s.Negamax(c, depth-1, ply+1, -b, -a)
		} else {
			score = -s.Negamax(c, depth-1-red, ply+1, -a-1, -a)
			if score > a && red > 0 {
				score = -s.Negamax(c, depth-1, ply+1, -a-1, -a)
			}
			if score > a && score < b && (ply > 0 || !s.Clock.Stopped()) {
				score = -s.Negamax(c, depth-1, ply+1, -b, -a)
			}
		}
		score += gain
		g.Undo(p)
		if s.Clock.Stopped() {
			return best, bestScore, false
		}
		if score > bestScore {
			best, bestScore = m, score
			if score > alpha {
				alpha = score
				g.Raise(ply, m)
			}
		}
		if alpha >= beta {
			g.Cutoff(p, ply, m, depth)
			break
		}
	}
	b := ttable.Exact
	switch {
	case bestScore <= origAlpha:
		b, best = ttable.Upper, s.None // no move stood out
	case bestScore >= beta:
		b = ttable.Lower
	}
	g.Store(p, best, bestScore, depth, b)
	return best, bestScore, true
}

// Killers are a ply's two latest moves that failed high, tried early in
// its other nodes.
type Killers[M comparable] [2]M

// Add makes m the first killer.
func (k *Killers[M]) Add(m M) {
	if m != k[0] {
		k[1], k[0] = k[0], m
	}
}

// History is the history heuristic: for each side, a score for each move
// by its low 8 bits, raised by depth² each time the move fails high.
type History [2][256]int32

// Add raises side's score of move i (0–255) by depth², and halves every
// score once one passes 2^20.
func (h *History) Add(side, i, depth int) {
	e := &h[side][i]
	*e += int32(depth * depth)
	if *e > 1<<20 {
		for s := range h {
			for j := range h[s] {
				h[s][j] /= 2
			}
		}
	}
}
