package puzzles

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/nqueens"
	"github.com/gambitbot/gambit/engine/slidingtile"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// This file serves a person playing a puzzle: the shortest way on from
// the position in front of them (a hint, a solution played out), the
// solvers compared on it, and scrambled starts of a chosen difficulty.

// puzzle is what this file does on the positions of one puzzle; tiles.go
// and queens.go each give one, registered in solvable by the way its
// plug-in is solved.
type puzzle interface {
	// shortest returns a shortest sequence of moves from pos to a
	// solution.
	shortest(ctx context.Context, pos engine.Position) ([]engine.Move, error)
	// entrants returns the solvers compared on pos.
	entrants(pos engine.Position) []Entrant
	// best returns the length of a shortest solution from pos, which the
	// runs of its entrants are labelled against; -1 if none is known.
	best(ctx context.Context, pos engine.Position, runs []Run) (int, error)
	// deal returns a start of the level from the puzzle's start.
	deal(ctx context.Context, rng *rand.Rand, start engine.Position, level Level) (engine.Position, error)
}

// solvable are the puzzles this package solves, by the way their
// plug-ins are solved (games.Game.Solve).
var solvable = map[games.Solving]puzzle{games.SolveTiles: tilePuzzle{}, games.SolveQueens: queensPuzzle{}}

// puzzleOf returns the puzzle of pos, or an error for a position of no
// puzzle this package solves.
func puzzleOf(pos engine.Position) (puzzle, error) {
	if g := catalog.Of(pos); g != nil {
		if p, ok := solvable[g.Solve]; ok {
			return p, nil
		}
	}
	return nil, fmt.Errorf("puzzles: %T is not a puzzle position", pos)
}

// Shortest returns a shortest sequence of moves from pos to a solution:
// for a sliding-tile puzzle an optimal solution (IDA* on the pattern
// databases: the exact one of the 8-puzzle, the 7-8 or 6-6-3 ones of the
// 15-puzzle), for N-Queens the moves
// to the nearest solution — every solution of N enumerated, and a column
// whose queen differs takes one move, so the fewest differing columns is
// the fewest moves. It fails for any other position, or at the context's
// end.
func Shortest(ctx context.Context, pos engine.Position) ([]engine.Move, error) {
	p, err := puzzleOf(pos)
	if err != nil {
		return nil, err
	}
	return p.shortest(ctx, pos)
}

// nearestQueens returns the moves from p to the solution that differs
// from it in the fewest columns.
func nearestQueens(ctx context.Context, p *nqueens.Position) ([]engine.Move, error) {
	n := p.N()
	have := p.Rows() // rows 1…n, 0 for none
	best, bestDiff := []int(nil), n+1
	rows := make([]int, n)
	usedRow, ld, rd := make([]bool, n+1), make([]bool, 2*n+1), make([]bool, 2*n+1)
	nodes := 0
	var place func(col, diff int) error
	place = func(col, diff int) error {
		if diff >= bestDiff {
			return nil
		}
		if col == n {
			best, bestDiff = append([]int(nil), rows...), diff
			return nil
		}
		if nodes++; nodes&4095 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		for r := 1; r <= n; r++ {
			if usedRow[r] || ld[r-col+n] || rd[r+col] {
				continue
			}
			rows[col] = r
			usedRow[r], ld[r-col+n], rd[r+col] = true, true, true
			d := diff
			if have[col] != r {
				d++
			}
			err := place(col+1, d)
			usedRow[r], ld[r-col+n], rd[r+col] = false, false, false
			if err != nil {
				return err
			}
		}
		return nil
	}
	if err := place(0, 0); err != nil {
		return nil, fmt.Errorf("puzzles: nearest solution of %v: %w", p, err)
	}
	var moves []engine.Move
	for c, r := range best {
		if have[c] != r {
			moves = append(moves, p.Square(c, r))
		}
	}
	return moves, nil
}

