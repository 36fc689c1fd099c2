// Package tictactoe implements Tic-Tac-Toe on a 3×3 board: three in a
// row, column or diagonal wins, a full board draws.
//
// Cells are numbered 1–9 row by row from the top-left; a Move is the cell
// number minus one. The position text is the nine cells row by row from
// the top-left, each x, o or '.', then a space and the side to move, e.g.
// "x...o.... x". X usually moves first, but a text may let O start.
//
// Score is +1 for a win, −1 for a loss and 0 otherwise, from a side's
// point of view.
package tictactoe

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/gambitbot/gambit/engine"
)

// Cells is the number of cells on the board.
const Cells = 9

// StartText is the empty board with X to move.
const StartText = "......... x"

// lines are the eight winning lines as cell masks.
var lines = [8]uint16{
	0007, 0070, 0700, // rows
	0111, 0222, 0444, // columns
	0421, 0124, // diagonals
}

var (
	zCell [2][Cells]uint64
	zSide uint64
	// won[m] tells whether the marks m hold a line.
	won [1 << Cells]bool
)

func init() {
	for m := range won {
		for _, l := range lines {
			won[m] = won[m] || uint16(m)&l == l
		}
	}
	keys := make([]uint64, 2*Cells+1)
	engine.FillKeys(0x777, keys)
	copy(zCell[engine.X][:], keys)
	copy(zCell[engine.O][:], keys[Cells:])
	zSide = keys[2*Cells]
}

// Position is a Tic-Tac-Toe position with the moves played on it since it
// was created. The zero value is not valid; use New or Parse.
type Position struct {
	marks [2]uint16
	stm   engine.Side
	hash  uint64
	n     int
	moves [Cells]uint8
}

var _ engine.Position = (*Position)(nil)

// New returns the empty board with X to move.
func New() *Position {
	p, err := Parse(StartText)
	if err != nil {
		panic(err) // StartText is a constant known to parse
	}
	return p
}

// Parse reads a position text. Besides its shape it checks that the
// position can arise in a game: the side to move has as many marks as the
// other side or one fewer, at most one side has a line, and a side with a
// line moved last.
func Parse(text string) (*Position, error) {
	fields := strings.Fields(text)
	if len(fields) != 2 {
		return nil, fmt.Errorf("tictactoe: position %q: want 2 fields (9 cells, side to move), got %d", text, len(fields))
	}
	if len(fields[0]) != Cells {
		return nil, fmt.Errorf("tictactoe: position %q: board has %d cells, want 9", text, len(fields[0]))
	}
	p := &Position{}
	for i := range Cells {
		switch fields[0][i] {
		case 'x':
			p.marks[engine.X] |= 1 << i
		case 'o':
			p.marks[engine.O] |= 1 << i
		case '.':
		default:
			return nil, fmt.Errorf("tictactoe: position %q: cell %d holds %q, want x, o or '.'", text, i+1, fields[0][i])
		}
	}
	stm, err := engine.ParseSide(fields[1])
	if err != nil {
		return nil, fmt.Errorf("tictactoe: position %q: side to move: %w", text, err)
	}
	p.stm = stm
	own, other := bits.OnesCount16(p.marks[stm]), bits.OnesCount16(p.marks[stm.Other()])
	if own != other && own != other-1 {
		return nil, fmt.Errorf("tictactoe: position %q: %v to move with %d marks against %d; want as many or one fewer", text, stm, own, other)
	}
	if won[p.marks[stm]] {
		return nil, fmt.Errorf("tictactoe: position %q: %v has a line but is to move; the game ended before its last move", text, stm)
	}
	p.hash = zIf(stm == engine.O)
	for s := range 2 {
		for m := p.marks[s]; m != 0; m &= m - 1 {
			p.hash ^= zCell[s][bits.TrailingZeros16(m)]
		}
	}
	return p, nil
}

func zIf(o bool) uint64 {
	if o {
		return zSide
	}
	return 0
}

// SideToMove returns the side whose turn it is.
func (p *Position) SideToMove() engine.Side { return p.stm }

