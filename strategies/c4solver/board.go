package c4solver

import "math/bits"

// The board is the layout of engine/connect4: 7 bits a column, bit 7c+r
// for column c, row r from the bottom, the seventh bit of each column
// spare. A position is two bitboards: cur, the stones of the player to
// move, and mask, all stones. cur+mask identifies the position in 49
// bits: cur+mask+bottomMask holds, in each column, one bit just above the
// column's top stone and the player to move's stones below it.
const (
	width   = 7
	height  = 6
	cells   = width * height
	colBits = height + 1

	bottomMask uint64 = 1<<(0*colBits) | 1<<(1*colBits) | 1<<(2*colBits) | 1<<(3*colBits) |
		1<<(4*colBits) | 1<<(5*colBits) | 1<<(6*colBits)
	boardMask = bottomMask * (1<<height - 1)
)

// playable returns the cells where a stone can be dropped now.
func playable(mask uint64) uint64 { return (mask + bottomMask) & boardMask }

// winningCells returns the empty cells that would complete four in a row
// for stones, whether or not they can be played yet.
func winningCells(stones, mask uint64) uint64 {
	r := (stones << 1) & (stones << 2) & (stones << 3) // three stones below
	r |= lineCells(stones, colBits) | lineCells(stones, colBits-1) | lineCells(stones, colBits+1)
	return r & (boardMask ^ mask)
}

// lineCells returns the cells that complete four along the direction of
// shift d (7 across, 6 and 8 the diagonals) with three of stones: the
// gap may be at either end or in either inner place.
func lineCells(stones uint64, d uint) uint64 {
	pair := (stones << d) & (stones << (2 * d))
	r := pair & (stones << (3 * d)) // three to one side
	r |= pair & (stones >> d)       // two to one side, one to the other
	pair = (stones >> d) & (stones >> (2 * d))
	r |= pair & (stones << d)
	r |= pair & (stones >> (3 * d))
	return r
}

// nonLosing returns the moves (as cells) of the player to move that do
// not let the opponent, whose winning cells are oppWin, win at once: the
// single forced block if there is one, never the cell under an opponent's
// winning cell. It returns 0 when every move loses at once (two forced
// blocks, or nothing but such cells).
func nonLosing(mask, oppWin uint64) uint64 {
	possible := playable(mask)
	if forced := possible & oppWin; forced != 0 {
		if forced&(forced-1) != 0 {
			return 0
		}
		possible = forced
	}
	return possible &^ (oppWin >> 1)
}

// column returns the column of the lowest of cells (usually just one).
func column(cell uint64) int { return bits.TrailingZeros64(cell) / colBits }