// Run is one solver's run on a position, for a comparison.
type Run struct {
	// Algorithm is the solver's name.
	Algorithm string
	// Solved reports whether it found a solution; Err says why not.
	Solved bool
	Err    error
	// Length is the number of moves of its solution from the position.
	Length int
	// Nodes counts the nodes it expanded (see its description).
	Nodes uint64
	// Elapsed is the time it took.
	Elapsed time.Duration
	// Optimal is "proved" when the solver proves its solutions shortest,
	// "yes" or "no" when a proved length is there to compare with, "?"
	// otherwise, "" when it found none.
	Optimal string
	// Moves is a sliding-tile solver's solution.
	Moves []engine.Move
}

// Budget is what one solver of a comparison may spend: its own limits
// (node cap, memory budget) and its own time, counted from its start.
// Each solver gets a whole budget, so one that spends all of it leaves
// the next its own.
type Budget struct {
	Limits
	// Time caps its time; 0 means none but the context's.
	Time time.Duration
}

// Entrant is one solver of a comparison, ready to run on its position.
type Entrant struct {
	// Algorithm is the solver's name.
	Algorithm string

	run func(ctx context.Context, l Limits) Run
}

// Run runs the solver within its budget and the context, and times it.
func (e Entrant) Run(ctx context.Context, b Budget) Run {
	if b.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, b.Time)
		defer cancel()
	}
	return e.run(ctx, b.Limits)
}

// Entrants returns the solvers compared on pos, in the order a comparison
// shows them: on a sliding-tile puzzle each TileSolver from pos; on
// N-Queens each QueensSolver on N, its length being the moves from pos to
// the solution it found.
func Entrants(pos engine.Position) ([]Entrant, error) {
	p, err := puzzleOf(pos)
	if err != nil {
		return nil, err
	}
	return p.entrants(pos), nil
}

// Label marks whether the solutions of a finished comparison on pos (the
// runs of Entrants(pos), in order) are optimal (MarkOptimal): against the
// length an optimal solver proved on a sliding-tile puzzle, against the
// nearest solution on N-Queens, searched within ctx. If that search ends
// first, the runs are marked "?" and its error returned.
func Label(ctx context.Context, pos engine.Position, runs []Run) error {
	p, err := puzzleOf(pos)
	best := -1
	if err == nil {
		best, err = p.best(ctx, pos, runs)
	}
	MarkOptimal(runs, best)
	return err
}

// Compare runs every solver of pos's puzzle on it (Entrants) in turn,
// each within its own budget and the context, and labels the runs.
func Compare(ctx context.Context, pos engine.Position, b Budget) ([]Run, error) {
	entrants, err := Entrants(pos)
	if err != nil {
		return nil, err
	}
	runs := make([]Run, len(entrants))
	for i, e := range entrants {
		runs[i] = e.Run(ctx, b)
	}
	if err := Label(ctx, pos, runs); err != nil {
		return nil, err
	}
	return runs, nil
}

// MarkOptimal labels the runs that found a solution and prove nothing:
// "yes" if as short as best, the proved optimal length, "no" if longer,
// "?" when best is negative (nothing proved).
func MarkOptimal(runs []Run, best int) {
	for i := range runs {
		switch r := &runs[i]; {
		case !r.Solved || r.Optimal == "proved":
		case best < 0:
			r.Optimal = "?"
		case r.Length == best:
			r.Optimal = "yes"
		default:
			r.Optimal = "no"
		}
	}
}

// runQueens runs one N-Queens solver on p's N and measures the moves from
// p to its solution.
func runQueens(ctx context.Context, s QueensSolver, p *nqueens.Position, l Limits) Run {
	start := time.Now()
	sol, err := s.Solve(ctx, p.N(), l)
	r := Run{Algorithm: s.Name, Nodes: sol.Nodes, Elapsed: time.Since(start), Err: err}
	if err != nil {
		return r
	}
	r.Solved = true
	for c, row := range sol.Rows {
		if p.Row(c) != row+1 {
			r.Length++
		}
	}
	return r
}

