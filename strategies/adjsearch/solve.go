package adjsearch

import (
	"math"
	"math/bits"
	"slices"

	"github.com/gambitbot/gambit/engine/adjacency"
	adjgame "github.com/gambitbot/gambit/games/adjacency"
	"github.com/gambitbot/gambit/strategies/internal/ttable"
)

// The exact solver: null-window probes at the root, as MTD(f) does, each
// a fail-soft alpha-beta search to the end of the game in marks, sharing
// the table with the heuristic search (solved entries only).
const (
	// tableMin: positions with fewer plies left are not stored; their
	// subtrees cost less than a probe's cache miss.
	tableMin = 5
	// evalOrderMin: from this many plies left the solver orders a node's
	// moves by the evaluation of the position each leads to. On the 15
	// 16-ply self-play endgames (one thread, CPU time on the shared
	// machine) it halves the nodes and takes 1.7–1.8 s instead of 3.1 s;
	// from 7 plies left it saves a few more nodes but costs more time, from
	// 9 or 11 fewer nodes are saved. On 18-ply endgames it saves 37–60% of
	// the nodes but no time: there the calls cost what the nodes saved.
	evalOrderMin = 8
	// etcMin: from this many plies left a node first looks up every child
	// in the table (enhanced transposition cutoffs) and stops if one
	// already refutes the window.
	etcMin = 9
)

// lines is log2 of the number of lines of play from b to the end:
// E·(E−1)·…·(E−L+1) for E empty cells and L plies left.
func lines(b adjacency.Board) float64 {
	empty := bits.OnesCount64(empties(b))
	size := 0.0
	for i := range b.PliesLeft() {
		size += math.Log2(float64(empty - i))
	}
	return size
}

// Solve reach, calibrated on the self-play endgames of testdata (one
// thread, CPU time on a shared machine): 16 plies over 16 empty cells took
// 0.1–0.25 s, 18 plies 18–57 s. solveBits is the largest tree (log2 of
// its lines) the search starts to solve with a second left — 16 plies on
// a full board —, and each doubling of the time left allows
// solveBitsPerDoubling more; without a deadline, noDeadlineBits (18
// plies: a search without deadline takes the time it needs).
const (
	solveBits            = 45
	solveBitsPerDoubling = 1.5
	noDeadlineBits       = 52.5
)

// Fill-solve reach, calibrated with BenchmarkSolveReach (two threads,
// middle games of 28 rounds): the solve of n plies takes a median of
// about 2^(fillBits22 + fillBitsPerPly·(n−22)) nodes (3.6–5.3 M at 22
// plies, 20 M at 24, 96 M at 26), and the slowest of five up to 4.5 times the
// median. The search starts one when 2^fillMargin times its median fits
// the nodes it has left: by the time left at fillNodesPerSecond a thread,
// or a node cap.
const (
	fillBits22         = 21.7
	fillBitsPerPly     = 1.2
	fillMargin         = 2
	fillNodesPerSecond = 10e6
)

// fillSolvable reports whether to solve b, of a game that fills the
// board, rather than deepen.
func (r *run) fillSolvable(b adjacency.Board) bool {
	budget := math.Inf(1)
	if !r.clock.Deadline().IsZero() {
		budget = r.clock.Deadline().Sub(r.clock.Now()).Seconds() * float64(max(r.opts.Threads, 1)) * fillNodesPerSecond
	}
	if n := r.opts.Nodes; n > 0 {
		budget = min(budget, float64(n)-float64(r.clock.Nodes()))
	}
	need := fillBits22 + fillBitsPerPly*float64(b.PliesLeft()-22) + fillMargin
	return budget > 0 && need <= math.Log2(budget)
}

// solvable reports whether to solve b rather than deepen, given the
// time left.
func (r *run) solvable(b adjacency.Board) bool {
	if r.fill {
		return r.fillSolvable(b)
	}
	limit := noDeadlineBits
	if !r.clock.Deadline().IsZero() {
		left := r.clock.Deadline().Sub(r.clock.Now()).Seconds()
		if left <= 0 {
			return false
		}
		limit = solveBits + solveBitsPerDoubling*math.Log2(left)
	}
	return lines(b) <= limit
}

