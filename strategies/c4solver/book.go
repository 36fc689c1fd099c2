package c4solver

import (
	"cmp"
	"context"
	_ "embed" // the opening book
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
)

//go:generate go run ./genbook -plies 4 -play 8 -out book.bin

// The opening book: the exact score of every position of the first
// plies, so that a solve from the empty board, which takes minutes, answers
// at once, and the best move of the later positions a player following
// the book meets, so that such a player plays perfectly within a move time
// from the first move.
//
// A book of N plies holds every unfinished position reachable in at most
// N moves, each under the smaller key of itself and its mirror image (the
// board reflected left to right has the same score, its moves mirrored).
// Only the positions after exactly N moves are solved; the earlier ones
// follow by negamax over their children, all in the book. So a solve of a
// position of fewer than N moves needs no search at all: its score and
// best move come from its children's entries.
//
// From ply N on the book also holds, with the best move, the positions a
// player can face on its turn if it plays the book's moves and its
// opponent plays anything (ExtendForPlay): since only the opponent's
// moves branch, these grow sevenfold every two plies rather than every
// ply. A solve of such a
// position reads score and move; at ply N otherwise the score is known and
// only the best move is searched; elsewhere the solver searches as it
// would without a book.
//
// The file, book.bin, embedded in the binary, is the header "C4BK", one
// byte N and the number of entries (uint32, little-endian), then one
// uint64 (little-endian) an entry, sorted: the key (cur+mask of the
// canonical position, 49 bits), the score + 32 in the 6 bits above and
// the best column of the canonical position + 1 in the 3 bits above those
// (0: none stored; entries deeper than N have one).

// Book is an opening book: exact scores of the positions of the first
// plies, and scores and best moves of the later positions of play. Its
// methods are safe for concurrent use.
type Book struct {
	plies   int
	deepest int      // the deepest entry's ply
	entries []uint64 // sorted by key
}

const (
	bookMagic       = "C4BK"
	bookHeaderBytes = len(bookMagic) + 1 + 4
	bookScoreShift  = keyBits
	bookMoveShift   = keyBits + 6
	bookScoreMask   = 1<<bookMoveShift - 1 // key and score
	bookUnused      = bookMoveShift + 3    // the bits above the move, zero
)

//go:embed book.bin
var bookFile []byte

// DefaultBook returns the book embedded in the binary, which every Solver
// made by New consults. It panics if the embedded file is damaged, which
// TestDefaultBook rules out.
var DefaultBook = sync.OnceValue(func() *Book {
	b, err := ParseBook(bookFile)
	if err != nil {
		panic(err)
	}
	return b
})

// Plies returns the number of moves the book covers: it holds every
// unfinished position of at most that many moves.
func (b *Book) Plies() int { return b.plies }

// Deepest returns the number of moves of the book's deepest positions:
// Plies, or more if ExtendForPlay added positions with their moves.
func (b *Book) Deepest() int { return b.deepest }

// Len returns the number of positions the book stores, mirror images
// counted once.
func (b *Book) Len() int { return len(b.entries) }

// ParseBook reads a book in the format of MarshalBinary.
func ParseBook(data []byte) (*Book, error) {
	if len(data) < bookHeaderBytes || string(data[:len(bookMagic)]) != bookMagic {
		return nil, errors.New("c4solver: parse book: not a book (no C4BK header)")
	}
	plies := int(data[len(bookMagic)])
	n := binary.LittleEndian.Uint32(data[len(bookMagic)+1:])
	body := data[bookHeaderBytes:]
	if uint64(len(body)) != 8*uint64(n) || plies >= cells {
		return nil, fmt.Errorf("c4solver: parse book: %d plies, %d entries in %d bytes: damaged", plies, n, len(body))
	}
	b := &Book{plies: plies, entries: make([]uint64, n)}
	for i := range b.entries {
		e := binary.LittleEndian.Uint64(body[8*i:])
		b.entries[i] = e
		if i > 0 && e&keyMask <= b.entries[i-1]&keyMask {
			return nil, fmt.Errorf("c4solver: parse book: entry %d out of order: damaged", i)
		}
		ply := plyOf(e & keyMask)
		if e>>bookUnused != 0 || ply > plies && e>>bookMoveShift == 0 {
			return nil, fmt.Errorf("c4solver: parse book: entry %d (ply %d) has move bits %#x: damaged", i, ply, e>>bookMoveShift)
		}
		b.deepest = max(b.deepest, ply)
	}
	return b, nil
}

