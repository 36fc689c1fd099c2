package bookgen

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/strategies/c4solver"
)

// fromEmbedded answers solves from the embedded book without searching,
// as the solvers that generated it answered: the score and, for the
// positions it holds with one, the move (else engine.NoMove).
type fromEmbedded struct{ s *c4solver.Solver }

func (fromEmbedded) SetBook(*c4solver.Book) {}

func (f fromEmbedded) Solve(ctx context.Context, p *connect4.Position) (c4solver.Result, error) {
	r, err := f.s.SolveWithin(ctx, p, 1)
	if errors.Is(err, c4solver.ErrNodeBudget) { // held without its move
		score, ok := c4solver.DefaultBook().Lookup(p)
		if !ok {
			return c4solver.Result{}, errors.New("not in the embedded book")
		}
		return c4solver.Result{Score: score, BestMove: engine.NoMove}, nil
	}
	return r, err
}

// TestRegenerateTheEmbeddedBook: generating the book's levels and
// extending them for play, with every solve answered from the embedded
// book, writes the embedded book again byte for byte, and so does
// extending the embedded book itself (genbook -from): the enumeration,
// the derived scores and moves, the walk of the player's turns and the
// mirror images are as they were when it was generated.
func TestRegenerateTheEmbeddedBook(t *testing.T) {
	embedded := c4solver.DefaultBook()
	want, err := embedded.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	answer := []solver{fromEmbedded{c4solver.New(1 << 20)}, fromEmbedded{c4solver.New(1 << 20)}}
	ctx := context.Background()
	levels, err := generate(ctx, embedded.Plies(), answer, nil)
	if err != nil {
		t.Fatal(err)
	}
	if levels.Deepest() != embedded.Plies() {
		t.Errorf("generated levels reach %d moves, want %d", levels.Deepest(), embedded.Plies())
	}
	for name, from := range map[string]*c4solver.Book{"generated": levels, "embedded": embedded} {
		b, err := extend(ctx, from, embedded.Deepest(), answer, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := b.MarshalBinary()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s, extended: %d positions to %d moves in %d bytes (error %v); the embedded book has %d to %d in %d",
				name, b.Len(), b.Deepest(), len(got), err, embedded.Len(), embedded.Deepest(), len(want))
		}
	}
}

// TestDeriveBook: deriving a book from made-up scores of its last ply
// finds every child and stores each position once (no solving: the
// scores are arbitrary).
func TestDeriveBook(t *testing.T) {
	const plies = 6
	levels := enumerate(plies)
	leafScores := make([]int, len(levels[plies]))
	for i := range leafScores {
		leafScores[i] = i%9 - 4
	}
	b, err := derive(levels, leafScores)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, level := range levels {
		total += len(level)
	}
	if b.Len() != total || b.Plies() != plies {
		t.Errorf("%d entries of %d plies, want %d of %d", b.Len(), b.Plies(), total, plies)
	}
	for i := range levels[plies] {
		p := &levels[plies][i].p
		if got, ok := b.Lookup(p); !ok || got != leafScores[i] {
			t.Errorf("leaf %s scores %d (found %v), want %d", p, got, ok, leafScores[i])
		}
	}
}

// TestExtendRejectsAShortBook: extending a book that lacks a position of
// its full levels is an error, not a book with a hole.
func TestExtendRejectsAShortBook(t *testing.T) {
	levels := enumerate(2)
	scores := make([]int, len(levels[2]))
	b, err := derive(levels, scores)
	if err != nil {
		t.Fatal(err)
	}
	var entries []c4solver.BookEntry
	for _, level := range levels[:2] { // the last level left out
		for i := range level {
			score, _ := b.Lookup(&level[i].p)
			entries = append(entries, c4solver.BookEntry{Position: &level[i].p, Score: score, Move: engine.NoMove})
		}
	}
	short, err := c4solver.NewBook(2, entries)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := extend(context.Background(), short, 2, []solver{fromEmbedded{c4solver.New(1 << 20)}}, nil); err == nil {
		t.Error("extended a book missing its last level")
	}
}
