package adjsearch

import (
	_ "embed" // the opening book, book.txt
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/strategies/internal/boardsym"
)

// The opening book of the first mover in games that fill the board (28
// rounds). In such a game the choice of move depends on the set of empty
// cells alone (fill.go): neither the colours nor the settled cells change
// which move is best. So a book position is a set of empty cells, up to
// the board's eight symmetries (which keep the set game as it is), with
// the move a deep search chose there. The book is written by
// internal/train/adjbook, a command outside the packages the bot runs,
// from fixed-depth searches of this engine, and embedded as book.txt.
//
// A search consults it (Options.Book) only where the book is sure to know
// better than the search itself: the position is in the book, the side to
// move is the first mover (an even number of empty cells), and the
// search's budget — its node cap, or its time at fillNodesPerSecond a
// thread, the estimate the solve rule uses — is below the nodes the book's
// search took, so that the search could not have reached the book's depth.
// A search without a cap of either kind, or one given more, searches.

//go:embed book.txt
var bookText string

// book is the embedded book.
var book = mustParseBook(bookText)

func mustParseBook(text string) *Book {
	bk, err := ParseBook(text)
	if err != nil {
		panic(err) // the embedded file is checked by the tests
	}
	return bk
}

// EmbeddedBook returns the book the search consults.
func EmbeddedBook() *Book { return book }

// BookEntry is one position of the book: a set of empty cells, in its
// canonical orientation, and what the deep search found there.
type BookEntry struct {
	// Empty is the set of empty cells, canonical (Canonical).
	Empty uint64
	// Move is the chosen cell, in Empty's orientation.
	Move int
	// Depth is the nominal depth of the search that chose Move.
	Depth int
	// Score is that search's estimate of the set's value for the side to
	// move, in marks, without the settled cells: the final difference
	// expected beyond what is already settled.
	Score int
	// Nodes is what the search took.
	Nodes uint64
}

// Book holds the opening book's entries by their canonical set.
type Book struct {
	entries map[uint64]BookEntry
	// Header is the book's comment lines, without their "# ": how it was
	// made.
	Header []string
}

// NewBook returns an empty book with the header lines.
func NewBook(header ...string) *Book {
	return &Book{entries: map[uint64]BookEntry{}, Header: header}
}

// Len is the number of entries.
func (bk *Book) Len() int { return len(bk.entries) }

// Entries returns the entries in the order of their sets.
func (bk *Book) Entries() []BookEntry {
	out := make([]BookEntry, 0, len(bk.entries))
	for _, e := range bk.entries {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b BookEntry) int {
		if c := bits.OnesCount64(b.Empty) - bits.OnesCount64(a.Empty); c != 0 {
			return c // the earliest positions first
		}
		if a.Empty < b.Empty {
			return -1
		}
		return 1
	})
	return out
}

// Entry returns the entry of the canonical set e.
func (bk *Book) Entry(e uint64) (BookEntry, bool) {
	en, ok := bk.entries[e]
	return en, ok
}

// Put adds or replaces an entry after checking it.
func (bk *Book) Put(en BookEntry) error {
	if err := en.check(); err != nil {
		return err
	}
	bk.entries[en.Empty] = en
	return nil
}

func (en BookEntry) check() error {
	n := bits.OnesCount64(en.Empty)
	switch {
	case n < 2 || n > 2*adjacency.MaxRounds || n%2 != 0:
		return fmt.Errorf("adjsearch: book entry %016x: %d empty cells, want an even number from 2 to %d (the first mover to move)", en.Empty, n, 2*adjacency.MaxRounds)
	case Canonical(en.Empty) != en.Empty:
		return fmt.Errorf("adjsearch: book entry %016x: not in its canonical orientation", en.Empty)
	case en.Move < 0 || en.Move >= adjacency.Cells || en.Empty&(1<<en.Move) == 0:
		return fmt.Errorf("adjsearch: book entry %016x: move %d is not an empty cell", en.Empty, en.Move)
	case en.Depth < 1 || en.Depth > n:
		return fmt.Errorf("adjsearch: book entry %016x: depth %d, want 1 to %d", en.Empty, en.Depth, n)
	}
	return nil
}

// Lookup returns the book's move for b, in b's orientation, and its
// entry, if b is a position of a game that fills the board, with the first
// mover to move, that the book holds.
func (bk *Book) Lookup(b adjacency.Board) (engine.Move, BookEntry, bool) {
	if b.Terminal() || !fills(b) {
		return 0, BookEntry{}, false
	}
	e := empties(b)
	canon, sym := canonical(e)
	en, ok := bk.entries[canon]
	if !ok {
		return 0, BookEntry{}, false
	}
	return engine.Move(symCells[inverseSym[sym]][en.Move]), en, true
}

// EntryOf is the book entry of a search's result r for b, of a game that
// fills the board with the first mover to move.
func EntryOf(b adjacency.Board, r Result) (BookEntry, error) {
	if b.Terminal() || !fills(b) {
		return BookEntry{}, fmt.Errorf("adjsearch: book entry of %v: not a game that fills the board", b)
	}
	canon, sym := canonical(empties(b))
	en := BookEntry{Empty: canon, Move: symCells[sym][r.Move&63], Depth: r.Depth, Score: r.Score - settled(b), Nodes: r.Nodes}
	return en, en.check()
}

