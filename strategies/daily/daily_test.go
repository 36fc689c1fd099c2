package daily

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/engine/nqueens"
	"github.com/gambitbot/gambit/engine/slidingtile"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/strategies/adjsearch"
	"github.com/gambitbot/gambit/strategies/c4solver"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// testKey is the install's key of the tests.
var testKey = []byte("0123456789abcdef0123456789abcdef")

// seeds are the seeds the tests make puzzles from: a handful of servers'
// days.
func seeds(t *testing.T) []uint64 {
	n := 6
	switch {
	case racetest.Short(t, "2 days' seeds, not 3"):
		n = 2
	case testing.Short():
		n = 3
	}
	var out []uint64
	for i := range n {
		out = append(out, Seed(testKey, fmt.Sprintf("2026-11-%02d", 20+i), "guild"+fmt.Sprint(i)))
	}
	return out
}

func TestKindsRotateByDay(t *testing.T) {
	var got []Kind
	for d := 20; d < 28; d++ {
		k, err := KindOn(fmt.Sprintf("2026-11-%02d", d))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, k)
	}
	for i := range got {
		if i >= len(Kinds()) && got[i] != got[i-len(Kinds())] {
			t.Errorf("day %d: %s, four days before %s: the kinds should take turns", i, got[i], got[i-len(Kinds())])
		}
	}
	for _, k := range Kinds() {
		if !slices.Contains(got[:len(Kinds())], k) {
			t.Errorf("four days in a row never gave %s: %v", k, got[:len(Kinds())])
		}
	}
	if _, err := KindOn("27/11/2026"); err == nil {
		t.Error("KindOn took a date in another format")
	}
}

func TestSeedDiffersByServerAndDay(t *testing.T) {
	a := Seed(testKey, "2026-11-27", "1")
	if a != Seed(testKey, "2026-11-27", "1") {
		t.Error("one server's day has two seeds")
	}
	if a == Seed(testKey, "2026-11-27", "2") || a == Seed(testKey, "2026-11-28", "1") {
		t.Error("two servers, or two days, share a seed")
	}
}

// TestSeedNeedsTheKey: another install's key gives other seeds, and no
// day's seed under any key is a practice puzzle's, while every seed
// PracticeSeed deals is.
func TestSeedNeedsTheKey(t *testing.T) {
	other := []byte("another install's key, 32 bytes!")
	for d := 1; d <= 60; d++ {
		day := fmt.Sprintf("2026-%02d-%02d", 1+d/28, 1+d%28)
		for _, key := range [][]byte{testKey, other, nil} {
			if s := Seed(key, day, "1"); IsPractice(s) {
				t.Fatalf("the seed of %s under key %q, %d, is a practice seed", day, key, s)
			}
		}
		if Seed(testKey, day, "1") == Seed(other, day, "1") {
			t.Errorf("two installs share the seed of %s", day)
		}
	}
	for range 1000 {
		if s := PracticeSeed(); !IsPractice(s) {
			t.Fatalf("PracticeSeed dealt %d, not a practice seed", s)
		}
	}
}

// TestSameSeedSamePuzzle makes each kind's puzzle twice from each seed:
// the same every time, as every member of a server must see one puzzle.
// Under -race -short from one seed each.
func TestSameSeedSamePuzzle(t *testing.T) {
	n := 2
	if racetest.Short(t, "one seed a kind, not 2") {
		n = 1
	}
	for _, k := range Kinds() {
		for _, s := range seeds(t)[:n] {
			a, err := Make(context.Background(), k, s)
			if err != nil {
				t.Fatalf("%s %d: %v", k, s, err)
			}
			b, err := Make(context.Background(), k, s)
			if err != nil {
				t.Fatal(err)
			}
			if a != b {
				t.Errorf("%s seed %d: two puzzles %+v and %+v", k, s, a, b)
			}
		}
	}
}

