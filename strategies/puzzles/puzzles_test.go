package puzzles

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/slidingtile"
)

// distances8 is a plain breadth-first search from the goal over every
// state of the 8-puzzle, on its own representation (the text of a 3×3
// array): each state's optimal solution length.
var distances8 = func() map[string]int {
	type board [9]int
	text := func(b board) string {
		parts := make([]string, 9)
		for i, x := range b {
			parts[i] = strconv.Itoa(x)
		}
		return strings.Join(parts, ",")
	}
	goal := board{1, 2, 3, 4, 5, 6, 7, 8, 0}
	// Keyed by the array while searching, by its text only at the end:
	// this runs at every start of the test binary, and texts cost most.
	dist := map[board]int{goal: 0}
	queue := []board{goal}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		blank := 0
		for i, x := range b {
			if x == 0 {
				blank = i
			}
		}
		r, c := blank/3, blank%3
		for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			rr, cc := r+d[0], c+d[1]
			if rr < 0 || rr > 2 || cc < 0 || cc > 2 {
				continue
			}
			nb := b
			nb[blank], nb[rr*3+cc] = nb[rr*3+cc], 0
			if _, ok := dist[nb]; !ok {
				dist[nb] = dist[b] + 1
				queue = append(queue, nb)
			}
		}
	}
	byText := make(map[string]int, len(dist))
	for b, d := range dist {
		byText[text(b)] = d
	}
	return byText
}()

func mustParse(t testing.TB, text string) *slidingtile.Position {
	t.Helper()
	p, err := slidingtile.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkSolution plays moves on p and fails unless they are legal and end
// on the goal.
func checkSolution(t *testing.T, name string, p *slidingtile.Position, moves []engine.Move) {
	t.Helper()
	q := p.Clone().(*slidingtile.Position)
	for i, m := range moves {
		if !q.Legal(m) {
			t.Fatalf("%s on %v: move %d (%s) is illegal in %v", name, p, i+1, q.FormatMove(m), q)
		}
		q.Play(m)
	}
	if !q.Solved() {
		t.Fatalf("%s on %v: %s ends on %v, not the goal", name, p, slidingtile.FormatMoves(moves), q)
	}
}

// random8 returns n random solvable 8-puzzle states with the distance to
// the goal of each, drawn from the BFS table.
func random8(seed uint64, n int) []string {
	all := make([]string, 0, len(distances8))
	for s := range distances8 {
		all = append(all, s)
	}
	// Map order is random: sort for a reproducible draw.
	slices.Sort(all)
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]string, n)
	for i := range out {
		out[i] = all[rng.IntN(len(all))]
	}
	return out
}

func TestDistanceTable(t *testing.T) {
	if len(distances8) != 181440 {
		t.Fatalf("%d states, want 181,440", len(distances8))
	}
	far := 0
	for _, d := range distances8 {
		far = max(far, d)
	}
	if far != 31 {
		t.Fatalf("diameter %d, want 31", far)
	}
}

// at8 returns one 8-puzzle state at each of the distances, drawn from the
// BFS table.
func at8(seed uint64, distances ...int) []string {
	out := make([]string, 0, len(distances))
	for _, d := range distances {
		var far []string
		for s, sd := range distances8 {
			if sd == d {
				far = append(far, s)
			}
		}
		slices.Sort(far)
		out = append(out, far[rand.New(rand.NewPCG(seed, uint64(d))).IntN(len(far))])
	}
	return out
}

// TestOptimalSolversAgreeWithBFS: on 8-puzzle states, the optimal solvers
// find solutions exactly as long as the BFS distance; the others find
// valid solutions, never shorter. The states are one at each distance
// where a solver's treatment changes (the goal; seed003-bfs's last and
// first skipped; ids's last under -short and first skipped; the farthest)
// and a few between, then, without -short, 300 random ones (.ci/run's
// long step: under -race each costs about a second of CPU).
func TestOptimalSolversAgreeWithBFS(t *testing.T) {
	states := at8(11, 0, 6, 12, 13, 18, 22, 23, 31)
	if !testing.Short() {
		states = append(states, random8(11, 300)...)
	}
	for _, text := range states {
		p := mustParse(t, text)
		want := distances8[text]
		for _, s := range TileSolvers() {
			if s.Name == "seed003-bfs" && want > 12 {
				continue // exponential: 3^12 nodes already
			}
			if s.Name == "ids" && want > 22 && testing.Short() {
				continue
			}
			sol, err := s.Solve(context.Background(), p, Limits{})
			if err != nil {
				t.Fatalf("%s on %s: %v", s.Name, text, err)
			}
			checkSolution(t, s.Name, p, sol.Moves)
			switch {
			case s.Optimal && len(sol.Moves) != want:
				t.Fatalf("%s on %s: %d moves, BFS distance %d", s.Name, text, len(sol.Moves), want)
			case len(sol.Moves) < want:
				t.Fatalf("%s on %s: %d moves, shorter than the BFS distance %d", s.Name, text, len(sol.Moves), want)
			case sol.Optimal != s.Optimal || sol.Nodes == 0 && want > 0:
				t.Fatalf("%s on %s: optimal %v, %d nodes", s.Name, text, sol.Optimal, sol.Nodes)
			}
		}
	}
}

