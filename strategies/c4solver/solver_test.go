package c4solver

import (
	"bufio"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/strategies/internal/clock"
)

// testCase is one line of a benchmark set: a position and its score.
type testCase struct {
	moves string
	score int
}

// loadSet reads engine/connect4/testdata/Test_<name>.
func loadSet(tb testing.TB, name string) []testCase {
	tb.Helper()
	f, err := os.Open("../../engine/connect4/testdata/Test_" + name)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []testCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			tb.Fatalf("%s: line %d: %q", name, len(out)+1, sc.Text())
		}
		score, err := strconv.Atoi(fields[1])
		if err != nil {
			tb.Fatalf("%s: line %d: %v", name, len(out)+1, err)
		}
		out = append(out, testCase{fields[0], score})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

func mustParse(tb testing.TB, moves string) *connect4.Position {
	tb.Helper()
	p, err := connect4.Parse(moves)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// testTableBytes keeps the tests' tables small: the race detector
// shadows every byte.
const testTableBytes = 8 << 20

// sample returns every case, or every 10th under -short.
func sample(cases []testCase) []testCase {
	if !testing.Short() {
		return cases
	}
	var out []testCase
	for i := 0; i < len(cases); i += 10 {
		out = append(out, cases[i])
	}
	return out
}

// after returns p with m played, p unchanged.
func after(p *connect4.Position, m engine.Move) *connect4.Position {
	child := *p
	child.Play(m)
	return &child
}

// checkSolve solves p strongly and weakly and checks the scores against
// want and that each best move achieves its score: the child's exact
// score is the negation of p's (weak: of the same sign, unless p is lost).
func checkSolve(t *testing.T, s *Solver, p *connect4.Position, want int) {
	t.Helper()
	ctx := context.Background()
	r, err := s.Solve(ctx, p)
	if err != nil || r.Score != want {
		t.Fatalf("%s: Solve = %+v, %v; want score %d", p, r, err, want)
	}
	weak, err := s.SolveWeak(ctx, p)
	if err != nil || weak.Score != sign(want) {
		t.Fatalf("%s: SolveWeak = %+v, %v; want score %d", p, weak, err, sign(want))
	}
	if p.Terminal() {
		if r.BestMove != engine.NoMove || weak.BestMove != engine.NoMove {
			t.Errorf("%s: finished game, best moves %d and %d; want NoMove", p, r.BestMove, weak.BestMove)
		}
		return
	}
	for _, tc := range []struct {
		kind string
		move engine.Move
	}{{"strong", r.BestMove}, {"weak", weak.BestMove}} {
		if !p.Legal(tc.move) {
			t.Fatalf("%s: %s best move %d is illegal", p, tc.kind, tc.move)
		}
		child, err := s.Solve(ctx, after(p, tc.move))
		if err != nil {
			t.Fatal(err)
		}
		got := -child.Score
		if tc.kind == "weak" && want >= 0 {
			got, want = sign(got), sign(want)
		}
		if (tc.kind == "strong" || want >= 0) && got != want {
			t.Errorf("%s: %s best move %s scores %d; want %d", p, tc.kind, p.FormatMove(tc.move), got, want)
		}
	}
}

func TestPonsSets(t *testing.T) {
	for _, set := range []string{"L3_R1", "L2_R1"} {
		t.Run(set, func(t *testing.T) {
			s := New(testTableBytes)
			for _, tc := range sample(loadSet(t, set)) {
				checkSolve(t, s, mustParse(t, tc.moves), tc.score)
			}
		})
	}
}

// TestTinyTable solves with the smallest table, where nearly every store
// replaces another position's entry.
func TestTinyTable(t *testing.T) {
	s := New(0)
	if len(s.tt.entries) != minEntries {
		t.Fatalf("New(0): %d entries, want %d", len(s.tt.entries), minEntries)
	}
	cases := loadSet(t, "L2_R1")
	for _, tc := range cases[:20] {
		checkSolve(t, s, mustParse(t, tc.moves), tc.score)
	}
}

func TestHandPositions(t *testing.T) {
	for _, tc := range []struct {
		moves string
		score int
		best  []engine.Move // the moves that achieve score, nil: not checked
	}{
		{"121212", 18, []engine.Move{0}},    // X wins at once in column 1
		{"1212123", 18, []engine.Move{1}},   // O wins at once in column 2
		{"314151", 18, []engine.Move{1, 5}}, // X wins at once in column 2 or 6
		{"31415", -18, nil},                 // X threatens columns 2 and 6: O loses at move 7
		{"1212121", -18, nil},               // X has won at move 7
	} {
		p := mustParse(t, tc.moves)
		s := New(DefaultTableBytes)
		checkSolve(t, s, p, tc.score)
		if tc.best == nil {
			continue
		}
		r, _ := s.Solve(context.Background(), p)
		if !slices.Contains(tc.best, r.BestMove) {
			t.Errorf("%s: best move %d, want one of %v", tc.moves, r.BestMove, tc.best)
		}
	}
}

// naive is the reference: a full minimax over engine/connect4 with its own
// scoring of finished games.
func naive(p *connect4.Position) int {
	if p.Terminal() {
		return p.Score(p.SideToMove())
	}
	best := -connect4.Cells
	var buf [connect4.Width]engine.Move
	for _, m := range p.Moves(buf[:0]) {
		p.Play(m)
		best = max(best, -naive(p))
		p.Undo()
	}
	return best
}

// randomEndgame plays random moves from the empty board until empty cells
// are left, avoiding wins while it can, so that most positions are still
// open; it stops early at a finished game.
func randomEndgame(rng *rand.Rand, empty int) *connect4.Position {
	p := connect4.New()
	var buf [connect4.Width]engine.Move
	for p.Ply() < connect4.Cells-empty && !p.Terminal() {
		moves := p.Moves(buf[:0])
		rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
		m := moves[0]
		for _, c := range moves {
			p.Play(c)
			won := p.Terminal() && p.Result(p.SideToMove()) == engine.Loss
			p.Undo()
			if !won {
				m = c
				break
			}
		}
		p.Play(m)
	}
	return p
}

// TestBruteForce compares the solver with the naive minimax on random
// positions with at most 10 empty cells, the scores of every move too.
func TestBruteForce(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 40
	}
	rng := rand.New(rand.NewPCG(4, 2))
	s := New(testTableBytes)
	open := 0
	for range n {
		p := randomEndgame(rng, 1+rng.IntN(10))
		want := naive(p)
		checkSolve(t, s, p, want)
		if p.Terminal() {
			continue
		}
		open++
		scores, err := s.MoveScores(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		var buf [connect4.Width]engine.Move
		moves := p.Moves(buf[:0])
		if len(scores) != len(moves) {
			t.Fatalf("%s: %d move scores for %d moves", p, len(scores), len(moves))
		}
		best := -connect4.Cells
		for i, ms := range scores {
			if w := -naive(after(p, moves[i])); ms.Move != moves[i] || ms.Score != w {
				t.Errorf("%s: move score %+v; want move %d scoring %d", p, ms, moves[i], w)
			}
			best = max(best, ms.Score)
		}
		if best != want {
			t.Errorf("%s: best move score %d, position score %d", p, best, want)
		}
	}
	if open < n/2 {
		t.Errorf("only %d of %d positions are unfinished games", open, n)
	}
}

// TestCancel checks that a done context stops a solve at once or soon,
// with an error wrapping the context's, and that the solver stays right.
func TestCancel(t *testing.T) {
	s := New(testTableBytes)
	s.SetBook(nil) // the book answers the empty board at once
	start := mustParse(t, "start")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err := s.Solve(cancelled, start); !errors.Is(err, context.Canceled) || r.Nodes != 0 {
		t.Errorf("cancelled context: %+v, %v; want context.Canceled before any search", r, err)
	}

	// The empty board takes the solver minutes without the book: a solve
	// that ignored the deadline would not return within the hang guard.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	begin := time.Now()
	r, err := s.Solve(ctx, start)
	if elapsed := time.Since(begin); !errors.Is(err, context.DeadlineExceeded) || elapsed > 30*time.Second {
		t.Errorf("20 ms deadline: %+v, %v after %v; want context.DeadlineExceeded soon after", r, err, elapsed)
	}
	if r.Nodes == 0 {
		t.Errorf("20 ms deadline: no nodes searched before the deadline")
	}
	if _, err := s.MoveScores(ctx, start); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("MoveScores after the deadline: %v; want context.DeadlineExceeded", err)
	}
	// What the stopped search left in the table is still right.
	cases := loadSet(t, "L2_R2")
	for _, tc := range cases[:5] {
		checkSolve(t, s, mustParse(t, tc.moves), tc.score)
	}
}

