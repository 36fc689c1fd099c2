// Package gomoku implements Gomoku, five in a row, by freestyle rules:
// Black (X) and White (O) take turns putting a stone on an empty point of
// a square board, Black first on an empty board, and the first to have
// five or more stones in an unbroken line — across, up and down or
// diagonally — wins. A full board without one is a draw.
//
// The standard board is 15×15; New takes any side from MinSize to
// MaxSize. Points are written as in renju notation: a column letter a–o
// from left to right and a row number counted from the bottom, so h8 is
// the centre of the standard board.
//
// A Move is the point's cell number, column + MaxSize×row with row 0 the
// bottom row, whatever the board's size, so that a point keeps its
// number on every board. The position text is two fields: the rows from
// the top to the bottom separated by '/', each a character per point —
// x (Black), o (White) or '.' —, and the side to move, e.g. the start of
// a 9×9 board:
//
//	........./........./........./........./........./........./........./........./......... x
//
// Parse also reads a line of moves from the empty standard board, such
// as "h8 h9 i9" (spaces or commas between them).
//
// Score is 1 for a side that has won, −1 for one that has lost and 0
// otherwise, as Result.
package gomoku

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
)

const (
	// MinSize and MaxSize bound the board's side.
	MinSize = 7
	MaxSize = 15
	// Cells is the number of cell numbers: MaxSize×MaxSize.
	Cells = MaxSize * MaxSize
	// Win is the number of stones in a row that wins (or more).
	Win = 5
)

// state is everything that Undo restores besides the stone taken back.
type state struct {
	winner engine.Side // the side with five, if over and won
	won    bool        // a side has five
	free   int         // empty points
}

// Position is a Gomoku position with the moves played on it since it was
// created, so that they can be undone: the engine.Position of Gomoku. The
// zero value is not a valid position; use New or Parse.
type Position struct {
	size  int
	board [Cells]int8 // 0 empty, 1 Black, 2 White; a cell off the board is never read
	side  engine.Side
	state
	hash  uint64
	n     int
	moves [Cells]engine.Move
	hist  [Cells]state
}

var _ engine.Position = (*Position)(nil)

var (
	keys  [2][Cells]uint64
	zSide uint64
)

func init() {
	var k [2*Cells + 1]uint64
	engine.FillKeys(0x60a0c0, k[:])
	copy(keys[0][:], k[:Cells])
	copy(keys[1][:], k[Cells:2*Cells])
	zSide = k[2*Cells]
}

// New returns the empty board of side size, Black to move. It rejects a
// size outside MinSize–MaxSize.
func New(size int) (*Position, error) {
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("gomoku: board size %d: want %d to %d", size, MinSize, MaxSize)
	}
	return &Position{size: size, state: state{free: size * size}}, nil
}

// Standard returns the empty 15×15 board, Black to move.
func Standard() *Position {
	p, _ := New(MaxSize)
	return p
}

// Size returns the board's side.
func (p *Position) Size() int { return p.size }

// Cell returns the cell number of the point in column col and row row
// (both from 0; row 0 is the bottom row).
func Cell(col, row int) engine.Move { return engine.Move(col + MaxSize*row) }

// OnBoard reports whether cell c is a point of the board.
func (p *Position) OnBoard(c engine.Move) bool {
	return c < Cells && int(c%MaxSize) < p.size && int(c/MaxSize) < p.size
}

// Stone returns the side with a stone on cell c, with ok false for an
// empty point or a cell off the board.
func (p *Position) Stone(c engine.Move) (s engine.Side, ok bool) {
	if !p.OnBoard(c) || p.board[c] == 0 {
		return 0, false
	}
	return engine.Side(p.board[c] - 1), true
}

// Points returns the board as cells: 0 for an empty point, 1 for a
// Black stone and 2 for a White one, by cell number (a cell off a smaller
// board is 0).
func (p *Position) Points() [Cells]int8 { return p.board }

// directions are the cell steps along a row, a column and the two
// diagonals.
var directions = [4]int{1, MaxSize, MaxSize + 1, MaxSize - 1}

// Run returns how many stones of the side on cell c lie in an unbroken
// line through c along direction d (0: across, 1: up, 2 and 3: the
// diagonals), c included; 0 for an empty point.
func (p *Position) Run(c engine.Move, d int) int {
	s, ok := p.Stone(c)
	if !ok {
		return 0
	}
	n := 1
	for _, sign := range [2]int{1, -1} {
		col, row := int(c%MaxSize), int(c/MaxSize)
		dc, dr := stepOf(d)
		for {
			col, row = col+sign*dc, row+sign*dr
			if col < 0 || row < 0 || col >= p.size || row >= p.size || p.board[Cell(col, row)] != int8(s)+1 {
				break
			}
			n++
		}
	}
	return n
}

