package othello

import (
	"math/bits"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/othello"
)

// Unit is the number of evaluation units in one disc: positions are
// evaluated in sixteenths of a disc, as an estimate of the final disc
// difference.
const Unit = 16

// Squares by their role, as bitboards (bit c for cell c, a1 = 0, rows
// from the top).
const (
	corners = 1<<0 | 1<<7 | 1<<56 | 1<<63
)

// xSquares[i] and cSquares[i] are the squares next to corner i (a1, h1,
// a8, h8): diagonally (the X-square) and along the edges (the two
// C-squares).
var (
	cornerBits = [4]uint64{1 << 0, 1 << 7, 1 << 56, 1 << 63}
	xSquares   = [4]uint64{1 << 9, 1 << 14, 1 << 49, 1 << 54}
	cSquares   = [4]uint64{1<<1 | 1<<8, 1<<6 | 1<<15, 1<<48 | 1<<57, 1<<55 | 1<<62}
)

// evaluate estimates an unfinished position for the side to move.
func evaluate(p engine.Position) int {
	q := p.(*rules.Position)
	me := q.SideToMove()
	return Evaluate(q.Bitboard(me), q.Bitboard(me.Other()))
}

// Evaluate is the static evaluation, in Units, of the position where the
// side to move has the discs own and its opponent opp: an estimate of the
// final disc difference from the side to move's point of view.
//
// Discs count for little while the board is open (a side with few discs
// often has the more moves) and for their full worth once it is nearly
// full. Mobility — the moves each side has now — counts a disc and a half
// a move; frontier discs, next to an empty square, count against their
// side, since they give the opponent moves. A corner is never flipped
// again and counts eight discs. An X-square (diagonally next to an empty
// corner) hands that corner to the opponent and counts four discs
// against; a C-square (next to it along the edge) a disc and a half.
// Parity: with 16 or fewer empty squares, the side to move on an odd
// number of them expects the last move, worth two discs.
func Evaluate(own, opp uint64) int {
	empty := ^(own | opp)
	n := bits.OnesCount64(empty)
	score := Unit * (bits.OnesCount64(own) - bits.OnesCount64(opp)) * (64 - n) / 64
	score += 24 * (bits.OnesCount64(rules.LegalMoves(own, opp)) - bits.OnesCount64(rules.LegalMoves(opp, own)))
	frontier := neighbours(empty)
	score -= 6 * (bits.OnesCount64(own&frontier) - bits.OnesCount64(opp&frontier))
	score += 8 * Unit * (bits.OnesCount64(own&corners) - bits.OnesCount64(opp&corners))
	for i, corner := range cornerBits {
		if corner&empty == 0 {
			continue
		}
		score -= 4 * Unit * (bits.OnesCount64(own&xSquares[i]) - bits.OnesCount64(opp&xSquares[i]))
		score -= 3 * Unit / 2 * (bits.OnesCount64(own&cSquares[i]) - bits.OnesCount64(opp&cSquares[i]))
	}
	if n <= 16 && n&1 == 1 {
		score += 2 * Unit
	}
	return max(-64*Unit+1, min(64*Unit-1, score))
}

// neighbours returns the squares next to b in any of the eight directions.
func neighbours(b uint64) uint64 {
	const notA, notH = ^uint64(0x0101010101010101), ^uint64(0x8080808080808080)
	row := b | (b<<1)&notA | (b>>1)&notH
	return (row | row<<8 | row>>8) &^ b
}

// squareOrder ranks the squares of a quarter of the board for move order
// (row, column from the corner): corners first, then the edges' middle,
// the squares around the centre, and the X- and C-squares last.
var squareOrder = [4][4]int{
	{255, 40, 170, 150},
	{40, 10, 90, 90},
	{170, 90, 130, 110},
	{150, 90, 110, 100},
}

// order ranks a move by its square; a pass, the one move there is, by 0.
func order(_ engine.Position, m engine.Move) int {
	if m >= rules.Cells {
		return 0
	}
	r, c := int(m/8), int(m%8)
	return squareOrder[min(r, 7-r)][min(c, 7-c)]
}
