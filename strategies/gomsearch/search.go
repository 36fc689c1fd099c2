// Package gomsearch is Gambit's Gomoku engine, freestyle rules (five or
// more in a row win) as engine/gomoku plays them, on any board it allows.
//
// The board (board.go) is a padded array whose every point keeps, for
// each of its four lines, a key of the eight points around it; a table
// computed once turns a key into the shape a stone there would make for
// each colour (five, open four, four, open three, three, open two, …;
// pattern.go), and a point's four shapes into its class (what it
// threatens) and value. Placing or taking back a stone updates the 32
// points its lines reach, the counts of empty points by class and the
// sums of their values: the evaluation is that sum, the side to move's
// against its opponent's, and every threat is a count away.
//
// The search (this file) is iterative deepening of principal variation
// search with a transposition table (Zobrist keys), late-move reductions
// and pruning, over the empty points within two of a stone ordered by
// what they make and stop. Threats cut it short: a five to complete wins,
// an opponent's four leaves one move (not counted as depth), an open four
// to make wins in three, an opponent's open three leaves only its
// defences and one's own fours. Threat-space search (threat.go) — VCF,
// then VCT — runs at the root before the alpha-beta, then after each
// root move for the opponent (a move that lets it win by threats is
// dropped), and inside the alpha-beta at its leaves (VCF) and on the
// principal variation one ply above them (a short VCT). When every move
// loses, the move chosen is the one that loses latest, which is always
// near the stones.
//
// A node is a stone placed: every move played by the alpha-beta or the
// threat searches counts one.
package gomsearch

import (
	"context"
	"fmt"
	"time"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/gomoku"
	"github.com/gambitbot/gambit/strategies/internal/clock"
)

// Win is the score of a five for the side to move now; a win in n plies
// scores Win−n, a loss the opposite. Scores beyond ±(Win−maxPly) are
// proven; the evaluation stays far below.
const Win = 1 << 20

const (
	maxPly = 240 // more plies than a 225-point board holds
	// Threat-search reach, in attacker moves: at the root, at the leaves
	// of the alpha-beta, one ply above them on the principal variation,
	// and VCF within VCT.
	rootVCF  = 12 // continuous fours up to 23 plies
	rootVCT  = 6
	vcfInVCT = 8
	leafVCF  = 6
	nodeVCT  = 2
	// screenBudget is the nodes of the VCT after each root move, without
	// a node cap.
	screenBudget = 5000
	// Late-move pruning: a node searches at most its best maxMoves
	// moves, and of those beyond lmpBase+2·depth (lmpLow+depth for
	// moves that make or stop no open three) none below the principal
	// variation.
	maxMoves = 20
	lmpBase  = 6
	lmpLow   = 3
)

// Options bound a search beyond its context.
type Options struct {
	// Depth caps the iterations' nominal depth in plies; 0 means none.
	Depth int
	// Nodes caps the nodes searched; 0 means none. A search always
	// starts from an empty table, so that the same position and limits
	// give the same answer.
	Nodes uint64
	// Progress, if not nil, is told each completed iteration's answer.
	Progress func(Result)
}

// Result is a search's answer.
type Result struct {
	// Move is the move chosen, always legal.
	Move engine.Move
	// Score is its value for the side to move: ±(Win−plies) when proven,
	// otherwise the evaluation's.
	Score int
	// Depth is the deepest completed iteration.
	Depth int
	// Nodes counts the stones placed by the search.
	Nodes uint64
	// PV is the expected line, starting with Move.
	PV []engine.Move
	// Elapsed is the time since the search started.
	Elapsed time.Duration
}

// Proven reports whether score is a proven win or loss.
func Proven(score int) bool { return score >= Win-maxPly || score <= -(Win-maxPly) }

// Engine searches Gomoku positions, one at a time; it keeps its tables
// between searches (each search starts them afresh).
type Engine struct {
	b      *board
	tt     table
	cache  threatCache
	gen    uint8
	clock  clock.Manager
	count  clock.Counter
	budget uint64 // the node count at which a threat search gives up; 0 none
	nodes  uint64
	list   [maxPly + 8][]int
	ord    [maxPly + 8][]int32
	threat [maxPly + 8]int
	pv     [maxPly + 1][maxPly]int
	pvLen  [maxPly + 1]int
	killer [maxPly][2]int
}

