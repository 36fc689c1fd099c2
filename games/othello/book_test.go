package othello

import (
	"math/bits"
	"testing"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/othello"
)

// TestEmbeddedBook decodes the embedded book (ParseBook checks every
// move legal): it holds the start, and a position without symmetry of its
// own is found on each of its symmetric boards with the same moves turned
// alike.
func TestEmbeddedBook(t *testing.T) {
	b, err := ParseBook(bookFile)
	if err != nil {
		t.Fatal(err)
	}
	p := rules.New()
	me := p.SideToMove()
	if e, ok := b.Lookup(p.Bitboard(me), p.Bitboard(me.Other())); !ok || len(e.Moves) == 0 {
		t.Fatal("the start is not in the book")
	}
	asymmetric := 0
	for key := range b.positions {
		so, sp := symmetric(key[0]), symmetric(key[1])
		distinct := map[[2]uint64]bool{}
		for s := range 8 {
			distinct[[2]uint64{so[s], sp[s]}] = true
		}
		if len(distinct) < 8 {
			continue
		}
		asymmetric++
		e, _ := b.Lookup(key[0], key[1])
		for s := range 8 {
			f, ok := b.Lookup(so[s], sp[s])
			if !ok || len(f.Moves) != len(e.Moves) {
				t.Fatalf("symmetric board %d: in the book %v, %d moves, want %d", s, ok, len(f.Moves), len(e.Moves))
			}
			for i, m := range f.Moves {
				if want := squareMaps[s][e.Moves[i].Square]; m.Square != want || m.Score != e.Moves[i].Score {
					t.Errorf("symmetric board %d: move %d is %v, want square %d", s, i, m, want)
				}
			}
		}
	}
	if asymmetric == 0 {
		t.Errorf("none of the book's %d positions is without symmetry", b.Len())
	}
}

// TestBookMoveVaries checks the book's choice by seed: seed 0 plays the
// best move, other seeds only moves within bookVariety of it, always the
// same for the same seed, and the value returned is the best move's
// score.
func TestBookMoveVaries(t *testing.T) {
	moves := []BookMove{{Square: 19, Score: 40}, {Square: 26, Score: 30}, {Square: 37, Score: 40 - bookVariety - 1}}
	own, opp := uint64(1<<28|1<<35), uint64(1<<27|1<<36)
	b, err := ParseBook(EncodeBook([]BookPosition{{Own: own, Opp: opp, Depth: 9, Moves: moves}}))
	if err != nil {
		t.Fatal(err)
	}
	saved := book
	book = func() *Book { return b }
	defer func() { book = saved }()
	p := rules.New()
	seen := map[engine.Move]bool{}
	for seed := range uint64(64) {
		m, score, depth, ok := bookMove(p, seed)
		if !ok || score != 40 || depth != 9 {
			t.Fatalf("seed %d: move %v, score %d, depth %d, in the book %v", seed, m, score, depth, ok)
		}
		if again, _, _, _ := bookMove(p, seed); again != m {
			t.Fatalf("seed %d: %v, then %v", seed, m, again)
		}
		if seed == 0 && m != 19 {
			t.Errorf("seed 0 plays %v, want the best, 19", m)
		}
		seen[m] = true
	}
	if len(seen) != 2 || !seen[19] || !seen[26] {
		t.Errorf("seeds played %v, want the two moves within a disc of the best", seen)
	}
	if _, _, _, ok := bookMove(p.Clone().(*rules.Position), 1); !ok {
		t.Error("a copy of the position is not in the book")
	}
	q := rules.New()
	q.Play(engine.Move(bits.TrailingZeros64(q.Placements())))
	if _, _, _, ok := bookMove(q, 1); ok {
		t.Error("a position the book does not hold is in it")
	}
}

// TestParseBookRejectsIllegalMoves checks that a book with a move that is
// not legal, or cut short, is refused.
func TestParseBookRejectsIllegalMoves(t *testing.T) {
	own, opp := uint64(1<<28|1<<35), uint64(1<<27|1<<36)
	data := EncodeBook([]BookPosition{{Own: own, Opp: opp, Depth: 1, Moves: []BookMove{{Square: 0, Score: 1}}}})
	if _, err := ParseBook(data); err == nil {
		t.Error("a book playing a1 at the start decoded")
	}
	data = EncodeBook([]BookPosition{{Own: own, Opp: opp, Depth: 1, Moves: []BookMove{{Square: 19, Score: 1}}}})
	if _, err := ParseBook(data[:len(data)-1]); err == nil {
		t.Error("a book cut short decoded")
	}
}
