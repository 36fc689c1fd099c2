package gomoku

import (
	"math/bits"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/gomoku"
)

// Unit is the number of evaluation units in one unit of the game's score,
// a win: an estimate stays below it (and the search's scores within
// ±30,000, games.AI.Unit).
const Unit = 1 << 14

// The estimates of positions a threat decides (in Units of a win).
const (
	winsNext  = Unit * 7 / 8 // the side to move completes five now
	losesNext = Unit * 3 / 4 // two points complete the opponent's five: one block is not enough
	openFour  = Unit / 2     // an open three and no five to stop: an open four follows
	twoThrees = Unit / 4     // the opponent has two open threes and the side to move none
)

// windowWorth is what a line of five points holding k stones of one side
// and none of the other is worth to that side: each stone multiplies its
// chances of becoming five.
var windowWorth = [5]int{0, 1, 6, 32, 128}

// lines[size] are the board's lines of five points or more — its rows,
// columns and diagonals — as cells, for each board size.
var lines = func() (out [rules.MaxSize + 1][][]engine.Move) {
	for size := rules.MinSize; size <= rules.MaxSize; size++ {
		on := func(col, row int) bool { return col >= 0 && row >= 0 && col < size && row < size }
		for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}} {
			for row := range size {
				for col := range size {
					if on(col-d[0], row-d[1]) {
						continue // not the start of a line
					}
					var line []engine.Move
					for c, r := col, row; on(c, r); c, r = c+d[0], r+d[1] {
						line = append(line, rules.Cell(c, r))
					}
					if len(line) >= rules.Win {
						out[size] = append(out[size], line)
					}
				}
			}
		}
	}
	return out
}()

// points is a set of cells.
type points [(rules.Cells + 63) / 64]uint64

func (s *points) add(c engine.Move) { s[c/64] |= 1 << (c % 64) }

func (s *points) count() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// evaluate estimates an unfinished position for the side to move.
func evaluate(pos engine.Position) int {
	p := pos.(*rules.Position)
	pts := p.Points()
	return Evaluate(&pts, p.Size(), p.SideToMove())
}

// Evaluate is the static evaluation, in Units, of the unfinished position
// with the points pts (as rules.Position.Points) on a board of side size,
// for the side to move me.
//
// It counts threats, the way players read a board. A four is four stones
// of a side in a line of five points with the fifth empty: that point
// completes five. An open three is three stones of a side, with one
// empty point, in the middle four points of a line of six whose two ends
// are empty: one more stone makes an open four, two fours at once. Then:
//
//   - the side to move with a four wins on this move;
//   - an opponent with fours on two points wins next move, whichever the
//     side to move blocks;
//   - the side to move with an open three and no four to answer turns it
//     into an open four, which wins;
//   - an opponent with open threes on two lines, facing no three, makes
//     one of them an open four whichever the side to move blocks.
//
// Otherwise every line of five points that only one side has stones in
// counts for that side, more the more stones it holds (windowWorth).
func Evaluate(pts *[rules.Cells]int8, size int, me engine.Side) int {
	var (
		fours  [2]points
		worth  [2]int
		threes [2]int
	)
	for _, line := range lines[size] {
		var v [rules.MaxSize]int8
		for i, c := range line {
			v[i] = pts[c]
		}
		n := len(line)
		var count [3]int
		for i := range n {
			count[v[i]]++
			if i >= rules.Win {
				count[v[i-rules.Win]]--
			}
			if i < rules.Win-1 {
				continue
			}
			for s := range 2 {
				k := count[s+1]
				if k == 0 || count[2-s] != 0 {
					continue
				}
				worth[s] += windowWorth[k]
				if k == rules.Win-1 {
					for j := i - rules.Win + 1; j <= i; j++ {
						if v[j] == 0 {
							fours[s].add(line[j])
						}
					}
				}
			}
		}
		for s := range 2 {
			if openThree(v[:n], int8(s+1)) {
				threes[s]++
			}
		}
	}
	them := me.Other()
	switch {
	case fours[me].count() > 0:
		return winsNext
	case fours[them].count() >= 2:
		return -losesNext
	case fours[them].count() == 0 && threes[me] > 0:
		return openFour
	case fours[me].count() == 0 && threes[me] == 0 && threes[them] >= 2:
		return -twoThrees
	}
	score := worth[me] - worth[them]
	return max(-twoThrees+1, min(twoThrees-1, score))
}

// openThree reports whether the line v holds an open three of stone s:
// six points with empty ends whose middle four hold three of s and one
// empty point.
func openThree(v []int8, s int8) bool {
	for i := 0; i+6 <= len(v); i++ {
		if v[i] != 0 || v[i+5] != 0 {
			continue
		}
		own, empty := 0, 0
		for _, x := range v[i+1 : i+5] {
			switch x {
			case s:
				own++
			case 0:
				empty++
			}
		}
		if own == 3 && empty == 1 {
			return true
		}
	}
	return false
}

// order ranks a move by the stones around its point — those next to it
// count four times those two points away — and, on an empty board, by
// how near the centre it is.
func order(pos engine.Position, m engine.Move) int {
	p := pos.(*rules.Position)
	size := p.Size()
	col, row := int(m%rules.MaxSize), int(m/rules.MaxSize)
	score := 0
	for dr := -2; dr <= 2; dr++ {
		for dc := -2; dc <= 2; dc++ {
			c, r := col+dc, row+dr
			if (dc == 0 && dr == 0) || c < 0 || r < 0 || c >= size || r >= size {
				continue
			}
			if _, ok := p.Stone(rules.Cell(c, r)); ok {
				if max(abs(dc), abs(dr)) == 1 {
					score += 16
				} else {
					score += 4
				}
			}
		}
	}
	centre := size / 2
	score += rules.MaxSize - max(abs(col-centre), abs(row-centre))
	return min(255, score)
}

func abs(x int) int { return max(x, -x) }
