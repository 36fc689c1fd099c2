package adjsearch

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
)

// boardWithEmpty is a board of a game that fills the board whose empty
// cells are e, X to move, the other cells X's and O's in a pattern drawn
// from rng (colours change no move of the set game).
func boardWithEmpty(t testing.TB, e uint64, rng *rand.Rand) adjacency.Board {
	t.Helper()
	var sb strings.Builder
	for rank := 7; rank >= 0; rank-- {
		for file := range 8 {
			switch c := 8*rank + file; {
			case e&(1<<c) != 0:
				sb.WriteByte('.')
			case rng.IntN(2) == 0:
				sb.WriteByte('x')
			default:
				sb.WriteByte('o')
			}
		}
		if rank > 0 {
			sb.WriteByte('/')
		}
	}
	b, err := adjacency.ParseBoard(fmt.Sprintf("%s x %d", sb.String(), bits.OnesCount64(e)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSymmetries: each of the eight maps is a bijection of the cells that
// keeps neighbours neighbours, its inverse undoes it, and a set's canonical
// form is the same from each of its images.
func TestSymmetries(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 38))
	for s := range 8 {
		var seen uint64
		for c := range adjacency.Cells {
			d := symCells[s][c]
			seen |= 1 << d
			if symCells[inverseSym[s]][d] != c {
				t.Fatalf("symmetry %d: its inverse %d takes %d to %d, not back to %d", s, inverseSym[s], d, symCells[inverseSym[s]][d], c)
			}
			if got, want := mapSet(adjacency.Dilate(1<<c), s), adjacency.Dilate(1<<d); got != want {
				t.Fatalf("symmetry %d: the neighbours of %d map to %016x, want those of %d, %016x", s, c, got, d, want)
			}
		}
		if seen != ^uint64(0) {
			t.Fatalf("symmetry %d is not a bijection: image %016x", s, seen)
		}
	}
	for range 200 {
		e := rng.Uint64() & rng.Uint64()
		want := Canonical(e)
		for s := range 8 {
			if got := Canonical(mapSet(e, s)); got != want {
				t.Fatalf("%016x under symmetry %d: canonical %016x, want %016x", e, s, got, want)
			}
		}
	}
}

// TestEmbeddedBook: the embedded book parses, each of its moves is an
// empty cell of its position (ParseBook checks every entry), it covers the
// start and the first mover's position after every first pair of moves,
// and the file is what the generator writes for it (no hand edit).
func TestEmbeddedBook(t *testing.T) {
	bk, err := ParseBook(bookText)
	if err != nil {
		t.Fatal(err)
	}
	if got := bk.Format(); got != bookText {
		t.Fatal("book.txt differs from what Format writes for its entries: edited by hand?")
	}
	start, err := adjacency.NewBoard(adjacency.MaxRounds, engine.X)
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[uint64]bool{}
	for _, a := range start.Moves(nil) {
		after := start.After(a)
		for _, c := range after.Moves(nil) {
			b := after.After(c)
			pairs[Canonical(empties(b))] = true
			if m, _, ok := bk.Lookup(b); !ok || !b.Legal(m) {
				t.Fatalf("after %s %s: book move %v, in the book %v, want a legal move", adjacency.CellName(a), adjacency.CellName(c), m, ok)
			}
		}
	}
	if m, _, ok := bk.Lookup(start); !ok || !start.Legal(m) {
		t.Fatalf("the start: book move %v, in the book %v", m, ok)
	}
	t.Logf("%d entries; %d positions after the first pair", bk.Len(), len(pairs))
}

// TestBookMovesArePlayedFromBookPositionsOnly: a search with Options.Book
// plays the book's move, in the position's own orientation, without
// searching, from book positions whatever their symmetry and colours,
// when its budget is below the book's search; it searches when the
// position is not in the book, when it is the second mover's, when its
// budget is larger, when it is depth-limited and without Options.Book.
func TestBookMovesArePlayedFromBookPositionsOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 38))
	entries := book.Entries()
	if len(entries) == 0 {
		t.Fatal("the embedded book is empty")
	}
	e := New(nil)
	ctx := context.Background()
	for i := range 20 {
		en := entries[rng.IntN(len(entries))]
		s := rng.IntN(8)
		b := boardWithEmpty(t, mapSet(en.Empty, s), rng)
		small := Options{Book: true, Nodes: min(en.Nodes-1, 2000), Threads: 1}
		res, err := e.Search(ctx, b, small)
		if err != nil {
			t.Fatal(err)
		}
		if !bookMove(b, res.Move, en) || res.Nodes != 0 || res.Depth != en.Depth {
			t.Fatalf("entry %d (%016x) under symmetry %d: played %v after %d nodes at depth %d, want the book's %v at once, depth %d", i, en.Empty, s, res.Move, res.Nodes, res.Depth, symCells[s][en.Move], en.Depth)
		}
		for name, o := range map[string]Options{
			"without the book":                     {Nodes: 2000, Threads: 1},
			"depth-capped":                         {Book: true, Depth: 2, Threads: 1},
			"with a budget as large as the book's": {Book: true, Nodes: en.Nodes, Threads: 1},
		} {
			if !searches(t, e, b, o) {
				t.Fatalf("entry %016x, %s: answered without searching", en.Empty, name)
			}
		}
	}
	// Positions outside the book: the second mover's, and the first
	// mover's after four random moves from the start that the book lacks.
	start, err := adjacency.NewBoard(adjacency.MaxRounds, engine.X)
	if err != nil {
		t.Fatal(err)
	}
	for checked := 0; checked < 10; {
		b := start
		for range 3 + checked%2 {
			moves := b.Moves(nil)
			b = b.After(moves[rng.IntN(len(moves))])
		}
		if _, ok := book.Entry(Canonical(empties(b))); ok {
			continue
		}
		checked++
		if !searches(t, e, b, Options{Book: true, Nodes: 2000, Threads: 1}) {
			t.Fatalf("%v, not in the book: answered without searching", b)
		}
	}
}

