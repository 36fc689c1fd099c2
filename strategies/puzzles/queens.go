package puzzles

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/nqueens"
)

// QueensSolver is a named solver of N-Queens for any N ≥ 4.
type QueensSolver struct {
	// Name is the stable name the command line uses.
	Name string
	// Description is one line for people, including what a node is.
	Description string

	solve func(n int, l Limits, b *budget) ([]int, int, error)
}

// QueensSolution is what a QueensSolver found.
type QueensSolution struct {
	// Rows holds each column's queen's row, from 0.
	Rows []int
	// Nodes counts the solver's nodes (see its Description).
	Nodes uint64
	// Restarts counts the random restarts of hill climbing.
	Restarts int
}

// Solve places n queens (n ≥ 4). On a limit or the context's end it
// returns the nodes spent and an error wrapping ErrLimit or the context's
// error.
func (q QueensSolver) Solve(ctx context.Context, n int, l Limits) (QueensSolution, error) {
	if n < 4 {
		return QueensSolution{}, fmt.Errorf("puzzles: %s: N = %d: want at least 4 (N = 2 and 3 have no solution)", q.Name, n)
	}
	b := newBudget(ctx, l)
	rows, restarts, err := q.solve(n, l, b)
	if err != nil {
		return QueensSolution{Nodes: b.nodes, Restarts: restarts}, fmt.Errorf("puzzles: %s on %d queens: %w", q.Name, n, err)
	}
	return QueensSolution{Rows: rows, Nodes: b.nodes, Restarts: restarts}, nil
}

// QueensSolvers lists the N-Queens solvers.
func QueensSolvers() []QueensSolver { return slices.Clone(queensSolvers) }

// LookupQueens returns the N-Queens solver of the given name.
func LookupQueens(name string) (QueensSolver, error) {
	for _, s := range queensSolvers {
		if s.Name == name {
			return s, nil
		}
	}
	return QueensSolver{}, fmt.Errorf("puzzles: no N-Queens solver %q; have %s", name, names(queensSolvers, func(s QueensSolver) string { return s.Name }))
}

var queensSolvers = []QueensSolver{
	{Name: "backtracking", Description: "report 003 §1.4: a queen per column from the left, rows tried from the first; a node is a queen placed", solve: backtrack},
	{Name: "hill-climbing", Description: "report 003 §2.1: steepest-ascent hill climbing with random restarts; a node is a state evaluated", solve: hillClimb},
	{Name: "min-conflicts", Description: "min-conflicts repair (Minton et al. 1992) from a greedy start; a node is a queen placed or moved", solve: minConflicts},
	{Name: "swap-repair", Description: "swap repair after Sosic and Gu's QS4 (1991): a permutation with few diagonal conflicts, repaired by swapping two queens' rows; a node is a queen placed or a swap tried", solve: swapRepair},
}

// queensPuzzle is N-Queens' part of play.go.
type queensPuzzle struct{}

// shortest is the way to the nearest solution.
func (queensPuzzle) shortest(ctx context.Context, pos engine.Position) ([]engine.Move, error) {
	return nearestQueens(ctx, pos.(*nqueens.Position))
}

// entrants are every QueensSolver on pos's N, each run's length the moves
// from pos to the solution it found.
func (queensPuzzle) entrants(pos engine.Position) []Entrant {
	p := pos.(*nqueens.Position)
	var out []Entrant
	for _, s := range QueensSolvers() {
		out = append(out, Entrant{Algorithm: s.Name, run: func(ctx context.Context, l Limits) Run { return runQueens(ctx, s, p, l) }})
	}
	return out
}

// best is the number of moves to the nearest solution.
func (queensPuzzle) best(ctx context.Context, pos engine.Position, _ []Run) (int, error) {
	near, err := nearestQueens(ctx, pos.(*nqueens.Position))
	if err != nil {
		return -1, err
	}
	return len(near), nil
}

// deal plays from the start: N-Queens has no levels.
func (queensPuzzle) deal(_ context.Context, _ *rand.Rand, start engine.Position, _ Level) (engine.Position, error) {
	return start, nil
}

// Conflicts returns the number of pairs of queens that attack each other,
// rows[c] being column c's queen's row from 0.
func Conflicts(rows []int) int {
	n := len(rows)
	k := newCounts(n)
	pairs := 0
	for c, r := range rows {
		if r < 0 || r >= n {
			panic(fmt.Sprintf("puzzles: row %d of column %d outside the board", r, c))
		}
		pairs += int(k.on(c, r))
		k.add(c, r, 1)
	}
	return pairs
}

