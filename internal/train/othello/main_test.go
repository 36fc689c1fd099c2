package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gambitbot/gambit/engine/othello"
	games "github.com/gambitbot/gambit/games/othello"
)

// TestTrainsAndBuildsTheBook runs the command end to end on a tiny set:
// the weights it writes load, and the book it builds decodes (every move
// legal) and holds the start.
func TestTrainsAndBuildsTheBook(t *testing.T) {
	dir := t.TempDir()
	weights, book := filepath.Join(dir, "weights.bin"), filepath.Join(dir, "book.bin")
	if err := run([]string{"-out", weights, "-games", "12", "-generations", "2", "-depth", "1", "-exact", "6", "-iterations", "3"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(weights)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := games.ParseWeights(data); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-book", book, "-book-plies", "3", "-book-depth", "2"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if data, err = os.ReadFile(book); err != nil {
		t.Fatal(err)
	}
	b, err := games.ParseBook(data)
	if err != nil {
		t.Fatal(err)
	}
	p := othello.New()
	if _, ok := b.Lookup(p.Bitboard(p.SideToMove()), p.Bitboard(p.SideToMove().Other())); !ok || b.Len() < 3 {
		t.Errorf("%d positions, the start among them %v", b.Len(), ok)
	}
	if err := run([]string{"-games", "1"}, io.Discard); err == nil {
		t.Error("no output file: no error")
	}
}

// TestSolveScoresTheEnd checks the exact solver on a position two
// squares from the end against the rules' own score.
func TestSolveScoresTheEnd(t *testing.T) {
	p, err := othello.Parse("xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxoo/xxxxxo.. x")
	if err != nil {
		t.Fatal(err)
	}
	own, opp := p.Bitboard(p.SideToMove()), p.Bitboard(p.SideToMove().Other())
	best := -65
	for _, m := range p.Moves(nil) {
		q := p.Clone()
		q.Play(m)
		for !q.Terminal() {
			q.Play(q.Moves(nil)[0])
		}
		best = max(best, q.Score(p.SideToMove()))
	}
	if got := solve(own, opp, -64, 64, false); got != best {
		t.Errorf("solve: %d, want %d", got, best)
	}
}