// bookMove reports whether m, played in b, is en's move: the same cell of
// the canonical set under a symmetry that takes b's empty cells there
// (a symmetric set has several).
func bookMove(b adjacency.Board, m engine.Move, en BookEntry) bool {
	for s := range 8 {
		if mapSet(empties(b), s) == en.Empty && symCells[s][m] == en.Move {
			return true
		}
	}
	return false
}

// searches reports whether a search of b under o searched: it is stopped
// after its first iteration, which a book move never reports.
func searches(t *testing.T, e *Engine, b adjacency.Board, o Options) bool {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o.Progress = func(Result) { cancel() }
	res, err := e.Search(ctx, b, o)
	if err != nil {
		t.Fatal(err)
	}
	return res.Nodes > 0
}

// TestBookEntriesRepeatTheirSearch: the cheapest entries of the book are
// what a search to their depth chooses today from the position the
// generator searched — the first pair of moves, in move order, that leads
// to the entry's set (the search breaks ties by cell, so another
// orientation of the same set may choose another move of the same
// value). A change to the search or its leaf that changes them asks for
// the book to be made again.
func TestBookEntriesRepeatTheirSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("searches to the book's depth")
	}
	entries := book.Entries()
	slices.SortFunc(entries, func(a, b BookEntry) int { return int(a.Nodes>>10) - int(b.Nodes>>10) })
	start, err := adjacency.NewBoard(adjacency.MaxRounds, engine.X)
	if err != nil {
		t.Fatal(err)
	}
	searched := map[uint64]adjacency.Board{}
	for _, a := range start.Moves(nil) {
		after := start.After(a)
		for _, c := range after.Moves(nil) {
			b := after.After(c)
			k := Canonical(empties(b))
			if _, ok := searched[k]; !ok {
				searched[k] = b
			}
		}
	}
	e := New(nil)
	checked := 0
	for _, en := range entries {
		b, ok := searched[en.Empty]
		if !ok {
			continue // the start
		}
		res, err := e.Search(context.Background(), b, Options{Depth: en.Depth, Threads: 1, MaxTableMiB: 64})
		if err != nil {
			t.Fatal(err)
		}
		got, err := EntryOf(b, res)
		if err != nil {
			t.Fatal(err)
		}
		if got != en {
			t.Errorf("%v: the search to depth %d gives %+v, the book %+v", b, en.Depth, got, en)
		}
		if checked++; checked == 3 {
			break
		}
	}
}

// TestParseBookRefuses: a book with a move on a filled cell, a position
// of the second mover, one not in canonical orientation, a line of the
// wrong shape or a position twice is refused.
func TestParseBookRefuses(t *testing.T) {
	start := Canonical(^uint64(0x0303) &^ 0xc0c0000000000000)
	good := NewBook()
	if err := good.Put(BookEntry{Empty: start, Move: bits.TrailingZeros64(start), Depth: 3, Nodes: 10}); err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSpace(good.Format())
	if _, err := ParseBook(line); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	notCanonical := mapSet(start, 1)
	if notCanonical == start {
		notCanonical = mapSet(start, 2)
	}
	f := strings.Fields(line)
	for _, bad := range []string{
		strings.Replace(line, f[1], "a1", 1),
		strings.Replace(line, f[0], "f0f0ffffffffff3c", 1),
		strings.Replace(line, f[0], fmt.Sprintf("%016x", notCanonical), 1),
		line + " 7",
		line + "\n" + line,
	} {
		if _, err := ParseBook(bad); err == nil {
			t.Errorf("%q: parsed, want an error", bad)
		}
	}
}