// TestHeuristicsAreAdmissible checks every 8-puzzle state: the 4-4 pattern
// database never overestimates the BFS distance, is 0 only on the goal and
// sometimes beats the Manhattan distance, which the one-tile database
// equals.
func TestHeuristicsAreAdmissible(t *testing.T) {
	d := DefaultPDB(3)
	better := 0
	for text, dist := range distances8 {
		p := mustParse(t, text)
		h := d.Estimate(p)
		if h > dist {
			t.Fatalf("%s: PDB estimate %d exceeds the distance %d", text, h, dist)
		}
		if m := manhattanPDB[3].Estimate(p); m != p.Manhattan() {
			t.Fatalf("%s: one-tile PDB %d, Manhattan %d", text, m, p.Manhattan())
		}
		if h > p.Manhattan() {
			better++
		}
		if (h == 0) != (dist == 0) {
			t.Fatalf("%s: estimate %d at distance %d", text, h, dist)
		}
	}
	if better == 0 {
		t.Error("the pattern database never beats the Manhattan distance")
	}
}

func TestLimits(t *testing.T) {
	p := mustParse(t, "8,6,7,2,5,4,3,0,1") // 31 moves from the goal
	// 30 nodes: idastar-pdb78's exact table expands one a move.
	for _, s := range TileSolvers() {
		sol, err := s.Solve(context.Background(), p, Limits{Nodes: 30})
		if !errors.Is(err, ErrLimit) || sol.Nodes != 30 {
			t.Errorf("%s with 30 nodes: %d nodes, %v; want ErrLimit", s.Name, sol.Nodes, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, s := range TileSolvers() {
		if _, err := s.Solve(ctx, p, Limits{}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: %v", s.Name, err)
		}
	}
	if sol, err := lookup(t, "dfs").Solve(context.Background(), p, Limits{Depth: 30}); !errors.Is(err, ErrLimit) {
		t.Errorf("dfs capped at 30 on a 31-move position: %v, %v", sol, err)
	}
	if _, err := LookupTile("nope"); err == nil || !strings.Contains(err.Error(), "idastar-pdb") {
		t.Errorf("LookupTile(nope): %v", err)
	}
}

func lookup(t *testing.T, name string) TileSolver {
	t.Helper()
	s, err := LookupTile(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// korf100 reads testdata/korf100.txt in this repository's convention.
func korf100(t testing.TB) (positions []*slidingtile.Position, lengths []int) {
	f, err := os.Open("testdata/korf100.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := bufio.NewScanner(f)
	for in.Scan() {
		line := in.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Fields(line)
		length, _ := strconv.Atoi(fields[1])
		cells := make([]string, 16)
		for i, f := range fields[2:] {
			// Half a turn: Korf's cell i is our cell 15 − i; tile t is 16 − t.
			tile, _ := strconv.Atoi(f)
			if tile != 0 {
				tile = 16 - tile
			}
			cells[15-i] = strconv.Itoa(tile)
		}
		p, err := slidingtile.Parse(strings.Join(cells, ","))
		if err != nil {
			t.Fatalf("instance %s: %v", fields[0], err)
		}
		positions, lengths = append(positions, p), append(lengths, length)
	}
	if len(positions) != 100 {
		t.Fatalf("%d instances", len(positions))
	}
	return positions, lengths
}

// TestKorfEasiest solves the easiest of Korf's instances (55, 41 moves)
// with the pattern database. Its 6-6-3 tables take 15 s of CPU to build
// under -race, where the test says nothing more, so it runs without
// -short (.ci/run's long step); under -short TestPackedSearchIsPDBSearch
// builds and searches the 15-puzzle's tables (5-5-5) with the same code.
func TestKorfEasiest(t *testing.T) {
	if testing.Short() {
		t.Skip("the 6-6-3 tables' build under -race: run without -short")
	}
	positions, lengths := korf100(t)
	for _, i := range []int{54, 78} { // 41 and 42 moves
		sol, err := lookup(t, "idastar-pdb").Solve(context.Background(), positions[i], Limits{})
		if err != nil {
			t.Fatal(err)
		}
		checkSolution(t, "idastar-pdb", positions[i], sol.Moves)
		if len(sol.Moves) != lengths[i] {
			t.Errorf("instance %d: %d moves, want %d", i+1, len(sol.Moves), lengths[i])
		}
	}
}

// TestKorf100 runs IDA* with a pattern database on Korf's 100 instances
// and prints the totals, nodes and CPU time (user and system): the
// measurement of docs/ai.md, "`gambit solve`", and of
// scripts/figures/tiles.sh. It is long; it runs only when GAMBIT_KORF100
// names how many instances to solve (1–100), e.g. GAMBIT_KORF100=100 go
// test -run TestKorf100 -v. GAMBIT_KORF100_SOLVER names the solver,
// idastar-pdb (6-6-3) unless set; idastar-pdb78 loads its tables from
// PDBDir or builds them there first, outside the totals.
func TestKorf100(t *testing.T) {
	count, _ := strconv.Atoi(os.Getenv("GAMBIT_KORF100"))
	if count <= 0 {
		t.Skip("set GAMBIT_KORF100=N to solve the first N of Korf's instances")
	}
	name := cmp.Or(os.Getenv("GAMBIT_KORF100_SOLVER"), "idastar-pdb")
	s := lookup(t, name)
	positions, lengths := korf100(t)
	switch name {
	case "idastar-pdb":
		d := DefaultPDB(4)
		t.Logf("pattern database %v: %d bytes, built in %v", d.Patterns(), d.Bytes(), d.Built.Round(time.Millisecond))
	case "idastar-pdb78":
		slog.SetLogLoggerLevel(slog.LevelDebug) // the build's levels
		cpu := cpuTime(t)
		d, err := PDB78(4, Limits{Memory: pdb78BuildBytes})
		if err != nil {
			t.Fatal(err)
		}
		how := map[bool]string{false: "built", true: "loaded"}[d.Loaded]
		fmt.Printf("pattern database %v: %d bytes, %s in %v (%.1f s of CPU)\n", d.Patterns(), d.Bytes(), how, d.Built.Round(time.Millisecond), (cpuTime(t) - cpu).Seconds())
	}
	var nodes uint64
	var spent time.Duration
	cpu := cpuTime(t)
	for i := range min(count, 100) {
		start := time.Now()
		sol, err := s.Solve(context.Background(), positions[i], Limits{})
		elapsed := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		checkSolution(t, name, positions[i], sol.Moves)
		if len(sol.Moves) != lengths[i] {
			t.Errorf("instance %d: %d moves, want %d", i+1, len(sol.Moves), lengths[i])
		}
		nodes += sol.Nodes
		spent += elapsed
		t.Logf("instance %d: %d moves, %d nodes, %v", i+1, len(sol.Moves), sol.Nodes, elapsed.Round(time.Millisecond))
	}
	fmt.Printf("%s, Korf's first %d: %d nodes, %.2f s of CPU, %v\n", name, min(count, 100), nodes, (cpuTime(t) - cpu).Seconds(), spent.Round(time.Millisecond))
}

// TestMemoryBudget runs the graph searches on an 80-move 15-puzzle, one
// of the hardest, within 4 MiB: each must stop at the budget, before its
// node cap, having never held more than the budget.
func TestMemoryBudget(t *testing.T) {
	p := mustParse(t, "0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1")
	const memory = 4 << 20
	for _, name := range []string{"bfs", "seed003-bfs", "dfs", "astar"} {
		s := lookup(t, name)
		l := Limits{Nodes: 1_000_000, Memory: memory}
		b := newBudget(context.Background(), l)
		var peak uint64
		check := b.check
		b.check = func() error { peak = max(peak, b.held); return check() }
		_, err := s.solve(context.Background(), newState(p), l, b)
		peak = max(peak, b.held)
		if !errors.Is(err, ErrMemory) || !strings.HasSuffix(err.Error(), "memory budget of 4 MiB reached") {
			t.Errorf("%s within 4 MiB: %v after %d nodes; want ErrMemory", name, err, b.nodes)
		}
		// Full: the next entry, at most a link and an open entry, did not fit.
		if peak > memory || b.held+linkBytes+openBytes < memory {
			t.Errorf("%s: held %d bytes at most, %d at the end; want at most %d, and full", name, peak, b.held, memory)
		}
	}
	// The bot gives its solvers a node cap and no budget: the default.
	if b := newBudget(context.Background(), Limits{Nodes: 200_000}); b.memory != DefaultMemory {
		t.Errorf("a solver without a budget has %d bytes; want DefaultMemory", b.memory)
	}
	// The searches of one path at a time hold next to nothing.
	for _, name := range []string{"ids", "idastar"} {
		if _, err := lookup(t, name).Solve(context.Background(), p, Limits{Nodes: 100_000, Memory: 1 << 10}); !errors.Is(err, ErrLimit) {
			t.Errorf("%s within 1 KiB: %v; want the node limit", name, err)
		}
	}
}
