package othello

import (
	_ "embed"
	"sync"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/othello"
)

// Unit is the number of evaluation units in one disc: positions are
// evaluated in sixteenths of a disc, as an estimate of the final disc
// difference.
const Unit = 16

// weightsFile is the evaluation's weights, fitted by the training
// command (docs/ai.md, "Othello's evaluation").
//
// The book (book.go) is built after the weights, with them.
//
//go:generate go run ../../internal/train/othello -out weights.bin
//go:generate go run ../../internal/train/othello -book book.bin
//go:embed weights.bin
var weightsFile []byte

// weights are the embedded weights, decoded on first use.
var weights = sync.OnceValue(func() *Weights {
	w, err := ParseWeights(weightsFile)
	if err != nil {
		panic(err) // the embedded file is part of the build; its test decodes it
	}
	return w
})

// evaluate estimates an unfinished position for the side to move.
func evaluate(p engine.Position) int {
	q := p.(*rules.Position)
	me := q.SideToMove()
	return Evaluate(q.Bitboard(me), q.Bitboard(me.Other()))
}

// Evaluate is the static evaluation, in Units, of the position where the
// side to move has the discs own and its opponent opp: an estimate of the
// final disc difference from the side to move's point of view, by the
// embedded pattern weights (pattern.go).
func Evaluate(own, opp uint64) int { return weights().Evaluate(own, opp) }

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