// TestBestMoveIsTheOnlyOne checks each best-move puzzle against the
// solvers without budgets: its answer wins (or draws) and every other move
// does worse.
func TestBestMoveIsTheOnlyOne(t *testing.T) {
	ctx := context.Background()
	for _, s := range seeds(t) {
		p, err := Make(ctx, Connect4, s)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := connect4.Parse(p.Position)
		if err != nil {
			t.Fatal(err)
		}
		solver := c4solver.New(16 << 20)
		scores, err := solver.MoveScores(ctx, pos)
		if err != nil {
			t.Fatal(err)
		}
		var moves []engine.Move
		var verdicts []verdict
		for _, ms := range scores {
			moves, verdicts = append(moves, ms.Move), append(verdicts, sign(ms.Score))
		}
		checkSingle(t, p, pos, moves, verdicts)
		me := pos.SideToMove()
		if pos.Playable()&(pos.Threats(me)|pos.Threats(1-me)) != 0 {
			t.Errorf("Connect Four %s: a four to complete or stop: too plain a puzzle", p.Position)
		}

		p, err = Make(ctx, Adjacency, s)
		if err != nil {
			t.Fatal(err)
		}
		b, err := adjacency.ParseBoard(p.Position)
		if err != nil {
			t.Fatal(err)
		}
		moves = b.Moves(nil)
		verdicts = nil
		for _, m := range moves {
			child := b.After(m)
			v := child.Score(b.SideToMove())
			if !child.Terminal() {
				r, err := adjsearch.New(nil).Search(ctx, child, adjsearch.Options{Depth: child.PliesLeft()})
				if err != nil || !r.Exact {
					t.Fatalf("Adjacency %s: no exact score (%v)", child, err)
				}
				v = r.Score
				if child.SideToMove() != b.SideToMove() {
					v = -v
				}
			}
			verdicts = append(verdicts, sign(v))
		}
		checkSingle(t, p, b, moves, verdicts)
		if n := len(moves); n > 25 {
			t.Errorf("Adjacency %s: %d moves, more than a menu holds", p.Position, n)
		}
	}
}

func checkSingle(t *testing.T, p Puzzle, pos interface{ FormatMove(engine.Move) string }, moves []engine.Move, verdicts []verdict) {
	t.Helper()
	best, count := -2, 0
	for i, m := range moves {
		if pos.FormatMove(m) == p.Answer {
			best = verdicts[i]
		}
	}
	for _, v := range verdicts {
		if v >= best {
			count++
		}
	}
	if best < 0 || count != 1 {
		t.Errorf("%s %s: answer %s scores %d, and %d moves score as much or more (verdicts %v)", p.Kind, p.Position, p.Answer, best, count, verdicts)
	}
	if p.Wins != (best == 1) {
		t.Errorf("%s %s: Wins %v but the answer scores %d", p.Kind, p.Position, p.Wins, best)
	}
}

func TestTilesAndQueensArePlayable(t *testing.T) {
	for _, s := range seeds(t) {
		p, err := Make(context.Background(), Tiles, s)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := slidingtile.Parse(p.Position)
		if err != nil {
			t.Fatal(err)
		}
		moves, err := puzzles.Shortest(context.Background(), pos)
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) != p.Moves || p.Moves < 12 || p.Moves > 26 {
			t.Errorf("8-puzzle %s: says %d moves, solver %d; want 12–26", p.Position, p.Moves, len(moves))
		}

		p, err = Make(context.Background(), Queens, s)
		if err != nil {
			t.Fatal(err)
		}
		q, err := nqueens.Parse(p.Position)
		if err != nil {
			t.Fatal(err)
		}
		if q.Placed() != 1 || q.N() < 6 || q.N() > 10 {
			t.Errorf("N-Queens %s: %d queens on %d columns, want one given on 6–10", p.Position, q.Placed(), q.N())
		}
		if _, err := puzzles.Shortest(context.Background(), q); err != nil {
			t.Errorf("N-Queens %s: %v", p.Position, err)
		}
	}
}

func TestHintsHalveAndKeepTheAnswer(t *testing.T) {
	all := []string{"1", "2", "3", "4", "5", "6", "7"}
	prev := all
	for n := 1; n < 5; n++ {
		h := Hints(all, "6", n)
		if !slices.Contains(h, "6") {
			t.Fatalf("%d hints %v lost the answer", n, h)
		}
		if len(h) > len(prev) || len(prev) > 2 && len(h) != (len(prev)+1)/2 {
			t.Errorf("%d hints left %v after %v: want half", n, h, prev)
		}
		prev = h
	}
	if len(prev) != 2 {
		t.Errorf("many hints left %v; want two moves to choose from", prev)
	}
}

func BenchmarkMake(b *testing.B) {
	for _, k := range Kinds() {
		b.Run(string(k), func(b *testing.B) {
			for i := range b.N {
				if _, err := Make(context.Background(), k, uint64(i)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
