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
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/strategies/c4solver"
)

// Run these one at a time, e.g.
//
//	go test -run '^$' -bench 'OpeningDepth' -benchtime 3x ./strategies
//
// Each reports its figures as metrics; docs/ai.md quotes them.

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

// BenchmarkConnectFourGames: minimax's time per move in Connect Four games
// from the empty board, at the bot's default move time (2 s) and table
// size (32 MiB) on one thread: each op is one game, minimax moving first
// in even ones and second in odd ones, played to 8 moves past the opening
// book's deepest, so that each side meets its first four turns the book
// does not answer. The opponent plays a random move half the time and
// otherwise minimax's heuristic move at depth 8 (not timed), so that
// games last longer than against random moves. It logs the median and
// longest move by ply and reports them for the book's plies and for the
// later ones, and the moves that were not exact (the solve did not finish
// in time and the heuristic answer was played).
func BenchmarkConnectFourGames(b *testing.B) {
	const moveTime = 2 * time.Second
	deepest := c4solver.DefaultBook().Deepest()
	clearPools()
	rng := rand.New(rand.NewPCG(18, 4))
	byPly := make([][]time.Duration, deepest+9)
	var inBook, after []time.Duration
	inexact, game := 0, 0
	for b.Loop() {
		p := connect4.New()
		aiSide := engine.Side(game % 2)
		game++
		for p.Ply() < len(byPly) && !p.Terminal() {
			var buf [connect4.Width]engine.Move
			moves := p.Moves(buf[:0])
			m := moves[rng.IntN(len(moves))]
			if p.SideToMove() != aiSide && rng.IntN(2) == 0 {
				res, err := (Minimax{}).Search(context.Background(), p, Limits{Threads: 1, HashMiB: 1, Depth: 8})
				if err != nil {
					b.Fatal(err)
				}
				m = res.Move
			}
			if p.SideToMove() == aiSide {
				ctx, cancel := context.WithTimeout(context.Background(), moveTime)
				start := time.Now()
				res, err := (Minimax{}).Search(ctx, p, Limits{Threads: 1, HashMiB: 32})
				took := time.Since(start)
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				if !res.Exact {
					inexact++
					b.Logf("not exact in %v: %s (ply %d)", took.Round(time.Millisecond), p, p.Ply())
				}
				byPly[p.Ply()] = append(byPly[p.Ply()], took)
				if p.Ply() <= deepest {
					inBook = append(inBook, took)
				} else {
					after = append(after, took)
				}
				m = res.Move
			}
			p.Play(m)
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for ply, times := range byPly {
		if len(times) > 0 {
			slices.Sort(times)
			b.Logf("ply %2d: %3d moves, median %8.1f ms, max %8.1f ms", ply, len(times), ms(times[len(times)/2]), ms(times[len(times)-1]))
		}
	}
	for _, set := range []struct {
		name  string
		times []time.Duration
	}{{"book", inBook}, {"after", after}} {
		if len(set.times) > 0 {
			slices.Sort(set.times)
			b.ReportMetric(ms(set.times[len(set.times)/2]), set.name+"-median-ms")
			b.ReportMetric(ms(set.times[len(set.times)-1]), set.name+"-max-ms")
		}
	}
	b.ReportMetric(float64(inexact)/float64(game), "inexact/op")
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
