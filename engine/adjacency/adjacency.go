// Package adjacency implements the rules of the Adjacency Strategy Game,
// the game of Gambit's original reports.
//
// The board is 8×8 with cells named like a chessboard, a1 (bottom-left) to
// h8 (top-right). X starts on a1, b1, a2, b2 and O on g7, h7, g8, h8. A move
// puts a mark on any empty cell and turns every orthogonally adjacent
// opponent mark into the mover's. A game of R rounds (2 ≤ R ≤ 28) lasts
// exactly 2R moves; then the side with more marks wins.
//
// Cells are numbered 0 (a1) to 63 (h8), file + 8×rank, and a Move is a cell
// number. The position text is three fields: the ranks from 8 down to 1
// separated by '/', each eight characters of x, o or '.'; the side to move;
// and the number of plies left, e.g. the start of a 28-round game:
//
//	......oo/......oo/......../......../......../......../xx....../xx...... x 56
//
// Score is the mark difference (own marks minus the opponent's) from a
// side's point of view, at any moment of the game.
//
// A Board is a position as a 24-byte value of two bitboards; a move's
// flips are one mask lookup, and Board.After plays a move by value copy,
// the undo being free: keep the old value. A Position is a Board with the
// history of moves played on it, for Play and Undo through the
// engine.Position interface. Neither allocates.
package adjacency

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
)

const (
	// MinRounds and MaxRounds bound the number of rounds of a game.
	MinRounds, MaxRounds = 2, 28
	// Cells is the number of cells on the board.
	Cells = 64

	fileA = 0x0101010101010101
	fileH = 0x8080808080808080
)

// StartText is the position text of the start of a 28-round game with X
// to move.
const StartText = "......oo/......oo/......../......../......../......../xx....../xx...... x 56"

// Board is an Adjacency position as a value: the marks of both sides,
// the side to move and the plies left. The zero value is not a valid
// position; use NewBoard or ParseBoard.
//
// Its three scalar fields let the compiler keep a Board in registers and
// inline After: the marks are kept relative to the side to move, and side
// and plies left share one byte. The Zobrist hash is computed when asked
// for, so playing a move costs a handful of instructions.
type Board struct {
	mover, other uint64 // marks of the side to move and of its opponent
	info         uint8  // infoSide: the side to move is O; the rest: plies left
}

const infoSide = 0x80

// stm returns the side to move.
func (b Board) stm() engine.Side { return engine.Side(b.info >> 7) }

// left returns the plies left.
func (b Board) left() int { return int(b.info &^ infoSide) }

// Position is a Board with the history of moves played on it since it
// was created, so that they can be undone: the engine.Position of
// Adjacency. The zero value is not a valid position; use New or Parse.
type Position struct {
	Board
	n int
	// hist holds the boards before each move played: plies left never
	// exceed the empty cells, so 64 suffice. Play and Undo copy them
	// field by field: a whole-struct copy right after single-field writes
	// defeats the processor's store forwarding and doubles their cost.
	hist [Cells]Board
}

var _ engine.Position = (*Position)(nil)

var (
	neighbours [Cells]uint64 // orthogonal neighbours of each cell
	// zRank[8*side+r][v] is the XOR of the Zobrist keys of side's marks
	// on the cells of rank r+1 given by the bits of v, so that a hash takes
	// sixteen lookups instead of one per mark.
	zRank [16][256]uint64
	zInfo [256]uint64 // side to move and plies left
)

func init() {
	var zMark [2 * Cells]uint64 // side*64 + cell
	engine.FillKeys(0xad1ace11c7, zMark[:])
	engine.FillKeys(0x1bf0a5, zInfo[:])
	for c := range Cells {
		bit := uint64(1) << c
		neighbours[c] = Dilate(bit)
		for side := range 2 {
			for v := range 256 {
				if v>>(c%8)&1 == 1 {
					zRank[8*side+c/8][v] ^= zMark[side*Cells+c]
				}
			}
		}
	}
}

// NewBoard returns the start of a game of the given number of rounds with
// first to move.
func NewBoard(rounds int, first engine.Side) (Board, error) {
	if rounds < MinRounds || rounds > MaxRounds {
		return Board{}, fmt.Errorf("adjacency: %d rounds: want %d to %d", rounds, MinRounds, MaxRounds)
	}
	if first != engine.X && first != engine.O {
		return Board{}, fmt.Errorf("adjacency: first side %v: want x or o", first)
	}
	b := Board{info: uint8(first)<<7 | uint8(2*rounds)}
	b.setMarks(0x0303, 0xc0c0000000000000) // a1 b1 a2 b2; g7 h7 g8 h8
	return b, nil
}

// New returns the start of a game of the given number of rounds with
// first to move, as a Position.
func New(rounds int, first engine.Side) (*Position, error) {
	b, err := NewBoard(rounds, first)
	if err != nil {
		return nil, err
	}
	return &Position{Board: b}, nil
}

// setMarks sets the marks of X and O, once the side to move is set.
func (b *Board) setMarks(x, o uint64) {
	if b.stm() == engine.X {
		b.mover, b.other = x, o
	} else {
		b.mover, b.other = o, x
	}
}

