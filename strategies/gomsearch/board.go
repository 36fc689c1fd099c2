package gomsearch

import (
	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/gomoku"
)

// The board is a padded one-dimensional array: rules.MaxSize points a
// row plus four of edge (shared by a row's end and the next row's
// start), and four rows of edge above and below, so that every point of
// a line within four of a board point is in the array and the edge reads
// as a point of its own.
const (
	pad     = 4
	stride  = rules.MaxSize + pad
	gridLen = (rules.MaxSize+2*pad)*stride + pad + 1
	edge    = 3 // a grid point off the board
)

// dirs are the steps along a row, a column and the two diagonals.
var dirs = [4]int{1, stride, stride + 1, stride - 1}

// point is the grid index of column col and row row.
func point(col, row int) int { return (row+pad)*stride + col + pad }

// fromCell and toCell convert between rules' cell numbers and points.
func fromCell(c engine.Move) int { return point(int(c%rules.MaxSize), int(c/rules.MaxSize)) }

func toCell(p int) engine.Move {
	p -= pad*stride + pad
	return rules.Cell(p%stride, p/stride)
}

// zobrist are the hash keys of a stone of each colour on each point.
var zobrist [2][gridLen]uint64

func init() {
	var k [2 * gridLen]uint64
	engine.FillKeys(0x90b0c, k[:])
	copy(zobrist[0][:], k[:gridLen])
	copy(zobrist[1][:], k[gridLen:])
}

// board is a Gomoku position with what the search reads of it kept up to
// date as stones come and go: each point's line keys, its shapes and
// class for each colour, the count of empty points of each class, the
// sum of the empty points' values, how many stones lie near each point,
// and the Zobrist hash.
type board struct {
	size  int
	cell  [gridLen]uint8 // 0 empty, 1 black, 2 white, edge
	side  int            // to move: 0 black, 1 white
	won   bool           // the last stone made five
	empty int            // empty points left
	hash  uint64
	// key[d][p] holds the eight points around p along direction d, two
	// bits each (cell values), the nearest first after the four before.
	key [4][gridLen]uint16
	// packed[c][p] holds p's four shapes for colour c, four bits each.
	packed [2][gridLen]uint16
	// count[c][cl] is the number of empty points of class cl for c.
	count [2][classes]int32
	// total[c] is the sum of the empty points' values for c.
	total [2]int32
	// near[p] counts the stones within two points of p (either way,
	// diagonals included).
	near [gridLen]uint8
	// lo and hi bound the rows and columns of the stones (a box of the
	// board; empty while hi < lo) and the ply's saved ones.
	lo, hi [2]int
	boxes  [][2][2]int
	moves  []int
}

// newBoard returns the board of pos.
func newBoard(pos *rules.Position) *board {
	tables()
	b := &board{size: pos.Size()}
	b.reset(pos)
	return b
}

// reset makes b the position pos.
func (b *board) reset(pos *rules.Position) {
	n := pos.Size()
	b.size = n
	for p := range b.cell {
		b.cell[p] = edge
	}
	for row := range n {
		for col := range n {
			b.cell[point(col, row)] = 0
		}
	}
	b.side, b.won, b.empty, b.hash = int(pos.SideToMove()), false, n*n, 0
	b.lo, b.hi = [2]int{rules.MaxSize, rules.MaxSize}, [2]int{-1, -1}
	b.boxes, b.moves = b.boxes[:0], b.moves[:0]
	b.near = [gridLen]uint8{}
	// Keys and shapes of the empty board, then the stones one by one.
	for d, step := range dirs {
		for p := range b.cell {
			if b.cell[p] == edge {
				continue
			}
			var k uint16
			for i := range 8 {
				o := i - 4
				if i >= 4 {
					o = i - 3
				}
				k |= uint16(b.cell[p+o*step]) << (2 * i)
			}
			b.key[d][p] = k
		}
	}
	b.count, b.total = [2][classes]int32{}, [2]int32{}
	for p := range b.cell {
		if b.cell[p] == edge {
			continue
		}
		for c := range 2 {
			var pk uint16
			for d := range 4 {
				pk |= uint16(shapeOf[c][b.key[d][p]]) << (4 * d)
			}
			b.packed[c][p] = pk
			b.count[c][classOf[pk]]++
			b.total[c] += valueOf[pk]
		}
	}
	pts := pos.Points()
	for row := range n {
		for col := range n {
			if v := pts[rules.Cell(col, row)]; v != 0 {
				b.place(point(col, row), int(v-1))
			}
		}
	}
	_, b.won = pos.Winner()
	b.moves = b.moves[:0]
	b.boxes = b.boxes[:0]
}

// class returns p's class for colour c.
func (b *board) class(c, p int) uint8 { return classOf[b.packed[c][p]] }

// value returns p's value for colour c.
func (b *board) value(c, p int) int32 { return valueOf[b.packed[c][p]] }

// makes5 reports whether a stone of c on p would make five.
func (b *board) makes5(c, p int) bool { return b.class(c, p) == clFive }

// play puts a stone of the side to move on the empty point p and passes
// the turn.
func (b *board) play(p int) {
	c := b.side
	b.won = b.makes5(c, p)
	b.boxes = append(b.boxes, [2][2]int{b.lo, b.hi})
	b.moves = append(b.moves, p)
	b.place(p, c)
	b.side ^= 1
}