// Level is a difficulty of a dealt puzzle: for a sliding-tile puzzle the
// range of its optimal solution's length, by board side.
type Level struct {
	// Name is the level's name, one of /puzzle's choices.
	Name   string
	lo, hi [slidingtile.MaxSize + 1]int
}

// levels are the difficulties, easiest first.
var levels = []Level{
	{Name: "easy", lo: [slidingtile.MaxSize + 1]int{3: 4, 4: 8}, hi: [slidingtile.MaxSize + 1]int{3: 10, 4: 14}},
	{Name: "medium", lo: [slidingtile.MaxSize + 1]int{3: 12, 4: 16}, hi: [slidingtile.MaxSize + 1]int{3: 18, 4: 24}},
	{Name: "hard", lo: [slidingtile.MaxSize + 1]int{3: 20, 4: 26}, hi: [slidingtile.MaxSize + 1]int{3: 26, 4: 34}},
}

// Levels returns the difficulties Deal takes, easiest first; the middle
// one is the default.
func Levels() []Level { return slices.Clone(levels) }

// Deal returns a puzzle to play from start, the start of a puzzle this
// package solves: for a sliding-tile puzzle a scrambled start whose
// optimal solution is as long as level asks (Scramble, with rng, within
// ctx); a puzzle without levels (N-Queens) is played from start itself.
func Deal(ctx context.Context, rng *rand.Rand, start engine.Position, level Level) (engine.Position, error) {
	p, err := puzzleOf(start)
	if err != nil {
		return nil, err
	}
	return p.deal(ctx, rng, start, level)
}

// Walk returns the sliding-tile position of the given side that a random
// walk of steps moves from the goal reaches, never undoing its last step,
// as a fresh position: the walk's history is not the player's.
func Walk(rng *rand.Rand, size, steps int) (*slidingtile.Position, error) {
	p := slidingtile.Goal(size)
	prev := engine.NoMove
	for range steps {
		var moves []engine.Move
		for m := slidingtile.Up; m <= slidingtile.Right; m++ {
			if _, ok := p.Target(m); ok && (prev == engine.NoMove || m != slidingtile.Opposite(prev)) {
				moves = append(moves, m)
			}
		}
		prev = moves[rng.IntN(len(moves))]
		p.Play(prev)
	}
	return slidingtile.Parse(p.String())
}

// ErrNoScramble is wrapped by Scramble's error when no walk found a start
// of the asked length.
var ErrNoScramble = errors.New("no start of that length found")

// Scramble returns a sliding-tile start of the given side whose optimal
// solution has lo to hi moves, and that length: random walks from the
// goal (never undoing the last step) of a length drawn from lo to twice
// hi — a walk wanders, so its optimum is often shorter than itself —,
// each measured with Shortest, until one falls in the range.
// It gives up after 200 walks, or at the context's end.
func Scramble(ctx context.Context, rng *rand.Rand, size, lo, hi int) (*slidingtile.Position, int, error) {
	if lo < 1 || hi < lo {
		return nil, 0, fmt.Errorf("puzzles: scramble: lengths %d to %d", lo, hi)
	}
	for range 200 {
		q, err := Walk(rng, size, lo+rng.IntN(2*hi-lo+1))
		if err != nil {
			return nil, 0, fmt.Errorf("puzzles: scramble: %w", err)
		}
		sol, err := Shortest(ctx, q)
		if err != nil {
			return nil, 0, fmt.Errorf("puzzles: scramble: %w", err)
		}
		if n := len(sol); n >= lo && n <= hi {
			return q, n, nil
		}
	}
	return nil, 0, fmt.Errorf("puzzles: scramble of %d to %d moves: %w", lo, hi, ErrNoScramble)
}
