// Package othello implements Othello (Reversi), the flip game that
// Adjacency simplifies.
//
// The board is 8×8 in standard Othello notation: columns a–h from left to
// right and rows 1–8 from top to bottom (unlike chess and Gambit's
// Adjacency), so a move is written as its square, such as f5. Black (X)
// moves first from the standard start: White (O) on d4 and e5, Black on
// d5 and e4. A move puts a disc on an empty square such that, in at least
// one of the eight directions, a contiguous line of opponent discs ends in
// one of the mover's own; every such line is flipped. A side without such
// a move passes, and only then: the pass is the move Pass, written "pass",
// and it is the one legal move of such a position. The game ends when
// neither side can move.
//
// Cells are numbered 0 (a1) to 63 (h8), column + 8×row with row 0 the top
// row "1", and a Move is a cell number or Pass. The position text is two
// fields: the rows from 1 (top) to 8 separated by '/', each eight
// characters of x (Black), o (White) or '.', and the side to move, e.g.
// the start:
//
//	......../......../......../...ox.../...xo.../......../......../........ x
//
// Parse also reads a line of moves from the start, as the Othello
// community writes openings: f5d6c3d3c4 (spaces allowed, passes implied or
// written "pass").
//
// Score is the disc difference from a side's point of view, counting the
// discs on the board at any moment: a finished game's empty squares are
// not given to the winner as tournament scoring does, so a 13–0 wipe-out
// scores 13. Result follows it: more discs win, equal counts draw.
//
// A position is two bitboards, one per side, with the legal placements of
// the side to move kept up to date by Play and Undo; moves are generated
// and flipped with shifts along the eight directions.
package othello

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/gambitbot/gambit/engine"
)

const (
	// Size is the number of rows and of columns.
	Size = 8
	// Cells is the number of squares on the board.
	Cells = Size * Size
	// Pass is the move of a side that has no other: legal only then.
	Pass engine.Move = Cells

	// PassText is how Pass is written.
	PassText = "pass"

	fileA    = 0x0101010101010101
	fileH    = 0x8080808080808080
	notA     = ^uint64(fileA)
	notH     = ^uint64(fileH)
	notRank1 = ^uint64(0xFF)
	notRank8 = ^uint64(0xFF << 56)

	// centre holds d4, e4, d5 and e5: taken at the start, never emptied.
	centre = 1<<27 | 1<<28 | 1<<35 | 1<<36

	// maxPlies bounds the moves of a game from any position: at most 60
	// squares are empty, and a pass is always followed by a disc.
	maxPlies = 2 * (Cells - 4)
)

// StartText is the position text of the standard start, Black to move.
const StartText = "......../......../......../...ox.../...xo.../......../......../........ x"

// state is everything that Undo restores.
type state struct {
	discs [2]uint64   // discs[engine.X] (Black), discs[engine.O] (White)
	legal uint64      // the squares the side to move can play
	side  engine.Side // the side to move
	over  bool        // neither side can move
}

// Position is an Othello position with the moves played on it since it
// was created, so that they can be undone: the engine.Position of
// Othello. The zero value is not a valid position; use New or Parse.
type Position struct {
	state
	n    int
	hist [maxPlies]state
}

var _ engine.Position = (*Position)(nil)

var (
	// zRow[8*side+r][v] is the XOR of the Zobrist keys of side's discs on
	// the squares of row r given by the bits of v: a hash takes sixteen
	// lookups instead of one per disc.
	zRow [16][256]uint64
	// zSide is the key of White to move.
	zSide uint64
)

func init() {
	var keys [2*Cells + 1]uint64
	engine.FillKeys(0x07e110, keys[:])
	for c := range Cells {
		for side := range 2 {
			for v := range 256 {
				if v>>(c%8)&1 == 1 {
					zRow[8*side+c/8][v] ^= keys[side*Cells+c]
				}
			}
		}
	}
	zSide = keys[2*Cells]
}

// New returns the standard start, Black to move.
func New() *Position {
	p := &Position{}
	p.set(1<<28|1<<35, 1<<27|1<<36, engine.X) // e4 d5; d4 e5
	return p
}

// set puts the discs on the board with side to move and works out the
// legal moves.
func (p *Position) set(black, white uint64, side engine.Side) {
	p.discs = [2]uint64{black, white}
	p.side = side
	p.update()
}

// update works out the legal placements of the side to move and whether
// the game is over.
func (p *Position) update() {
	me, them := p.discs[p.side], p.discs[p.side.Other()]
	p.legal = LegalMoves(me, them)
	p.over = p.legal == 0 && LegalMoves(them, me) == 0
}

