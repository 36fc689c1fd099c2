// Package bookgen generates the Connect Four opening book that
// strategies/c4solver embeds (see c4solver.Book for what it holds): it
// solves positions with c4solver's Solver and makes the book with
// c4solver.NewBook. It is a tool of the generator (../../genbook, run by
// go generate), not of the bot, which only reads the book.
package bookgen

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/strategies/c4solver"
)

// Progress is told of each position solved for a book: its ply, how many
// of that level's positions are solved and how many it has, and how long
// the solve took. It is called from the workers' goroutines, one call at
// a time.
type Progress func(ply, done, total int, took time.Duration)

// solver is what the generator asks for solves: a *c4solver.Solver, or
// in tests a stand-in that answers from the embedded book.
type solver interface {
	SetBook(*c4solver.Book)
	Solve(context.Context, *connect4.Position) (c4solver.Result, error)
}

// Generate solves every unfinished position of exactly plies moves with
// solvers of tableBytes each, on workers goroutines (0: one per
// processor), and derives the earlier positions' scores from them: a
// book of plies full levels without moves. progress may be nil.
func Generate(ctx context.Context, plies, tableBytes, workers int, progress Progress) (*c4solver.Book, error) {
	if plies < 0 || plies >= connect4.Cells-1 {
		return nil, fmt.Errorf("bookgen: generate a book of %d plies: want 0–%d", plies, connect4.Cells-2)
	}
	return generate(ctx, plies, newSolvers(tableBytes, workers), progress)
}

func generate(ctx context.Context, plies int, solvers []solver, progress Progress) (*c4solver.Book, error) {
	levels := enumerate(plies)
	leaves := make([]*connect4.Position, len(levels[plies]))
	for i := range leaves {
		leaves[i] = &levels[plies][i].p
	}
	solved, err := solveAll(ctx, solvers, nil, leaves, plies, progress)
	if err != nil {
		return nil, fmt.Errorf("bookgen: generate a book of %d plies: %w", plies, err)
	}
	scores := make([]int, len(solved))
	for i, r := range solved {
		scores[i] = r.Score
	}
	return derive(levels, scores)
}

// ExtendForPlay returns b's full levels (every position of at most
// b.Plies() moves, moves and deeper entries dropped) with the exact score
// and best move of every position from ply b.Plies() to deepest that a
// player following the book meets on its turn, as first or as second
// player, whatever the opponent plays, and that has no winning move (a
// solve plays that at once): the positions a solve would otherwise search
// in a game from the start. Before ply b.Plies() the book's moves are
// those a solve reads from the children's scores. It solves with solvers
// of tableBytes each, on workers goroutines (0: one per processor), level
// by level; progress may be nil.
func ExtendForPlay(ctx context.Context, b *c4solver.Book, deepest, tableBytes, workers int, progress Progress) (*c4solver.Book, error) {
	if deepest < b.Plies() || deepest >= connect4.Cells-1 {
		return nil, fmt.Errorf("bookgen: extend a book of %d plies to %d: want %d–%d", b.Plies(), deepest, b.Plies(), connect4.Cells-2)
	}
	return extend(ctx, b, deepest, newSolvers(tableBytes, workers), progress)
}

func extend(ctx context.Context, b *c4solver.Book, deepest int, solvers []solver, progress Progress) (*c4solver.Book, error) {
	plies := b.Plies()
	// The entries, and where each position (up to mirror images) is.
	var entries []c4solver.BookEntry
	at := make(map[[2]uint64]int)
	for _, level := range enumerate(plies) {
		for i := range level {
			score, ok := b.Lookup(&level[i].p)
			if !ok {
				return nil, fmt.Errorf("bookgen: extend a book: position %s of %d moves missing from it", &level[i].p, level[i].p.Ply())
			}
			at[level[i].key()] = len(entries)
			entries = append(entries, c4solver.BookEntry{Position: &level[i].p, Score: score, Move: engine.NoMove})
		}
	}
	book, err := c4solver.NewBook(plies, entries)
	if err != nil {
		return nil, fmt.Errorf("bookgen: extend a book: %w", err)
	}
	// The turns, by ply, are kept in both orientations: the moves read from
	// the children break ties centre first, then to the left, so a
	// position and its mirror image may be played differently.
	seen := make(map[[2]uint64]bool)
	turns := make([][]twin, deepest+3)
	add := func(t twin) {
		key := [2]uint64{t.p.Bitboard(engine.X), t.p.Bitboard(engine.O)}
		side := t.p.SideToMove()
		if !seen[key] && t.p.Threats(side)&t.p.Playable() == 0 {
			seen[key] = true
			turns[t.p.Ply()] = append(turns[t.p.Ply()], t)
		}
	}
	add(twin{}) // the first player's first turn
	for c := range connect4.Width {
		add(twin{}.play(c)) // the second player's
	}
	reader := c4solver.New(0) // reads the book's moves, as a solve does
	for ply := 0; ply <= deepest; ply++ {
		if ply >= plies {
			// Each position once up to mirror images; the solvers read the
			// book until the level is solved.
			var unique []*connect4.Position
			var keys [][2]uint64
			canon := make(map[[2]uint64]bool)
			for i := range turns[ply] {
				if key := turns[ply][i].key(); !canon[key] {
					canon[key] = true
					unique = append(unique, &turns[ply][i].p)
					keys = append(keys, key)
				}
			}
			solved, err := solveAll(ctx, solvers, book, unique, ply, progress)
			if err != nil {
				return nil, fmt.Errorf("bookgen: extend a book of %d plies to %d: %w", plies, deepest, err)
			}
			for i, p := range unique {
				e := c4solver.BookEntry{Position: p, Score: solved[i].Score, Move: solved[i].BestMove}
				if j, found := at[keys[i]]; found {
					entries[j] = e // the book's last ply, now with the move
				} else {
					at[keys[i]] = len(entries)
					entries = append(entries, e)
				}
			}
			if book, err = c4solver.NewBook(plies, entries); err != nil {
				return nil, fmt.Errorf("bookgen: extend a book: %w", err)
			}
		}
		reader.SetBook(book)
		for _, t := range turns[ply] {
			// The player's move, then each of the opponent's replies that
			// does not end the game.
			r, err := reader.SolveWithin(ctx, &t.p, 1)
			if err != nil || r.Nodes != 0 {
				return nil, fmt.Errorf("bookgen: extend a book: the move of %s (%d moves) is not in the book (%v)", &t.p, ply, err)
			}
			after := t.play(int(r.BestMove))
			for c := range connect4.Width {
				if after.p.Legal(engine.Move(c)) {
					if reply := after.play(c); !reply.p.Terminal() {
						add(reply)
					}
				}
			}
		}
	}
	return book, nil
}

