package adjacency

import (
	"math/rand/v2"
	"testing"

	"github.com/gambitbot/gambit/engine"
)

// sink keeps benchmark results alive so the compiler cannot drop the work.
var sink uint64

// benchPositions returns midgame positions of 28-round games, 0 to 40
// random plies in, for benchmarks to cycle through.
func benchPositions(b *testing.B) []*Position {
	rng := rand.New(rand.NewPCG(5, 6))
	buf := make([]engine.Move, 0, engine.MaxMoves)
	var out []*Position
	for i := range 64 {
		p := mustNew(b, 28, engine.X)
		for range i * 40 / 64 {
			moves := p.Moves(buf)
			p.Play(moves[rng.IntN(len(moves))])
		}
		q, err := Parse(p.String()) // forget the history: a fresh position
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, q)
	}
	return out
}

func BenchmarkMoves(b *testing.B) {
	ps := benchPositions(b)
	buf := make([]engine.Move, 0, engine.MaxMoves)
	b.ReportAllocs()
	n := 0
	for i := 0; b.Loop(); i++ {
		n += len(ps[i&63].Moves(buf))
	}
	b.ReportMetric(float64(n)/float64(b.N), "moves/op")
}

// playUndoAll plays and undoes every legal move of every position in
// turn, b.N pairs in all, and reports the pairs per second.
func playUndoAll(b *testing.B, ps []*Position, moves [][]engine.Move) {
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

// BenchmarkPlayUndo measures one Play and one Undo of the concrete type,
// over the legal moves of midgame positions.
func BenchmarkPlayUndo(b *testing.B) {
	ps := benchPositions(b)
	moves := make([][]engine.Move, len(ps))
	for i, p := range ps {
		moves[i] = p.Moves(nil)
	}
	playUndoAll(b, ps, moves)
}

// BenchmarkAfter measures playing by value copy: Board.After, the undo
// being free. Each op is one play+undo pair in the sense of the issue's
// target.
func BenchmarkAfter(b *testing.B) {
	ps := benchPositions(b)
	moves := make([][]engine.Move, len(ps))
	for i, p := range ps {
		moves[i] = p.Moves(nil)
	}
	b.ReportAllocs()
	b.ResetTimer()
	done := 0
	for i := 0; done < b.N; i++ {
		board := ps[i&63].Board
		for _, m := range moves[i&63] {
			sink ^= board.After(m).other
		}
		done += len(moves[i&63])
	}
	b.ReportMetric(float64(done)/b.Elapsed().Seconds(), "pairs/s")
}

func BenchmarkHash(b *testing.B) {
	ps := benchPositions(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink ^= ps[i&63].Hash()
	}
}

// BenchmarkPerft4 is perft 4 from the start through engine.Perft: 8.8 M
// leaves per op.
func BenchmarkPerft4(b *testing.B) {
	p := mustNew(b, 28, engine.X)
	b.ReportAllocs()
	var leaves uint64
	for b.Loop() {
		leaves += engine.Perft(p, 4, nil)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkBoardPerft5 is Board.Perft(5) from the start: 458 M leaves per
// op, counted in bulk at the last ply.
func BenchmarkBoardPerft5(b *testing.B) {
	start := mustNew(b, 28, engine.X).Board
	b.ReportAllocs()
	var leaves uint64
	for b.Loop() {
		leaves += start.Perft(5).Leaves
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}
