package strategies

import (
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/strategies/c4solver"
)

// connect4Rules add the exact Connect Four solver to the plug-in's rules
// (exact, in rules.go): they solve exactly with strategies/c4solver once
// a quick heuristic search has an answer ready, and fall back on that
// answer when the solve does not finish in time.
type connect4Rules struct{ gameRules }

// reach: try the solver in every position, after a heuristic search to
// depth 12 (a few milliseconds) has a fallback answer.
func (connect4Rules) reach(engine.Position) (depth int, ok bool) { return 12, true }

// sharesTable: c4solver keeps its own tables, so helper threads would
// only compete with it for the cores.
func (connect4Rules) sharesTable() bool { return false }

// c4solvers keeps solvers between searches: their tables, paged in by the
// solves, and their entries stay true from one position to the next.
var c4solvers = sizedPool[*c4solver.Solver]{make: func(mib int) *c4solver.Solver { return c4solver.New(mib << 20) }}

// solve runs the exact solver under the search's context and what is
// left of its node limit, with a table of the search's hash size.
func (connect4Rules) solve(t *thread, _ engine.Move, _ int) (engine.Move, int, bool) {
	budget, ok := t.nodesLeft()
	if !ok {
		return engine.NoMove, 0, false
	}
	solver := c4solvers.get(t.s.hashMiB)
	defer c4solvers.put(t.s.hashMiB, solver)
	r, err := solver.SolveWithin(t.s.clock.Context(), t.pos.(*connect4.Position), budget)
	t.count.Count(r.Nodes)
	if err != nil {
		return engine.NoMove, 0, false
	}
	return r.BestMove, t.s.rules.unit() * r.Score, true
}