// stepOf returns direction d as a column and row step.
func stepOf(d int) (dc, dr int) {
	switch d {
	case 0:
		return 1, 0
	case 1:
		return 0, 1
	case 2:
		return 1, 1
	}
	return -1, 1
}

// Line returns the ends of the longest line of five or more through cell
// c, if there is one, as cells: the winning line to draw.
func (p *Position) Line(c engine.Move) (from, to engine.Move, ok bool) {
	s, has := p.Stone(c)
	if !has {
		return 0, 0, false
	}
	for d := range directions {
		if p.Run(c, d) < Win {
			continue
		}
		dc, dr := stepOf(d)
		ends := [2]engine.Move{}
		for i, sign := range [2]int{1, -1} {
			col, row := int(c%MaxSize), int(c/MaxSize)
			for {
				nc, nr := col+sign*dc, row+sign*dr
				if nc < 0 || nr < 0 || nc >= p.size || nr >= p.size || p.board[Cell(nc, nr)] != int8(s)+1 {
					break
				}
				col, row = nc, nr
			}
			ends[i] = Cell(col, row)
		}
		return ends[1], ends[0], true
	}
	return 0, 0, false
}

// Last returns the last move played since the position was created, with
// ok false if none was.
func (p *Position) Last() (engine.Move, bool) {
	if p.n == 0 {
		return engine.NoMove, false
	}
	return p.moves[p.n-1], true
}

// Winner returns the side with five in a row, with ok false if no side
// has one.
func (p *Position) Winner() (engine.Side, bool) { return p.winner, p.won }

// SideToMove returns the side whose turn it is.
func (p *Position) SideToMove() engine.Side { return p.side }

// Moves appends the legal moves to buf[:0]: every empty point, in cell
// order; nothing once the game is over.
func (p *Position) Moves(buf []engine.Move) []engine.Move {
	buf = buf[:0]
	if p.Terminal() {
		return buf
	}
	for row := range p.size {
		for col := range p.size {
			if c := Cell(col, row); p.board[c] == 0 {
				buf = append(buf, c)
			}
		}
	}
	return buf
}

// Legal reports whether m is a legal move now: an empty point of an
// unfinished game.
func (p *Position) Legal(m engine.Move) bool {
	return !p.Terminal() && p.OnBoard(m) && p.board[m] == 0
}

// Play makes the legal move m.
func (p *Position) Play(m engine.Move) {
	p.hist[p.n] = p.state
	p.moves[p.n] = m
	p.n++
	s := p.side
	p.board[m] = int8(s) + 1
	p.hash ^= keys[s][m] ^ zSide
	p.free--
	for d := range directions {
		if p.Run(m, d) >= Win {
			p.won, p.winner = true, s
			break
		}
	}
	p.side = s.Other()
}

// Undo takes back the last move played. It panics if no move has been
// played since the position was created or parsed.
func (p *Position) Undo() {
	p.n--
	m := p.moves[p.n]
	p.state = p.hist[p.n]
	p.side = p.side.Other()
	p.board[m] = 0
	p.hash ^= keys[p.side][m] ^ zSide
}

// Terminal reports whether the game has ended: a side has five in a row
// or the board is full.
func (p *Position) Terminal() bool { return p.won || p.free == 0 }

// Result returns Ongoing until the game ends; then a win for the side
// with five in a row, or a draw on a full board.
func (p *Position) Result(s engine.Side) engine.Result {
	switch {
	case p.won && p.winner == s:
		return engine.Win
	case p.won:
		return engine.Loss
	case p.free == 0:
		return engine.Draw
	}
	return engine.Ongoing
}

// Score returns 1 if side s has won, −1 if it has lost, else 0.
func (p *Position) Score(s engine.Side) int { return p.Result(s).Sign() }

// PliesLeft returns an upper bound on the moves left: the empty points,
// or 0 once the game is over.
func (p *Position) PliesLeft() int {
	if p.Terminal() {
		return 0
	}
	return p.free
}

// Hash returns the Zobrist hash of the stones and the side to move
// (boards of different sizes may share one).
func (p *Position) Hash() uint64 { return p.hash }

// ParseMove reads a point such as "h8" (either case) and checks that it
// is legal here.
func (p *Position) ParseMove(text string) (engine.Move, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	m, err := p.readMove(t)
	if err != nil {
		return engine.NoMove, fmt.Errorf("gomoku: move %q: %w", t, err)
	}
	return m, nil
}

// readMove reads the lower-case point name t and checks that it is legal.
func (p *Position) readMove(t string) (engine.Move, error) {
	m, err := p.readCell(t)
	switch {
	case err != nil:
		return engine.NoMove, err
	case p.Terminal():
		return engine.NoMove, errors.New("the game is over")
	case p.board[m] != 0:
		return engine.NoMove, errors.New("the point is taken")
	}
	return m, nil
}

