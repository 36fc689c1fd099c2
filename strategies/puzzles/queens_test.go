package puzzles

import (
	"context"
	"errors"
	"testing"
)

// naiveConflicts counts attacking pairs by comparing every pair.
func naiveConflicts(rows []int) int {
	n := 0
	for a := range rows {
		for b := a + 1; b < len(rows); b++ {
			if d := rows[a] - rows[b]; d == 0 || d == b-a || d == a-b {
				n++
			}
		}
	}
	return n
}

func TestQueensSolversPlaceConflictFreeBoards(t *testing.T) {
	for _, s := range QueensSolvers() {
		last := 30
		if testing.Short() {
			last = 16
		}
		for n := 4; n <= last; n++ {
			sol, err := s.Solve(context.Background(), n, Limits{Seed: uint64(n)})
			if err != nil {
				t.Fatalf("%s, N = %d: %v", s.Name, n, err)
			}
			if len(sol.Rows) != n || naiveConflicts(sol.Rows) != 0 || Conflicts(sol.Rows) != 0 || sol.Nodes < uint64(n) {
				t.Fatalf("%s, N = %d: rows %v (%d conflicts), %d nodes", s.Name, n, sol.Rows, naiveConflicts(sol.Rows), sol.Nodes)
			}
		}
	}
	// The report's 8-queens answer: backtracking's first solution.
	sol, _ := mustQueens(t, "backtracking").Solve(context.Background(), 8, Limits{})
	if got := sol.Rows; got[0] != 0 || got[1] != 4 || got[2] != 7 || got[3] != 5 {
		t.Errorf("backtracking's 8 queens %v, want the lexicographically first solution 0 4 7 5 2 6 1 3", got)
	}
	if sol.Nodes != 113 {
		t.Errorf("backtracking placed %d queens for N = 8, want 113", sol.Nodes)
	}
}

func TestMinConflictsLarge(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	sol, err := mustQueens(t, "min-conflicts").Solve(context.Background(), n, Limits{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(sol.Rows) != n || Conflicts(sol.Rows) != 0 {
		t.Fatalf("%d queens with %d conflicts", len(sol.Rows), Conflicts(sol.Rows))
	}
}

func TestConflictsMatchesNaive(t *testing.T) {
	for _, rows := range [][]int{{0, 0, 0, 0}, {1, 3, 0, 2}, {0, 1, 2, 3, 4}, {4, 3, 2, 1, 0}, {0, 2, 4, 1, 3, 0}} {
		if got, want := Conflicts(rows), naiveConflicts(rows); got != want {
			t.Errorf("Conflicts(%v) = %d, want %d", rows, got, want)
		}
	}
}

func TestQueensLimits(t *testing.T) {
	for _, s := range QueensSolvers() {
		sol, err := s.Solve(context.Background(), 30, Limits{Nodes: 5})
		if !errors.Is(err, ErrLimit) || sol.Nodes != 5 {
			t.Errorf("%s with 5 nodes: %d nodes, %v", s.Name, sol.Nodes, err)
		}
		if _, err := s.Solve(context.Background(), 3, Limits{}); err == nil {
			t.Errorf("%s solved 3 queens", s.Name)
		}
	}
	if _, err := LookupQueens("x"); err == nil {
		t.Error("LookupQueens(x) found a solver")
	}
}

func mustQueens(t testing.TB, name string) QueensSolver {
	t.Helper()
	s, err := LookupQueens(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// BenchmarkMinConflictsMillion places 1,000,000 queens: the figure of
// README (go test -run X -bench MinConflictsMillion -benchtime 3x).
func BenchmarkMinConflictsMillion(b *testing.B) {
	s := mustQueens(b, "min-conflicts")
	seed := uint64(0)
	for b.Loop() {
		seed++
		sol, err := s.Solve(context.Background(), 1_000_000, Limits{Seed: seed})
		if err != nil || Conflicts(sol.Rows) != 0 {
			b.Fatalf("%v, %d conflicts", err, Conflicts(sol.Rows))
		}
		b.ReportMetric(float64(sol.Nodes), "nodes/op")
	}
}