func TestTable(t *testing.T) {
	tt := newTable(0, false)
	if l, u, m := tt.get(0); l != noLower || u != noUpper || m != -1 {
		t.Errorf("empty table, key 0: %d %d %d; want no bounds, no move", l, u, m)
	}
	const key = 0x1234567890abc
	tt.put(key, 10, -5, noUpper, 2)
	tt.put(key, 10, noLower, 7, -1)
	tt.put(key, 10, -9, 9, 4) // looser: changes nothing
	if l, u, m := tt.get(key); l != -5 || u != 7 || m != 2 {
		t.Errorf("after merging: %d %d %d; want -5 7 2", l, u, m)
	}
	tt.put(key, 10, 3, 3, 6)
	if l, u, m := tt.get(key); l != 3 || u != 3 || m != 6 {
		t.Errorf("after an exact score: %d %d %d; want 3 3 6", l, u, m)
	}
	// Another key in the same slot replaces the entry.
	other := uint64(key + 1)
	for tt.index(other) != tt.index(key) {
		other++
	}
	tt.put(other, 10, 21, 21, 0)
	if l, u, m := tt.get(key); l != noLower || u != noUpper || m != -1 {
		t.Errorf("replaced key: %d %d %d; want no bounds, no move", l, u, m)
	}
	if l, u, m := tt.get(other); l != 21 || u != 21 || m != 0 {
		t.Errorf("replacing key: %d %d %d; want 21 21 0", l, u, m)
	}
}