// New returns an engine whose transposition table takes at most
// tableMiB MiB (at least one).
func New(tableMiB int) *Engine {
	tables()
	e := &Engine{tt: newTable(tableMiB), cache: newThreatCache(), b: &board{}}
	for i := range e.list {
		e.list[i] = make([]int, 0, rules.Cells)
		e.ord[i] = make([]int32, 0, rules.Cells)
	}
	return e
}

// tick counts a node.
func (e *Engine) tick() {
	e.nodes++
	e.count.Tick()
}

// aborted reports whether the search must stop, or the threat search
// under way has spent its budget.
func (e *Engine) aborted() bool {
	return e.clock.Stopped() || e.budget > 0 && e.nodes >= e.budget
}

// Search chooses a move for the side to move in pos, until ctx is done
// or a limit in opts is reached; an expired ctx still gets a legal move
// at once (the best-looking). It fails only on a finished game.
func (e *Engine) Search(ctx context.Context, pos *rules.Position, opts Options) (Result, error) {
	if pos.Terminal() {
		return Result{}, fmt.Errorf("gomsearch: %v: the game is over", pos)
	}
	b := e.b
	b.reset(pos)
	e.gen++
	if e.gen >= 64 { // the table keeps six bits of it
		e.tt.clear()
		clear(e.cache.key)
		e.gen = 1
	}
	e.nodes, e.budget = 0, 0
	e.killer = [maxPly][2]int{}
	e.clock.Start(ctx, opts.Nodes, nil)
	e.count = clock.Counter{M: &e.clock}
	defer e.count.Flush()

	roots := e.rootMoves()
	res := Result{Move: toCell(roots[0]), PV: []engine.Move{toCell(roots[0])}}
	finish := func() (Result, error) {
		res.Nodes = e.nodes
		res.Elapsed = e.clock.Elapsed()
		return res, nil
	}
	if ctx.Err() != nil {
		return finish()
	}
	me, you := b.side, b.side^1
	switch {
	case b.count[me][clFive] > 0:
		res.Score = Win - 1
		return finish()
	case b.count[you][clFive] > 1:
		res.Score = -(Win - 2) // one block, then the other five
		return finish()
	}
	// Threat-space search first: a win by fours, then by threats.
	if b.count[you][clFive] == 0 {
		if r := e.vcf(0, rootVCF); r > 0 && e.threat[0] >= 0 {
			res.Move, res.Score, res.PV = toCell(e.threat[0]), Win-r, []engine.Move{toCell(e.threat[0])}
			return finish()
		}
		e.budget = e.nodes + e.threatBudget(opts.Nodes)
		r := e.vct(0, rootVCT)
		e.budget = 0
		if r > 0 && e.threat[0] >= 0 {
			res.Move, res.Score, res.PV = toCell(e.threat[0]), Win-r, []engine.Move{toCell(e.threat[0])}
			return finish()
		}
	}
	roots = e.screen(roots, opts.Nodes)
	res.Move, res.PV = toCell(roots[0]), []engine.Move{toCell(roots[0])}
	maxDepth := min(b.empty, maxPly-8)
	if opts.Depth > 0 {
		maxDepth = min(maxDepth, opts.Depth)
	}
	for depth := 1; depth <= maxDepth && !e.clock.Stopped(); depth++ {
		move, score, complete := e.root(roots, depth)
		if move < 0 {
			break // interrupted before the first move was searched
		}
		res.Move, res.Score = toCell(move), int(score)
		res.PV = res.PV[:0]
		for _, p := range e.pv[0][:e.pvLen[0]] {
			res.PV = append(res.PV, toCell(p))
		}
		if len(res.PV) == 0 || res.PV[0] != res.Move {
			res.PV = append(res.PV[:0], res.Move)
		}
		if !complete {
			break
		}
		res.Depth = depth
		if opts.Progress != nil {
			opts.Progress(Result{Move: res.Move, Score: res.Score, Depth: depth, Nodes: e.nodes, PV: res.PV, Elapsed: e.clock.Elapsed()})
		}
		if score >= Win-maxPly || score <= -(Win-maxPly) && depth >= int(Win+score) || len(roots) == 1 && depth >= 2 {
			break // a proven win, a proven loss seen to its end, or the only move
		}
	}
	return finish()
}

// threatBudget is the nodes the root's VCT may spend: a share of the
// node cap, at most 200 000.
func (e *Engine) threatBudget(nodes uint64) uint64 {
	if nodes > 0 {
		return max(nodes/4, 1)
	}
	return 200_000
}

