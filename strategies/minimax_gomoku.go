package strategies

import (
	"context"
	"fmt"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/gomoku"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/strategies/gomsearch"
)

// gomEngines are the Gomoku engines between searches, by table size in
// MiB: each keeps its tables for the next search of the process, and
// concurrent games take different ones.
var gomEngines = &sizedPool[*gomsearch.Engine]{make: gomsearch.New}

// searchGomoku is minimax on Gomoku: the engine of strategies/gomsearch
// (incremental line patterns, threat-space search, PVS). It searches on
// one thread whatever Limits.Threads says.
func searchGomoku(ctx context.Context, p engine.Position, limits Limits, _ Minimax) (Result, error) {
	pos := p.(*gomoku.Position)
	if pos.Terminal() {
		return Result{}, fmt.Errorf("strategies: minimax %v: %w", pos, ErrNoMoves)
	}
	hashMiB := limits.HashMiB
	if hashMiB <= 0 {
		hashMiB = DefaultHashMiB
	}
	e := gomEngines.get(hashMiB)
	defer gomEngines.put(hashMiB, e)
	unit := catalog.Of(p).AI.Unit
	opts := gomsearch.Options{Depth: limits.Depth, Nodes: limits.Nodes}
	if limits.Progress != nil {
		opts.Progress = func(r gomsearch.Result) {
			score, _, exact := gomokuScore(r.Score, unit)
			limits.Progress(Progress{Depth: r.Depth, Move: r.Move, Score: score, Exact: exact, Nodes: r.Nodes, Elapsed: r.Elapsed})
		}
	}
	r, err := e.Search(ctx, pos, opts)
	if err != nil {
		return Result{}, fmt.Errorf("strategies: minimax: %w", err)
	}
	score, units, exact := gomokuScore(r.Score, unit)
	return Result{Move: r.Move, Score: score, Units: units, Exact: exact, Depth: r.Depth, Nodes: r.Nodes, PV: r.PV}, nil
}

// gomokuScore turns the engine's score into the game's: a proven win or
// loss is ±1 (unit Units) and exact; an estimate is 0 with Units below a
// unit, half a unit where the engine's evaluation is gomokuHalf.
func gomokuScore(v, unit int) (score, units int, exact bool) {
	if gomsearch.Proven(v) {
		if v > 0 {
			return 1, unit, true
		}
		return -1, -unit, true
	}
	return 0, v * unit / (abs(v) + gomokuHalf), false
}

// gomokuHalf is the evaluation that reads as half a win: about an open
// three of the side to move with nothing to answer it.
const gomokuHalf = 600

func abs(x int) int { return max(x, -x) }
