package puzzles

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
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

// BenchmarkMinConflictsMillion places 1,000,000 queens (seeds 1, 2, …): the
// figure of docs/ai.md, "N-Queens against C" (go test -run '^$' -bench
// MinConflictsMillion -benchtime 2x -cpu 1). Its go part runs the Go solver; c
// and c-blocked run testdata/minconflicts.c, the same algorithm with the
// same draws in plain C, finding a repair's row in two plain passes (c)
// or block by block as the Go solver does (c-blocked); both are skipped
// without gcc. Compare their cpu-ns/op, the CPU time of a solve.
func BenchmarkMinConflictsMillion(b *testing.B) {
	b.Run("go", func(b *testing.B) { benchQueens(b, "min-conflicts", 1_000_000) })
	for _, c := range []struct{ name, mode string }{{"c", "plain"}, {"c-blocked", "blocked"}} {
		b.Run(c.name, func(b *testing.B) {
			bin := buildMinConflictsC(b)
			cmd := exec.Command(bin, "1000000", "1", strconv.Itoa(b.N), c.mode)
			out, err := cmd.Output()
			if err != nil {
				b.Fatalf("%s: %v", bin, err)
			}
			runs := cRuns(b, out)
			cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(runs[len(runs)-1].nodes), "nodes/op")
		})
	}
}

// BenchmarkSwapRepair places 1,000,000 and 10,000,000 queens by the swap
// repair.
func BenchmarkSwapRepair(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) { benchQueens(b, "swap-repair", n) })
	}
}

