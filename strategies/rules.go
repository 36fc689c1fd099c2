package strategies

import (
	"math/bits"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/engine/tictactoe"
)

// adjacencyRules evaluate Adjacency positions in sixteenths of a mark.
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
type adjacencyRules struct{}

const adjUnit = 16

func (adjacencyRules) unit() int { return adjUnit }

func (adjacencyRules) terminal(p engine.Position) int {
	return adjUnit * p.Score(p.SideToMove())
}

func (adjacencyRules) evaluate(p engine.Position) int {
	b := p.(*adjacency.Position).Board
	return adjacencyEval(b)
}

// adjacencyEval is the static evaluation of b for the side to move.
func adjacencyEval(b adjacency.Board) int {
	me, them := b.SideToMove(), b.SideToMove().Other()
	mine, theirs := b.Bitboard(me), b.Bitboard(them)
	empty := ^(mine | theirs)
	score := adjUnit * (bits.OnesCount64(mine) - bits.OnesCount64(theirs))
	score += adjUnit * (b.PliesLeft() & 1)
	score += 10*maxFlips(theirs, empty) - 6*maxFlips(mine, empty)
	score += 10 * (bits.OnesCount64(mine&^adjacency.Dilate(empty)) - bits.OnesCount64(theirs&^adjacency.Dilate(empty)))
	occupied := bits.OnesCount64(mine | theirs)
	score -= 16 * occupied * (bits.OnesCount64(adjacency.Dilate(mine)&empty) - bits.OnesCount64(adjacency.Dilate(theirs)&empty)) / 64
	return score
}

// maxFlips returns the most marks of victims one move on an empty cell
// can flip (0–4).
func maxFlips(victims, empty uint64) int {
	sets := captureSets(victims)
	for k := 4; k > 0; k-- {
		if sets[k]&empty != 0 {
			return k
		}
	}
	return 0
}

// orderBonus is report 001's h(s): the marks a move captures.
func (adjacencyRules) orderBonus(p engine.Position, m engine.Move) int {
	return 16 * p.(*adjacency.Position).Captures(m)
}

// ticTacToeRules: the whole game is searched, so the evaluation is never
// used; the order tries the centre, then corners.
type ticTacToeRules struct{}

func (ticTacToeRules) unit() int { return 100 }

func (ticTacToeRules) terminal(p engine.Position) int { return 100 * p.Score(p.SideToMove()) }

func (ticTacToeRules) evaluate(engine.Position) int { return 0 }

func (ticTacToeRules) orderBonus(_ engine.Position, m engine.Move) int {
	return [tictactoe.Cells]int{2, 1, 2, 1, 3, 1, 2, 1, 2}[m%tictactoe.Cells]
}

// rulesFor returns the search rules of pos's game.
func rulesFor(pos engine.Position) (rules, bool) {
	switch pos.(type) {
	case *adjacency.Position:
		return adjacencyRules{}, true
	case *connect4.Position:
		return connect4Rules{}, true
	case *tictactoe.Position:
		return ticTacToeRules{}, true
	}
	return nil, false
}
