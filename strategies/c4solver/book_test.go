package c4solver

import (
	"context"
	"encoding/binary"
	"flag"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/internal/racetest"
)

var bookSamples = flag.Int("book-samples", 24, "TestBookAgainstSolver: book positions to solve (each takes seconds; skipped with -short)")

// bookPositions lists every unfinished position of at most plies moves,
// as move strings, by plain enumeration on engine/connect4 (mirror images
// and transpositions included).
func bookPositions(t *testing.T, plies int) map[string]*connect4.Position {
	t.Helper()
	out := make(map[string]*connect4.Position)
	var walk func(moves string)
	walk = func(moves string) {
		p := mustParse(t, moves)
		if p.Terminal() {
			return
		}
		out[moves] = p
		if p.Ply() == plies {
			return
		}
		for c := 1; c <= connect4.Width; c++ {
			if p.Legal(engine.Move(c - 1)) {
				walk(moves + string(rune('0'+c)))
			}
		}
	}
	walk("")
	return out
}

// mirrored returns the moves of the mirror image: column c becomes 8 − c.
func mirrored(moves string) string {
	return strings.Map(func(r rune) rune { return '8' - r + '0' }, moves)
}

// TestDefaultBook: the embedded book holds every position of its plies
// once up to mirror images, each score is negamax over its children's (a
// check by engine/connect4's rules, independent of how the book was
// built), a position and its mirror image read the same, and the start is
// a first-player win with the last stone of the board, +1.
func TestDefaultBook(t *testing.T) {
	b := DefaultBook()
	if b.Plies() < 1 {
		t.Fatalf("the embedded book covers %d plies: regenerate it (go generate ./strategies/c4solver)", b.Plies())
	}
	positions := bookPositions(t, b.Plies())
	distinct := make(map[[2]uint64]bool) // by bitboards, mirror images merged
	for moves, p := range positions {
		m := mustParse(t, mirrored(moves))
		x, o := p.Bitboard(engine.X), p.Bitboard(engine.O)
		if mx := mirror(x); mx < x || mx == x && mirror(o) < o {
			x, o = mx, mirror(o)
		}
		distinct[[2]uint64{x, o}] = true

		score, ok := b.Lookup(p)
		if !ok {
			t.Fatalf("position %q (ply %d) is not in the book", moves, p.Ply())
		}
		if ms, ok := b.Lookup(m); !ok || ms != score {
			t.Errorf("position %q scores %d, its mirror image %q %d (found %v)", moves, score, mirrored(moves), ms, ok)
		}
		if p.Ply() == b.Plies() {
			continue
		}
		best := -cells
		for c := range connect4.Width {
			if !p.Legal(engine.Move(c)) {
				continue
			}
			child := *p
			child.Play(engine.Move(c))
			v := child.Score(p.SideToMove()) // a win ends the game
			if !child.Terminal() {
				cs, ok := b.Lookup(&child)
				if !ok {
					t.Fatalf("child %q%d is not in the book", moves, c+1)
				}
				v = -cs
			}
			best = max(best, v)
		}
		if score != best {
			t.Errorf("position %q scores %d in the book; its children give %d", moves, score, best)
		}
	}
	full := 0 // entries of at most Plies moves
	for _, e := range b.entries {
		if plyOf(e&keyMask) <= b.Plies() {
			full++
		}
	}
	if full != len(distinct) {
		t.Errorf("the book holds %d positions of at most %d moves; there are %d up to mirror images", full, b.Plies(), len(distinct))
	}
	if score, _ := b.Lookup(connect4.New()); score != 1 {
		t.Errorf("the start scores %d in the book, want 1", score)
	}
	data, err := b.MarshalBinary()
	if err != nil || string(data) != string(bookFile) {
		t.Errorf("the book does not write back to its file (error %v)", err)
	}
}

// TestBookAgainstSolver: random positions of the book's last ply, whose
// scores are the solver's and all the others derive from, agree with a
// solve without the book. Each solve takes seconds: -book-samples sets
// how many (go test ./strategies/c4solver -run BookAgainstSolver -args
// -book-samples 200).
func TestBookAgainstSolver(t *testing.T) {
	b := DefaultBook()
	if testing.Short() {
		// A solve of the book's last ply takes seconds, and fifteen under
		// -race: CI's long step (.ci/run) takes the samples without -race.
		t.Skip("solves for seconds each; run without -short")
	}
	n := *bookSamples
	var last []string
	for moves, p := range bookPositions(t, b.Plies()) {
		if p.Ply() == b.Plies() {
			last = append(last, moves)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(b.Len()), 18))
	s := New(DefaultTableBytes)
	s.SetBook(nil)
	for _, moves := range drawn(rng, last, n) {
		p := mustParse(t, moves)
		want, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := b.Lookup(p); !ok || got != want.Score {
			t.Errorf("position %q: book %d (found %v), solver %d", moves, got, ok, want.Score)
		}
	}
}

