package puzzles

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gambitbot/gambit/engine/nqueens"
	"github.com/gambitbot/gambit/engine/slidingtile"
)

// bfsLength is the optimal length of an 8-puzzle position by the plain
// breadth-first search, the independent measure.
func bfsLength(t *testing.T, p *slidingtile.Position) int {
	t.Helper()
	s, _ := LookupTile("bfs")
	sol, err := s.Solve(context.Background(), p, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return len(sol.Moves)
}

// TestScrambleLengths deals 8-puzzle starts of three ranges and checks
// each one's optimum by BFS, and that Shortest solves it in that many.
func TestScrambleLengths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range [][2]int{{4, 8}, {12, 16}, {20, 24}} {
		for range 3 {
			p, n, err := Scramble(context.Background(), rng, 3, r[0], r[1])
			if err != nil {
				t.Fatal(err)
			}
			if want := bfsLength(t, p); n != want || n < r[0] || n > r[1] {
				t.Fatalf("%v: length %d, BFS %d, want within %v", p, n, want, r)
			}
			moves, err := Shortest(context.Background(), p)
			if err != nil || len(moves) != n {
				t.Fatalf("%v: Shortest %v, %v", p, moves, err)
			}
			for _, m := range moves {
				p.Play(m)
			}
			if !p.Solved() {
				t.Fatalf("Shortest's moves do not solve it")
			}
		}
	}
}

// TestNearestQueens checks the moves to the nearest solution against a
// brute force over every placement of N = 6 queens, one a column, from
// random boards (empty columns included).
func TestNearestQueens(t *testing.T) {
	const n = 6
	var solutions [][]int
	rows := make([]int, n)
	var all func(c int)
	all = func(c int) {
		if c == n {
			if Conflicts(rows) == 0 {
				solutions = append(solutions, append([]int(nil), rows...))
			}
			return
		}
		for r := range n {
			rows[c] = r
			all(c + 1)
		}
	}
	all(0)
	if len(solutions) != 4 {
		t.Fatalf("%d solutions of 6 queens, want 4", len(solutions))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		p, _ := nqueens.New(n)
		for c := range n {
			if r := rng.IntN(n + 1); r > 0 {
				p.Play(p.Square(c, r))
			}
		}
		want := n + 1
		for _, s := range solutions {
			d := 0
			for c, r := range s {
				if p.Row(c) != r+1 {
					d++
				}
			}
			want = min(want, d)
		}
		moves, err := Shortest(context.Background(), p)
		if err != nil || len(moves) != want {
			t.Fatalf("%v: %d moves (%v), want %d", p, len(moves), err, want)
		}
		for _, m := range moves {
			p.Play(m)
		}
		if !p.Solved() {
			t.Fatalf("the moves leave %v unsolved", p)
		}
	}
}

// TestCompare checks the comparison on an 8-puzzle and an N-Queens board:
// every solver runs, the optimal ones agree with BFS, and the labels say
// which solutions are optimal.
func TestCompare(t *testing.T) {
	p, _ := slidingtile.Parse("7,2,4,5,0,6,8,3,1")
	want := bfsLength(t, p)
	runs, err := Compare(context.Background(), p, Budget{Limits: Limits{Nodes: 1_000_000}})
	if err != nil || len(runs) != len(TileSolvers()) {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	for _, r := range runs {
		switch {
		case r.Optimal == "proved" && r.Length != want:
			t.Errorf("%s: proved optimal with %d moves, BFS %d", r.Algorithm, r.Length, want)
		case r.Solved && r.Optimal == "yes" && r.Length != want, r.Solved && r.Optimal == "no" && r.Length == want:
			t.Errorf("%s: %d moves labelled %q", r.Algorithm, r.Length, r.Optimal)
		case !r.Solved && r.Err == nil:
			t.Errorf("%s: no solution and no error", r.Algorithm)
		}
	}
	q, _ := nqueens.Parse("1,1,1,1,1,1,1,1")
	runs, err = Compare(context.Background(), q, Budget{Limits: Limits{Nodes: 1_000_000}})
	if err != nil || len(runs) != len(QueensSolvers()) {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	near, _ := Shortest(context.Background(), q)
	for _, r := range runs {
		if !r.Solved || r.Length < len(near) || (r.Optimal == "yes") != (r.Length == len(near)) {
			t.Errorf("%+v; nearest %d", r, len(near))
		}
	}
	if _, err := Compare(context.Background(), nil, Budget{}); err == nil {
		t.Error("Compare of no puzzle")
	}
}