func TestSolveAllocatesNothing(t *testing.T) {
	s := New(testTableBytes)
	p := mustParse(t, loadSet(t, "L2_R2")[0].moves)
	ctx := context.Background()
	if allocs := testing.AllocsPerRun(3, func() {
		s.Reset()
		if _, err := s.Solve(ctx, p); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("Solve allocates %v times a run, want 0", allocs)
	}
}

// TestNullWindowContract checks every null-window search the narrowing
// could make: for each alpha, negamax's result must be a true bound on
// the exact score on the side of alpha it reports. The table is shared by
// all, so later searches lean on what earlier ones stored.
func TestNullWindowContract(t *testing.T) {
	s := New(testTableBytes)
	cases := sample(loadSet(t, "L2_R1"))
	if testing.Short() {
		cases = cases[:30]
	}
	for _, tc := range cases {
		p := mustParse(t, tc.moves)
		cur := p.Bitboard(p.SideToMove())
		mask := p.Bitboard(engine.X) | p.Bitboard(engine.O)
		if playable(mask)&winningCells(cur, mask) != 0 {
			continue // the search's precondition: no immediate win
		}
		oppWin := winningCells(cur^mask, mask)
		for alpha := -cells / 2; alpha <= cells/2; alpha++ {
			v := s.negamax(cur, mask, oppWin, p.Ply(), alpha)
			if v > alpha && tc.score < v || v <= alpha && tc.score > v {
				t.Fatalf("%s (score %d): search above %d returned %d", tc.moves, tc.score, alpha, v)
			}
		}
	}
}

// TestSolveWithinStopsAtTheBudget: a solve with a node budget stops at the
// first look after the budget is used up (every clock.Interval nodes), with
// an error wrapping ErrNodeBudget, however fast the machine is; and the
// solver stays right.
func TestSolveWithinStopsAtTheBudget(t *testing.T) {
	s := New(testTableBytes)
	s.SetBook(nil) // the book answers the empty board at once
	start := mustParse(t, "start")
	for _, budget := range []uint64{1, 5_000, 100_000} {
		r, err := s.SolveWithin(context.Background(), start, budget)
		if !errors.Is(err, ErrNodeBudget) || r.Nodes < budget || r.Nodes > budget+clock.Interval {
			t.Errorf("budget %d: %d nodes, %v; want ErrNodeBudget within %d nodes after", budget, r.Nodes, err, clock.Interval)
		}
	}
	for _, tc := range loadSet(t, "L2_R2")[:5] {
		p := mustParse(t, tc.moves)
		if r, err := s.SolveWithin(context.Background(), p, 0); err != nil || r.Score != tc.score {
			t.Errorf("%s without budget: score %d, %v; want %d", tc.moves, r.Score, err, tc.score)
		}
	}
}

// TestNewLeavesTheTableUntouched: making a solver does not page in its
// table (the solves do, under their context): touching 64 MiB held the
// first Connect Four move of a process 350–900 ms past a 20 ms limit on a
// busy machine, before the search could look at its clock. Measured in
// resident memory, on Linux, in a fresh process of this test binary: in
// one that already freed large tables, the runtime would clear reused
// memory itself.
func TestNewLeavesTheTableUntouched(t *testing.T) {
	if _, ok := residentBytes(); !ok {
		t.Skip("no /proc/self/statm")
	}
	if os.Getenv("C4SOLVER_FRESH_PROCESS") == "" {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestNewLeavesTheTableUntouched$", "-test.count", "1")
		cmd.Env = append(os.Environ(), "C4SOLVER_FRESH_PROCESS=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("in a fresh process: %v\n%s", err, out)
		}
		return
	}
	before, _ := residentBytes()
	const size = 256 << 20
	s := New(size)
	after, _ := residentBytes()
	if grown := after - before; grown > size/4 {
		t.Errorf("New(%d MiB) made %d MiB resident, want the table left to the solves", size>>20, grown>>20)
	}
	runtime.KeepAlive(s)
}

// residentBytes is the process's resident memory (Linux).
func residentBytes() (int64, bool) {
	text, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	fields := strings.Fields(string(text))
	if len(fields) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	return pages * int64(os.Getpagesize()), err == nil
}
