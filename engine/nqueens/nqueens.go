// Package nqueens implements the N-Queens puzzle for N from 4 to 12: put
// N queens on an N×N board, one per column, so that no two share a row or
// a diagonal.
//
// Columns are letters a, b, … from the left and rows numbers 1…N from the
// bottom, as on a chess board. Each column holds at most one queen. The
// move "c4" puts column c's queen on row 4: it places the queen if the
// column is empty and moves it there from another row otherwise; naming
// the square the column's queen already stands on lifts the queen off. So
// every square is a legal move until the puzzle is solved, which makes
// N×N moves (at most 144).
//
// The position text is the row of each column's queen from a to the last
// column, separated by commas, 0 for an empty column: "2,4,1,3" is a
// solved 4-queens board, "0,0,0,0,0,0,0,0" the empty 8-queens board. The
// number of fields is N.
//
// The puzzle is played by one player: SideToMove is always X, and the game
// ends (Terminal, Result Win for X) once N queens attack none of each
// other. Score is minus the number of empty columns plus the attacking
// pairs (see Conflicts), so 0 means solved; PliesLeft is 0 once solved and
// N otherwise — no position needs more moves, since N moves can set every
// column to a solution's row.
package nqueens

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
)

// The board sizes played.
const (
	MinN = 4
	MaxN = 12
)

var zQueen [MaxN][MaxN + 1]uint64
var zN [MaxN + 1]uint64

func init() {
	keys := make([]uint64, MaxN*(MaxN+1)+MaxN+1)
	engine.FillKeys(0x8_0_8, keys)
	for c := range zQueen {
		copy(zQueen[c][:], keys[c*(MaxN+1):])
	}
	copy(zN[:], keys[MaxN*(MaxN+1):])
}

// Position is an N-Queens board with the moves played on it since it was
// created. The zero value is not valid; use New or Parse.
type Position struct {
	n    int
	rows [MaxN]int8 // the row 1…n of each column's queen, 0 for none
	hash uint64
	// undo holds, for each move played, the column and the row before.
	undo []undoEntry
}

type undoEntry struct{ col, row int8 }

var _ engine.Position = (*Position)(nil)

// New returns the empty n×n board; n must be within MinN…MaxN.
func New(n int) (*Position, error) {
	if n < MinN || n > MaxN {
		return nil, fmt.Errorf("nqueens: N = %d: want %d to %d", n, MinN, MaxN)
	}
	p := &Position{n: n}
	p.rehash()
	return p, nil
}

// Parse reads a position text: N numbers separated by commas, each the row
// 1…N of a column's queen or 0 for an empty column.
func Parse(text string) (*Position, error) {
	fields := strings.Split(text, ",")
	if len(fields) < MinN || len(fields) > MaxN {
		return nil, fmt.Errorf("nqueens: position %q: %d columns; want %d to %d numbers separated by commas", text, len(fields), MinN, MaxN)
	}
	p := &Position{n: len(fields)}
	for c, f := range fields {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 0 || v > p.n {
			return nil, fmt.Errorf("nqueens: position %q: column %c holds %q; want a row 1–%d or 0 for no queen", text, 'a'+c, f, p.n)
		}
		p.rows[c] = int8(v)
	}
	p.rehash()
	return p, nil
}

func (p *Position) rehash() {
	p.hash = zN[p.n]
	for c := range p.n {
		p.hash ^= zQueen[c][p.rows[c]]
	}
}

// N returns the board's side.
func (p *Position) N() int { return p.n }

// Row returns the row 1…N of column c's queen (c from 0), 0 for none.
func (p *Position) Row(c int) int { return int(p.rows[c]) }

// Rows returns the row of each column's queen, 0 for none.
func (p *Position) Rows() []int {
	rows := make([]int, p.n)
	for c := range p.n {
		rows[c] = int(p.rows[c])
	}
	return rows
}

// Square returns the move on column c (from 0) and row r (1…N).
func (p *Position) Square(c, r int) engine.Move { return engine.Move(c*p.n + r - 1) }

// attacks reports whether the queens of columns a and b, both placed,
// share a row or a diagonal.
func (p *Position) attacks(a, b int) bool {
	ra, rb := int(p.rows[a]), int(p.rows[b])
	return ra == rb || ra-rb == a-b || ra-rb == b-a
}

// Conflicts returns the number of pairs of queens that attack each other.
func (p *Position) Conflicts() int {
	n := 0
	for a := range p.n {
		for b := a + 1; b < p.n; b++ {
			if p.rows[a] != 0 && p.rows[b] != 0 && p.attacks(a, b) {
				n++
			}
		}
	}
	return n
}

