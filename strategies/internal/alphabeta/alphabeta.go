// Package alphabeta holds what the generic search (strategies) and the
// Adjacency engine (strategies/adjsearch) do alike around their
// alpha-beta loops: the late-move reduction and the Lazy SMP threads.
//
// The loops themselves are written twice on purpose: they do not differ
// only by evaluation. The generic one plays on an engine.Position (an
// interface: Play, Undo, Hash) and orders moves by the game's bonus; the
// Adjacency one plays on adjacency.Board values with incremental keys and
// bitboard move lists, prunes late quiet moves and switches to the set
// game of games that fill the board. One loop over a type parameter would
// turn Adjacency's inlined board calls into calls through Go's generic
// dictionaries at every node, the cost the engine exists to avoid.
// The Connect Four solver (a null-window solver with a two-bound table)
// and the replicas of the reports' bots (seed.go, their quirks kept) are
// other algorithms.
package alphabeta

import (
	"math/bits"
	"sync"

	"github.com/gambitbot/gambit/strategies/internal/clock"
)

// Reduction is the late-move reduction of the i-th move (from 0) at
// depth: none for the first three moves or below depth 3, otherwise about
// log2(depth)·log2(i)/3 plies, leaving at least one; so that the unlikely
// tail of a well-ordered move list is searched shallower first, and again
// at full depth only if it beats alpha.
func Reduction(depth, i int) int {
	if depth < 3 || i < 3 {
		return 0
	}
	return min(bits.Len(uint(depth))*bits.Len(uint(i))/3, depth-2)
}

// Threads runs a Lazy SMP search on threads goroutines (at least one):
// helper(i) for i from 1 on goroutines of their own — helpers search the
// same tree, half of them one ply deeper (skew i%2), filling the shared
// table for the main thread — and main on the caller's. Once main
// returns, it stops the search by m and waits for the helpers.
func Threads(m *clock.Manager, threads int, main func(), helper func(i int)) {
	var wg sync.WaitGroup
	for i := 1; i < threads; i++ {
		wg.Go(func() { helper(i) })
	}
	main()
	m.Stop()
	wg.Wait()
}
