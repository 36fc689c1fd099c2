package strategies

import (
	"math/bits"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/strategies/c4solver"
)

// connect4Rules solve Connect Four exactly with strategies/c4solver once a
// quick heuristic search has an answer ready, and fall back on that answer
// when the solve does not finish in time. They score finished games in Pons' convention (see
// engine/connect4) and estimate unfinished ones by threats: an empty cell
// where a side's stone would complete four. Each threat counts for its
// side, more when it lies on the rows that side can hope to claim (odd
// rows, counted from 1 at the bottom, for the first player; even rows for
// the second), and stones in the centre column count a little. The
// estimate stays below one unit, the smallest real win.
type connect4Rules struct{}

const (
	c4Unit = 64
	// rows 1, 3 and 5 (odd, from 1) are bits 0, 2 and 4 of each column.
	c4OddRows = 0b0010101 * (1 | 1<<7 | 1<<14 | 1<<21 | 1<<28 | 1<<35 | 1<<42)
	c4Centre  = 0b0111111 << (3 * 7)
)

func (connect4Rules) unit() int { return c4Unit }

func (connect4Rules) terminal(p engine.Position) int { return c4Unit * p.Score(p.SideToMove()) }

func (connect4Rules) evaluate(p engine.Position) int {
	c := p.(*connect4.Position)
	me, them := c.SideToMove(), c.SideToMove().Other()
	good := func(s engine.Side) uint64 { // the rows side s can hope to claim
		if s == engine.X {
			return c4OddRows
		}
		return ^uint64(c4OddRows)
	}
	tm, tt := c.Threats(me), c.Threats(them)
	score := 8*(bits.OnesCount64(tm)-bits.OnesCount64(tt)) +
		8*(bits.OnesCount64(tm&good(me))-bits.OnesCount64(tt&good(them))) +
		2*(bits.OnesCount64(c.Bitboard(me)&c4Centre)-bits.OnesCount64(c.Bitboard(them)&c4Centre))
	return max(-c4Unit+1, min(c4Unit-1, score))
}

// orderBonus: a winning drop first, then a blocking one, then centre
// columns first.
func (connect4Rules) orderBonus(p engine.Position, m engine.Move) int {
	c := p.(*connect4.Position)
	cell := c.Playable() & (0b0111111 << (7 * uint(m)))
	switch {
	case cell&c.Threats(c.SideToMove()) != 0:
		return 255
	case cell&c.Threats(c.SideToMove().Other()) != 0:
		return 200
	}
	return 10 * [connect4.Width]int{0, 1, 2, 3, 2, 1, 0}[m%connect4.Width]
}

// reach: try the solver in every position, after a heuristic search to
// depth 12 (a few milliseconds) has a fallback answer.
func (connect4Rules) reach(engine.Position) (depth int, ok bool) { return 12, true }

// sharesTable: c4solver keeps its own tables, so helper threads would
// only compete with it for the cores.
func (connect4Rules) sharesTable() bool { return false }

// c4solvers keeps solvers between searches: making one touches its whole
// table, tens of milliseconds for 64 MiB, which a move's deadline cannot
// spare, and its entries stay true from one position to the next.
var c4solvers = sizedPool[*c4solver.Solver]{make: func(mib int) *c4solver.Solver { return c4solver.New(mib << 20) }}

// solve runs the exact solver under the search's context, with a table of
// the search's hash size.
func (connect4Rules) solve(t *thread, _ engine.Move, _ int) (engine.Move, int, bool) {
	solver := c4solvers.get(t.s.hashMiB)
	defer c4solvers.put(t.s.hashMiB, solver)
	r, err := solver.Solve(t.s.ctx, t.pos.(*connect4.Position))
	t.nodes += r.Nodes
	if err != nil {
		return engine.NoMove, 0, false
	}
	return r.BestMove, c4Unit * r.Score, true
}
