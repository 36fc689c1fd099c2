package adjsearch

import (
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/strategies/internal/alphabeta"
	"github.com/gambitbot/gambit/strategies/internal/clock"
	"github.com/gambitbot/gambit/strategies/internal/ttable"
)

// thread is one searching goroutine with its own move-ordering tables.
type thread struct {
	r *run
	// count is the thread's nodes since its last check-in with the run's
	// clock. Every recursive function of every phase (heuristic search,
	// board solver down to its last plies, set game's search and solver)
	// ticks it at each node, so that no phase runs longer than
	// clock.Interval nodes without looking at the clock, and a node cap is
	// met within that many nodes. Measured here at 1 s a move with a warm
	// table, the longest stretch between two looks was 0.8–3 ms of CPU
	// time; with the table's first touch (a new Engine, page faults) up to
	// 13 ms.
	count   clock.Counter
	lists   [maxPly]moveList
	killers [maxPly][2]int
	history [2][adjacency.Cells]int32
	pv      [maxPly + 1][maxPly]int
	pvLen   [maxPly + 1]int
	units   int // the main thread's last score, in Units
}

// newThread returns a thread of r with empty move-ordering tables.
func newThread(r *run) *thread {
	t := &thread{r: r, count: clock.Counter{M: &r.clock}}
	for i := range t.killers {
		t.killers[i] = [2]int{noCell, noCell}
	}
	return t
}

// iterate deepens from depth 1 (plus skew) to maxDepth until told to
// stop. The main thread passes res, which it keeps up to date with each
// completed iteration; helpers pass nil.
func (t *thread) iterate(b adjacency.Board, maxDepth, skew int, res *Result) {
	r := t.r
	h := hashOf(b)
	left := b.PliesLeft()
	for depth := 1 + skew; depth <= maxDepth; depth++ {
		if t.count.CheckIn(); r.clock.Stopped() {
			break
		}
		if depth >= left {
			hint, guess := noCell, 0
			if res != nil && res.Depth > 0 {
				hint, guess = int(res.Move), res.Score
			}
			move, score, complete := t.solve(b, h, hint, guess)
			if res != nil && complete {
				res.Move, res.Score, res.Exact, res.Depth = engine.Move(move), score, true, left
				t.units = score * Unit
				res.PV = append(res.PV[:0], engine.Move(move))
				t.report(res)
				if r.opts.Traps {
					if trap := t.trap(b, h, move, score); trap != move {
						res.Move, res.PV[0] = engine.Move(trap), engine.Move(trap)
						t.report(res)
					}
				}
			}
			break
		}
		move, score, complete := t.root(b, h, depth, res)
		jump := complete && maxDepth == left && depth >= minSolveDepth && r.solvable(b)
		if res != nil {
			if !complete && move == noCell {
				break // interrupted before the first move was searched
			}
			res.Move, res.Score, t.units = engine.Move(move), score/Unit, score
			res.PV = res.PV[:0]
			for _, m := range t.pv[0][:t.pvLen[0]] {
				res.PV = append(res.PV, engine.Move(m))
			}
			if complete {
				res.Depth = depth
				t.report(res)
			}
			if !complete {
				break
			}
		}
		if jump {
			depth = maxDepth - 1 // solve next rather than deepen
		}
	}
	t.count.Flush()
}

// report calls the Progress callback, if any.
func (t *thread) report(res *Result) {
	if p := t.r.opts.Progress; p != nil {
		out := *res
		out.Nodes = t.count.Total()
		out.Elapsed = t.r.clock.Elapsed()
		p(out)
	}
}

// root searches the root to depth with principal variation search. It
// returns the best move, its score and whether every move was searched;
// an interrupted iteration still returns a move whose search finished and
// beat the ones before (noCell if none did).
func (t *thread) root(b adjacency.Board, h uint64, depth int, res *Result) (int, int, bool) {
	hint := noCell
	if res != nil && res.Depth > 0 {
		hint = int(res.Move)
	} else if e, ok := t.r.tt.Probe(h); ok {
		hint = int(e.Move)
	}
	list := &t.lists[0]
	list.generate(b, hint, t.killers[0], &t.history[b.SideToMove()])
	alpha, beta := -infinity, infinity
	best, bestScore := noCell, -infinity
	for i := 0; ; i++ {
		m, ok := list.next()
		if !ok {
			break
		}
		c, ch := play(b, h, m)
		var score int
		if i == 0 {
			score = -t.child(c, ch, depth-1, -beta, -alpha)
		} else {
			score = -t.child(c, ch, depth-1, -alpha-1, -alpha)
			if score > alpha && !t.r.clock.Stopped() {
				score = -t.child(c, ch, depth-1, -beta, -alpha)
			}
		}
		if t.r.clock.Stopped() {
			return best, bestScore, false
		}
		if score > bestScore {
			best, bestScore = m, score
			t.updatePV(0, m)
			alpha = max(alpha, score)
		}
	}
	t.r.tt.Store(h, uint16(best), bestScore, depth, ttable.Exact, false)
	return best, bestScore, true
}