// Parse reads a position text (see the package documentation), or a line
// of moves from the start such as "f5d6c3d3c4" (an empty line is the
// start). It rejects a text of the wrong shape, an unknown character, an
// empty centre square (d4, e4, d5 and e5 are never empty) and an illegal
// move, with an error that names what is wrong.
func Parse(text string) (*Position, error) {
	if !strings.Contains(text, "/") {
		p := New()
		if err := p.playLine(text); err != nil {
			return nil, fmt.Errorf("othello: position %q: %w", text, err)
		}
		return p, nil
	}
	fields := strings.Fields(text)
	if len(fields) != 2 {
		return nil, fmt.Errorf("othello: position %q: want 2 fields (board, side to move), got %d", text, len(fields))
	}
	rows := strings.Split(fields[0], "/")
	if len(rows) != Size {
		return nil, fmt.Errorf("othello: position %q: board has %d rows separated by '/', want %d", text, len(rows), Size)
	}
	var discs [2]uint64
	for r, row := range rows {
		if len(row) != Size {
			return nil, fmt.Errorf("othello: position %q: row %d has %d characters, want %d", text, r+1, len(row), Size)
		}
		for c := range Size {
			bit := uint64(1) << (8*r + c)
			switch row[c] {
			case 'x':
				discs[engine.X] |= bit
			case 'o':
				discs[engine.O] |= bit
			case '.':
				if bit&centre != 0 {
					return nil, fmt.Errorf("othello: position %q: centre square %s is empty, which no game reaches", text, CellName(engine.Move(8*r+c)))
				}
			default:
				return nil, fmt.Errorf("othello: position %q: square %s holds %q, want x, o or '.'", text, CellName(engine.Move(8*r+c)), row[c])
			}
		}
	}
	side, err := engine.ParseSide(fields[1])
	if err != nil {
		return nil, fmt.Errorf("othello: position %q: side to move: %w", text, err)
	}
	p := &Position{}
	p.set(discs[engine.X], discs[engine.O], side)
	return p, nil
}

// PlayLine plays a line of moves written as squares one after another,
// such as "f5d6c3d3c4" (either case, spaces allowed). A pass may be
// written "pass" or left out: a side that must pass passes before the next
// square is read. On an error it leaves the moves before the bad one
// played.
func (p *Position) PlayLine(line string) error {
	if err := p.playLine(line); err != nil {
		return fmt.Errorf("othello: line %q: %w", line, err)
	}
	return nil
}

// playLine is PlayLine, its errors naming the move.
func (p *Position) playLine(line string) error {
	t := strings.ToLower(line)
	for i := 1; ; i++ {
		t = strings.TrimLeft(t, " \t\r\n")
		if t == "" {
			return nil
		}
		var word string
		if strings.HasPrefix(t, PassText) {
			word, t = PassText, t[len(PassText):]
		} else {
			n := min(2, len(t))
			word, t = t[:n], t[n:]
			if p.legal == 0 && !p.over {
				p.Play(Pass) // implied
			}
		}
		m, err := p.readMove(word)
		if err != nil {
			return fmt.Errorf("move %d (%q): %w", i, word, err)
		}
		p.Play(m)
	}
}

// LegalMoves returns the empty squares where a disc of the side with discs
// own flips at least one of the opponent's discs opp.
func LegalMoves(own, opp uint64) uint64 {
	empty := ^(own | opp)
	return moves(own, opp, empty, 1, notA) | moves(own, opp, empty, -1, notH) |
		moves(own, opp, empty, 8, notRank1) | moves(own, opp, empty, -8, notRank8) |
		moves(own, opp, empty, 9, notA&notRank1) | moves(own, opp, empty, -9, notH&notRank8) |
		moves(own, opp, empty, 7, notH&notRank1) | moves(own, opp, empty, -7, notA&notRank8)
}

// Flips returns the opponent discs opp that a disc of own on the empty
// square bit (a one-bit board) flips.
func Flips(own, opp, bit uint64) uint64 {
	return flips(own, opp, bit, 1, notA) | flips(own, opp, bit, -1, notH) |
		flips(own, opp, bit, 8, notRank1) | flips(own, opp, bit, -8, notRank8) |
		flips(own, opp, bit, 9, notA&notRank1) | flips(own, opp, bit, -9, notH&notRank8) |
		flips(own, opp, bit, 7, notH&notRank1) | flips(own, opp, bit, -7, notA&notRank8)
}