// twin is a position and its mirror image (the board reflected left to
// right, which has the same score, its moves mirrored), played in step.
type twin struct{ p, m connect4.Position }

// play returns t after the move to column col (and 6 − col in the
// mirror image).
func (t twin) play(col int) twin {
	t.p.Play(engine.Move(col))
	t.m.Play(engine.Move(connect4.Width - 1 - col))
	return t
}

// key identifies the position up to mirror images: the smaller of its
// bitboards and its mirror image's.
func (t *twin) key() [2]uint64 {
	a := [2]uint64{t.p.Bitboard(engine.X), t.p.Bitboard(engine.O)}
	b := [2]uint64{t.m.Bitboard(engine.X), t.m.Bitboard(engine.O)}
	if b[0] < a[0] || b[0] == a[0] && b[1] < a[1] {
		return b
	}
	return a
}

// newSolvers returns workers solvers (0: one per processor) of tableBytes
// each, picking moves that do not depend on their tables.
func newSolvers(tableBytes, workers int) []solver {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	solvers := make([]solver, workers)
	for i := range solvers {
		s := c4solver.New(tableBytes)
		s.SetStable(true)
		solvers[i] = s
	}
	return solvers
}

// solveAll solves the unfinished positions of ply moves, one goroutine a
// solver, each solver consulting book (nil: none), and returns each one's
// result.
func solveAll(ctx context.Context, solvers []solver, book *c4solver.Book, positions []*connect4.Position, ply int, progress Progress) ([]c4solver.Result, error) {
	out := make([]c4solver.Result, len(positions))
	var next, done atomic.Int64
	var mu sync.Mutex
	errs := make([]error, len(solvers))
	var wg sync.WaitGroup
	for w, s := range solvers {
		wg.Go(func() {
			s.SetBook(book)
			for i := int(next.Add(1) - 1); i < len(positions); i = int(next.Add(1) - 1) {
				start := time.Now()
				r, err := s.Solve(ctx, positions[i])
				if err != nil {
					errs[w] = fmt.Errorf("stopped after %d of %d solves of %d moves: %w", done.Load(), len(positions), ply, err)
					return
				}
				out[i] = r
				if progress != nil {
					mu.Lock()
					progress(ply, int(done.Add(1)), len(positions), time.Since(start))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// enumerate returns the unfinished positions of at most plies moves, one
// of each position and its mirror image, by ply, in order of discovery:
// neighbours share subtrees, which helps a solver's table.
func enumerate(plies int) [][]twin {
	levels := make([][]twin, plies+1)
	seen := make(map[[2]uint64]bool)
	var walk func(t twin)
	walk = func(t twin) {
		key, ply := t.key(), t.p.Ply()
		if seen[key] {
			return
		}
		seen[key] = true
		levels[ply] = append(levels[ply], t)
		if ply == plies {
			return
		}
		for c := range connect4.Width {
			if t.p.Legal(engine.Move(c)) {
				if child := t.play(c); !child.p.Terminal() { // a win ends the game
					walk(child)
				}
			}
		}
	}
	walk(twin{})
	return levels
}

// derive returns the book of the positions levels lists by ply, given the
// scores of the last level's: the earlier levels' are what a solve reads
// from their children's entries, the deepest first.
func derive(levels [][]twin, leafScores []int) (*c4solver.Book, error) {
	plies := len(levels) - 1
	var entries []c4solver.BookEntry
	for i := range levels[plies] {
		entries = append(entries, c4solver.BookEntry{Position: &levels[plies][i].p, Score: leafScores[i], Move: engine.NoMove})
	}
	reader := c4solver.New(0)
	for ply := plies - 1; ply >= 0; ply-- {
		book, err := c4solver.NewBook(plies, entries) // the deeper levels
		if err != nil {
			return nil, fmt.Errorf("bookgen: derive a book: %w", err)
		}
		reader.SetBook(book)
		for i := range levels[ply] {
			p := &levels[ply][i].p
			r, err := reader.SolveWithin(context.Background(), p, 1)
			if err != nil || r.Nodes != 0 {
				return nil, fmt.Errorf("bookgen: derive a book: a child of %s missing (%v)", p, err)
			}
			entries = append(entries, c4solver.BookEntry{Position: p, Score: r.Score, Move: engine.NoMove})
		}
	}
	book, err := c4solver.NewBook(plies, entries)
	if err != nil {
		return nil, fmt.Errorf("bookgen: derive a book: %w", err)
	}
	return book, nil
}
