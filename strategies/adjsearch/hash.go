package adjsearch

import (
	"math/bits"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
)

// The engine's own Zobrist keys, updated move by move: a move XORs in the
// key of the new mark, a flip key for each captured mark and the key of
// the change of side to move and plies left, so a node costs a few XORs
// instead of a hash of the whole board.
var (
	zMark [2][adjacency.Cells]uint64 // side's mark on a cell
	zFlip [adjacency.Cells]uint64    // a cell changing hands: zMark[0]^zMark[1]
	zInfo [2][adjacency.Cells + 1]uint64
	zMove [2][adjacency.Cells + 1]uint64 // side s moving with l plies left: zInfo[s][l]^zInfo[1-s][l-1]
)

func init() {
	var keys [4*adjacency.Cells + 2]uint64
	engine.FillKeys(0xad15ea7c4, keys[:])
	for c := range adjacency.Cells {
		zMark[0][c], zMark[1][c] = keys[c], keys[adjacency.Cells+c]
		zFlip[c] = zMark[0][c] ^ zMark[1][c]
	}
	for l := range adjacency.Cells + 1 {
		zInfo[0][l], zInfo[1][l] = keys[2*adjacency.Cells+l], keys[3*adjacency.Cells+1+l]
	}
	for l := 1; l <= adjacency.Cells; l++ {
		zMove[0][l] = zInfo[0][l] ^ zInfo[1][l-1]
		zMove[1][l] = zInfo[1][l] ^ zInfo[0][l-1]
	}
}

// hashOf computes the key of b from scratch: at the root, and in tests
// that check the incremental keys.
func hashOf(b adjacency.Board) uint64 {
	h := zInfo[b.SideToMove()][b.PliesLeft()]
	for s := range 2 {
		for m := b.Bitboard(engine.Side(s)); m != 0; m &= m - 1 {
			h ^= zMark[s][bits.TrailingZeros64(m)]
		}
	}
	return h
}

// play returns the board and key after the legal move on cell c.
func play(b adjacency.Board, h uint64, c int) (adjacency.Board, uint64) {
	s := b.SideToMove()
	h ^= zMark[s][c] ^ zMove[s][b.PliesLeft()]
	for f := b.Flips(engine.Move(c)); f != 0; f &= f - 1 {
		h ^= zFlip[bits.TrailingZeros64(f)]
	}
	return b.After(engine.Move(c)), h
}

// engineMove converts a cell to an engine.Move.
func engineMove(c int) engine.Move { return engine.Move(c) }
