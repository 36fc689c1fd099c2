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
	count    clock.Counter
	boards   alphabeta.Search[node, int, *boardGame] // the heuristic search on boards
	sets     alphabeta.Search[set, int, *setGame]    // and in the set game (fill.go)
	lists    [maxPly]moveList
	setMoves [maxPly]setMoves
	killers  [maxPly]alphabeta.Killers[int]
	history  alphabeta.History
	pv       [maxPly + 1][maxPly]int
	pvLen    [maxPly + 1]int
	units    int // the main thread's last score, in Units
}

// newThread returns a thread of r with empty move-ordering tables.
func newThread(r *run) *thread {
	t := &thread{r: r, count: clock.Counter{M: &r.clock}}
	t.boards = alphabeta.Search[node, int, *boardGame]{Game: (*boardGame)(t), Clock: &r.clock, None: noCell}
	t.sets = alphabeta.Search[set, int, *setGame]{Game: (*setGame)(t), Clock: &r.clock, None: noCell}
	for i := range t.killers {
		t.killers[i] = alphabeta.Killers[int]{noCell, noCell}
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
		move, score, complete := t.boards.Root(node{b, h}, depth, t.rootHint(h, res))
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

// rootHint is the move to search first at the root, whose key is h: the
// previous iteration's best.
func (t *thread) rootHint(h uint64, res *Result) int {
	if res != nil && res.Depth > 0 {
		return int(res.Move)
	}
	if e, ok := t.r.tt.Probe(h); ok {
		return int(e.Move)
	}
	return noCell
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

// probe looks the key h up for a search depth plies deep with the
// window (alpha, beta), as Enter: the hint, and the stored score if it
// settles the window — a solved entry at any depth.
func (t *thread) probe(h uint64, depth, alpha, beta int) (int, int, bool) {
	e, ok := t.r.tt.Probe(h)
	if !ok {
		return noCell, 0, false
	}
	return int(e.Move), e.Score, (e.Solved || e.Depth >= depth) && e.Bound.Settles(e.Score, alpha, beta)
}

// node is a board and its key in the heuristic search.
type node struct {
	b adjacency.Board
	h uint64
}

// boardGame is the thread as the heuristic search on boards, an
// alphabeta.Game: scores in Units, the fail-soft value for the side to
// move; moves are cells.
type boardGame thread

// Enter implements alphabeta.Game. In a game that fills the board the
// root's unfinished children are searched in the set game.
func (g *boardGame) Enter(p node, depth, ply, alpha, beta int) (int, int, bool) {
	t := (*thread)(g)
	if t.r.fill && !p.b.Terminal() {
		off := settled(p.b) * Unit
		e := empties(p.b)
		return noCell, off + t.sets.Negamax(set{e, fillKey(e)}, depth, ply, alpha-off, beta-off), true
	}
	t.pvLen[ply] = 0
	t.count.Tick()
	switch {
	case p.b.Terminal():
		return noCell, diff(p.b) * Unit, true
	case depth <= 0:
		return noCell, t.evaluate(p.b), true
	case t.r.clock.Stopped():
		return noCell, 0, true // unwinding: the value is thrown away
	}
	return t.probe(p.h, depth, alpha, beta)
}

// Moves implements alphabeta.Game.
func (g *boardGame) Moves(p node, ply int, hint int) {
	g.lists[ply].generate(p.b, hint, g.killers[ply], &g.history[p.b.SideToMove()])
}

// Play implements alphabeta.Game: below the root, a quiet move (no
// capture, not a killer or the hint) is reduced, and pruned late near the
// frontier (see lateMoves).
func (g *boardGame) Play(p node, ply, i, depth, hint int) (int, node, int, int, bool) {
	l := &g.lists[ply]
	m, ok := l.next()
	if !ok {
		return m, p, 0, 0, false
	}
	red := 0
	if ply > 0 && !g.r.e.cfg.plain && l.captures[m] == 0 && m != g.killers[ply][0] && m != g.killers[ply][1] && m != hint {
		if i >= lateMoves(depth) {
			return m, p, 0, 0, false
		}
		red = alphabeta.Reduction(depth, i)
	}
	c, ch := play(p.b, p.h, m)
	return m, node{c, ch}, 0, red, true
}

// Undo implements alphabeta.Game: boards are values, never undone.
func (g *boardGame) Undo(node) {}

// Raise implements alphabeta.Game.
func (g *boardGame) Raise(ply, m int) { (*thread)(g).updatePV(ply, m) }

// Cutoff implements alphabeta.Game.
func (g *boardGame) Cutoff(p node, ply, m, depth int) {
	g.killers[ply].Add(m)
	g.history.Add(int(p.b.SideToMove()), m, depth)
}

// Store implements alphabeta.Game.
func (g *boardGame) Store(p node, m, score, depth int, b ttable.Bound) {
	g.r.tt.Store(p.h, uint16(m), score, depth, b, false)
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
