package c4solver

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"

	"github.com/gambitbot/gambit/engine/connect4"
)

// benchTableMiB is the large table of BenchmarkSolve and
// BenchmarkEmptyBoard.
var (
	benchTableMiB = flag.Int("table-mib", DefaultTableBytes>>20, "BenchmarkSolve, BenchmarkEmptyBoard: the large transposition table in MiB")
	benchLimit    = flag.Int("positions", 0, "BenchmarkSolve: solve at most this many positions of each set (0: all 1,000; L1_R3 at most 4 either way)")
	benchEvictMiB = flag.Int("evict-mib", 0, "BenchmarkSolve: write this many MiB of other memory (untimed) after emptying the tables, as emptying a large table (Pons') flushes the caches")
)

// benchSets are Pons' six sets; L1_R3 (seconds a position) is cut to its
// first positions.
var benchSets = []struct {
	name  string
	limit int
}{
	{"L3_R1", 1000}, {"L2_R1", 1000}, {"L2_R2", 1000},
	{"L1_R1", 1000}, {"L1_R2", 1000}, {"L1_R3", 4},
}

// BenchmarkSolve solves every position of each set with freshly emptied
// tables and no opening book, as Pons' test protocol does (-evict-mib
// then flushes the caches, as emptying his whole table does): µs/pos is
// the mean time of a solve (the emptying is not timed), cpu-µs/pos its
// mean CPU time (the solving thread's, user and system: what a
// side-by-side comparison on a shared machine counts), nodes/pos the mean
// nodes.
func BenchmarkSolve(b *testing.B) {
	for _, set := range benchSets {
		for _, weak := range []bool{false, true} {
			name := set.name + "/strong"
			if weak {
				name = set.name + "/weak"
			}
			limit := set.limit
			if *benchLimit > 0 {
				limit = min(limit, *benchLimit)
			}
			b.Run(name, func(b *testing.B) {
				benchSet(b, set.name, limit, *benchTableMiB<<20, weak, false)
			})
		}
	}
}

// BenchmarkSolveShared solves the sets as gambit solve does, keeping the
// table from one position to the next (emptied once per pass).
func BenchmarkSolveShared(b *testing.B) {
	for _, set := range benchSets[:4] {
		b.Run(set.name, func(b *testing.B) {
			benchSet(b, set.name, set.limit, DefaultTableBytes, false, true)
		})
	}
}

// BenchmarkTableSize solves the first 300 positions of L2_R2 and the
// first 50 of L1_R2 and L1_R3's first with large tables of 1 MiB to
// 256 MiB (emptying a table before each position is not timed, but takes
// long for large ones).
func BenchmarkTableSize(b *testing.B) {
	for _, set := range []struct {
		name  string
		limit int
	}{{"L2_R2", 300}, {"L1_R2", 50}, {"L1_R3", 1}} {
		for _, mib := range []int{1, 8, 64, 256} {
			b.Run(fmt.Sprintf("%s/%dMiB", set.name, mib), func(b *testing.B) {
				benchSet(b, set.name, set.limit, mib<<20, false, false)
			})
		}
	}
}