// Attacked returns the columns (from 0) whose queen another queen attacks,
// in order: the queens to show as in conflict.
func (p *Position) Attacked() []int {
	var cols []int
	for a := range p.n {
		for b := range p.n {
			if a != b && p.rows[a] != 0 && p.rows[b] != 0 && p.attacks(a, b) {
				cols = append(cols, a)
				break
			}
		}
	}
	return cols
}

// Placed returns the number of queens on the board.
func (p *Position) Placed() int {
	n := 0
	for c := range p.n {
		if p.rows[c] != 0 {
			n++
		}
	}
	return n
}

// Solved reports whether N queens stand and none attacks another.
func (p *Position) Solved() bool { return p.Placed() == p.n && p.Conflicts() == 0 }

// SideToMove returns X: the puzzle has one player.
func (p *Position) SideToMove() engine.Side { return engine.X }

// Moves appends every square to buf[:0], column by column and row by row
// from a1, or none once solved.
func (p *Position) Moves(buf []engine.Move) []engine.Move {
	buf = buf[:0]
	if p.Solved() {
		return buf
	}
	for m := range engine.Move(p.n * p.n) {
		buf = append(buf, m)
	}
	return buf
}

// Legal reports whether m is a square of the board and the puzzle is not
// solved.
func (p *Position) Legal(m engine.Move) bool { return int(m) < p.n*p.n && !p.Solved() }

// Play puts the queen of m's column on m's row, or lifts it off if it
// stands there.
func (p *Position) Play(m engine.Move) {
	c, r := int(m)/p.n, int8(int(m)%p.n+1)
	p.undo = append(p.undo, undoEntry{int8(c), p.rows[c]})
	if p.rows[c] == r {
		r = 0
	}
	p.set(c, r)
}

func (p *Position) set(c int, r int8) {
	p.hash ^= zQueen[c][p.rows[c]] ^ zQueen[c][r]
	p.rows[c] = r
}

// Undo takes back the last move played. It panics if no move has been
// played since the position was created or parsed.
func (p *Position) Undo() {
	u := p.undo[len(p.undo)-1]
	p.undo = p.undo[:len(p.undo)-1]
	p.set(int(u.col), u.row)
}

// Terminal reports whether the puzzle is solved.
func (p *Position) Terminal() bool { return p.Solved() }

// Result returns Win for X (and Loss for O) once solved, Ongoing before.
func (p *Position) Result(s engine.Side) engine.Result { return engine.PuzzleResult(p.Solved(), s) }

// Score returns, for X, minus the empty columns and attacking pairs (0
// when solved); for O its negation.
func (p *Position) Score(s engine.Side) int {
	v := p.n - p.Placed() + p.Conflicts()
	if s == engine.X {
		return -v
	}
	return v
}

// PliesLeft returns 0 once solved and N before.
func (p *Position) PliesLeft() int {
	if p.Solved() {
		return 0
	}
	return p.n
}

// Hash returns the Zobrist hash of the queens and N.
func (p *Position) Hash() uint64 { return p.hash }

// ParseMove reads a square — a column letter and a row number, e.g. "c4"
// — and checks that the puzzle is not solved.
func (p *Position) ParseMove(text string) (engine.Move, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if len(t) < 2 || t[0] < 'a' || int(t[0]-'a') >= p.n {
		return engine.NoMove, fmt.Errorf("nqueens: move %q: want a column a–%c and a row 1–%d, e.g. c4", text, 'a'+p.n-1, p.n)
	}
	r, err := strconv.Atoi(t[1:])
	if err != nil || r < 1 || r > p.n || t[1] == '+' || t[1] == '0' {
		return engine.NoMove, fmt.Errorf("nqueens: move %q: want a column a–%c and a row 1–%d, e.g. c4", text, 'a'+p.n-1, p.n)
	}
	if p.Solved() {
		return engine.NoMove, fmt.Errorf("nqueens: move %s: the puzzle is solved", t)
	}
	return p.Square(int(t[0]-'a'), r), nil
}

// FormatMove returns the square of m, e.g. "c4".
func (p *Position) FormatMove(m engine.Move) string {
	if int(m) >= p.n*p.n {
		return fmt.Sprintf("square(%d)", m)
	}
	return fmt.Sprintf("%c%d", 'a'+int(m)/p.n, int(m)%p.n+1)
}

// String returns the position text.
func (p *Position) String() string {
	b := make([]byte, 0, 3*MaxN)
	for c := range p.n {
		if c > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(p.rows[c]), 10)
	}
	return string(b)
}

// Clone returns an independent copy of p, history included.
func (p *Position) Clone() engine.Position {
	q := *p
	q.undo = append([]undoEntry(nil), p.undo...)
	return &q
}