// useBook reports whether a search of b under o takes the book's move,
// and which (see the book's rule above).
func (r *run) useBook(b adjacency.Board) (engine.Move, BookEntry, bool) {
	if !r.opts.Book || r.opts.Depth > 0 {
		return 0, BookEntry{}, false
	}
	m, en, ok := book.Lookup(b)
	if !ok {
		return 0, BookEntry{}, false
	}
	budget := math.Inf(1)
	if !r.clock.Deadline().IsZero() {
		budget = r.clock.Deadline().Sub(r.clock.Started()).Seconds() * float64(max(r.opts.Threads, 1)) * fillNodesPerSecond
	}
	if n := r.opts.Nodes; n > 0 {
		budget = min(budget, float64(n))
	}
	return m, en, budget < float64(en.Nodes)
}

// The board's eight symmetries as maps of cells: symCells[s][c] is the
// image of cell c under symmetry s — 0 the identity, then boardsym's
// seven in the order of their names — and symmetry inverseSym[s] undoes
// s. (Variables with initialisers, not an init function: the embedded
// book is read when the package's variables are.)
var symCells, inverseSym = symmetries()

func symmetries() (symCells [8][adjacency.Cells]int, inverseSym [8]int) {
	syms := []func(file, rank int) (int, int){func(f, r int) (int, int) { return f, r }}
	for _, name := range slices.Sorted(maps.Keys(boardsym.Symmetries)) {
		syms = append(syms, boardsym.Symmetries[name])
	}
	for s, sym := range syms {
		for c := range adjacency.Cells {
			f, r := sym(c%8, c/8)
			symCells[s][c] = f + 8*r
		}
	}
	for s := range syms {
		for t := range syms {
			undone := true
			for c := range adjacency.Cells {
				undone = undone && symCells[t][symCells[s][c]] == c
			}
			if undone {
				inverseSym[s] = t
			}
		}
	}
	return symCells, inverseSym
}

// mapSet is the image of the set of cells e under symmetry s.
func mapSet(e uint64, s int) uint64 {
	out := uint64(0)
	for ; e != 0; e &= e - 1 {
		out |= 1 << symCells[s][bits.TrailingZeros64(e)]
	}
	return out
}

// canonical returns the least image of e under the eight symmetries and
// the symmetry that gives it.
func canonical(e uint64) (uint64, int) {
	best, sym := e, 0
	for s := 1; s < 8; s++ {
		if m := mapSet(e, s); m < best {
			best, sym = m, s
		}
	}
	return best, sym
}

// Canonical is the set of cells e in its canonical orientation: its least
// image under the board's eight symmetries.
func Canonical(e uint64) uint64 {
	c, _ := canonical(e)
	return c
}

// ParseBook reads a book in the text form Format writes: comment lines
// starting with "#", then one entry a line — the set of empty cells in
// hexadecimal, the move's cell name, the depth, the score and the nodes.
func ParseBook(text string) (*Book, error) {
	bk := NewBook()
	for i, line := range strings.Split(text, "\n") {
		if h, ok := strings.CutPrefix(line, "#"); ok {
			bk.Header = append(bk.Header, strings.TrimPrefix(h, " "))
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 5 {
			return nil, fmt.Errorf("adjsearch: book line %d: %d fields, want 5", i+1, len(f))
		}
		e, err1 := strconv.ParseUint(f[0], 16, 64)
		m, err2 := adjacency.ParseCell(f[1])
		d, err3 := strconv.Atoi(f[2])
		s, err4 := strconv.Atoi(f[3])
		n, err5 := strconv.ParseUint(f[4], 10, 64)
		for _, err := range []error{err1, err2, err3, err4, err5} {
			if err != nil {
				return nil, fmt.Errorf("adjsearch: book line %d: %w", i+1, err)
			}
		}
		en := BookEntry{Empty: e, Move: int(m), Depth: d, Score: s, Nodes: n}
		if _, dup := bk.entries[e]; dup {
			return nil, fmt.Errorf("adjsearch: book line %d: %016x twice", i+1, e)
		}
		if err := bk.Put(en); err != nil {
			return nil, fmt.Errorf("adjsearch: book line %d: %w", i+1, err)
		}
	}
	return bk, nil
}

// Format writes the book as text (ParseBook reads it): the header lines,
// then the entries, the earliest positions first.
func (bk *Book) Format() string {
	var sb strings.Builder
	for _, h := range bk.Header {
		fmt.Fprintf(&sb, "# %s\n", h)
	}
	for _, en := range bk.Entries() {
		fmt.Fprintf(&sb, "%016x %s %d %d %d\n", en.Empty, adjacency.CellName(engine.Move(en.Move)), en.Depth, en.Score, en.Nodes)
	}
	return sb.String()
}