// benchQueens solves n queens by the named solver, seeds 1, 2, …, and
// reports the nodes and the CPU time of a solve; the last board is checked.
func benchQueens(b *testing.B, name string, n int) {
	s := mustQueens(b, name)
	var sol QueensSolution
	var err error
	seed := uint64(0)
	start := cpuTime(b)
	for b.Loop() {
		seed++
		if sol, err = s.Solve(context.Background(), n, Limits{Seed: seed}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
	b.ReportMetric(float64(sol.Nodes), "nodes/op")
	if c := Conflicts(sol.Rows); c != 0 {
		b.Fatalf("%d conflicts", c)
	}
}

// buildMinConflictsC compiles testdata/minconflicts.c with gcc -O2, or
// skips the test without gcc.
func buildMinConflictsC(tb testing.TB) string {
	tb.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		tb.Skip("no gcc to build testdata/minconflicts.c")
	}
	bin := filepath.Join(tb.TempDir(), "minconflicts")
	if out, err := exec.Command(gcc, "-O2", "-o", bin, filepath.Join("testdata", "minconflicts.c")).CombinedOutput(); err != nil {
		tb.Fatalf("gcc: %v\n%s", err, out)
	}
	return bin
}

// cRun is a solve of testdata/minconflicts.c: its nodes and its rows' hash.
type cRun struct {
	nodes uint64
	hash  string
}

// cRuns reads minconflicts.c's output: a line "nodes hash" a run, then the
// CPU time.
func cRuns(tb testing.TB, out []byte) []cRun {
	tb.Helper()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var runs []cRun
	for _, line := range lines[:len(lines)-1] {
		var r cRun
		if _, err := fmt.Sscanf(line, "%d %s", &r.nodes, &r.hash); err != nil {
			tb.Fatalf("minconflicts.c printed %q: %v", line, err)
		}
		runs = append(runs, r)
	}
	return runs
}

// rowsHash is minconflicts.c's hash of a board: FNV-1a over the rows.
func rowsHash(rows []int) string {
	h := uint64(14695981039346656037)
	for _, r := range rows {
		h ^= uint64(uint32(r))
		h *= 1099511628211
	}
	return fmt.Sprintf("%016x", h)
}

// TestMinConflictsMatchesC: the C port of min-conflicts the benchmark
// measures ours against places the same boards after the same nodes, in
// both its ways of finding a repair's row, so they run the same algorithm
// with the same draws.
func TestMinConflictsMatchesC(t *testing.T) {
	bin := buildMinConflictsC(t)
	const n = 20_000
	for _, mode := range []string{"plain", "blocked"} {
		out, err := exec.Command(bin, strconv.Itoa(n), "7", "3", mode).Output()
		if err != nil {
			t.Fatal(err)
		}
		runs := cRuns(t, out)
		if len(runs) != 3 {
			t.Fatalf("minconflicts.c %s printed %q; want 3 runs", mode, out)
		}
		s := mustQueens(t, "min-conflicts")
		for k, c := range runs {
			sol, err := s.Solve(context.Background(), n, Limits{Seed: 7 + uint64(k)})
			if err != nil {
				t.Fatal(err)
			}
			if got := (cRun{sol.Nodes, rowsHash(sol.Rows)}); got != c {
				t.Errorf("seed %d: Go %+v, C %s %+v", 7+k, got, mode, c)
			}
		}
	}
}

// TestQueensLookAtTheClockByWorkDone drives each N-Queens solver with a
// clock that runs out at its third look: the solver must stop there,
// having done no work after it, and must have looked at the clock after
// at most checkWork units of work plus one repair's scan. Min-conflicts'
// repairs, each a scan of the N rows and N columns, are counted
// independently of the budget's units: between two looks at most
// checkWork/(2N) + 1 of them.
func TestQueensLookAtTheClockByWorkDone(t *testing.T) {
	const n = 20_000
	for _, s := range QueensSolvers() {
		b := newBudget(context.Background(), Limits{Seed: 7})
		type look struct{ work, nodes uint64 }
		var looks []look
		b.check = func() error {
			looks = append(looks, look{b.work, b.nodes})
			if len(looks) >= 3 {
				return context.DeadlineExceeded
			}
			return nil
		}
		_, _, err := s.solve(n, Limits{Seed: 7}, b)
		if !errors.Is(err, context.DeadlineExceeded) || len(looks) != 3 {
			t.Fatalf("%s: %v after %d looks at the clock; want the deadline at the third", s.Name, err, len(looks))
		}
		if last := looks[len(looks)-1]; b.work != last.work || b.nodes != last.nodes {
			t.Errorf("%s: %d units and %d nodes at the deadline, %d and %d at the return", s.Name, last.work, last.nodes, b.work, b.nodes)
		}
		for i := 1; i < len(looks); i++ {
			if gap := looks[i].work - looks[i-1].work; gap > checkWork+2*n {
				t.Errorf("%s: %d units of work between looks %d and %d; want at most %d", s.Name, gap, i, i+1, checkWork+2*n)
			}
		}
	}

	// Min-conflicts on N = 20,000 has dozens of repairs to do after its
	// N columns are placed; a clock that never runs out sees them all.
	b := newBudget(context.Background(), Limits{Seed: 7})
	var nodes []uint64
	b.check = func() error { nodes = append(nodes, b.nodes); return nil }
	if _, _, err := minConflicts(n, Limits{Seed: 7}, b); err != nil {
		t.Fatal(err)
	}
	if b.nodes < n+50 {
		t.Fatalf("%d nodes: want at least 50 repairs to test", b.nodes)
	}
	nodes = append(nodes, b.nodes) // the return, as a last look
	for i := 1; i < len(nodes); i++ {
		// The first N nodes place the queens, one each; the others repair.
		if repairs := nodes[i] - max(nodes[i-1], n); nodes[i] > n && repairs > checkWork/(2*n)+1 {
			t.Errorf("%d repairs of %d rows and columns each between two looks at the clock; want at most %d", repairs, n, checkWork/(2*n)+1)
		}
	}
}

// TestQueensMemoryBudget: a board over the budget is refused before it is
// allocated, whatever N.
func TestQueensMemoryBudget(t *testing.T) {
	for _, s := range QueensSolvers() {
		for _, n := range []int{1 << 20, 1 << 62} {
			sol, err := s.Solve(context.Background(), n, Limits{Memory: 1 << 20})
			if !errors.Is(err, ErrMemory) || sol.Nodes != 0 {
				t.Errorf("%s on %d queens within 1 MiB: %d nodes, %v; want ErrMemory", s.Name, n, sol.Nodes, err)
			}
		}
	}
}

// TestBacktrackingNeedsNoStack: backtracking hundreds of columns deep
// keeps its place in a slice, not in the goroutine's stack.
func TestBacktrackingNeedsNoStack(t *testing.T) {
	s := mustQueens(t, "backtracking")
	done := make(chan error)
	go func() {
		// The package's tests run one at a time: no other goroutine
		// meets the lower limit.
		defer debug.SetMaxStack(debug.SetMaxStack(64 << 10))
		_, err := s.Solve(context.Background(), 2000, Limits{Nodes: 4000})
		done <- err
	}()
	if err := <-done; !errors.Is(err, ErrLimit) {
		t.Fatalf("2,000 queens with 4,000 nodes: %v; want the node limit", err)
	}
}

// TestSwapRepairSolves: the swap repair places valid boards for every N
// from 4 to 300 and for large N, over several seeds, and a seed replays
// its board.
func TestSwapRepairSolves(t *testing.T) {
	s := mustQueens(t, "swap-repair")
	sizes := []int{1000, 4096, 100_000}
	if testing.Short() {
		sizes = sizes[:2]
	}
	for n := 4; n <= 300; n++ {
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		for seed := uint64(1); seed <= 3; seed++ {
			sol, err := s.Solve(context.Background(), n, Limits{Seed: seed})
			if err != nil {
				t.Fatalf("N = %d, seed %d: %v", n, seed, err)
			}
			if len(sol.Rows) != n || Conflicts(sol.Rows) != 0 || sol.Nodes < uint64(n) {
				t.Fatalf("N = %d, seed %d: %d rows, %d conflicts, %d nodes", n, seed, len(sol.Rows), Conflicts(sol.Rows), sol.Nodes)
			}
			if n <= 12 && naiveConflicts(sol.Rows) != 0 {
				t.Fatalf("N = %d, seed %d: %v attack each other", n, seed, sol.Rows)
			}
		}
	}
	for _, n := range []int{8, 5000} {
		a, errA := s.Solve(context.Background(), n, Limits{Seed: 42})
		b, errB := s.Solve(context.Background(), n, Limits{Seed: 42})
		c, errC := s.Solve(context.Background(), n, Limits{Seed: 43})
		if err := errors.Join(errA, errB, errC); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Rows, b.Rows) || a.Nodes != b.Nodes {
			t.Errorf("N = %d, seed 42 twice: %d and %d nodes, boards equal: %v", n, a.Nodes, b.Nodes, slices.Equal(a.Rows, b.Rows))
		}
		if n > 8 && slices.Equal(a.Rows, c.Rows) {
			t.Errorf("N = %d: seeds 42 and 43 placed the same board", n)
		}
	}
}