// MarshalBinary writes the book in the format ParseBook reads.
func (b *Book) MarshalBinary() ([]byte, error) {
	out := make([]byte, bookHeaderBytes, bookHeaderBytes+8*len(b.entries))
	copy(out, bookMagic)
	out[len(bookMagic)] = byte(b.plies)
	binary.LittleEndian.PutUint32(out[len(bookMagic)+1:], uint32(len(b.entries)))
	for _, e := range b.entries {
		out = binary.LittleEndian.AppendUint64(out, e)
	}
	return out, nil
}

// mirror reflects a bitboard left to right: column c becomes 6 − c.
func mirror(b uint64) uint64 {
	var out uint64
	for c := range width {
		out |= (b >> (c * colBits) & (1<<colBits - 1)) << ((width - 1 - c) * colBits)
	}
	return out
}

// canonical returns the key of the position cur/mask or of its mirror
// image, whichever is smaller. Columns add without carrying into each
// other, so the mirror's key is the mirrored key.
func canonical(cur, mask uint64) uint64 {
	key := cur + mask
	return min(key, mirror(key))
}

// lookup returns the exact score of the unfinished position cur/mask and
// its best column (−1: none stored) if the book holds it.
func (b *Book) lookup(cur, mask uint64) (score, col int, ok bool) {
	key, canon := cur+mask, canonical(cur, mask)
	i, found := slices.BinarySearchFunc(b.entries, canon, byKey)
	if !found {
		return 0, 0, false
	}
	e := b.entries[i]
	col = int(e>>bookMoveShift) - 1
	if col >= 0 && canon != key {
		col = width - 1 - col // stored for the mirror image
	}
	return int(e>>bookScoreShift&boundMask) + noLower, col, true
}

// score returns the exact score of the unfinished position cur/mask if
// the book holds it.
func (b *Book) score(cur, mask uint64) (int, bool) {
	score, _, ok := b.lookup(cur, mask)
	return score, ok
}

// plyOf returns the number of stones of the position whose key is key:
// in each column key+bottomMask's highest bit lies just above the top
// stone.
func plyOf(key uint64) int {
	ply := 0
	for c := range width {
		ply += bits.Len64((key+bottomMask)>>(c*colBits)&(1<<colBits-1)) - 1
	}
	return ply
}

// bookEntry returns the entry of the unfinished position cur/mask with
// its score and best column (−1: none).
func bookEntry(cur, mask uint64, score, col int) uint64 {
	canon := canonical(cur, mask)
	if col >= 0 && canon != cur+mask {
		col = width - 1 - col
	}
	return canon | uint64(score-noLower)<<bookScoreShift | uint64(col+1)<<bookMoveShift
}

// Lookup returns the exact score of p for the player to move, Solve's,
// if the book holds p (or its mirror image).
func (b *Book) Lookup(p *connect4.Position) (score int, ok bool) {
	if p.Terminal() {
		return 0, false
	}
	return b.score(p.Bitboard(p.SideToMove()), p.Bitboard(engine.X)|p.Bitboard(engine.O))
}

// fromChildren returns the score and the best column of the unfinished
// position cur/mask after ply moves, when ply < b.plies, from its
// children's entries (an immediate win needs no entry): the best score,
// the centre first among equal ones.
func (b *Book) fromChildren(cur, mask uint64, ply int) (score, col int, ok bool) {
	score, col = -cells, -1
	win := winningCells(cur, mask)
	for _, c := range []int{3, 2, 4, 1, 5, 0, 6} {
		cell := playable(mask) & ((1<<colBits - 1) << (c * colBits))
		if cell == 0 {
			continue
		}
		v := (cells + 1 - ply) / 2 // the move wins
		if cell&win == 0 {
			child, found := b.score(cur^mask, mask|cell)
			if !found {
				return 0, 0, false
			}
			v = -child
		}
		if v > score {
			score, col = v, c
		}
	}
	return score, col, true
}

// Progress is told of each position solved for a book: its ply, how many
// of that level's positions are solved and how many it has, and how long
// the solve took. It is called from the workers' goroutines, one call at
// a time.
type Progress func(ply, done, total int, took time.Duration)