// ParseCell reads a point name such as "h8" (either case) as a cell of
// this board.
func (p *Position) ParseCell(text string) (engine.Move, error) {
	c, err := p.readCell(strings.ToLower(strings.TrimSpace(text)))
	if err != nil {
		return engine.NoMove, fmt.Errorf("gomoku: point %q: %w", text, err)
	}
	return c, nil
}

// readCell reads the lower-case point name t.
func (p *Position) readCell(t string) (engine.Move, error) {
	last := 'a' + rune(p.size) - 1
	bad := fmt.Errorf("want a column a–%c and a row 1–%d, such as h8", last, p.size)
	if len(t) < 2 || len(t) > 3 || t[0] < 'a' || rune(t[0]) > last {
		return engine.NoMove, bad
	}
	row := 0
	for _, d := range t[1:] {
		if d < '0' || d > '9' {
			return engine.NoMove, bad
		}
		row = 10*row + int(d-'0')
	}
	if row < 1 || row > p.size || t[1] == '0' {
		return engine.NoMove, bad
	}
	return Cell(int(t[0]-'a'), row-1), nil
}

// CellName returns the name of cell c, such as "h8".
func CellName(c engine.Move) string {
	if c >= Cells {
		return fmt.Sprintf("cell(%d)", c)
	}
	return string(rune('a'+c%MaxSize)) + strconv.Itoa(int(c/MaxSize)+1)
}

// FormatMove returns the point of m, such as "h8".
func (p *Position) FormatMove(m engine.Move) string { return CellName(m) }

// String returns the position text.
func (p *Position) String() string {
	var sb strings.Builder
	sb.Grow(p.size*(p.size+1) + 2)
	for row := p.size - 1; row >= 0; row-- {
		for col := range p.size {
			sb.WriteByte(".xo"[p.board[Cell(col, row)]])
		}
		if row > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteByte(' ')
	sb.WriteString(p.side.String())
	return sb.String()
}

// Clone returns an independent copy of p, history included.
func (p *Position) Clone() engine.Position {
	q := *p
	return &q
}

// Parse reads a position text (see the package documentation), or a line
// of moves from the empty standard board such as "h8 h9 i9" (an empty
// line is the start). It rejects a text of the wrong shape, an unknown
// character, stone counts that no game reaches with that side to move,
// fives of both sides, and a five of the side to move (its opponent would
// have moved after the game ended), with an error that names what is
// wrong.
func Parse(text string) (*Position, error) {
	if !strings.Contains(text, "/") {
		p := Standard()
		for i, word := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' || r == '\r' }) {
			m, err := p.readMove(strings.ToLower(word))
			if err != nil {
				return nil, fmt.Errorf("gomoku: line %q: move %d (%q): %w", text, i+1, word, err)
			}
			p.Play(m)
		}
		p.n = 0 // a parsed position has no moves to undo
		return p, nil
	}
	fields := strings.Fields(text)
	if len(fields) != 2 {
		return nil, fmt.Errorf("gomoku: position %q: want 2 fields (board, side to move), got %d", text, len(fields))
	}
	rows := strings.Split(fields[0], "/")
	size := len(rows)
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("gomoku: position %q: board has %d rows separated by '/', want %d to %d", text, size, MinSize, MaxSize)
	}
	side, err := engine.ParseSide(fields[1])
	if err != nil {
		return nil, fmt.Errorf("gomoku: position %q: side to move: %w", text, err)
	}
	p, _ := New(size)
	var count [2]int
	for i, r := range rows {
		if len(r) != size {
			return nil, fmt.Errorf("gomoku: position %q: row %d has %d characters, want %d", text, size-i, len(r), size)
		}
		row := size - 1 - i
		for col := range size {
			c := Cell(col, row)
			switch r[col] {
			case 'x':
				p.board[c] = 1
			case 'o':
				p.board[c] = 2
			case '.':
				continue
			default:
				return nil, fmt.Errorf("gomoku: position %q: point %s holds %q, want x, o or '.'", text, CellName(c), r[col])
			}
			s := engine.Side(p.board[c] - 1)
			count[s]++
			p.free--
			p.hash ^= keys[s][c]
		}
	}
	if want := count[engine.O] + int(side); count[engine.X] != want {
		return nil, fmt.Errorf("gomoku: position %q: %d black and %d white stones with %v to move: black moves first, so want %d black", text, count[engine.X], count[engine.O], side, want)
	}
	p.side = side
	if side == engine.O {
		p.hash ^= zSide
	}
	for c := range engine.Move(Cells) {
		s, ok := p.Stone(c)
		if !ok {
			continue
		}
		for d := range directions {
			if p.Run(c, d) < Win {
				continue
			}
			if s == side {
				return nil, fmt.Errorf("gomoku: position %q: %v has five in a row at %s but is to move", text, s, CellName(c))
			}
			p.won, p.winner = true, s
		}
	}
	return p, nil
}