// benchSet solves the first limit positions of a set, emptying the tables
// before each one without the book, or with shared (and the book) before
// each pass only.
func benchSet(b *testing.B, set string, limit, tableBytes int, weak, shared bool) {
	cases := loadSet(b, set)
	cases = cases[:min(limit, len(cases))]
	positions := make([]*connect4.Position, len(cases))
	for i, tc := range cases {
		positions[i] = mustParse(b, tc.moves)
	}
	s := New(tableBytes)
	if !shared {
		s.SetBook(nil) // Pons' protocol: no book
	}
	solve := s.Solve
	if weak {
		solve = s.SolveWeak
	}
	ctx := context.Background()
	runtime.LockOSThread() // threadCPUTime times this goroutine's solves
	defer runtime.UnlockOSThread()
	evict := make([]byte, *benchEvictMiB<<20)
	var spent, cpu time.Duration
	var nodes, solved uint64
	for b.Loop() {
		for i, p := range positions {
			if i == 0 || !shared {
				s.Reset()
				clear(evict)
			}
			start, startCPU := time.Now(), threadCPUTime(b)
			r, err := solve(ctx, p)
			spent += time.Since(start)
			cpu += threadCPUTime(b) - startCPU
			want := cases[i].score
			if weak {
				want = sign(want)
			}
			if err != nil || r.Score != want {
				b.Fatalf("%s %s: score %d, error %v; want %d", set, cases[i].moves, r.Score, err, want)
			}
			nodes += r.Nodes
			solved++
		}
	}
	b.ReportMetric(float64(spent.Microseconds())/float64(solved), "µs/pos")
	b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(solved), "cpu-µs/pos")
	b.ReportMetric(float64(nodes)/float64(solved), "nodes/pos")
}

// BenchmarkFirstTurnsAfterBook: the first turns a player following the
// book must solve, as first player (after Deepest()+1 moves or +2,
// whichever is its turn) and as second, whatever the opponent played: a
// random sample, one position an op, solved by one solver of the bot's
// default 32 MiB table kept from one to the next as minimax's pool does.
// It reports the median, p90 and longest solve and how many took longer
// than the bot's default move time (2 s); -benchtime 5000x or so covers
// every position (the log says how many there are).
func BenchmarkFirstTurnsAfterBook(b *testing.B) {
	book := DefaultBook()
	seen := make(map[[2]uint64]bool)
	var first []*connect4.Position
	for _, tn := range playTurns(b, New(1<<20), book.Deepest()) {
		if tn.p.Ply() < book.Deepest()-1 {
			continue
		}
		after := *tn.p
		after.Play(tn.result.BestMove)
		for c := range connect4.Width {
			p := after
			if !p.Legal(engine.Move(c)) {
				continue
			}
			if p.Play(engine.Move(c)); p.Terminal() {
				continue
			}
			if key := [2]uint64{p.Bitboard(engine.X), p.Bitboard(engine.O)}; !seen[key] {
				seen[key] = true
				first = append(first, &p)
			}
		}
	}
	rng := rand.New(rand.NewPCG(18, 4))
	rng.Shuffle(len(first), func(i, j int) { first[i], first[j] = first[j], first[i] })
	b.Logf("%d first turns after the book", len(first))
	s := New(32 << 20)
	var times []time.Duration
	slow, i := 0, 0
	for b.Loop() {
		p := first[i%len(first)]
		i++
		start := time.Now()
		if _, err := s.Solve(context.Background(), p); err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		times = append(times, took)
		if took > 2*time.Second {
			slow++
			b.Logf("%s (ply %d): %v", p, p.Ply(), took.Round(time.Millisecond))
		}
	}
	slices.Sort(times)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(times[len(times)/2]), "median-ms")
	b.ReportMetric(ms(times[len(times)*9/10]), "p90-ms")
	b.ReportMetric(ms(times[len(times)-1]), "max-ms")
	b.ReportMetric(float64(slow), "over-2s")
}

// BenchmarkEmptyBoard solves the empty board without the book (a minute or
// more; -table-mib sets the large table): the first player wins with the
// 41st stone, score 1.
func BenchmarkEmptyBoard(b *testing.B) {
	s := New(*benchTableMiB << 20)
	s.SetBook(nil)
	var nodes uint64
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPUTime(b)
	for b.Loop() {
		s.Reset()
		r, err := s.Solve(context.Background(), connect4.New())
		if err != nil || r.Score != 1 {
			b.Fatalf("the empty board: score %d, error %v; want 1", r.Score, err)
		}
		nodes += r.Nodes
	}
	b.ReportMetric(float64(threadCPUTime(b)-start)/1e9/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