// solve finds the exact final mark difference of b and a move reaching
// it, and reports whether it finished before the search was told to stop.
// Each probe asks "is the value at least v?"; the bound it returns is the
// next probe, until the lower and upper bounds meet (the final difference
// has the parity of the number of marks at the end, so probes step by
// two). The first probe is at guess, the heuristic estimate, and each
// probe tries hint first.
func (t *thread) solve(b adjacency.Board, h uint64, hint, guess int) (int, int, bool) {
	h = t.r.solveKey(b, h)
	total := 64 - bits.OnesCount64(empties(b)) + b.PliesLeft()
	lo, hi := -total, total // the final difference lies in [lo, hi], of total's parity
	g := max(lo, min(hi, guess))
	if (g-total)%2 != 0 {
		g++
	}
	best := noCell
	for lo < hi {
		v := max(g, lo+2) // probe "value ≥ v?" with lo < v ≤ hi
		move, score := t.solveRoot(b, h, v-1, hint)
		t.count.CheckIn() // probes may be shorter than the nodes between check-ins
		if t.r.clock.Stopped() {
			return noCell, 0, false
		}
		if score >= v {
			lo, best, hint = score, move, move
		} else {
			hi = score
		}
		g = score
	}
	if best == noCell { // every probe failed low: any move reaching lo
		best, _ = t.solveRoot(b, h, lo-1, hint)
	}
	return best, lo, !t.r.clock.Stopped()
}

// solveRoot searches the root with the null window (alpha, alpha+1),
// hint first, and returns the move that did best and its fail-soft score.
func (t *thread) solveRoot(b adjacency.Board, h uint64, alpha, hint int) (int, int) {
	best, bestScore := noCell, -infinity
	order := newCaptureOrder(b, hint)
	for m, ok := order.next(); ok; m, ok = order.next() {
		c, ch := t.r.step(b, h, m)
		score := -t.solveNode(c, ch, -alpha-1, -alpha)
		if score > bestScore {
			best, bestScore = m, score
		}
		if score > alpha || t.r.clock.Stopped() {
			break
		}
	}
	return best, bestScore
}

// solveNode is the fail-soft alpha-beta value of b, searched to the end of
// the game, in marks. h is b's solver key.
func (t *thread) solveNode(b adjacency.Board, h uint64, alpha, beta int) int {
	t.count.Tick()
	mover, other := b.Marks()
	left := b.PliesLeft()
	switch {
	case left == 0:
		return bits.OnesCount64(mover) - bits.OnesCount64(other)
	case left == 1:
		return lastOne(b)
	case t.r.fill:
		off := settled(b)
		return off + t.fillNode(empties(b), h, alpha-off, beta-off)
	case left <= shallowMax:
		return t.shallow(b, alpha, beta)
	case t.r.clock.Stopped():
		return 0
	}
	hint := noCell
	if left >= tableMin {
		if e, ok := t.r.tt.Probe(h); ok && e.Solved {
			hint = int(e.Move)
			score := e.Score / Unit
			if e.Bound.Settles(score, alpha, beta) {
				return score
			}
		}
		if left >= etcMin {
			if score, ok := t.etc(b, h, beta); ok {
				return score
			}
		}
	}
	origAlpha := alpha
	best, bestScore := noCell, -infinity
	// Far from the end the evaluation orders the moves (it costs a call a
	// child, repaid many times over in subtrees this large); nearer, the
	// capture order, worked out lazily.
	var sorted evalOrder
	var order captureOrder
	byEval := left >= evalOrderMin
	if byEval {
		sorted = t.newEvalOrder(b, hint)
	} else {
		order = newCaptureOrder(b, hint)
	}
	for {
		var m int
		var ok bool
		if byEval {
			m, ok = sorted.next()
		} else {
			m, ok = order.next()
		}
		if !ok {
			break
		}
		c, ch := play(b, h, m)
		score := -t.solveNode(c, ch, -beta, -alpha)
		if score > bestScore {
			best, bestScore = m, score
			alpha = max(alpha, score)
		}
		if alpha >= beta || t.r.clock.Stopped() {
			break
		}
	}
	if left >= tableMin && !t.r.clock.Stopped() {
		best, bd := outcome(best, bestScore, origAlpha, beta)
		t.r.tt.Store(h, uint16(best), bestScore*Unit, left, bd, true)
	}
	return bestScore
}

