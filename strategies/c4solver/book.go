package c4solver

import (
	"cmp"
	"context"
	_ "embed" // the opening book
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
)

//go:generate go run ./genbook -plies 3 -out book.bin

// The opening book: the exact score of every position of the first plies,
// so that a solve from the empty board, which takes minutes, answers at
// once.
//
// A book of N plies holds every unfinished position reachable in at most
// N moves, each under the smaller key of itself and its mirror image (the
// board reflected left to right has the same score, its moves mirrored).
// Only the positions after exactly N moves are solved; the earlier ones
// follow by negamax over their children, all in the book. So a solve of a
// position of fewer than N moves needs no search at all: its score and
// best move come from its children's entries. At exactly N moves the
// score is known and only the best move is searched; after N moves the
// solver searches as it would without a book.
//
// The file, book.bin, embedded in the binary, is the header "C4BK", one
// byte N and the number of entries (uint32, little-endian), then one
// uint64 (little-endian) an entry, sorted: the key (cur+mask of the
// canonical position, 49 bits) with the score + 32 in the bits above.

// Book is an opening book: exact scores of the positions of the first
// plies. Its methods are safe for concurrent use.
type Book struct {
	plies   int
	entries []uint64 // sorted by key
}

const (
	bookMagic       = "C4BK"
	bookHeaderBytes = len(bookMagic) + 1 + 4
	bookScoreShift  = keyBits
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
		b.entries[i] = binary.LittleEndian.Uint64(body[8*i:])
		if i > 0 && b.entries[i]&keyMask <= b.entries[i-1]&keyMask {
			return nil, fmt.Errorf("c4solver: parse book: entry %d out of order: damaged", i)
		}
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

// score returns the exact score of the unfinished position cur/mask if
// the book holds it.
func (b *Book) score(cur, mask uint64) (int, bool) {
	key := canonical(cur, mask)
	i, found := slices.BinarySearchFunc(b.entries, key, func(e, k uint64) int { return cmp.Compare(e&keyMask, k) })
	if !found {
		return 0, false
	}
	return int(b.entries[i]>>bookScoreShift) + noLower, true
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

// GenerateBook solves every unfinished position of exactly plies moves
// with solvers of tableBytes each, on workers goroutines (0: one per
// processor), and derives the earlier positions' scores from them.
// progress, if not nil, is called after each solve with the number solved
// and the total, from the workers' goroutines one at a time.
func GenerateBook(ctx context.Context, plies, tableBytes, workers int, progress func(done, total int)) (*Book, error) {
	if plies < 0 || plies >= cells-1 {
		return nil, fmt.Errorf("c4solver: generate a book of %d plies: want 0–%d", plies, cells-2)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	levels := enumerate(plies)
	leaves := levels[plies]
	scores := make([]int, len(leaves))
	var next, done atomic.Int64
	var mu sync.Mutex
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			s := New(tableBytes)
			s.SetBook(nil)
			for i := int(next.Add(1) - 1); i < len(leaves); i = int(next.Add(1) - 1) {
				s.start(ctx)
				scores[i], _ = s.root(leaves[i][0], leaves[i][1], plies, false)
				if s.stopped {
					errs[w] = fmt.Errorf("stopped after %d of %d solves: %w", done.Load(), len(leaves), ctx.Err())
					return
				}
				if progress != nil {
					mu.Lock()
					progress(int(done.Add(1)), len(leaves))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("c4solver: generate a book of %d plies: %w", plies, err)
	}

	return derive(levels, scores), nil
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
	b := &Book{plies: plies}
	entry := func(p [2]uint64, score int) uint64 {
		return canonical(p[0], p[1]) | uint64(score-noLower)<<bookScoreShift
	}
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

func (b *Book) sort() {
	slices.SortFunc(b.entries, func(x, y uint64) int { return cmp.Compare(x&keyMask, y&keyMask) })
}