// undo takes the last stone back.
func (b *board) undo() {
	n := len(b.moves) - 1
	p := b.moves[n]
	b.moves = b.moves[:n]
	box := b.boxes[n]
	b.boxes = b.boxes[:n]
	b.side ^= 1
	b.remove(p, b.side)
	b.lo, b.hi = box[0], box[1]
	b.won = false
}

// place puts a stone of colour c on the empty point p.
func (b *board) place(p, c int) {
	for o := range 2 {
		b.count[o][b.class(o, p)]--
		b.total[o] -= b.value(o, p)
	}
	v := uint16(c + 1)
	b.cell[p] = uint8(v)
	b.empty--
	b.hash ^= zobrist[c][p]
	b.spread(p, v, true)
	for dr := -2 * stride; dr <= 2*stride; dr += stride {
		for dc := -2; dc <= 2; dc++ {
			b.near[p+dr+dc]++
		}
	}
	col, row := (p-pad)%stride, p/stride-pad
	b.lo = [2]int{min(b.lo[0], col), min(b.lo[1], row)}
	b.hi = [2]int{max(b.hi[0], col), max(b.hi[1], row)}
}

// remove takes the stone of colour c off p.
func (b *board) remove(p, c int) {
	v := uint16(c + 1)
	b.cell[p] = 0
	b.empty++
	b.hash ^= zobrist[c][p]
	b.spread(p, v, false)
	for dr := -2 * stride; dr <= 2*stride; dr += stride {
		for dc := -2; dc <= 2; dc++ {
			b.near[p+dr+dc]--
		}
	}
	b.repack(p)
	for o := range 2 {
		b.count[o][b.class(o, p)]++
		b.total[o] += b.value(o, p)
	}
}

// spread adds (or takes back) the stone value v on p to the keys of the
// points within four along each line, and brings their shapes, the
// class counts and the totals up to date.
func (b *board) spread(p int, v uint16, add bool) {
	for d, step := range dirs {
		for k := 1; k <= 4; k++ {
			// p is k points after q = p − k·step: q's slot 3+k.
			b.touch(d, p-k*step, v<<(2*(3+k)), add)
			// p is k points before q = p + k·step: q's slot 4−k.
			b.touch(d, p+k*step, v<<(2*(4-k)), add)
		}
	}
}

// touch changes q's key along d by delta and, if q is empty, updates
// its shapes, the class counts and the totals (an occupied point's
// shapes are brought up to date when its stone is taken back).
func (b *board) touch(d, q int, delta uint16, add bool) {
	if b.cell[q] == edge {
		return
	}
	if add {
		b.key[d][q] += delta
	} else {
		b.key[d][q] -= delta
	}
	if b.cell[q] != 0 {
		return
	}
	s := shapes2[b.key[d][q]]
	shift := 4 * d
	for c := range 2 {
		old := b.packed[c][q]
		pk := old&^(15<<shift) | uint16(s>>(4*c)&15)<<shift
		if pk == old {
			continue
		}
		b.packed[c][q] = pk
		b.count[c][classOf[old]]--
		b.count[c][classOf[pk]]++
		b.total[c] += valueOf[pk] - valueOf[old]
	}
}

// repack recomputes the shapes of p from its keys.
func (b *board) repack(p int) {
	var pk [2]uint16
	for d := range 4 {
		s := shapes2[b.key[d][p]]
		pk[0] |= uint16(s&15) << (4 * d)
		pk[1] |= uint16(s>>4) << (4 * d)
	}
	b.packed[0][p], b.packed[1][p] = pk[0], pk[1]
}

// candidates appends to buf the empty points within two of a stone
// (the centre on an empty board).
func (b *board) candidates(buf []int) []int {
	if b.hi[0] < b.lo[0] {
		return append(buf, point(b.size/2, b.size/2))
	}
	r0, r1 := max(b.lo[1]-2, 0), min(b.hi[1]+2, b.size-1)
	c0, c1 := max(b.lo[0]-2, 0), min(b.hi[0]+2, b.size-1)
	for row := r0; row <= r1; row++ {
		for p, end := point(c0, row), point(c1, row); p <= end; p++ {
			if b.cell[p] == 0 && b.near[p] > 0 {
				buf = append(buf, p)
			}
		}
	}
	return buf
}

// find appends to buf the candidate points whose class for colour c is
// at least cl.
func (b *board) find(buf []int, c int, cl uint8) []int {
	if b.hi[0] < b.lo[0] {
		return buf
	}
	r0, r1 := max(b.lo[1]-2, 0), min(b.hi[1]+2, b.size-1)
	c0, c1 := max(b.lo[0]-2, 0), min(b.hi[0]+2, b.size-1)
	for row := r0; row <= r1; row++ {
		for p, end := point(c0, row), point(c1, row); p <= end; p++ {
			if b.cell[p] == 0 && b.class(c, p) >= cl {
				buf = append(buf, p)
			}
		}
	}
	return buf
}

// fivePointAfter returns the point where colour c, which has just played
// a four on p, would complete five: the empty point along p's lines that
// makes five for c (-1 if none).
func (b *board) fivePointAfter(p, c int) int {
	for _, step := range dirs {
		for k := -4; k <= 4; k++ {
			q := p + k*step
			if k != 0 && b.cell[q] == 0 && b.makes5(c, q) {
				return q
			}
		}
	}
	return -1
}
