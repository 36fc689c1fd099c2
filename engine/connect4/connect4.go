// Package connect4 implements Connect Four: 7 columns by 6 rows, stones
// dropped into columns, four in a row (across, up or diagonally) wins, a
// full board draws. X is the first player.
//
// A Move is a column index 0–6, written as the column digit 1–7. The
// position text is the sequence of columns played from the empty board,
// one digit each, first player first — the notation of Pascal Pons' test
// positions — with "start" (or the empty string) for the empty board.
//
// Score follows the same convention: 0 for a draw or an unfinished game;
// for a won game, (44 − N) div 2 for the winner and its negation for the
// loser, N being the number of the winning move (so winning sooner
// scores higher).
//
// The board is two bitboards of 7 bits per column (6 cells and a spare
// bit that keeps columns apart), bit 7c+r for column c, row r from the
// bottom.
package connect4

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/gambitbot/gambit/engine"
)

const (
	// Width and Height are the board's size.
	Width, Height = 7, 6
	// Cells is the number of cells on the board.
	Cells = Width * Height

	colBits = Height + 1
)

// StartText is the position text of the empty board.
const StartText = "start"

// Position is a Connect Four position with the moves that led to it from
// the empty board. The zero value is the empty board, ready to play.
type Position struct {
	stones [2]uint64 // stones[engine.X], stones[engine.O]
	hash   uint64
	n      int  // moves played
	won    bool // the last move made four in a row
	moves  [Cells]uint8
}

var _ engine.Position = (*Position)(nil)

var zStone [2][Width * colBits]uint64

func init() {
	keys := make([]uint64, 2*len(zStone[0]))
	engine.FillKeys(0xc4c4, keys)
	copy(zStone[engine.X][:], keys)
	copy(zStone[engine.O][:], keys[len(zStone[0]):])
}

func bottom(col int) uint64 { return 1 << (col * colBits) }
func top(col int) uint64    { return 1 << (col*colBits + Height - 1) }
func column(col int) uint64 { return (1<<Height - 1) << (col * colBits) }

// fourInARow reports whether stones hold four in a row in any direction:
// along a column (shift 1), a row (7) or a diagonal (6 and 8).
func fourInARow(stones uint64) bool {
	v := stones & (stones >> 1)
	h := stones & (stones >> colBits)
	d1 := stones & (stones >> (colBits - 1))
	d2 := stones & (stones >> (colBits + 1))
	return v&(v>>2)|h&(h>>(2*colBits))|d1&(d1>>(2*(colBits-1)))|d2&(d2>>(2*(colBits+1))) != 0
}

// New returns the empty board.
func New() *Position { return &Position{} }

// Parse reads a position text: a sequence of columns 1–7, or "start" or
// the empty string for the empty board. It rejects any other character, a
// move into a full column, and moves after the game has been won.
func Parse(text string) (*Position, error) {
	p := New()
	t := strings.TrimSpace(text)
	if t == StartText {
		return p, nil
	}
	for i := range len(t) {
		ch := t[i]
		if ch < '1' || ch > '7' {
			return nil, fmt.Errorf("connect4: position %q: move %d is %q, want a column 1–7", text, i+1, ch)
		}
		if p.won {
			return nil, fmt.Errorf("connect4: position %q: move %d comes after the game was won at move %d", text, i+1, i)
		}
		m := engine.Move(ch - '1')
		if !p.Legal(m) {
			return nil, fmt.Errorf("connect4: position %q: move %d: column %c is full", text, i+1, ch)
		}
		p.Play(m)
	}
	return p, nil
}

// SideToMove returns X after an even number of moves, O after an odd one.
func (p *Position) SideToMove() engine.Side { return engine.Side(p.n & 1) }

// Ply returns the number of moves played.
func (p *Position) Ply() int { return p.n }

// Bitboard returns side s's stones, bit 7c+r for column c, row r.
func (p *Position) Bitboard(s engine.Side) uint64 { return p.stones[s] }

// At returns the side with a stone in column col, row row (0 is the
// bottom), with ok false for an empty cell or one off the board.
func (p *Position) At(col, row int) (s engine.Side, ok bool) {
	if col < 0 || col >= Width || row < 0 || row >= Height {
		return 0, false
	}
	bit := uint64(1) << (col*colBits + row)
	switch {
	case p.stones[engine.X]&bit != 0:
		return engine.X, true
	case p.stones[engine.O]&bit != 0:
		return engine.O, true
	}
	return 0, false
}

func (p *Position) mask() uint64 { return p.stones[engine.X] | p.stones[engine.O] }

// boardMask holds every cell of the board.
var boardMask = func() uint64 {
	var m uint64
	for col := range Width {
		m |= column(col)
	}
	return m
}()

