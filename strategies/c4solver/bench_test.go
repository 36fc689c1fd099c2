package c4solver

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine/connect4"
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

// BenchmarkSolve solves every position of each set with a freshly emptied
// table, as Pons' test protocol does: µs/pos is the mean time of a solve
// (the emptying is not timed), nodes/pos the mean nodes.
func BenchmarkSolve(b *testing.B) {
	for _, set := range benchSets {
		for _, weak := range []bool{false, true} {
			name := set.name + "/strong"
			if weak {
				name = set.name + "/weak"
			}
			b.Run(name, func(b *testing.B) {
				benchSet(b, set.name, set.limit, DefaultTableBytes, weak, false)
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
// before each one, or with shared before each pass only.
func benchSet(b *testing.B, set string, limit, tableBytes int, weak, shared bool) {
	cases := loadSet(b, set)
	cases = cases[:min(limit, len(cases))]
	positions := make([]*connect4.Position, len(cases))
	for i, tc := range cases {
		positions[i] = mustParse(b, tc.moves)
	}
	s := New(tableBytes)
	solve := s.Solve
	if weak {
		solve = s.SolveWeak
	}
	ctx := context.Background()
	var spent time.Duration
	var nodes, solved uint64
	for b.Loop() {
		for i, p := range positions {
			if i == 0 || !shared {
				s.Reset()
			}
			start := time.Now()
			r, err := solve(ctx, p)
			spent += time.Since(start)
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
	b.ReportMetric(float64(nodes)/float64(solved), "nodes/pos")
}
