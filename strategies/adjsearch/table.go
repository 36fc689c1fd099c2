package adjsearch

import "github.com/gambitbot/gambit/strategies/internal/ttable"

// The engine keeps its bounds in the search core's table
// (strategies/internal/ttable): its moves are cells, noCell for none; an
// entry loses 4 plies of depth for each search generation of age; and an
// estimate never replaces what a solve found, which is a fact about the
// position that every later search may use.
var tablePolicy = ttable.Policy{NoMove: noCell, AgePenalty: 4, KeepSolved: true}

// newTable returns an empty table of the largest power of two of buckets
// within size bytes (at least one).
func newTable(size int) *ttable.Table { return ttable.New(size, tablePolicy) }

// outcome is what a fail-soft search of the window (alpha, beta) whose
// best move best scored score stores: the move — none when no move beat
// alpha, as none stood out — and the bound.
func outcome(best, score, alpha, beta int) (int, ttable.Bound) {
	switch {
	case score <= alpha:
		return noCell, ttable.Upper
	case score >= beta:
		return best, ttable.Lower
	}
	return best, ttable.Exact
}

// noCell is "no move" in the table and the move lists.
const noCell = 0xff