// Playable returns the cells where a stone can be dropped now: the lowest
// empty cell of each column that is not full.
func (p *Position) Playable() uint64 {
	var bottoms uint64
	for col := range Width {
		bottoms |= bottom(col)
	}
	return (p.mask() + bottoms) & boardMask
}

// Threats returns the empty cells where a stone of side s would complete
// four in a row, playable now or not.
func (p *Position) Threats(s engine.Side) uint64 {
	own := p.stones[s]
	// Vertical: three below.
	r := (own << 1) & (own << 2) & (own << 3)
	// The other directions: three of four cells around the empty one.
	for _, d := range [3]uint{colBits, colBits - 1, colBits + 1} {
		two := (own << d) & (own << (2 * d))
		r |= two & (own << (3 * d)) // three on one side
		r |= two & (own >> d)       // two on one side, one on the other
		two = (own >> d) & (own >> (2 * d))
		r |= two & (own >> (3 * d))
		r |= two & (own << d)
	}
	return r & boardMask &^ p.mask()
}

// Moves appends the columns that are not full to buf[:0], or none once
// the game is over.
func (p *Position) Moves(buf []engine.Move) []engine.Move {
	buf = buf[:0]
	if p.Terminal() {
		return buf
	}
	mask := p.mask()
	for col := range Width {
		if mask&top(col) == 0 {
			buf = append(buf, engine.Move(col))
		}
	}
	return buf
}

// Legal reports whether column m has room in a game that is not over.
func (p *Position) Legal(m engine.Move) bool {
	return m < Width && !p.Terminal() && p.mask()&top(int(m)) == 0
}

// Play drops the side to move's stone into the legal column m.
func (p *Position) Play(m engine.Move) {
	col := int(m)
	s := p.SideToMove()
	mask := p.mask()
	bit := (mask + bottom(col)) & column(col)
	p.stones[s] |= bit
	p.hash ^= zStone[s][bits.TrailingZeros64(bit)]
	p.moves[p.n] = uint8(col)
	p.n++
	p.won = fourInARow(p.stones[s])
}

// Undo takes back the last move played; it panics on the empty board.
func (p *Position) Undo() {
	p.n--
	col := int(p.moves[p.n])
	s := engine.Side(p.n & 1)
	i := 63 - bits.LeadingZeros64(p.mask()&column(col)) // the column's top stone
	p.stones[s] &^= 1 << i
	p.hash ^= zStone[s][i]
	p.won = false // the game went on after this position, so nobody had won
}

// Terminal reports whether the last move won or filled the board.
func (p *Position) Terminal() bool { return p.won || p.n == Cells }

// Result returns the outcome for side s.
func (p *Position) Result(s engine.Side) engine.Result {
	switch {
	case p.won && s == engine.Side((p.n-1)&1):
		return engine.Win
	case p.won:
		return engine.Loss
	case p.n == Cells:
		return engine.Draw
	}
	return engine.Ongoing
}

// Score returns (44 − N) div 2 for the winner of a game won at move N, its
// negation for the loser, and 0 otherwise.
func (p *Position) Score(s engine.Side) int {
	switch p.Result(s) {
	case engine.Win:
		return (44 - p.n) / 2
	case engine.Loss:
		return -(44 - p.n) / 2
	}
	return 0
}

// PliesLeft returns the number of empty cells.
func (p *Position) PliesLeft() int {
	if p.won {
		return 0
	}
	return Cells - p.n
}

// Hash returns the Zobrist hash of the stones (they determine the side to
// move).
func (p *Position) Hash() uint64 { return p.hash }

// ParseMove reads a column digit 1–7 and checks that the column has room.
func (p *Position) ParseMove(text string) (engine.Move, error) {
	t := strings.TrimSpace(text)
	if len(t) != 1 || t[0] < '1' || t[0] > '7' {
		return engine.NoMove, fmt.Errorf("connect4: move %q: want a column 1–7", text)
	}
	m := engine.Move(t[0] - '1')
	switch {
	case p.Terminal():
		return engine.NoMove, fmt.Errorf("connect4: move %s: the game is over", t)
	case !p.Legal(m):
		return engine.NoMove, fmt.Errorf("connect4: move %s: the column is full", t)
	}
	return m, nil
}

// FormatMove returns the column digit 1–7 of m.
func (p *Position) FormatMove(m engine.Move) string {
	if m >= Width {
		return fmt.Sprintf("column(%d)", m)
	}
	return string(rune('1' + m))
}

// String returns the moves played as column digits, or "start" for the
// empty board.
func (p *Position) String() string {
	if p.n == 0 {
		return StartText
	}
	b := make([]byte, p.n)
	for i, col := range p.moves[:p.n] {
		b[i] = '1' + col
	}
	return string(b)
}

// Clone returns an independent copy of p.
func (p *Position) Clone() engine.Position {
	q := *p
	return &q
}