// GenerateBook solves every unfinished position of exactly plies moves
// with solvers of tableBytes each, on workers goroutines (0: one per
// processor), and derives the earlier positions' scores from them.
// progress may be nil.
func GenerateBook(ctx context.Context, plies, tableBytes, workers int, progress Progress) (*Book, error) {
	if plies < 0 || plies >= cells-1 {
		return nil, fmt.Errorf("c4solver: generate a book of %d plies: want 0–%d", plies, cells-2)
	}
	levels := enumerate(plies)
	solved, err := solveAll(ctx, newSolvers(tableBytes, workers), nil, levels[plies], plies, progress)
	if err != nil {
		return nil, fmt.Errorf("c4solver: generate a book of %d plies: %w", plies, err)
	}
	scores := make([]int, len(solved))
	for i, r := range solved {
		scores[i] = r[0]
	}
	return derive(levels, scores), nil
}

// ExtendForPlay returns b's full levels (every position of at most
// b.Plies() moves, moves and deeper entries dropped) with the exact score
// and best move of every position from ply b.Plies() to deepest that a
// player following the book meets on its turn, as first or as second
// player, whatever the opponent plays, and that has no winning move (a
// solve plays that at once): the positions a solve would otherwise search
// in a game from the start. Before ply b.Plies() the book's moves are
// those derived from the children, as a solve reads them. It solves with
// solvers of tableBytes each, on workers goroutines (0: one per
// processor), level by level; progress may be nil.
func (b *Book) ExtendForPlay(ctx context.Context, deepest, tableBytes, workers int, progress Progress) (*Book, error) {
	if deepest < b.plies || deepest >= cells-1 {
		return nil, fmt.Errorf("c4solver: extend a book of %d plies to %d: want %d–%d", b.plies, deepest, b.plies, cells-2)
	}
	out := &Book{plies: b.plies, deepest: b.plies}
	for _, e := range b.entries {
		if plyOf(e&keyMask) <= b.plies {
			out.entries = append(out.entries, e&bookScoreMask)
		}
	}
	solvers := newSolvers(tableBytes, workers)
	// The turns, by ply, are kept in both orientations: the moves derived
	// from the children break ties centre first, then to the left, so a
	// position and its mirror image may be played differently.
	seen := make(map[uint64]bool)
	turns := make([][][2]uint64, deepest+3)
	add := func(cur, mask uint64, ply int) {
		key := cur + mask
		if !seen[key] && winningCells(cur, mask)&playable(mask) == 0 {
			seen[key] = true
			turns[ply] = append(turns[ply], [2]uint64{cur, mask})
		}
	}
	add(0, 0, 0) // the first player's first turn
	for cell := range eachCell(playable(0)) {
		add(0, cell, 1) // the second player's
	}
	for ply := 0; ply <= deepest; ply++ {
		var cols []int
		if ply < b.plies {
			for _, p := range turns[ply] {
				_, col, ok := out.fromChildren(p[0], p[1], ply)
				if !ok {
					return nil, fmt.Errorf("c4solver: extend a book: a position of %d moves missing from the book", ply)
				}
				cols = append(cols, col)
			}
		} else {
			// Each position once up to mirror images; the solvers read out
			// until the level is solved.
			var unique [][2]uint64
			canon := make(map[uint64]bool)
			for _, p := range turns[ply] {
				if key := canonical(p[0], p[1]); !canon[key] {
					canon[key] = true
					unique = append(unique, p)
				}
			}
			solved, err := solveAll(ctx, solvers, out, unique, ply, progress)
			if err != nil {
				return nil, fmt.Errorf("c4solver: extend a book of %d plies to %d: %w", b.plies, deepest, err)
			}
			sorted := out.entries // the levels before this one
			for i, p := range unique {
				e := bookEntry(p[0], p[1], solved[i][0], solved[i][1])
				if j, found := slices.BinarySearchFunc(sorted, e&keyMask, byKey); found {
					sorted[j] = e // the book's last ply, now with the move
				} else {
					out.entries = append(out.entries, e)
				}
			}
			if len(unique) > 0 {
				out.deepest = ply
			}
			out.sort()
			for _, p := range turns[ply] {
				_, col, _ := out.lookup(p[0], p[1]) // mirrored as p needs
				cols = append(cols, col)
			}
		}
		for i, p := range turns[ply] {
			// The player's move, then each of the opponent's replies that
			// does not end the game.
			cur, mask := p[0], p[1]
			cell := playable(mask) & ((1<<colBits - 1) << (cols[i] * colBits))
			cur, mask = cur^mask, mask|cell
			win := winningCells(cur, mask)
			for reply := range eachCell(playable(mask) &^ win) {
				if ply+2 < cells {
					add(cur^mask, mask|reply, ply+2)
				}
			}
		}
	}
	return out, nil
}

