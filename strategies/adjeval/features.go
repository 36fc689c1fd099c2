// Package adjeval is a learned evaluation of Adjacency positions: a few
// pattern and mobility-like features of the board, as Othello engines use
// (material, parity, capture threats, stable marks, frontier, edges and
// corners, empty regions), combined linearly with weights fitted by
// regression on self-play positions labelled by search and exact solves
// (package adjeval/train, `gambit train`). The weights are embedded in the
// binary (weights.bin).
//
// Evaluate is a pure function of the position: it estimates the final
// mark difference for the side to move, in sixteenths of a mark (Unit,
// the unit of games/adjacency's hand-written evaluation), so that any
// search can use it in place of that one.
package adjeval

import (
	"math/bits"

	"github.com/gambitbot/gambit/engine/adjacency"
)

// Unit is the number of evaluation units in one mark: Evaluate returns
// sixteenths of a mark, like games/adjacency.Evaluate.
const Unit = 16

// The features, each seen from the side to move ("mine") against its
// opponent ("theirs"); a difference is mine minus theirs.
const (
	// FBias is 1: the stage's expected result whatever the board.
	FBias = iota
	// FMaterial is the mark difference.
	FMaterial
	// FParity is 1 when an odd number of plies is left: the side to move
	// then places one mark more than its opponent.
	FParity
	// FThreatMine is the most opponent marks one move of the side to move
	// flips now (0–4).
	FThreatMine
	// FThreatTheirs is the most marks of the side to move one move of the
	// opponent would flip (0–4).
	FThreatTheirs
	// FStable is the difference of stable marks: marks with no empty
	// orthogonal neighbour, which can never flip again.
	FStable
	// FFrontier is the difference of frontier cells: empty cells next to a
	// side's marks, from which the opponent can attack them.
	FFrontier
	// FFrontierFull is FFrontier times the number of occupied cells: the
	// frontier matters more on a full board.
	FFrontierFull
	// FMultiMine counts the empty cells where the side to move would flip
	// two opponent marks or more.
	FMultiMine
	// FMultiTheirs counts the empty cells where the opponent would flip
	// two marks of the side to move or more.
	FMultiTheirs
	// FPressureMine is the sum over empty cells of the opponent marks a
	// move there flips: every (empty cell, opponent mark) adjacent pair.
	FPressureMine
	// FPressureTheirs is the same for the opponent's moves.
	FPressureTheirs
	// FEdge is the difference of marks on the edge cells but the corners
	// (three neighbours: harder to attack).
	FEdge
	// FCorner is the difference of marks on the four corners (two
	// neighbours).
	FCorner
	// FOddRegions counts the empty regions (orthogonally connected empty
	// cells) of odd size: region parity, as in Othello endgames.
	FOddRegions
	// FHoles is the flips available in holes (empty cells with no empty
	// neighbour) to the side to move minus those available to the
	// opponent: a hole is played once, by whoever gets there first.
	FHoles

	// NumFeatures is the number of features.
	NumFeatures
)

// featureNames name the features in the weights file's header and in
// reports, in order; changing the set changes the header, so a weights
// file of another set is refused.
var featureNames = [NumFeatures]string{
	"bias", "material", "parity", "threat-mine", "threat-theirs", "stable", "frontier", "frontier-full",
	"multi-mine", "multi-theirs", "pressure-mine", "pressure-theirs", "edge", "corner", "odd-regions", "holes",
}

// FeatureName returns the name of feature f, such as "material".
func FeatureName(f int) string { return featureNames[f] }

const (
	corners = 1 | 1<<7 | 1<<56 | 1<<63
	edges   = (0xff | 0xff<<56 | 0x0101010101010101 | 0x8080808080808080) &^ corners
)

// Features are the feature values of one position, indexed by the F
// constants.
type Features [NumFeatures]int32

// Extract returns the features of b for its side to move.
func Extract(b adjacency.Board) Features {
	me := b.SideToMove()
	mine, theirs := b.Bitboard(me), b.Bitboard(me.Other())
	occupied := mine | theirs
	empty := ^occupied
	nearEmpty := adjacency.Dilate(empty)
	onMine, onTheirs := adjacency.CaptureSets(theirs), adjacency.CaptureSets(mine)
	frontier := bits.OnesCount64(adjacency.Dilate(mine)&empty) - bits.OnesCount64(adjacency.Dilate(theirs)&empty)
	holes := empty &^ nearEmpty

	var f Features
	f[FBias] = 1
	f[FMaterial] = int32(bits.OnesCount64(mine) - bits.OnesCount64(theirs))
	f[FParity] = int32(b.PliesLeft() & 1)
	f[FThreatMine] = maxFlips(onMine, empty)
	f[FThreatTheirs] = maxFlips(onTheirs, empty)
	f[FStable] = int32(bits.OnesCount64(mine&^nearEmpty) - bits.OnesCount64(theirs&^nearEmpty))
	f[FFrontier] = int32(frontier)
	f[FFrontierFull] = int32(frontier * bits.OnesCount64(occupied))
	f[FMultiMine] = int32(bits.OnesCount64(empty &^ (onMine[0] | onMine[1])))
	f[FMultiTheirs] = int32(bits.OnesCount64(empty &^ (onTheirs[0] | onTheirs[1])))
	f[FPressureMine] = flipSum(onMine, empty)
	f[FPressureTheirs] = flipSum(onTheirs, empty)
	f[FEdge] = int32(bits.OnesCount64(mine&edges) - bits.OnesCount64(theirs&edges))
	f[FCorner] = int32(bits.OnesCount64(mine&corners) - bits.OnesCount64(theirs&corners))
	f[FOddRegions] = oddRegions(empty)
	f[FHoles] = flipSum(onMine, holes) - flipSum(onTheirs, holes)
	return f
}

// maxFlips is the largest k with an empty cell in sets[k] (0–4).
func maxFlips(sets [5]uint64, empty uint64) int32 {
	for k := 4; k > 0; k-- {
		if sets[k]&empty != 0 {
			return int32(k)
		}
	}
	return 0
}

// flipSum is the sum over the cells of where of the marks a move there
// flips, given the capture sets of the victims.
func flipSum(sets [5]uint64, where uint64) int32 {
	n := 0
	for k := 1; k <= 4; k++ {
		n += k * bits.OnesCount64(sets[k]&where)
	}
	return int32(n)
}

// oddRegions counts the orthogonally connected regions of empty of odd
// size, flooding one region at a time from its lowest cell.
func oddRegions(empty uint64) int32 {
	n := int32(0)
	for empty != 0 {
		region := empty & -empty
		for {
			grown := (region | adjacency.Dilate(region)) & empty
			if grown == region {
				break
			}
			region = grown
		}
		n += int32(bits.OnesCount64(region) & 1)
		empty &^= region
	}
	return n
}
