package strategies

import (
	"math/bits"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/othello"
	"github.com/gambitbot/gambit/strategies/othsolve"
)

// othelloRules add the exact Othello endgame solver to the plug-in's
// rules (exact, in rules.go): from othelloSolveEmpties empty squares on,
// once a quick heuristic search has an answer ready, they solve with
// strategies/othsolve, and fall back on that answer when the solve does
// not finish in time.
type othelloRules struct{ gameRules }

// othelloSolveEmpties is the most empty squares at which the search tries
// the exact solve. A solve of 18 empties takes well under a second of
// one core, so one fits a bot's move time of 1–5 s on a loaded machine
// (figures in docs/ai.md); a solve that does not finish costs the move the
// time the heuristic search would have used.
const othelloSolveEmpties = 18

// reach: solve from othelloSolveEmpties empties on, after a heuristic
// search to depth 6 (milliseconds) has a fallback answer.
func (othelloRules) reach(p engine.Position) (depth int, ok bool) {
	q := p.(*othello.Position)
	empties := bits.OnesCount64(^(q.Bitboard(engine.X) | q.Bitboard(engine.O)))
	return 6, empties <= othelloSolveEmpties
}

// sharesTable: othsolve keeps its own table, so helper threads would only
// compete with it for the cores.
func (othelloRules) sharesTable() bool { return false }

// othSolvers keeps solvers between searches: their tables' bounds stay
// true from one position of a game to the next.
var othSolvers = sizedPool[*othsolve.Solver]{make: func(mib int) *othsolve.Solver { return othsolve.New(mib << 20) }}

// solve runs the exact solver under the search's context and what is left
// of its node limit, with a table of the search's hash size, and gives the
// search its principal variation to the end of the game.
func (othelloRules) solve(t *thread, _ engine.Move, _ int) (engine.Move, int, bool) {
	budget, ok := t.nodesLeft()
	if !ok {
		return engine.NoMove, 0, false
	}
	p := t.pos.(*othello.Position)
	me := p.SideToMove()
	solver := othSolvers.get(t.s.hashMiB)
	defer othSolvers.put(t.s.hashMiB, solver)
	r, err := solver.Solve(t.s.clock.Context(), p.Bitboard(me), p.Bitboard(me.Other()), budget)
	t.count.Count(r.Nodes)
	if err != nil {
		return engine.NoMove, 0, false
	}
	t.pvLen[0] = copy(t.pv[0][:], r.PV)
	return r.Move, t.s.rules.unit() * r.Score, true
}