// etc looks up every child of b in the table: if one is solved with a
// value that refutes the window (b's value at least beta), b's search is
// over before it starts.
func (t *thread) etc(b adjacency.Board, h uint64, beta int) (int, bool) {
	for e := empties(b); e != 0; e &= e - 1 {
		_, ch := play(b, h, bits.TrailingZeros64(e))
		if hit, ok := t.r.tt.Probe(ch); ok && hit.Solved && hit.Bound != ttable.Lower {
			if score := -hit.Score / Unit; score >= beta {
				return score, true
			}
		}
	}
	return 0, false
}

// shallowMax: positions with this many plies left or fewer are solved by
// shallow, without table or ordering.
const shallowMax = 6

// lastOne is the value of b with one ply left: the best last move is worth
// one mark plus twice its flips.
func lastOne(b adjacency.Board) int {
	mover, other := b.Marks()
	empty := ^(mover | other)
	flips := 0
	if bits.OnesCount64(empty) > 4 {
		flips = adjgame.MaxFlips(other, empty)
	} else {
		for e := empty; e != 0; e &= e - 1 {
			flips = max(flips, bits.OnesCount64(b.Flips(engineMove(bits.TrailingZeros64(e)))))
		}
	}
	return bits.OnesCount64(mover) - bits.OnesCount64(other) + 1 + 2*flips
}

// shallow is the fail-soft alpha-beta value of b with 2 to shallowMax plies
// left, the moves taken in cell order: so near the end, working out an
// order costs more than it saves. With many empty cells (a short game's
// sparse board) it orders by captures, which cut off sooner there.
func (t *thread) shallow(b adjacency.Board, alpha, beta int) int {
	t.count.Tick()
	if b.PliesLeft() == 1 {
		return lastOne(b)
	}
	if t.r.clock.Stopped() {
		return 0 // unwinding: the value is thrown away
	}
	best := -infinity
	empty := empties(b)
	if bits.OnesCount64(empty) > 2*shallowMax {
		order := newCaptureOrder(b, noCell)
		for m, ok := order.next(); ok; m, ok = order.next() {
			if best = max(best, -t.shallow(b.After(engineMove(m)), -beta, -max(alpha, best))); best >= beta || t.r.clock.Stopped() {
				break
			}
		}
		return best
	}
	for e := empty; e != 0; e &= e - 1 {
		if best = max(best, -t.shallow(b.After(engineMove(bits.TrailingZeros64(e))), -beta, -max(alpha, best))); best >= beta || t.r.clock.Stopped() {
			break
		}
	}
	return best
}

// evalOrder yields a node's moves best first by the evaluation of the
// position each leads to (the opponent's worst), a hint before them all.
type evalOrder struct {
	keys [adjacency.Cells]int64 // the child's evaluation << 8 | cell, ascending
	n, i int
}

func (t *thread) newEvalOrder(b adjacency.Board, hint int) evalOrder {
	var o evalOrder
	for e := empties(b); e != 0; e &= e - 1 {
		m := bits.TrailingZeros64(e)
		key := int64(t.evaluate(b.After(engineMove(m))))
		if m == hint {
			key = -MaxEval - 1
		}
		o.keys[o.n] = key<<8 | int64(m)
		o.n++
	}
	slices.Sort(o.keys[:o.n])
	return o
}

// next returns the next move, or false when there are no more.
func (o *evalOrder) next() (int, bool) {
	if o.i >= o.n {
		return noCell, false
	}
	o.i++
	return int(uint8(o.keys[o.i-1])), true
}

// captureOrder yields the moves of a board in the solver's order: a hint
// first (the best move found before), then those capturing four opponent
// marks, three, two, one and none — counted for all empty cells at once —
// and among equal captures those with fewer empty neighbours first, as
// the marks they leave are harder to take back. It works the sets out as
// it goes, since a cut-off often comes at the first move.
type captureOrder struct {
	captures, exposure [5]uint64
	empty, cur         uint64
	hint               int
	k, e               int // the current set: captures[k] & exposure[e]
}

func newCaptureOrder(b adjacency.Board, hint int) captureOrder {
	_, other := b.Marks()
	empty := empties(b)
	o := captureOrder{
		captures: adjacency.CaptureSets(other),
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
func (o *captureOrder) next() (int, bool) {
	for o.cur == 0 {
		if o.e++; o.e >= len(o.exposure) {
			if o.k--; o.k < 0 {
				return noCell, false
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
	m := bits.TrailingZeros64(o.cur)
	o.cur &= o.cur - 1
	return m, true
}