// child is the value of the root's child c, whose board key is ch,
// searched depth plies with the window (alpha, beta): in the set game when
// the game fills the board, else on boards.
func (t *thread) child(c adjacency.Board, ch uint64, depth, alpha, beta int) int {
	if !t.r.fill || c.Terminal() {
		return t.search(c, ch, depth, 1, alpha, beta)
	}
	off := settled(c) * Unit
	e := empties(c)
	return off + t.fillSearch(e, fillKey(e), depth, 1, alpha-off, beta-off)
}

func (t *thread) updatePV(ply, m int) {
	t.pv[ply][0] = m
	n := copy(t.pv[ply][1:], t.pv[ply+1][:t.pvLen[ply+1]])
	t.pvLen[ply] = n + 1
}

// evaluate is the clamped evaluation of an unfinished b.
func (t *thread) evaluate(b adjacency.Board) int {
	return max(-MaxEval, min(MaxEval, t.r.e.eval.Evaluate(b)))
}

// search is the fail-soft value of b for the side to move, searched depth
// plies deep with the window (alpha, beta), in Units. h is b's key.
func (t *thread) search(b adjacency.Board, h uint64, depth, ply, alpha, beta int) int {
	t.pvLen[ply] = 0
	t.count.Tick()
	if b.Terminal() {
		return diff(b) * Unit
	}
	if depth <= 0 {
		return t.evaluate(b)
	}
	if t.r.clock.Stopped() {
		return 0 // unwinding: the value is thrown away
	}
	hint := noCell
	if e, ok := t.r.tt.Probe(h); ok {
		hint = int(e.Move)
		if e.Solved || e.Depth >= depth {
			if e.Bound.Settles(e.Score, alpha, beta) {
				return e.Score
			}
		}
	}
	side := b.SideToMove()
	list := &t.lists[ply]
	list.generate(b, hint, t.killers[ply], &t.history[side])
	origAlpha := alpha
	best, bestScore := noCell, -infinity
	plain := t.r.e.cfg.plain
	for i := 0; ; i++ {
		m, ok := list.next()
		if !ok {
			break
		}
		quiet := list.captures[m] == 0 && m != t.killers[ply][0] && m != t.killers[ply][1] && m != hint
		if !plain && quiet && i >= lateMoves(depth) && bestScore > -infinity {
			break // late quiet moves at the frontier: pruned
		}
		c, ch := play(b, h, m)
		var score int
		if i == 0 {
			score = -t.search(c, ch, depth-1, ply+1, -beta, -alpha)
		} else {
			red := 0
			if !plain && quiet {
				red = alphabeta.Reduction(depth, i)
			}
			score = -t.search(c, ch, depth-1-red, ply+1, -alpha-1, -alpha)
			if score > alpha && red > 0 {
				score = -t.search(c, ch, depth-1, ply+1, -alpha-1, -alpha)
			}
			if score > alpha && score < beta {
				score = -t.search(c, ch, depth-1, ply+1, -beta, -alpha)
			}
		}
		if t.r.clock.Stopped() {
			return 0
		}
		if score > bestScore {
			best, bestScore = m, score
			if score > alpha {
				alpha = score
				t.updatePV(ply, m)
			}
		}
		if alpha >= beta {
			t.cutoff(ply, side, m, depth)
			break
		}
	}
	best, bd := outcome(best, bestScore, origAlpha, beta)
	t.r.tt.Store(h, uint16(best), bestScore, depth, bd, false)
	return bestScore
}

// cutoff records a move that failed high: a killer of its ply and a
// history bonus of depth².
func (t *thread) cutoff(ply int, side engine.Side, m, depth int) {
	if m != t.killers[ply][0] {
		t.killers[ply][1], t.killers[ply][0] = t.killers[ply][0], m
	}
	hist := &t.history[side]
	hist[m] += int32(depth * depth)
	if hist[m] > 1<<20 {
		for s := range t.history {
			for j := range t.history[s] {
				t.history[s][j] /= 2
			}
		}
	}
}

// minSolveDepth is the heuristic iteration after which a search may jump
// to solving: its best move is the solve's first guess.
const minSolveDepth = 4

// lateMoves is how many moves a node searches at depth before it prunes
// the quiet ones (no capture, not a killer or the hash move): the
// capture order puts the likely best moves first, and near the frontier
// the rest rarely matter.
func lateMoves(depth int) int {
	switch depth {
	case 1:
		return 6
	case 2:
		return 10
	case 3:
		return 16
	}
	return adjacency.Cells
}