// The bytes each solver holds per queen: backtracking a row (8) and three
// flags (5); hill climbing a row and the counts (28); min-conflicts a row
// (4), the counts (20), a free row (4) and the answer's row (8), leaving
// out its scan's blocks (8 bytes per 2,048 rows); the swap repair a row
// (4), the diagonals' counts (16) and the answer's row (8); and the
// repairs 8 for each entry of their lists of attacked queens (4, twice for
// the list's growth).
const (
	backtrackBytes     = 13
	hillClimbBytes     = 28
	minConflictsBytes  = 36
	swapRepairBytes    = 28
	attackedEntryBytes = 8
)

// backtrack is the report's solveNQUtil: column by column, the first row
// attacked by no queen to the left; a dead end backtracks. It keeps the
// columns' rows instead of recursing, so N is not bounded by the stack.
func backtrack(n int, _ Limits, b *budget) ([]int, int, error) {
	if b.hold(uint64(n), backtrackBytes) {
		return nil, 0, b.err
	}
	rows := make([]int, n)
	usedRow, ld, rd := make([]bool, n), make([]bool, 2*n), make([]bool, 2*n)
	col, r := 0, 0 // the column to fill and the first row to try there
	for {
		from := r
		for r < n && (usedRow[r] || ld[r-col+n-1] || rd[r+col]) {
			r++
		}
		if b.charge(uint64(r - from + 1)) {
			return nil, 0, b.err
		}
		if r < n {
			if b.spend() {
				return nil, 0, b.err
			}
			rows[col] = r
			usedRow[r], ld[r-col+n-1], rd[r+col] = true, true, true
			if col++; col == n {
				return rows, 0, nil
			}
			r = 0
			continue
		}
		// A dead end: the queen of the column before tries its next row.
		if col--; col < 0 {
			return nil, 0, fmt.Errorf("%w: no solution", ErrLimit)
		}
		r = rows[col]
		usedRow[r], ld[r-col+n-1], rd[r+col] = false, false, false
		r++
	}
}

func rng(l Limits) *rand.Rand {
	seed := l.Seed
	if seed == 0 {
		seed = 1
	}
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

// counts keeps how many queens each row and diagonal holds.
type counts struct {
	n           int
	row, d1, d2 []int32
}

func newCounts(n int) *counts {
	return &counts{n: n, row: make([]int32, n), d1: make([]int32, 2*n), d2: make([]int32, 2*n)}
}

// clear empties the board.
func (k *counts) clear() {
	clear(k.row)
	clear(k.d1)
	clear(k.d2)
}

func (k *counts) add(c, r int, v int32) {
	k.row[r] += v
	k.d1[r+c] += v
	k.d2[r-c+k.n] += v
}

// on returns the queens other than one on (c, r) that attack (c, r).
func (k *counts) on(c, r int) int32 { return k.row[r] + k.d1[r+c] + k.d2[r-c+k.n] }

// hillClimb is steepest-ascent hill climbing on a queen per column: from a
// random board it moves, while that lowers the attacking pairs, the one
// queen (within its column) whose move lowers them most, ties broken at
// random; on a local minimum it restarts from a new random board.
func hillClimb(n int, l Limits, b *budget) ([]int, int, error) {
	if b.hold(uint64(n), hillClimbBytes) {
		return nil, 0, b.err
	}
	rnd := rng(l)
	rows := make([]int, n)
	k := newCounts(n)
	for restarts := 0; ; restarts++ {
		if b.charge(uint64(n)) {
			return nil, restarts, b.err
		}
		k.clear()
		pairs := 0
		for c := range n {
			rows[c] = rnd.IntN(n)
			pairs += int(k.on(c, rows[c]))
			k.add(c, rows[c], 1)
		}
		for pairs > 0 {
			bestDelta, bestC, bestR, ties := 0, -1, -1, 0
			for c := range n {
				k.add(c, rows[c], -1)
				here := int(k.on(c, rows[c]))
				for r := range n {
					if r == rows[c] {
						continue
					}
					if b.spend() {
						return nil, restarts, b.err
					}
					delta := int(k.on(c, r)) - here
					switch {
					case delta < bestDelta:
						bestDelta, bestC, bestR, ties = delta, c, r, 1
					case delta == bestDelta && delta < 0:
						ties++
						if rnd.IntN(ties) == 0 {
							bestC, bestR = c, r
						}
					}
				}
				k.add(c, rows[c], 1)
			}
			if bestC < 0 {
				break // a local minimum: restart
			}
			k.add(bestC, rows[bestC], -1)
			rows[bestC] = bestR
			k.add(bestC, bestR, 1)
			pairs += bestDelta
		}
		if pairs == 0 {
			return rows, restarts, nil
		}
	}
}
