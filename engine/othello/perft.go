package othello

import "math/bits"

// Perft counts the leaves of the game tree below p to the given depth, as
// engine.Perft does (a pass is a move; a finished game is one leaf). It
// plays on the two bitboards by value and counts the last ply in bulk, so
// it is faster than the generic engine.Perft.
func (p *Position) Perft(depth int) uint64 {
	return perft(p.discs[p.side], p.discs[p.side.Other()], depth)
}

// perft is Perft of the position where the side to move has the discs
// own and its opponent opp.
func perft(own, opp uint64, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	legal := LegalMoves(own, opp)
	if legal == 0 {
		if LegalMoves(opp, own) == 0 {
			return 1 // the game is over
		}
		if depth == 1 {
			return 1 // the pass
		}
		return perft(opp, own, depth-1)
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(legal))
	}
	var n uint64
	for ; legal != 0; legal &= legal - 1 {
		bit := legal & -legal
		f := Flips(own, opp, bit)
		n += perft(opp&^f, own|f|bit, depth-1)
	}
	return n
}
