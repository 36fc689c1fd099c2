package strategies

import (
	"context"
	"fmt"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/strategies/adjeval"
	"github.com/gambitbot/gambit/strategies/adjsearch"
)

// adjEngines are the Adjacency engines between searches, by evaluation
// and table cap in MiB: each keeps its table (sized by the move time,
// paged in once) for the next move of the process, and concurrent games
// take different ones.
var adjEngines = [...]*sizedPool[*adjsearch.Engine]{
	LearnedEval: adjEnginePool(adjsearch.EvalFunc(adjeval.SearchEvaluate)),
	HandEval:    adjEnginePool(adjsearch.Default),
}

// adjEnginePool keeps engines that evaluate with ev.
func adjEnginePool(ev adjsearch.Evaluator) *sizedPool[*adjsearch.Engine] {
	return &sizedPool[*adjsearch.Engine]{make: func(int) *adjsearch.Engine { return adjsearch.New(ev) }}
}

// searchAdjacency is minimax on Adjacency: the specialised engine of
// strategies/adjsearch, which also solves endgames exactly.
func searchAdjacency(ctx context.Context, p engine.Position, limits Limits, m Minimax) (Result, error) {
	pos := p.(*adjacency.Position)
	hashMiB := limits.HashMiB
	if hashMiB <= 0 {
		hashMiB = DefaultHashMiB
	}
	pool := adjEngines[m.Eval]
	e := pool.get(hashMiB)
	defer pool.put(hashMiB, e)
	opts := adjsearch.Options{Depth: limits.Depth, Nodes: limits.Nodes, Threads: limits.Threads, MaxTableMiB: hashMiB, Traps: limits.Depth == 0, Book: limits.Depth == 0}
	if limits.Progress != nil {
		opts.Progress = func(r adjsearch.Result) {
			limits.Progress(Progress{Depth: r.Depth, Move: r.Move, Score: r.Score, Exact: r.Exact, Nodes: r.Nodes, Elapsed: r.Elapsed})
		}
	}
	if pos.Terminal() {
		return Result{}, fmt.Errorf("strategies: minimax %v: %w", pos, ErrNoMoves)
	}
	r, err := e.Search(ctx, pos.Board, opts)
	if err != nil {
		return Result{}, fmt.Errorf("strategies: minimax: %w", err)
	}
	return Result{Move: r.Move, Score: r.Score, Units: r.Score * adjsearch.Unit, Exact: r.Exact, Depth: r.Depth, Nodes: r.Nodes, PV: append([]engine.Move(nil), r.PV...)}, nil
}