// Mark returns the side holding cell c (0–8), with ok false for an empty
// cell.
func (p *Position) Mark(c engine.Move) (s engine.Side, ok bool) {
	bit := uint16(1) << (c % 16)
	switch {
	case p.marks[engine.X]&bit != 0:
		return engine.X, true
	case p.marks[engine.O]&bit != 0:
		return engine.O, true
	}
	return 0, false
}

func (p *Position) empty() uint16 { return ^(p.marks[engine.X] | p.marks[engine.O]) & 0777 }

// Moves appends the empty cells to buf[:0], or none once the game is over.
func (p *Position) Moves(buf []engine.Move) []engine.Move {
	buf = buf[:0]
	if p.Terminal() {
		return buf
	}
	for e := p.empty(); e != 0; e &= e - 1 {
		buf = append(buf, engine.Move(bits.TrailingZeros16(e)))
	}
	return buf
}

// Legal reports whether m is an empty cell of a game that is not over.
func (p *Position) Legal(m engine.Move) bool {
	return m < Cells && !p.Terminal() && p.empty()&(1<<m) != 0
}

// Play puts the side to move's mark on the empty cell m.
func (p *Position) Play(m engine.Move) {
	p.marks[p.stm] |= 1 << m
	p.hash ^= zCell[p.stm][m] ^ zSide
	p.stm ^= 1
	p.moves[p.n] = uint8(m)
	p.n++
}

// Undo takes back the last move played. It panics if no move has been
// played since the position was created or parsed.
func (p *Position) Undo() {
	p.n--
	m := p.moves[p.n]
	p.stm ^= 1
	p.marks[p.stm] &^= 1 << m
	p.hash ^= zCell[p.stm][m] ^ zSide
}

// winner returns the side with a line, if any.
func (p *Position) winner() (engine.Side, bool) {
	for s := engine.X; s <= engine.O; s++ {
		if won[p.marks[s]] {
			return s, true
		}
	}
	return 0, false
}

// Terminal reports whether a side has a line or the board is full.
func (p *Position) Terminal() bool {
	_, won := p.winner()
	return won || p.empty() == 0
}

// Result returns the outcome for side s.
func (p *Position) Result(s engine.Side) engine.Result {
	if w, ok := p.winner(); ok {
		if w == s {
			return engine.Win
		}
		return engine.Loss
	}
	if p.empty() == 0 {
		return engine.Draw
	}
	return engine.Ongoing
}

// Score returns +1 if s has won, −1 if s has lost, 0 otherwise.
func (p *Position) Score(s engine.Side) int { return p.Result(s).Sign() }

// PliesLeft returns the number of empty cells, or 0 once the game is over.
func (p *Position) PliesLeft() int {
	if p.Terminal() {
		return 0
	}
	return bits.OnesCount16(p.empty())
}

// Hash returns the Zobrist hash of the marks and the side to move.
func (p *Position) Hash() uint64 { return p.hash }

// ParseMove reads a cell number 1–9 and checks that it is empty.
func (p *Position) ParseMove(text string) (engine.Move, error) {
	t := strings.TrimSpace(text)
	if len(t) != 1 || t[0] < '1' || t[0] > '9' {
		return engine.NoMove, fmt.Errorf("tictactoe: move %q: want a cell 1–9", text)
	}
	m := engine.Move(t[0] - '1')
	switch {
	case p.Terminal():
		return engine.NoMove, fmt.Errorf("tictactoe: move %s: the game is over", t)
	case !p.Legal(m):
		return engine.NoMove, fmt.Errorf("tictactoe: move %s: the cell is taken", t)
	}
	return m, nil
}

// FormatMove returns the cell number 1–9 of m.
func (p *Position) FormatMove(m engine.Move) string {
	if m >= Cells {
		return fmt.Sprintf("cell(%d)", m)
	}
	return string(rune('1' + m))
}

// String returns the position text.
func (p *Position) String() string {
	b := make([]byte, 0, Cells+2)
	for c := range engine.Move(Cells) {
		s, ok := p.Mark(c)
		if !ok {
			b = append(b, '.')
			continue
		}
		b = append(b, s.String()[0])
	}
	return string(append(b, ' ', p.stm.String()[0]))
}

// Clone returns an independent copy of p, history included.
func (p *Position) Clone() engine.Position {
	q := *p
	return &q
}
