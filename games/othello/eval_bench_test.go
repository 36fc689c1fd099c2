package othello

import (
	"math/rand/v2"
	"testing"

	rules "github.com/gambitbot/gambit/engine/othello"
)

// BenchmarkEvaluate measures Evaluate on midgame and endgame positions of
// random games (20 to 50 discs played).
func BenchmarkEvaluate(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var boards [][2]uint64
	for len(boards) < 256 {
		p := rules.New()
		for n := 16 + rng.IntN(30); n > 0 && !p.Terminal(); n-- {
			moves := p.Moves(nil)
			p.Play(moves[rng.IntN(len(moves))])
		}
		if !p.Terminal() {
			me := p.SideToMove()
			boards = append(boards, [2]uint64{p.Bitboard(me), p.Bitboard(me.Other())})
		}
	}
	b.ResetTimer()
	sum := 0
	for i := 0; b.Loop(); i++ {
		q := boards[i&255]
		sum += Evaluate(q[0], q[1])
	}
	_ = sum
}