// run returns the opponent discs opp in an unbroken line from a square
// next to one of from, along the direction of a step of k squares (at
// most six discs, a line of the board being eight long). A step is a
// rotation of the bitboard (left for k > 0, right for k < 0), which wraps
// the squares it moves off one edge onto the other; mask, the squares a
// step of k can reach, clears them (a step east never lands on the
// a-file, a step north never on the first rank). The callers give k and
// mask as constants, so that each rotation compiles to one instruction.
func run(from, opp uint64, k int, mask uint64) uint64 {
	o := opp & mask
	x := bits.RotateLeft64(from, k) & o
	x |= bits.RotateLeft64(x, k) & o
	// Then two steps at once, onto discs whose square before is one too.
	o &= bits.RotateLeft64(o, k)
	x |= bits.RotateLeft64(x, 2*k) & o
	x |= bits.RotateLeft64(x, 2*k) & o
	return x
}

// moves returns the moves of own along a step of k: the empty squares
// one step beyond a line of opponent discs from one of own.
func moves(own, opp, empty uint64, k int, mask uint64) uint64 {
	return bits.RotateLeft64(run(own, opp, k, mask), k) & empty & mask
}

// flips returns the discs flipped along a step of k by a disc on bit: the
// line of opponent discs next to it, if one of own lies one step beyond.
func flips(own, opp, bit uint64, k int, mask uint64) uint64 {
	if x := run(bit, opp, k, mask); bits.RotateLeft64(x, k)&own&mask != 0 {
		return x
	}
	return 0
}

// SideToMove returns the side whose turn it is.
func (p *Position) SideToMove() engine.Side { return p.side }

// Bitboard returns side s's discs, bit c for cell c.
func (p *Position) Bitboard(s engine.Side) uint64 { return p.discs[s&1] }

// Count returns the number of side s's discs.
func (p *Position) Count(s engine.Side) int { return bits.OnesCount64(p.discs[s&1]) }

// Placements returns the squares the side to move can play, as a
// bitboard: none when it must pass or the game is over.
func (p *Position) Placements() uint64 { return p.legal }

// Disc returns the side with a disc on cell c, with ok false for an empty
// square or a move that is not a square.
func (p *Position) Disc(c engine.Move) (s engine.Side, ok bool) {
	if c >= Cells {
		return 0, false
	}
	bit := uint64(1) << c
	switch {
	case p.discs[engine.X]&bit != 0:
		return engine.X, true
	case p.discs[engine.O]&bit != 0:
		return engine.O, true
	}
	return 0, false
}

// FlipsOf returns the discs the legal move m flips, as a bitboard (none
// for Pass).
func (p *Position) FlipsOf(m engine.Move) uint64 {
	if m >= Cells {
		return 0
	}
	return Flips(p.discs[p.side], p.discs[p.side.Other()], 1<<m)
}

// Moves appends the legal moves to buf[:0]: the squares that flip
// something, in cell order, or Pass alone when there are none; nothing
// once the game is over.
func (p *Position) Moves(buf []engine.Move) []engine.Move {
	buf = buf[:0]
	switch {
	case p.over:
		return buf
	case p.legal == 0:
		return append(buf, Pass)
	}
	for l := p.legal; l != 0; l &= l - 1 {
		buf = append(buf, engine.Move(bits.TrailingZeros64(l)))
	}
	return buf
}

// Legal reports whether m is a legal move now.
func (p *Position) Legal(m engine.Move) bool {
	switch {
	case m < Cells:
		return p.legal&(1<<m) != 0
	case m == Pass:
		return p.legal == 0 && !p.over
	}
	return false
}

// Play makes the legal move m: the disc and its flips, or a pass.
func (p *Position) Play(m engine.Move) {
	p.hist[p.n] = p.state
	p.n++
	me, them := p.side, p.side.Other()
	if m != Pass {
		bit := uint64(1) << (m & 63)
		f := Flips(p.discs[me], p.discs[them], bit)
		p.discs[me] |= f | bit
		p.discs[them] &^= f
	}
	p.side = them
	p.update()
}

// Undo takes back the last move played. It panics if no move has been
// played since the position was created or parsed.
func (p *Position) Undo() {
	p.n--
	p.state = p.hist[p.n]
}

// Terminal reports whether the game has ended: neither side can move.
func (p *Position) Terminal() bool { return p.over }

// Result returns Ongoing until neither side can move; then the side with
// more discs wins and equal counts draw.
func (p *Position) Result(s engine.Side) engine.Result {
	if !p.over {
		return engine.Ongoing
	}
	switch d := p.Score(s); {
	case d > 0:
		return engine.Win
	case d < 0:
		return engine.Loss
	}
	return engine.Draw
}

