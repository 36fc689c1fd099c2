package adjacency

import (
	"math/bits"

	"github.com/gambitbot/gambit/engine"
)

// PerftCounts are the results of Board.Perft.
type PerftCounts struct {
	// Leaves counts the lines of play of the asked depth, or shorter where
	// the game ends first.
	Leaves uint64
	// SumX and SumO sum the X and O marks on the board over all leaves: a
	// checksum of the flip rule.
	SumX, SumO uint64
}

// Perft counts the leaves of the game tree to the given depth, as
// engine.Perft does, and sums the marks on the board at the leaves. It
// plays by value copy and counts the last ply in bulk (the marks a move
// flips, summed over all empty cells, are the empty–opponent neighbour
// pairs), so it is far faster than the generic engine.Perft.
func (b Board) Perft(depth int) PerftCounts {
	if depth <= 0 || b.left() == 0 {
		return PerftCounts{Leaves: 1, SumX: uint64(b.Count(engine.X)), SumO: uint64(b.Count(engine.O))}
	}
	empty := b.empty()
	if depth == 1 {
		n := uint64(bits.OnesCount64(empty))
		north, south, east, west := Neighbours(b.other)
		flips := uint64(bits.OnesCount64(north&empty) + bits.OnesCount64(south&empty) +
			bits.OnesCount64(east&empty) + bits.OnesCount64(west&empty))
		mover := n*uint64(bits.OnesCount64(b.mover)+1) + flips
		other := n*uint64(bits.OnesCount64(b.other)) - flips
		if b.stm() == engine.X {
			return PerftCounts{Leaves: n, SumX: mover, SumO: other}
		}
		return PerftCounts{Leaves: n, SumX: other, SumO: mover}
	}
	var sum PerftCounts
	for e := empty; e != 0; e &= e - 1 {
		c := b.After(engine.Move(bits.TrailingZeros64(e))).Perft(depth - 1)
		sum.Leaves += c.Leaves
		sum.SumX += c.SumX
		sum.SumO += c.SumO
	}
	return sum
}