// eachCell yields the cells of set one at a time, lowest first.
func eachCell(set uint64) func(yield func(uint64) bool) {
	return func(yield func(uint64) bool) {
		for ; set != 0; set &= set - 1 {
			if !yield(set & -set) {
				return
			}
		}
	}
}

// newSolvers returns workers solvers (0: one per processor) of tableBytes
// each, without a book, picking moves that do not depend on their tables.
func newSolvers(tableBytes, workers int) []*Solver {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	solvers := make([]*Solver, workers)
	for i := range solvers {
		solvers[i] = New(tableBytes)
		solvers[i].SetBook(nil)
		solvers[i].stable = true
	}
	return solvers
}

// solveAll solves the unfinished positions (cur, mask) of ply moves, one
// goroutine a solver, each solver consulting book (nil: none), and
// returns each one's score and best column.
func solveAll(ctx context.Context, solvers []*Solver, book *Book, positions [][2]uint64, ply int, progress Progress) ([][2]int, error) {
	out := make([][2]int, len(positions))
	var next, done atomic.Int64
	var mu sync.Mutex
	errs := make([]error, len(solvers))
	var wg sync.WaitGroup
	for w, s := range solvers {
		wg.Go(func() {
			s.SetBook(book)
			for i := int(next.Add(1) - 1); i < len(positions); i = int(next.Add(1) - 1) {
				start := time.Now()
				s.start(ctx, 0)
				score, col := s.root(positions[i][0], positions[i][1], ply, false)
				if s.finish(); s.clock.Stopped() {
					errs[w] = fmt.Errorf("stopped after %d of %d solves of %d moves: %w", done.Load(), len(positions), ply, ctx.Err())
					return
				}
				out[i] = [2]int{score, col}
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

// enumerate returns the canonical unfinished positions (cur, mask) of at
// most plies moves, by ply, in order of discovery: neighbours share
// subtrees, which helps a solver's table.
func enumerate(plies int) [][][2]uint64 {
	levels := make([][][2]uint64, plies+1)
	seen := make(map[uint64]bool)
	var walk func(cur, mask uint64, ply int)
	walk = func(cur, mask uint64, ply int) {
		key := canonical(cur, mask)
		if seen[key] {
			return
		}
		seen[key] = true
		levels[ply] = append(levels[ply], [2]uint64{cur, mask})
		if ply == plies {
			return
		}
		win := winningCells(cur, mask)
		for possible := playable(mask); possible != 0; possible &= possible - 1 {
			if cell := possible & -possible; cell&win == 0 { // a win ends the game
				walk(cur^mask, mask|cell, ply+1)
			}
		}
	}
	walk(0, 0, 0)
	return levels
}

// derive returns the book of the positions levels lists by ply, given the
// scores of the last level's: the earlier levels' by negamax, the deepest
// first.
func derive(levels [][][2]uint64, leafScores []int) *Book {
	plies := len(levels) - 1
	b := &Book{plies: plies, deepest: plies}
	entry := func(p [2]uint64, score int) uint64 { return bookEntry(p[0], p[1], score, -1) }
	for i, p := range levels[plies] {
		b.entries = append(b.entries, entry(p, leafScores[i]))
	}
	for ply := plies - 1; ply >= 0; ply-- {
		b.sort() // the deeper levels, for the lookups
		level := make([]uint64, len(levels[ply]))
		for i, p := range levels[ply] {
			score, _, ok := b.fromChildren(p[0], p[1], ply)
			if !ok {
				panic("c4solver: a child missing from the book being built")
			}
			level[i] = entry(p, score)
		}
		b.entries = append(b.entries, level...)
	}
	b.sort()
	return b
}

// byKey compares an entry's key with key, for binary searches.
func byKey(e, key uint64) int { return cmp.Compare(e&keyMask, key) }

func (b *Book) sort() {
	slices.SortFunc(b.entries, func(x, y uint64) int { return cmp.Compare(x&keyMask, y&keyMask) })
}