// drawn returns n of xs (all if there are fewer), drawn at random
// without replacement; it reorders xs.
func drawn[T any](rng *rand.Rand, xs []T, n int) []T {
	var out []T
	for range min(n, len(xs)) {
		i := rng.IntN(len(xs))
		out = append(out, xs[i])
		xs[i] = xs[len(xs)-1]
		xs = xs[:len(xs)-1]
	}
	return out
}

// playTurn is a position where a player following the book is to move,
// with no winning move, as move strings, and the solve's answer.
type playTurn struct {
	moves  string
	p      *connect4.Position
	result Result
}

// playTurns walks the games from the start in which one player, first or
// second, plays s's moves and the other anything, up to the player's
// turns of deepest moves, and returns those turns (transpositions once
// per path). A turn at or after the book's last ply that the book does
// not hold with its move is reported and not followed: s would search.
func playTurns(t testing.TB, s *Solver, deepest int) []playTurn {
	t.Helper()
	b := s.book
	var out []playTurn
	var turn func(moves string)
	turn = func(moves string) {
		p := mustParse(t, moves)
		side := p.SideToMove()
		for c := range connect4.Width {
			if child := *p; child.Legal(engine.Move(c)) {
				if child.Play(engine.Move(c)); child.Terminal() && child.Score(side) > 0 {
					return // the player wins at once: the game ends
				}
			}
		}
		if p.Ply() >= b.Plies() {
			if _, col, ok := b.lookup(p.Bitboard(side), p.Bitboard(engine.X)|p.Bitboard(engine.O)); !ok || col < 0 {
				t.Errorf("the player's turn %q (ply %d) is not in the book with its move (found %v)", moves, p.Ply(), ok)
				return
			}
		}
		r, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, playTurn{moves, p, r})
		played := moves + string(rune('1'+r.BestMove))
		after := mustParse(t, played)
		if after.Ply()+1 > deepest {
			return
		}
		for c := range connect4.Width {
			if child := *after; child.Legal(engine.Move(c)) {
				if child.Play(engine.Move(c)); !child.Terminal() {
					turn(played + string(rune('1'+c)))
				}
			}
		}
	}
	turn("") // the player moves first
	for c := 1; c <= connect4.Width; c++ {
		turn(string(rune('0' + c))) // second
	}
	return out
}

// TestBookCoversPlay: a player following the embedded book, as first or
// as second player, finds every position it meets on its turn up to the
// book's deepest in the book, with the move, and so plays without
// searching, whatever its opponent plays; the answer is the book's.
func TestBookCoversPlay(t *testing.T) {
	b := DefaultBook()
	if b.Deepest() <= b.Plies() {
		t.Fatalf("the embedded book holds no positions of play beyond its %d plies: regenerate it (go generate ./strategies/c4solver)", b.Plies())
	}
	s := New(testTableBytes)
	turns := playTurns(t, s, b.Deepest())
	byPly := make([]int, b.Deepest()+1)
	for _, tn := range turns {
		byPly[tn.p.Ply()]++
		want, _ := b.Lookup(tn.p)
		if tn.result.Nodes != 0 || tn.result.Score != want {
			t.Errorf("turn %q: %+v; want the book's score %d without search", tn.moves, tn.result, want)
		}
	}
	t.Logf("the player's turns by ply, paths counted apart: %v", byPly)
}

// TestBookMovesAgainstSolver: random turns of a player following the book
// from its last full ply on, those whose moves the book holds, agree with
// solves without the book: the score, and the move is optimal (the
// position after it scores the negation). -book-samples sets how many.
func TestBookMovesAgainstSolver(t *testing.T) {
	b := DefaultBook()
	n := *bookSamples
	switch {
	case racetest.Short(t, "1 turn, not 2"):
		n = 1
	case testing.Short():
		n = 2
	}
	var deep []playTurn
	for _, tn := range playTurns(t, New(testTableBytes), b.Deepest()) {
		if tn.p.Ply() >= b.Plies() {
			deep = append(deep, tn)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(b.Len()), 7))
	s := New(DefaultTableBytes)
	s.SetBook(nil)
	for _, tn := range drawn(rng, deep, n) {
		want, err := s.Solve(context.Background(), tn.p)
		if err != nil {
			t.Fatal(err)
		}
		child := *tn.p
		child.Play(tn.result.BestMove)
		after, err := s.Solve(context.Background(), &child)
		if err != nil {
			t.Fatal(err)
		}
		if tn.result.Score != want.Score || -after.Score != want.Score {
			t.Errorf("turn %q: book score %d and column %d (the position after it scores %d); solver %d", tn.moves, tn.result.Score, tn.result.BestMove+1, after.Score, want.Score)
		}
	}
}

