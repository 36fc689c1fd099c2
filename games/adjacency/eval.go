package adjacency

import (
	"math/bits"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/adjacency"
)

// Unit is the number of evaluation units in one mark: positions are
// evaluated in sixteenths of a mark.
const Unit = 16

// evaluate estimates an unfinished position for the side to move.
func evaluate(p engine.Position) int { return Evaluate(p.(*rules.Position).Board) }

// Evaluate is the static evaluation of b for the side to move, in Units.
//
// The estimate of the final mark difference starts from the current one
// and adds: parity — with L plies left the side to move places ⌈L/2⌉
// marks and the opponent ⌊L/2⌋, so an odd L is worth one mark; flip
// threats — the most marks each side could flip with one move now (the
// side to move will take its best at once, the opponent answers later, so
// the two count unequally); stable marks — marks with no empty orthogonal
// neighbour can never be flipped again, while exposed ones can; and the
// frontier — every empty cell next to a side's marks is a place the
// opponent can attack from, so fewer is better, weighed by how full the
// board is (on a sparse board every mark has empty neighbours, and a
// fixed weight outweighed the marks themselves). The weights were tuned by
// arena matches against mcts, greedy and hill-steepest at 8 and 28 rounds
// (20 ms a move, 32 games each).
func Evaluate(b rules.Board) int {
	me, them := b.SideToMove(), b.SideToMove().Other()
	mine, theirs := b.Bitboard(me), b.Bitboard(them)
	empty := ^(mine | theirs)
	score := Unit * (bits.OnesCount64(mine) - bits.OnesCount64(theirs))
	score += Unit * (b.PliesLeft() & 1)
	score += 10*MaxFlips(theirs, empty) - 6*MaxFlips(mine, empty)
	score += 10 * (bits.OnesCount64(mine&^rules.Dilate(empty)) - bits.OnesCount64(theirs&^rules.Dilate(empty)))
	occupied := bits.OnesCount64(mine | theirs)
	score -= 16 * occupied * (bits.OnesCount64(rules.Dilate(mine)&empty) - bits.OnesCount64(rules.Dilate(theirs)&empty)) / 64
	return score
}

// MaxFlips returns the most marks of victims one move on an empty cell
// can flip (0–4).
func MaxFlips(victims, empty uint64) int {
	sets := rules.CaptureSets(victims)
	for k := 4; k > 0; k-- {
		if sets[k]&empty != 0 {
			return k
		}
	}
	return 0
}

// order is report 001's h(s): the marks a move captures.
func order(p engine.Position, m engine.Move) int {
	return 16 * p.(*rules.Position).Captures(m)
}
