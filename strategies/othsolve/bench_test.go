package othsolve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSolve solves positions of random games with 14 to 22 empty
// squares (eight of each, the same every run), each with a new solver of
// 64 MiB: ns/op is the time of one solve, nodes/op its nodes. Random play
// leaves more lopsided positions than real games, so they solve faster
// than the FFO problems (TestFFOSuite) of as many empties.
func BenchmarkSolve(b *testing.B) {
	for _, empties := range []int{14, 16, 18, 20, 22} {
		rng := rand.New(rand.NewPCG(38, uint64(empties)))
		var positions [8][2]uint64
		for i := range positions {
			p := randomEndgame(rng, empties)
			me := p.SideToMove()
			positions[i] = [2]uint64{p.Bitboard(me), p.Bitboard(me.Other())}
		}
		b.Run(fmt.Sprint(empties), func(b *testing.B) {
			var nodes uint64
			for i := 0; b.Loop(); i++ {
				p := positions[i%len(positions)]
				r, err := New(64<<20).Solve(context.Background(), p[0], p[1], 0)
				if err != nil {
					b.Fatal(err)
				}
				nodes += r.Nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}