// TestSolveFromTheBook: a solver answers the book's positions without
// searching, or at the book's last ply searching only for the move, and
// the move achieves the score.
func TestSolveFromTheBook(t *testing.T) {
	b := DefaultBook()
	s := New(DefaultTableBytes)
	r, err := s.Solve(context.Background(), connect4.New())
	if err != nil || r.Score != 1 || r.BestMove != 3 || r.Nodes != 0 {
		t.Errorf("the start: %+v, %v; want score 1 with column 4, no search", r, err)
	}
	for _, moves := range []string{"4", "44", "1", "7", "17"} {
		p := mustParse(t, moves)
		if p.Ply() >= b.Plies() {
			continue
		}
		r, err := s.Solve(context.Background(), p)
		want, _ := b.Lookup(p)
		child := *p
		child.Play(r.BestMove)
		got, _ := b.Lookup(&child)
		if err != nil || r.Score != want || r.Nodes != 0 || -got != want {
			t.Errorf("position %q: %+v, %v; want score %d from the book and a move keeping it (child %d)", moves, r, err, want, got)
		}
	}
	weak, err := s.SolveWeak(context.Background(), mustParse(t, "1"))
	if err != nil || weak.Score != 1 || weak.Nodes != 0 {
		t.Errorf("weak solve of 1: %+v, %v; want 1 (o wins) from the book", weak, err)
	}
	// The first moves' values as Pons publishes them ("Solving Connect
	// Four", part 1): only the centre wins.
	scores, err := s.MoveScores(context.Background(), connect4.New())
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{-2, -1, 0, 1, 0, -1, -2} {
		if scores[i].Score != want || scores[i].Nodes != 0 {
			t.Errorf("first move %d: %+v, want score %d from the book", i+1, scores[i], want)
		}
	}
}

func TestParseBookRejectsDamage(t *testing.T) {
	good, _ := DefaultBook().MarshalBinary()
	swapped := append([]byte{}, good...)
	copy(swapped[bookHeaderBytes:], good[bookHeaderBytes+8:bookHeaderBytes+16])
	copy(swapped[bookHeaderBytes+8:], good[bookHeaderBytes:bookHeaderBytes+8])
	noMove := append([]byte{}, good...) // a position of play without its move
	for i := bookHeaderBytes; i < len(noMove); i += 8 {
		if e := binary.LittleEndian.Uint64(noMove[i:]); plyOf(e&keyMask) > DefaultBook().Plies() {
			binary.LittleEndian.PutUint64(noMove[i:], e&bookScoreMask)
			break
		}
	}
	badMove := append([]byte{}, good...)
	badMove[len(badMove)-1] |= 0x80 // a bit above the move
	for name, data := range map[string][]byte{
		"empty":     nil,
		"not book":  []byte("PK\x03\x04 hello"),
		"truncated": good[:len(good)-3],
		"unsorted":  swapped,
		"no move":   noMove,
		"bad move":  badMove,
	} {
		if _, err := ParseBook(data); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// TestNewBookRejectsBadEntries: NewBook stores a position and its mirror
// image once, with the move mirrored as the image needs, and refuses an
// entry it cannot store or a position given twice.
func TestNewBookRejectsBadEntries(t *testing.T) {
	entry := func(moves string, score int, move engine.Move) BookEntry {
		return BookEntry{Position: mustParse(t, moves), Score: score, Move: move}
	}
	b, err := NewBook(1, []BookEntry{entry("", 1, engine.NoMove), entry("1", 2, engine.NoMove), entry("12", -3, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != 3 || b.Plies() != 1 || b.Deepest() != 2 {
		t.Errorf("%d entries, %d plies, deepest %d; want 3, 1, 2", b.Len(), b.Plies(), b.Deepest())
	}
	mirrorPos := mustParse(t, "76") // "12" reflected
	if score, col, ok := b.lookup(mirrorPos.Bitboard(mirrorPos.SideToMove()), mirrorPos.Bitboard(engine.X)|mirrorPos.Bitboard(engine.O)); !ok || score != -3 || col != 6 {
		t.Errorf("the mirror image of 12 reads score %d, column %d (found %v); want -3 and column 7", score, col+1, ok)
	}
	for name, entries := range map[string][]BookEntry{
		"finished":        {entry("1212121", 0, engine.NoMove)},
		"twice":           {entry("1", 2, engine.NoMove), entry("1", 2, engine.NoMove)},
		"mirror twice":    {entry("1", 2, engine.NoMove), entry("7", 2, engine.NoMove)},
		"score too high":  {entry("1", 32, engine.NoMove)},
		"score too low":   {entry("1", -33, engine.NoMove)},
		"illegal move":    {entry("111111", 0, 0)},
		"deeper, no move": {entry("12", 0, engine.NoMove)},
	} {
		if _, err := NewBook(1, entries); err == nil {
			t.Errorf("%s: made a book", name)
		}
	}
	if _, err := NewBook(cells, nil); err == nil {
		t.Errorf("a book of %d plies: made", cells)
	}
}
