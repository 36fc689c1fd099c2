package adjsearch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/strategies/adjeval"
)

// Run these one at a time under nice, e.g.
//
//	nice -n 19 go test -run '^$' -bench 'OpeningDepth' -benchtime 5x ./strategies/adjsearch
//
// Each reports its figures as metrics; docs/ai.md quotes them.

// BenchmarkOpeningDepth: the depth the engine completes from the start of
// a 28-round game in 1 s of wall time, on one and two threads, each run
// with a new Engine (a cold table, paged in during the search); nodes/s
// by the wall clock, nodes/cpu-s by the CPU time the process got, which
// on a busy machine is less than the second.
func BenchmarkOpeningDepth(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			start, err := adjacency.NewBoard(28, engine.X)
			if err != nil {
				b.Fatal(err)
			}
			var depth, nodes []float64
			var total uint64
			cpu := cpuTime(b)
			for b.Loop() {
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				res, err := New(nil).Search(ctx, start, Options{Threads: threads})
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				total += res.Nodes
				depth = append(depth, float64(res.Depth))
				nodes = append(nodes, float64(res.Nodes)/res.Elapsed.Seconds())
			}
			b.ReportMetric(slices.Min(depth), "min-depth")
			b.ReportMetric(median(depth), "median-depth")
			b.ReportMetric(median(nodes), "nodes/s")
			b.ReportMetric(float64(total)/(cpuTime(b)-cpu).Seconds(), "nodes/cpu-s")
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkOpeningNodes: the nodes a one-thread search from the start of
// a 28-round game needs to complete each depth (every iteration up to it
// counted), with a new Engine, the 16 MiB table a 1 s search gets and no
// deadline, and the depth it completes within a budget of nodes. Both
// are exact and repeat on any machine, so they compare versions where
// the machine's load blurs the time; the CPU time per op of the depth=16
// run is the time to reach depth 16 on one core. The two-thread run's
// nodes do not repeat (Lazy SMP); its wall time per op, on two free
// cores, is the time to reach depth 17.
//
//	nice -n 10 go test -run '^$' -bench 'OpeningNodes' -count 6 ./strategies/adjsearch
func BenchmarkOpeningNodes(b *testing.B) {
	start, err := adjacency.NewBoard(28, engine.X)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ depth, threads int }{{12, 1}, {14, 1}, {16, 1}, {17, 1}, {17, 2}} {
		name := fmt.Sprintf("depth=%d", c.depth)
		if c.threads > 1 {
			name = fmt.Sprintf("threads=%d/depth=%d", c.threads, c.depth)
		}
		b.Run(name, func(b *testing.B) {
			var res Result
			cpu := cpuTime(b)
			for b.Loop() {
				if res, err = New(nil).Search(context.Background(), start, Options{Depth: c.depth, Threads: c.threads, MaxTableMiB: 16 * c.threads}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(res.Nodes), "nodes/op")
		})
	}
	for _, budget := range []uint64{1_000_000, 3_000_000} {
		b.Run(fmt.Sprintf("nodes=%d", budget), func(b *testing.B) {
			var res Result
			cpu := cpuTime(b)
			for b.Loop() {
				if res, err = New(nil).Search(context.Background(), start, Options{Nodes: budget, Threads: 1}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(res.Depth), "depth")
		})
	}
}

// BenchmarkSolveGames: the time to solve exactly the self-play endgames of
// testdata/endgames.txt with 16, 18 and 20 plies left (15 each), on two
// threads, each with a new Engine and the table its deadline sizes; a
// solve that does not finish within 5 s counts at 5 s and as unsolved.
func BenchmarkSolveGames(b *testing.B) {
	for _, left := range []int{16, 18, 20} {
		b.Run(fmt.Sprintf("plies=%d", left), func(b *testing.B) {
			solveTimed(b, endgames(b, left), left, 5*time.Second) // the bot's longest move time
		})
	}
}

// solveTimed solves each of positions, left plies from the end, on two
// threads with a new Engine and the table its deadline sizes, capped at
// limit, and reports the median and longest time, the median nodes and
// the solves that did not finish.
func solveTimed(b *testing.B, positions []adjacency.Board, left int, limit time.Duration) {
	var times, nodes []float64
	unsolved := 0
	for b.Loop() {
		for _, p := range positions {
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			res, err := New(nil).Search(ctx, p, Options{Threads: 2, Depth: left})
			cancel()
			if err != nil {
				b.Fatal(err)
			}
			if !res.Exact {
				unsolved++
			}
			times = append(times, res.Elapsed.Seconds()*1000)
			nodes = append(nodes, float64(res.Nodes))
		}
	}
	b.ReportMetric(median(times), "median-ms")
	b.ReportMetric(slices.Max(times), "max-ms")
	b.ReportMetric(median(nodes), "median-nodes")
	b.ReportMetric(float64(unsolved)/float64(b.N), "unsolved/op")
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkSolveNodes: the nodes and time to solve exactly the first n
// self-play endgames with the given plies left, one after another on one
// thread without deadline, each with a new Engine and a 64 MiB table. The
// node count is exact and repeats, so it compares solver changes on a
// loaded machine where times do not; 18 plies takes minutes.
//
//	nice -n 19 go test -run '^$' -bench 'SolveNodes/plies=16' -benchtime 1x ./strategies/adjsearch
func BenchmarkSolveNodes(b *testing.B) {
	for _, c := range []struct{ left, n int }{{16, 15}, {18, 15}, {20, 15}} {
		b.Run(fmt.Sprintf("plies=%d", c.left), func(b *testing.B) {
			positions := endgames(b, c.left)[:c.n]
			var nodes uint64
			for b.Loop() {
				nodes = solveEach(b, positions, 64)
			}
			b.ReportMetric(float64(nodes), "nodes/op")
		})
	}
}

// BenchmarkSolveShortGames: the time to solve exactly, on one thread
// without deadline, eight positions of 20-ply games (10 rounds) with 8
// plies left over the board's 50-odd empty cells: the board solver and
// its shallow search of the last plies, which games that fill the board
// do not use. The nodes repeat exactly; the time per op compares solver
// changes (benchstat).
//
//	nice -n 10 go test -run '^$' -bench 'SolveShortGames' -count 5 ./strategies/adjsearch
func BenchmarkSolveShortGames(b *testing.B) {
	rng := rand.New(rand.NewPCG(20, 8))
	positions := make([]adjacency.Board, 8)
	for i := range positions {
		positions[i] = randomBoard(b, rng, 10, 8)
	}
	var nodes uint64
	for b.Loop() {
		nodes = solveEach(b, positions, 16)
	}
	b.ReportMetric(float64(nodes), "nodes/op")
}

// solveEach solves positions exactly, one after another on one thread
// without deadline, each with a new Engine and a table of tableMiB, and
// returns the nodes searched.
func solveEach(b *testing.B, positions []adjacency.Board, tableMiB int) uint64 {
	var nodes uint64
	for _, p := range positions {
		res, err := New(nil).Search(context.Background(), p, Options{Threads: 1, Depth: p.PliesLeft(), MaxTableMiB: tableMiB})
		if err != nil {
			b.Fatal(err)
		}
		if !res.Exact {
			b.Fatalf("%v: not solved", p)
		}
		nodes += res.Nodes
	}
	return nodes
}

// BenchmarkEvalNodes: the nodes a one-thread search needs to reach depth
// 10 in eight 28-round middle games (four random moves, then sixteen of
// the engine at 3,000 nodes), each with a new Engine and a 16 MiB table,
// by the evaluation at the leaves: the hand-tuned one, the learned one as
// fitted (adjeval.Evaluate) and as minimax searches it
// (adjeval.SearchEvaluate). The counts repeat exactly.
//
//	nice -n 19 go test -run '^$' -bench 'EvalNodes' -benchtime 1x ./strategies/adjsearch
func BenchmarkEvalNodes(b *testing.B) {
	positions := middleGames(b, 8, 20)
	for _, c := range []struct {
		name string
		eval Evaluator
	}{
		{"hand", Default},
		{"learned", EvalFunc(adjeval.Evaluate)},
		{"learned-search", EvalFunc(adjeval.SearchEvaluate)},
	} {
		b.Run(c.name, func(b *testing.B) {
			var nodes uint64
			for b.Loop() {
				nodes = 0
				for _, p := range positions {
					res, err := New(c.eval).Search(context.Background(), p, Options{Depth: 10, Threads: 1, MaxTableMiB: 16})
					if err != nil {
						b.Fatal(err)
					}
					nodes += res.Nodes
				}
			}
			b.ReportMetric(float64(nodes), "nodes/op")
		})
	}
}

// middleGames returns n positions of 28-round games after plies plies:
// four random moves from a seeded generator, then the engine's choices at
// 3,000 nodes (reproducible: a node cap and no deadline).
func middleGames(b *testing.B, n, plies int) []adjacency.Board {
	b.Helper()
	rng := rand.New(rand.NewPCG(7, 9))
	e := New(nil)
	var out []adjacency.Board
	for range n {
		p, err := adjacency.NewBoard(28, engine.Side(rng.IntN(2)))
		if err != nil {
			b.Fatal(err)
		}
		for ply := 0; ply < plies && !p.Terminal(); ply++ {
			if ply < 4 {
				moves := p.Moves(nil)
				p = p.After(moves[rng.IntN(len(moves))])
				continue
			}
			res, err := e.Search(context.Background(), p, Options{Nodes: 3000, Threads: 1, MaxTableMiB: 1})
			if err != nil {
				b.Fatal(err)
			}
			p = p.After(res.Move)
		}
		out = append(out, p)
	}
	return out
}

// BenchmarkSolveReach: how the exact solve of a game that fills the board
// grows with the plies left: five 28-round middle games (middleGames) at
// each count, two threads, a new Engine each and a 60 s cap.
//
//	nice -n 19 go test -run '^$' -bench 'SolveReach' -benchtime 1x ./strategies/adjsearch
func BenchmarkSolveReach(b *testing.B) {
	for _, left := range []int{22, 24, 26, 28, 30} {
		b.Run(fmt.Sprintf("plies=%d", left), func(b *testing.B) {
			solveTimed(b, middleGames(b, 5, 56-left), left, 60*time.Second)
		})
	}
}

// cpuTime returns the CPU time, user and system, this process has used.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since start (a cpuTime) as
// cpu-ns/op: on a shared machine the wall clock counts the other
// processes' turns too.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}