// screen drops the root moves after which the opponent wins by threats
// (VCT, a budget each), keeping their order; if every move is lost so,
// it keeps them all, the latest loss first, for the alpha-beta to pick
// the one that resists longest.
func (e *Engine) screen(roots []int, nodes uint64) []int {
	if len(roots) <= 1 {
		return roots
	}
	b := e.b
	per := uint64(screenBudget)
	if nodes > 0 {
		per = max(nodes/uint64(8*len(roots)), 1)
	}
	safe := make([]int, 0, len(roots))
	var lost, plies []int
	for i, p := range roots {
		if e.clock.Stopped() {
			safe = append(safe, roots[i:]...)
			break
		}
		b.play(p)
		e.tick()
		e.budget = e.nodes + per
		r := e.vct(1, rootVCT)
		e.budget = 0
		b.undo()
		if r > 0 {
			lost, plies = append(lost, p), append(plies, r)
		} else {
			safe = append(safe, p)
		}
	}
	if len(safe) > 0 {
		return safe
	}
	ord := make([]int32, len(plies))
	for i, r := range plies {
		ord[i] = int32(r)
	}
	sortBy(lost, ord)
	return lost
}

// rootMoves returns the moves searched at the root, the best-looking
// first: the five if there is one, the block of the opponent's five, the
// defences against its open three, or the points near the stones.
func (e *Engine) rootMoves() []int {
	moves := e.moves(0)
	out := append([]int(nil), moves...)
	return out
}

// moves lists and orders the moves of the side to move at ply: a five
// alone, the block of the opponent's five alone, the defences against
// its open three with one's own fours, or every point near the stones.
func (e *Engine) moves(ply int) []int {
	b := e.b
	me, you := b.side, b.side^1
	var l []int
	switch {
	case b.count[me][clFive] > 0:
		l = e.only(ply, me, clFive)
	case b.count[you][clFive] > 0:
		l = e.only(ply, you, clFive)
	case b.count[me][clFlex4] > 0:
		l = e.only(ply, me, clFlex4)
	case b.count[you][clFlex4] > 0:
		l = e.defences(ply, me)
	}
	if len(l) == 0 {
		l = b.candidates(e.list[ply][:0])
	}
	e.list[ply] = l
	e.sortMoves(ply, l, -1)
	return l
}

// root searches the root moves to depth. It returns the best move and
// score and whether every move was searched; an interrupted iteration
// returns a move only if its search finished and beat the previous best
// (the first move searched, else -1).
func (e *Engine) root(moves []int, depth int) (int, int32, bool) {
	b := e.b
	alpha, beta := int32(-Win-1), int32(Win+1)
	best, bestScore := -1, int32(-Win-1)
	e.pvLen[0] = 0
	for i, p := range moves {
		b.play(p)
		e.tick()
		var score int32
		if i == 0 {
			score = -e.negamax(depth-1, 1, -beta, -alpha)
		} else {
			score = -e.negamax(depth-1, 1, -alpha-1, -alpha)
			if score > alpha && !e.clock.Stopped() {
				score = -e.negamax(depth-1, 1, -beta, -alpha)
			}
		}
		b.undo()
		if e.clock.Stopped() {
			return best, bestScore, false
		}
		if score > bestScore {
			best, bestScore = p, score
			e.updatePV(0, p)
			alpha = max(alpha, score)
			// The best so far is searched first next time.
			copy(moves[1:i+1], moves[:i])
			moves[0] = p
		}
	}
	e.tt.store(b.hash, e.gen, best, bestScore, depth, bExact, 0)
	return best, bestScore, true
}

func (e *Engine) updatePV(ply, p int) {
	e.pv[ply][0] = p
	n := copy(e.pv[ply][1:], e.pv[ply+1][:e.pvLen[ply+1]])
	e.pvLen[ply] = n + 1
}

// evaluate estimates the position for the side to move: the values of
// its points against its opponent's, its own counting a quarter more
// (it moves first).
func (e *Engine) evaluate() int32 {
	b := e.b
	me := b.side
	return (9*b.total[me] - 8*b.total[me^1]) / 8
}

