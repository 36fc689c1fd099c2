package strategies

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
)

// Run these one at a time, e.g.
//
//	go test -run '^$' -bench 'OpeningDepth' -benchtime 3x ./strategies
//
// Each reports its figures as metrics; the README and the notes quote them.

// BenchmarkOpeningDepth: the depth minimax completes from the start of a
// 28-round Adjacency game in a given time, with one or two threads (Lazy
// SMP), and full width (no late-move reductions) for comparison.
func BenchmarkOpeningDepth(b *testing.B) {
	for _, d := range []time.Duration{time.Second, 5 * time.Second} {
		for _, threads := range []int{1, 2} {
			for _, lmr := range []bool{true, false} {
				b.Run(fmt.Sprintf("time=%v/threads=%d/lmr=%v", d, threads, lmr), func(b *testing.B) {
					var depth, nodes float64
					for b.Loop() {
						clearPools() // no help from the previous run's table
						p, _ := adjacency.New(28, engine.X)
						r, ok := rulesFor(p)
						if !ok {
							b.Fatal("no rules")
						}
						ctx, cancel := context.WithTimeout(context.Background(), d)
						res, err := runSearch(ctx, p, Limits{Threads: threads}, r, searchConfig{lmr: lmr})
						cancel()
						if err != nil {
							b.Fatal(err)
						}
						depth += float64(res.Depth)
						nodes += float64(res.Nodes)
					}
					b.ReportMetric(depth/float64(b.N), "depth")
					b.ReportMetric(nodes/float64(b.N)/d.Seconds(), "nodes/s")
				})
			}
		}
	}
}

// BenchmarkSolveLastPlies: the median time minimax takes to solve exactly
// the last k plies of random 28-round Adjacency games (9 positions a
// size, the same every run), with one or two threads, a 60 s cap counted
// as unsolved.
func BenchmarkSolveLastPlies(b *testing.B) {
	for _, k := range []int{12, 14, 16, 18} {
		for _, threads := range []int{1, 2} {
			benchmarkSolve(b, k, threads)
		}
	}
}

func benchmarkSolve(b *testing.B, k, threads int) {
	b.Run(fmt.Sprintf("plies=%d/threads=%d", k, threads), func(b *testing.B) {
		rng := rand.New(rand.NewPCG(uint64(k), 99))
		var positions []engine.Position
		for range 9 {
			positions = append(positions, randomPosition(b, rng, "adjacency", 28, k))
		}
		var times []time.Duration
		unsolved := 0
		for b.Loop() {
			for _, p := range positions {
				clearPools()
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				start := time.Now()
				res, err := Minimax{}.Search(ctx, p, Limits{Threads: threads})
				times = append(times, time.Since(start))
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				if !res.Exact {
					unsolved++
				}
			}
		}
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
		b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
		b.ReportMetric(float64(unsolved)/float64(b.N), "unsolved/op")
	})
}

// BenchmarkDeadlineOvershoot: how late searches return after their
// deadline while every core is also busy with other work, for 20 ms and
// 200 ms deadlines on random midgame positions of each game.
func BenchmarkDeadlineOvershoot(b *testing.B) {
	for _, game := range []string{"adjacency", "connect4"} {
		for _, d := range []time.Duration{20 * time.Millisecond, 200 * time.Millisecond} {
			b.Run(fmt.Sprintf("game=%s/deadline=%v", game, d), func(b *testing.B) {
				stop := loadCores()
				defer stop()
				rng := rand.New(rand.NewPCG(7, 7))
				var late []time.Duration
				for b.Loop() {
					p := randomPosition(b, rng, game, 28, 30+rng.IntN(20))
					ctx, cancel := context.WithTimeout(context.Background(), d)
					deadline, _ := ctx.Deadline()
					if _, err := (Minimax{}).Search(ctx, p, Limits{Threads: 2}); err != nil {
						b.Fatal(err)
					}
					late = append(late, time.Since(deadline))
					cancel()
				}
				slices.Sort(late)
				b.ReportMetric(float64(late[len(late)/2].Microseconds())/1000, "p50-late-ms")
				b.ReportMetric(float64(late[len(late)*99/100].Microseconds())/1000, "p99-late-ms")
				b.ReportMetric(float64(late[len(late)-1].Microseconds())/1000, "max-late-ms")
			})
		}
	}
}

// loadCores keeps every core busy with arithmetic until stop is called.
func loadCores() (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := uint64(1)
			for !done.Load() {
				for range 1000 {
					x = x*6364136223846793005 + 1
				}
			}
			_ = x
		}()
	}
	return func() { done.Store(true); wg.Wait() }
}

// clearPools drops the tables and solvers kept from earlier searches, so
// that a benchmark run gets no help from the one before.
func clearPools() {
	tables.drop()
	c4solvers.drop()
	for _, p := range adjEngines {
		p.drop()
	}
}