// Score returns side s's discs minus the opponent's, as they stand on the
// board (empty squares count for nobody).
func (p *Position) Score(s engine.Side) int {
	return p.Count(s) - p.Count(s.Other())
}

// PliesLeft returns an upper bound on the moves left: 0 once the game is
// over; otherwise every empty square may take a disc, each after a pass,
// except the side to move's first when it has one to play.
func (p *Position) PliesLeft() int {
	if p.over {
		return 0
	}
	empty := 2 * bits.OnesCount64(^(p.discs[0] | p.discs[1]))
	if p.legal != 0 {
		return empty - 1
	}
	return empty
}

// Hash returns the Zobrist hash of the discs and the side to move, taken
// a row at a time.
func (p *Position) Hash() uint64 {
	x, o := p.discs[engine.X], p.discs[engine.O]
	h := zRow[0][uint8(x)] ^ zRow[1][uint8(x>>8)] ^ zRow[2][uint8(x>>16)] ^ zRow[3][uint8(x>>24)] ^
		zRow[4][uint8(x>>32)] ^ zRow[5][uint8(x>>40)] ^ zRow[6][uint8(x>>48)] ^ zRow[7][uint8(x>>56)] ^
		zRow[8][uint8(o)] ^ zRow[9][uint8(o>>8)] ^ zRow[10][uint8(o>>16)] ^ zRow[11][uint8(o>>24)] ^
		zRow[12][uint8(o>>32)] ^ zRow[13][uint8(o>>40)] ^ zRow[14][uint8(o>>48)] ^ zRow[15][uint8(o>>56)]
	if p.side == engine.O {
		h ^= zSide
	}
	return h
}

// ParseMove reads a square such as "f5" (either case) or "pass", and
// checks that it is legal here.
func (p *Position) ParseMove(text string) (engine.Move, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	m, err := p.readMove(t)
	if err != nil {
		return engine.NoMove, fmt.Errorf("othello: move %q: %w", t, err)
	}
	return m, nil
}

// readMove reads the lower-case move text t and checks that it is legal.
func (p *Position) readMove(t string) (engine.Move, error) {
	m := Pass
	if t != PassText {
		var err error
		if m, err = readCell(t); err != nil {
			return engine.NoMove, err
		}
	}
	switch {
	case p.over:
		return engine.NoMove, errors.New("the game is over")
	case m == Pass && p.legal != 0:
		return engine.NoMove, fmt.Errorf("a side may pass only when it has no move, and %v has %d", p.side, bits.OnesCount64(p.legal))
	case m == Pass:
		return Pass, nil
	case (p.discs[0]|p.discs[1])&(1<<m) != 0:
		return engine.NoMove, errors.New("the square is taken")
	case p.legal == 0:
		return engine.NoMove, fmt.Errorf("%v has no move and must pass", p.side)
	case p.legal&(1<<m) == 0:
		return engine.NoMove, errors.New("it flips nothing")
	}
	return m, nil
}

// ParseCell reads a square name a1–h8 (either case; rows count from the
// top) as a cell number.
func ParseCell(text string) (engine.Move, error) {
	c, err := readCell(strings.ToLower(strings.TrimSpace(text)))
	if err != nil {
		return engine.NoMove, fmt.Errorf("othello: square %q: %w", text, err)
	}
	return c, nil
}

// readCell reads the lower-case square name t.
func readCell(t string) (engine.Move, error) {
	if len(t) != 2 || t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8' {
		return engine.NoMove, errors.New("want a column a–h and a row 1–8, such as f5, or pass")
	}
	return engine.Move(t[0]-'a') + 8*engine.Move(t[1]-'1'), nil
}

// CellName returns the name of cell c, such as "f5".
func CellName(c engine.Move) string {
	if c >= Cells {
		return fmt.Sprintf("cell(%d)", c)
	}
	return string([]byte{'a' + byte(c%8), '1' + byte(c/8)})
}

// FormatMove returns the square of m, or "pass".
func (p *Position) FormatMove(m engine.Move) string {
	if m == Pass {
		return PassText
	}
	return CellName(m)
}

// String returns the position text.
func (p *Position) String() string {
	var sb strings.Builder
	sb.Grow(Cells + Size + 2)
	for r := range Size {
		if r > 0 {
			sb.WriteByte('/')
		}
		for c := range Size {
			switch s, ok := p.Disc(engine.Move(8*r + c)); {
			case !ok:
				sb.WriteByte('.')
			default:
				sb.WriteString(s.String())
			}
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