// TestQueensWithoutSolution: every solver refuses N = 1 to 3 (2 and 3 have
// no solution) with an error that says so, having done no work.
func TestQueensWithoutSolution(t *testing.T) {
	for _, s := range QueensSolvers() {
		for _, n := range []int{-1, 0, 1, 2, 3} {
			sol, err := s.Solve(context.Background(), n, Limits{})
			if err == nil || !strings.Contains(err.Error(), "want at least 4") || sol.Nodes != 0 || sol.Rows != nil {
				t.Errorf("%s on N = %d: %+v, %v; want an error saying N must be at least 4", s.Name, n, sol, err)
			}
		}
	}
}

// TestFewestInCountsTheLeast: min-conflicts' row scan returns the least
// of row+d1+d2 and how many rows have it, as a plain count does, for
// every length up to a few blocks of four and for a least that falls
// first, last, repeats or is reached only after larger values.
func TestFewestInCountsTheLeast(t *testing.T) {
	rnd := wyrand{5}
	for n := 1; n <= 40; n++ {
		for trial := range 50 {
			row, d1, d2 := make([]int32, n), make([]int32, n), make([]int32, n)
			for i := range n {
				row[i], d1[i], d2[i] = int32(rnd.intN(3)), int32(rnd.intN(2+trial%4)), int32(rnd.intN(3))
			}
			if trial%5 == 0 {
				row[n-1], d1[n-1], d2[n-1] = 0, 0, 0 // the least last
			}
			want, wantTies := int32(math.MaxInt32), int32(0)
			for i := range n {
				switch v := row[i] + d1[i] + d2[i]; {
				case v < want:
					want, wantTies = v, 1
				case v == want:
					wantTies++
				}
			}
			if got, ties := fewestIn(row, d1, d2); got != want || ties != wantTies {
				t.Fatalf("%v + %v + %v: least %d on %d rows, want %d on %d", row, d1, d2, got, ties, want, wantTies)
			}
		}
	}
}
