package strategies

import (
	"strconv"

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
// left of its node limit, with a table of the search's hash size: the
// Memory's solver if the search has one, else one of the process's,
// emptied first for a reproducible search (a node cap and no deadline):
// a solver's tables only make it faster, but under a node cap faster
// decides whether the solve ends at all.
func (connect4Rules) solve(t *thread, _ engine.Move, _ int) (engine.Move, int, bool) {
	budget, ok := t.nodesLeft()
	if !ok {
		return engine.NoMove, 0, false
	}
	var solver *c4solver.Solver
	if mem := t.s.limits.Memory; mem != nil {
		mib := t.s.hashMiB
		solver = mem.keep("connect4/"+strconv.Itoa(mib), func() any { return c4solver.New(mib << 20) }).(*c4solver.Solver)
	} else {
		solver = c4solvers.get(t.s.hashMiB)
		defer c4solvers.put(t.s.hashMiB, solver)
		if t.s.fresh {
			solver.Reset()
		}
	}
	r, err := solver.SolveWithin(t.s.clock.Context(), t.pos.(*connect4.Position), budget)
	t.count.Count(r.Nodes)
	if err != nil {
		return engine.NoMove, 0, false
	}
	return r.BestMove, t.s.rules.unit() * r.Score, true
}