// ParseBoard reads a position text (see the package documentation). It
// rejects a text of the wrong shape, an unknown character, or more plies
// left than empty cells, with an error that names what is wrong.
func ParseBoard(text string) (Board, error) {
	var b Board
	var x, o uint64
	fields := strings.Fields(text)
	if len(fields) != 3 {
		return b, fmt.Errorf("adjacency: position %q: want 3 fields (board, side to move, plies left), got %d", text, len(fields))
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return b, fmt.Errorf("adjacency: position %q: board has %d ranks separated by '/', want 8", text, len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		if len(row) != 8 {
			return b, fmt.Errorf("adjacency: position %q: rank %d has %d characters, want 8", text, rank+1, len(row))
		}
		for file := range 8 {
			bit := uint64(1) << (8*rank + file)
			switch row[file] {
			case 'x':
				x |= bit
			case 'o':
				o |= bit
			case '.':
			default:
				return b, fmt.Errorf("adjacency: position %q: cell %c%d holds %q, want x, o or '.'", text, 'a'+file, rank+1, row[file])
			}
		}
	}
	stm, err := engine.ParseSide(fields[1])
	if err != nil {
		return b, fmt.Errorf("adjacency: position %q: side to move: %w", text, err)
	}
	left, err := strconv.Atoi(fields[2])
	if err != nil || left < 0 {
		return b, fmt.Errorf("adjacency: position %q: plies left %q: want a whole number ≥ 0", text, fields[2])
	}
	if empty := 64 - bits.OnesCount64(x|o); left > empty {
		return b, fmt.Errorf("adjacency: position %q: %d plies left but only %d empty cells", text, left, empty)
	}
	b.info = uint8(stm)<<7 | uint8(left)
	b.setMarks(x, o)
	return b, nil
}

// Parse reads a position text as a Position, like ParseBoard.
func Parse(text string) (*Position, error) {
	b, err := ParseBoard(text)
	if err != nil {
		return nil, err
	}
	return &Position{Board: b}, nil
}

func (b Board) empty() uint64 { return ^(b.mover | b.other) }

// SideToMove returns the side whose turn it is.
func (b Board) SideToMove() engine.Side { return b.stm() }

// PliesLeft returns the number of moves left to the end of the game.
func (b Board) PliesLeft() int { return b.left() }

// Bitboard returns the cells holding side s's marks, bit c for cell c.
func (b Board) Bitboard(s engine.Side) uint64 {
	if s == b.stm() {
		return b.mover
	}
	return b.other
}

// Marks returns the marks of the side to move and of its opponent, the
// two bitboards a search plays on without asking whose turn it is.
func (b Board) Marks() (mover, other uint64) { return b.mover, b.other }

// Count returns the number of side s's marks.
func (b Board) Count(s engine.Side) int { return bits.OnesCount64(b.Bitboard(s)) }

// Mark returns the side holding cell c, with ok false for an empty cell.
func (b Board) Mark(c engine.Move) (s engine.Side, ok bool) {
	bit := uint64(1) << (c & 63)
	switch {
	case b.mover&bit != 0:
		return b.stm(), true
	case b.other&bit != 0:
		return b.stm().Other(), true
	}
	return 0, false
}

// Neighbours returns the cells north, south, east and west of the marks
// of b: the four shifted boards whose overlaps count, for each cell, the
// marks of b next to it.
func Neighbours(b uint64) (north, south, east, west uint64) {
	return b << 8, b >> 8, (b << 1) &^ fileA, (b >> 1) &^ fileH
}

// Dilate returns the cells orthogonally next to at least one cell of b.
func Dilate(b uint64) uint64 {
	n, s, e, w := Neighbours(b)
	return n | s | e | w
}

// Captures returns how many opponent marks a move on cell m would flip:
// report 001's h(s) heuristic.
func (b Board) Captures(m engine.Move) int {
	return bits.OnesCount64(b.Flips(m))
}

// Flips returns the opponent marks a move on cell m would flip, as a
// bitboard.
func (b Board) Flips(m engine.Move) uint64 { return neighbours[m&63] & b.other }

// CaptureSets returns, for k = 0…4, the cells with exactly k of victims'
// marks as orthogonal neighbours, counted with a bit-sliced adder over the
// four shifted boards.
func CaptureSets(victims uint64) [5]uint64 {
	n, s, e, w := Neighbours(victims)
	ones1, twos1 := n^s, n&s
	ones2, twos2 := e^w, e&w
	ones := ones1 ^ ones2
	carry := ones1 & ones2
	twos := twos1 ^ twos2 ^ carry
	fours := twos1&twos2 | twos1&carry | twos2&carry // four: no ones or twos
	return [5]uint64{^(ones | twos | fours), ones &^ twos, twos &^ ones, twos & ones, fours}
}

// Moves appends every empty cell to buf[:0], or none once the game is over.
func (b Board) Moves(buf []engine.Move) []engine.Move {
	buf = buf[:0]
	if b.left() == 0 {
		return buf
	}
	for e := b.empty(); e != 0; e &= e - 1 {
		buf = append(buf, engine.Move(bits.TrailingZeros64(e)))
	}
	return buf
}

// Legal reports whether m is an empty cell of a game that is not over.
func (b Board) Legal(m engine.Move) bool {
	return m < Cells && b.left() > 0 && b.empty()&(1<<m) != 0
}

// After returns the position after the legal move m, leaving b as it is:
// play by value copy. The mover's mark goes on the empty cell m and the
// opponent marks next to it flip.
func (b Board) After(m engine.Move) Board {
	flips := neighbours[m&63] & b.other
	return Board{mover: b.other ^ flips, other: b.mover | 1<<(m&63) | flips, info: (b.info - 1) ^ infoSide}
}

// Play makes the legal move m, like Board.After, and records it for Undo.
func (p *Position) Play(m engine.Move) {
	h := &p.hist[p.n]
	h.mover, h.other, h.info = p.mover, p.other, p.info
	p.n++
	p.Board = p.After(m)
}

// Undo takes back the last move played. It panics if no move has been
// played since the position was created or parsed.
func (p *Position) Undo() {
	p.n--
	h := &p.hist[p.n]
	p.mover, p.other, p.info = h.mover, h.other, h.info
}

// Terminal reports whether the game has ended: no plies are left.
func (b Board) Terminal() bool { return b.left() == 0 }

// Result returns Ongoing until no plies are left; then the side with more
// marks wins and equal counts draw.
func (b Board) Result(s engine.Side) engine.Result {
	if b.left() > 0 {
		return engine.Ongoing
	}
	switch d := b.Score(s); {
	case d > 0:
		return engine.Win
	case d < 0:
		return engine.Loss
	}
	return engine.Draw
}

// Score returns side s's marks minus the opponent's.
func (b Board) Score(s engine.Side) int {
	d := bits.OnesCount64(b.mover) - bits.OnesCount64(b.other)
	if s != b.stm() {
		return -d
	}
	return d
}

// Hash returns the Zobrist hash of the board, side to move and plies
// left: the XOR of a key for each mark of each side and one for the side
// to move and plies left, taken eight cells at a time.
func (b Board) Hash() uint64 {
	x, o := b.mover, b.other
	if b.info&infoSide != 0 {
		x, o = o, x
	}
	return zInfo[b.info] ^
		zRank[0][uint8(x)] ^ zRank[1][uint8(x>>8)] ^ zRank[2][uint8(x>>16)] ^ zRank[3][uint8(x>>24)] ^
		zRank[4][uint8(x>>32)] ^ zRank[5][uint8(x>>40)] ^ zRank[6][uint8(x>>48)] ^ zRank[7][uint8(x>>56)] ^
		zRank[8][uint8(o)] ^ zRank[9][uint8(o>>8)] ^ zRank[10][uint8(o>>16)] ^ zRank[11][uint8(o>>24)] ^
		zRank[12][uint8(o>>32)] ^ zRank[13][uint8(o>>40)] ^ zRank[14][uint8(o>>48)] ^ zRank[15][uint8(o>>56)]
}

// ParseMove reads a cell name such as "c3" (either case) and checks that
// the cell is empty and the game is not over.
func (b Board) ParseMove(text string) (engine.Move, error) {
	m, err := ParseCell(text)
	if err != nil {
		return engine.NoMove, err
	}
	if b.left() == 0 {
		return engine.NoMove, fmt.Errorf("adjacency: move %s: the game is over", text)
	}
	if !b.Legal(m) {
		return engine.NoMove, fmt.Errorf("adjacency: move %s: the cell is taken", CellName(m))
	}
	return m, nil
}

// ParseCell reads a cell name a1–h8 (either case) as a cell number.
func ParseCell(text string) (engine.Move, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if len(t) != 2 || t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8' {
		return engine.NoMove, fmt.Errorf("adjacency: cell %q: want a file a–h and a rank 1–8, such as c3", text)
	}
	return engine.Move(t[0]-'a') + 8*engine.Move(t[1]-'1'), nil
}

// CellName returns the name of cell c, such as "c3".
func CellName(c engine.Move) string {
	if c >= Cells {
		return fmt.Sprintf("cell(%d)", c)
	}
	return string([]byte{'a' + byte(c%8), '1' + byte(c/8)})
}

// FormatMove returns the name of the cell m.
func (b Board) FormatMove(m engine.Move) string { return CellName(m) }

// String returns the position text.
func (b Board) String() string {
	var sb strings.Builder
	sb.Grow(80)
	for rank := 7; rank >= 0; rank-- {
		for file := range 8 {
			switch s, ok := b.Mark(engine.Move(8*rank + file)); {
			case !ok:
				sb.WriteByte('.')
			default:
				sb.WriteString(s.String())
			}
		}
		if rank > 0 {
			sb.WriteByte('/')
		}
	}
	fmt.Fprintf(&sb, " %v %d", b.stm(), b.left())
	return sb.String()
}

// Clone returns an independent copy of p, history included.
func (p *Position) Clone() engine.Position {
	q := *p
	return &q
}
