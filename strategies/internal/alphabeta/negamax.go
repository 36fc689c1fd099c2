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
// from that thread alone. Its scores lie strictly between −Infinity and
// Infinity. Search calls it once or twice a node and a move, through Go's
// generic dictionaries (as an interface would be called: the Game's
// methods are not inlined), so each method does a node's or a move's
// whole share of the work.
type Game[P any, M comparable] interface {
	// Enter opens the node of p at ply (ply ≥ 1), depth plies deep with
	// the window (alpha, beta): it counts the node and empties its
	// principal variation. It returns p's value and true if the search of
	// p ends there: a finished game, the depth reached, another search
	// taking over (its value returned), the table's score settling the
	// window, or the search stopped (any value: it is thrown away);
	// otherwise the move to try first (Search.None if none).
	Enter(p P, depth, ply, alpha, beta int) (hint M, score int, done bool)
	// Moves makes ply's list of the moves of p in the order they are
	// tried, hint first.
	Moves(p P, ply int, hint M)
	// Play plays the i-th move m of ply's list, depth plies deep, and
	// returns it, the position c after it, what it gains its mover on the
	// way (0 but where a search scores as it goes) and the plies its
	// null-window search is reduced by; ok false past the list's end or at
	// a late move that ends it (never the first; nothing is played then).
	// At the root (ply 0) no move is reduced or pruned.
	Play(p P, ply, i, depth int, hint M) (m M, c P, gain, reduction int, ok bool)
	// Undo takes the move Play played in p back, where Search.InPlace.
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
type Search[P any, M comparable, G Game[P, M]] struct {
	// Game is the engine's side of the search.
	Game G
	// Clock is the search's time manager, shared by its threads.
	Clock *clock.Manager
	// None is the Game's "no move".
	None M
	// InPlace: Play changes the position it is given, and Undo takes the
	// move back; otherwise positions are values, and Undo is not called.
	InPlace bool
}

// Root searches the root p depth plies deep with the window (−Infinity,
// Infinity), hint first. It returns the best move and score and whether
// every move was searched; a search the clock stops returns the best move
// of those whose search finished (None if none did).
func (s *Search[P, M, G]) Root(p P, depth int, hint M) (M, int, bool) {
	return s.search(p, hint, depth, 0, -Infinity, Infinity)
}

// Negamax returns the value of p at ply (ply ≥ 1) for its side to move,
// searched depth plies deep with the window (alpha, beta): fail-soft, so
// a value outside the window bounds the true one.
func (s *Search[P, M, G]) Negamax(p P, depth, ply, alpha, beta int) int {
	_, score, _ := s.search(p, s.None, depth, ply, alpha, beta)
	return score
}

// search is Root at ply 0 and Negamax below, where it enters the node
// first (and finds its hint). At the root a stopped search does not
// search a move again, and its best move so far is its answer; below, a
// stopped search's value is 0 (it is thrown away).
func (s *Search[P, M, G]) search(p P, hint M, depth, ply, alpha, beta int) (M, int, bool) {
	g := s.Game
	if ply > 0 {
		var score int
		var done bool
		if hint, score, done = g.Enter(p, depth, ply, alpha, beta); done {
			return s.None, score, true
		}
	}
	g.Moves(p, ply, hint)
	origAlpha := alpha
	best, bestScore := s.None, -Infinity
	for i := 0; ; i++ {
		m, c, gain, red, ok := g.Play(p, ply, i, depth, hint)
		if !ok {
			break
		}
		// The child's window, less what the move gains on the way.
		a, b := alpha-gain, beta-gain
		var score int
		if i == 0 {
			_, score, _ = s.search(c, s.None, depth-1, ply+1, -b, -a)
		} else {
			_, score, _ = s.search(c, s.None, depth-1-red, ply+1, -a-1, -a)
			if -score > a && red > 0 {
				_, score, _ = s.search(c, s.None, depth-1, ply+1, -a-1, -a)
			}
			if -score > a && -score < b && (ply > 0 || !s.Clock.Stopped()) {
				_, score, _ = s.search(c, s.None, depth-1, ply+1, -b, -a)
			}
		}
		score = gain - score
		if s.InPlace {
			g.Undo(p)
		}
		if s.Clock.Stopped() {
			if ply > 0 {
				bestScore = 0
			}
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