// negamax returns the score of the position for the side to move,
// searched depth plies deep with the window (alpha, beta).
func (e *Engine) negamax(depth, ply int, alpha, beta int32) int32 {
	b := e.b
	e.pvLen[ply] = 0
	if b.won {
		return -(Win - int32(ply)) // the five came on the last ply
	}
	if b.empty == 0 {
		return 0
	}
	if e.clock.Stopped() {
		return 0
	}
	me, you := b.side, b.side^1
	switch {
	case b.count[me][clFive] > 0:
		return Win - int32(ply) - 1
	case b.count[you][clFive] > 1:
		return -(Win - int32(ply) - 2)
	case b.count[you][clFive] == 0 && b.count[me][clFlex4] > 0:
		return Win - int32(ply) - 3
	case ply >= maxPly-8:
		return e.evaluate()
	}
	forced := b.count[you][clFive] == 1
	if depth <= 0 && !forced {
		if r := e.vcf(ply, leafVCF); r > 0 {
			return Win - int32(ply+r)
		}
		return e.evaluate()
	}
	if depth == 1 && beta-alpha > 1 && !forced && b.count[you][clFlex4] == 0 && b.count[me][clThree]+b.count[me][clThree2]+b.count[me][clFourThree] > 0 {
		if r := e.vct(ply, nodeVCT); r > 0 {
			return Win - int32(ply+r)
		}
	}
	hint := -1
	pvNode := beta-alpha > 1
	if hit, ok := e.tt.probe(b.hash, e.gen); ok {
		hint = int(hit.move)
		score := fromTT(hit.score, ply)
		if int(hit.depth) >= depth && !pvNode {
			switch {
			case hit.bound == bExact,
				hit.bound == bLower && score >= beta,
				hit.bound == bUpper && score <= alpha:
				return score
			}
		}
	}
	moves := e.moves(ply)
	if hint >= 0 && len(moves) > 1 {
		for i, p := range moves {
			if p == hint {
				copy(moves[1:i+1], moves[:i])
				moves[0] = hint
				break
			}
		}
	}
	next := depth - 1
	if forced {
		next = depth // a forced reply is no choice: not counted
	}
	origAlpha := alpha
	best, bestScore := -1, int32(-Win-1)
	quiet := len(moves) > 1 && b.count[you][clFlex4] == 0
	for i, p := range moves {
		if i >= maxMoves {
			break
		}
		r := 0
		if quiet && i > 0 && !pvNode {
			low := b.class(me, p) < clThree && b.class(you, p) < clThree
			if i >= lmpBase+2*depth || low && i >= lmpLow+depth {
				continue // late-move pruning
			}
			if low && depth >= 2 && i >= 3 {
				r = 1
				if i >= 10 && depth >= 4 {
					r = 2
				}
			}
		}
		b.play(p)
		e.tick()
		var score int32
		if i == 0 {
			score = -e.negamax(next, ply+1, -beta, -alpha)
		} else {
			score = -e.negamax(next-r, ply+1, -alpha-1, -alpha)
			if score > alpha && r > 0 {
				score = -e.negamax(next, ply+1, -alpha-1, -alpha)
			}
			if score > alpha && score < beta {
				score = -e.negamax(next, ply+1, -beta, -alpha)
			}
		}
		b.undo()
		if e.clock.Stopped() {
			return 0
		}
		if score > bestScore {
			best, bestScore = p, score
			if score > alpha {
				alpha = score
				e.updatePV(ply, p)
			}
		}
		if alpha >= beta {
			if e.killer[ply][0] != p {
				e.killer[ply][1], e.killer[ply][0] = e.killer[ply][0], p
			}
			break
		}
	}
	bound := bExact
	switch {
	case bestScore <= origAlpha:
		bound = bUpper
	case bestScore >= beta:
		bound = bLower
	}
	e.tt.store(b.hash, e.gen, best, bestScore, depth, bound, ply)
	return bestScore
}

// sortMoves orders moves best first: the hint, the killers, then by what
// each makes for the side to move and stops of its opponent.
func (e *Engine) sortMoves(ply int, moves []int, hint int) {
	b := e.b
	me, you := b.side, b.side^1
	ord := e.ord[ply][:0]
	for _, p := range moves {
		var o int32
		switch p {
		case hint:
			o = 1 << 30
		default:
			o = b.value(me, p)*5/4 + b.value(you, p)
			if ply < maxPly && (p == e.killer[ply][0] || p == e.killer[ply][1]) {
				o += 40
			}
		}
		ord = append(ord, o)
	}
	e.ord[ply] = ord
	sortBy(moves, ord)
}

// sortBy sorts moves by ord, highest first (insertion sort: the lists
// are short and mostly nearly sorted).
func sortBy(moves []int, ord []int32) {
	for i := 1; i < len(moves); i++ {
		m, o := moves[i], ord[i]
		j := i
		for ; j > 0 && ord[j-1] < o; j-- {
			moves[j], ord[j] = moves[j-1], ord[j-1]
		}
		moves[j], ord[j] = m, o
	}
}
