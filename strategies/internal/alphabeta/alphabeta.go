// Package alphabeta is the alpha-beta search core of the generic search
// (strategies) and the Adjacency engine (strategies/adjsearch): one node
// loop, Search (negamax, principal variation search, late-move
// reductions, killer and history updates, the table at every node), over
// a Game that each engine implements for its own positions — the generic
// search's engine.Position, played and taken back; Adjacency's board
// values with incremental keys, and the set game of games that fill the
// board — and the late-move reduction and Lazy SMP threads around it.
//
// What differs between the engines stays in their Games: evaluation,
// move generation and order, the table's policy, which moves are reduced
// or pruned. The exact solvers (the Adjacency board and set-game solvers,
// the Connect Four and Othello solvers, Gomoku's engine) search other
// windows with other tables and keep their own loops, as do the replicas
// of the reports' bots (seed.go, their quirks kept).
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
