package connect4

import (
	"math/rand/v2"
	"testing"

	"github.com/gambitbot/gambit/engine"
)

// benchPositions returns 64 unfinished positions 0–30 random moves in.
func benchPositions() []*Position {
	rng := rand.New(rand.NewPCG(11, 12))
	buf := make([]engine.Move, 0, engine.MaxMoves)
	var out []*Position
	for len(out) < 64 {
		p := New()
		for range rng.IntN(31) {
			moves := p.Moves(buf)
			p.Play(moves[rng.IntN(len(moves))])
			if p.Terminal() {
				p.Undo()
				break
			}
		}
		out = append(out, p)
	}
	return out
}

func BenchmarkMoves(b *testing.B) {
	ps := benchPositions()
	buf := make([]engine.Move, 0, engine.MaxMoves)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = ps[i&63].Moves(buf)
	}
}

// BenchmarkPlayUndo plays and undoes every legal move of the positions in
// turn; an op is one pair.
func BenchmarkPlayUndo(b *testing.B) {
	ps := benchPositions()
	moves := make([][]engine.Move, len(ps))
	for i, p := range ps {
		moves[i] = p.Moves(nil)
	}
	b.ReportAllocs()
	b.ResetTimer()
	done := 0
	for i := 0; done < b.N; i++ {
		p := ps[i&63]
		for _, m := range moves[i&63] {
			p.Play(m)
			p.Undo()
		}
		done += len(moves[i&63])
	}
	b.ReportMetric(float64(done)/b.Elapsed().Seconds(), "pairs/s")
}

// BenchmarkPerft8 counts the 5.7 M leaves of perft 8 from the empty board.
func BenchmarkPerft8(b *testing.B) {
	b.ReportAllocs()
	var leaves uint64
	for b.Loop() {
		leaves += engine.Perft(New(), 8, nil)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}
