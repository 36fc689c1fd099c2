package othello

import (
	"math/rand/v2"
	"testing"

	"github.com/gambitbot/gambit/engine"
)

// benchPositions returns 64 unfinished positions 0–50 random moves in,
// read back from their texts.
func benchPositions(b *testing.B) []*Position {
	rng := rand.New(rand.NewPCG(7, 8))
	buf := make([]engine.Move, 0, engine.MaxMoves)
	var out []*Position
	for len(out) < 64 {
		p := New()
		for range rng.IntN(51) {
			if p.Terminal() {
				break
			}
			moves := p.Moves(buf)
			p.Play(moves[rng.IntN(len(moves))])
		}
		if !p.Terminal() {
			out = append(out, mustParse(b, p.String()))
		}
	}
	return out
}

func BenchmarkMoves(b *testing.B) {
	ps := benchPositions(b)
	buf := make([]engine.Move, 0, engine.MaxMoves)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = ps[i&63].Moves(buf)
	}
}

// BenchmarkPlayUndo plays and undoes every legal move of the positions in
// turn; an op is one pair.
func BenchmarkPlayUndo(b *testing.B) {
	ps := benchPositions(b)
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

// BenchmarkPerft8 is engine.Perft to depth 8 from the start: 390,216
// leaves per op, every node played through the engine.Position interface.
func BenchmarkPerft8(b *testing.B) {
	p := New()
	b.ReportAllocs()
	var leaves uint64
	for b.Loop() {
		leaves += engine.Perft(p, 8, nil)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkPositionPerft9 is Position.Perft to depth 9 from the start:
// 3,005,288 leaves per op, the last ply counted in bulk.
func BenchmarkPositionPerft9(b *testing.B) {
	p := New()
	b.ReportAllocs()
	var leaves uint64
	for b.Loop() {
		leaves += p.Perft(9)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}
