// Package slidingtile implements the sliding-tile puzzles on a square
// board of size 3 (the 8-puzzle) or 4 (the 15-puzzle): tiles 1…n slide
// into the one empty cell (the blank) until they read 1…n row by row with
// the blank last.
//
// The position text is the cells row by row from the top-left, separated
// by commas, 0 being the blank: "1,2,3,5,6,0,7,8,4" is an 8-puzzle three
// slides from the goal "1,2,3,4,5,6,7,8,0". Nine numbers make an
// 8-puzzle, sixteen a 15-puzzle. Half of all arrangements cannot reach the
// goal, and Parse refuses them (see Parse).
//
// A move names the direction the blank moves: U, D, L or R (up, down,
// left, right) — the notation of report 003, whose solutions read "Right
// -> Up -> …". The tile moved goes the other way: R slides the tile right
// of the blank to the left. ParseMove also accepts the number of the tile
// to slide (any tile next to the blank), so "6" in the position above is
// the move L; FormatMove always writes the letter.
//
// The puzzle is played by one player: SideToMove is always X, and the game
// ends (Terminal, Result Win for X) when the goal is reached. Score is
// minus the Manhattan distance — the sum over the tiles of their row and
// column distances to their goal cells — so 0 means solved and every
// score is a lower bound on the moves left, negated. It is a property of
// the position, not of the moves played to reach it. PliesLeft is the
// puzzle's diameter (31 for the 8-puzzle, 80 for the 15-puzzle): no
// position needs more moves, though the player may take as many as they
// like.
package slidingtile

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
)

// The directions of the blank, which are the moves.
const (
	// Up moves the blank up: the tile above it slides down.
	Up engine.Move = iota
	// Down moves the blank down: the tile below it slides up.
	Down
	// Left moves the blank left: the tile on its left slides right.
	Left
	// Right moves the blank right: the tile on its right slides left.
	Right
)

// letters are the move notation, by direction.
const letters = "UDLR"

// Opposite returns the move that undoes m.
func Opposite(m engine.Move) engine.Move { return m ^ 1 }

// MaxSize is the largest board side this package plays.
const MaxSize = 4

// ErrUnsolvable is wrapped by Parse's error for a position that cannot
// reach the goal.
var ErrUnsolvable = errors.New("unsolvable")

// zTile[t][c] is the Zobrist key of tile t on cell c; zSize[s] tells the
// board sizes apart.
var (
	zTile [MaxSize * MaxSize][MaxSize * MaxSize]uint64
	zSize [MaxSize + 1]uint64
)

func init() {
	keys := make([]uint64, MaxSize*MaxSize*MaxSize*MaxSize+MaxSize+1)
	engine.FillKeys(0x15, keys)
	for t := range zTile {
		copy(zTile[t][:], keys[t*MaxSize*MaxSize:])
	}
	copy(zSize[:], keys[MaxSize*MaxSize*MaxSize*MaxSize:])
}

// Diameter returns the most moves an optimal solution needs from any
// position of the puzzle of the given size: 31 for the 8-puzzle (Reinefeld
// 1993) and 80 for the 15-puzzle (Brüngger et al. 1999; Korf 2008).
func Diameter(size int) int {
	if size == 3 {
		return 31
	}
	return 80
}

// Position is a sliding-tile position with the moves played on it since it
// was created. The zero value is not valid; use Goal or Parse.
type Position struct {
	size  int
	cells [MaxSize * MaxSize]uint8
	blank int
	hash  uint64
	moves []engine.Move
}

var _ engine.Position = (*Position)(nil)

// Goal returns the solved puzzle of the given size (3 or 4).
func Goal(size int) *Position {
	if size != 3 && size != 4 {
		panic(fmt.Sprintf("slidingtile: size %d, want 3 or 4", size))
	}
	p := &Position{size: size}
	n := size * size
	for c := range n - 1 {
		p.cells[c] = uint8(c + 1)
	}
	p.blank = n - 1
	p.rehash()
	return p
}

// Parse reads a position text: 9 or 16 numbers separated by commas, each
// of 0…8 (or 0…15) once. It refuses an arrangement that cannot reach the
// goal: a slide left or right changes no tile's order, and a slide up or
// down moves one tile past size−1 others, so the parity of the number of
// inversions (pairs of tiles in the wrong order, reading row by row) is
// fixed on the 3×3 board, and on the 4×4 board the parity of the
// inversions plus the blank's row changes never. Half of all arrangements
// have the goal's parity and are solvable; the other half are not, and the
// error wraps ErrUnsolvable.
func Parse(text string) (*Position, error) {
	fields := strings.Split(text, ",")
	size := 0
	switch len(fields) {
	case 9:
		size = 3
	case 16:
		size = 4
	default:
		return nil, fmt.Errorf("slidingtile: position %q: %d numbers; want 9 (8-puzzle) or 16 (15-puzzle) separated by commas", text, len(fields))
	}
	p := &Position{size: size}
	n := size * size
	seen := make([]bool, n)
	for c, f := range fields {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 0 || v >= n {
			return nil, fmt.Errorf("slidingtile: position %q: cell %d holds %q; want a number 0–%d", text, c+1, f, n-1)
		}
		if seen[v] {
			return nil, fmt.Errorf("slidingtile: position %q: %d appears twice", text, v)
		}
		seen[v] = true
		p.cells[c] = uint8(v)
		if v == 0 {
			p.blank = c
		}
	}
	if inv, ok := p.solvable(); !ok {
		if size == 3 {
			return nil, fmt.Errorf("slidingtile: position %q is %w: it has %d inversions (tile pairs in the wrong order, read row by row), an odd number, and every slide keeps that number's parity, which is even at the goal; swapping two tiles makes it solvable", text, ErrUnsolvable, inv)
		}
		return nil, fmt.Errorf("slidingtile: position %q is %w: its %d inversions (tile pairs in the wrong order, read row by row) plus the blank's row from the top (%d, counting from 0) make an even number, and every slide keeps that sum's parity, which is odd at the goal; swapping two tiles makes it solvable", text, ErrUnsolvable, inv, p.blank/size)
	}
	p.rehash()
	return p, nil
}

// solvable returns the inversions of the tiles and whether the arrangement
// has the goal's parity.
func (p *Position) solvable() (inversions int, ok bool) {
	n := p.size * p.size
	for i := range n {
		for j := i + 1; j < n; j++ {
			if p.cells[i] != 0 && p.cells[j] != 0 && p.cells[i] > p.cells[j] {
				inversions++
			}
		}
	}
	if p.size%2 == 1 {
		return inversions, inversions%2 == 0
	}
	return inversions, (inversions+p.blank/p.size)%2 == (p.size-1)%2
}

func (p *Position) rehash() {
	p.hash = zSize[p.size]
	for c := range p.size * p.size {
		p.hash ^= zTile[p.cells[c]][c]
	}
}

// Size returns the board's side: 3 or 4.
func (p *Position) Size() int { return p.size }

// Tiles returns the cells row by row, 0 the blank.
func (p *Position) Tiles() []uint8 { return append([]uint8(nil), p.cells[:p.size*p.size]...) }

// Tile returns the tile on cell c (row by row from 0), 0 for the blank.
func (p *Position) Tile(c int) int { return int(p.cells[c]) }

// Blank returns the blank's cell (row by row from 0).
func (p *Position) Blank() int { return p.blank }

// Target returns the cell the blank moves to with m, and false if m leads
// off the board.
func (p *Position) Target(m engine.Move) (int, bool) {
	r, c := p.blank/p.size, p.blank%p.size
	switch m {
	case Up:
		r--
	case Down:
		r++
	case Left:
		c--
	case Right:
		c++
	default:
		return 0, false
	}
	if r < 0 || r >= p.size || c < 0 || c >= p.size {
		return 0, false
	}
	return r*p.size + c, true
}

// Solved reports whether the tiles read 1…n with the blank last.
func (p *Position) Solved() bool {
	n := p.size * p.size
	if p.blank != n-1 {
		return false
	}
	for c := range n - 1 {
		if int(p.cells[c]) != c+1 {
			return false
		}
	}
	return true
}

// Manhattan returns the sum over the tiles of their row and column
// distances to their goal cells.
func (p *Position) Manhattan() int {
	d := 0
	for c := range p.size * p.size {
		if t := int(p.cells[c]); t != 0 {
			g := t - 1
			d += abs(c/p.size-g/p.size) + abs(c%p.size-g%p.size)
		}
	}
	return d
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// SideToMove returns X: the puzzle has one player.
func (p *Position) SideToMove() engine.Side { return engine.X }

// Moves appends the blank's possible directions to buf[:0] in the order
// U, D, L, R, or none once solved.
func (p *Position) Moves(buf []engine.Move) []engine.Move {
	buf = buf[:0]
	if p.Solved() {
		return buf
	}
	for m := Up; m <= Right; m++ {
		if _, ok := p.Target(m); ok {
			buf = append(buf, m)
		}
	}
	return buf
}

// Legal reports whether the blank can move in direction m and the puzzle
// is not solved.
func (p *Position) Legal(m engine.Move) bool {
	_, ok := p.Target(m)
	return ok && !p.Solved()
}

// Play moves the blank in direction m.
func (p *Position) Play(m engine.Move) {
	to, _ := p.Target(m)
	p.slide(to)
	p.moves = append(p.moves, m)
}

// slide moves the blank to the adjacent cell to.
func (p *Position) slide(to int) {
	t := p.cells[to]
	p.hash ^= zTile[t][to] ^ zTile[t][p.blank] ^ zTile[0][p.blank] ^ zTile[0][to]
	p.cells[p.blank], p.cells[to] = t, 0
	p.blank = to
}

// Undo takes back the last move played. It panics if no move has been
// played since the position was created or parsed.
func (p *Position) Undo() {
	m := p.moves[len(p.moves)-1]
	p.moves = p.moves[:len(p.moves)-1]
	to, _ := p.Target(Opposite(m))
	p.slide(to)
}

// Terminal reports whether the puzzle is solved.
func (p *Position) Terminal() bool { return p.Solved() }

// Result returns Win for X (and Loss for O) once solved, Ongoing before.
func (p *Position) Result(s engine.Side) engine.Result { return engine.PuzzleResult(p.Solved(), s) }

// Score returns minus the Manhattan distance for X (0 when solved), and
// its negation for O.
func (p *Position) Score(s engine.Side) int {
	if s == engine.X {
		return -p.Manhattan()
	}
	return p.Manhattan()
}

// PliesLeft returns 0 once solved, otherwise the puzzle's Diameter: the
// most moves an optimal solution needs.
func (p *Position) PliesLeft() int {
	if p.Solved() {
		return 0
	}
	return Diameter(p.size)
}

// Hash returns the Zobrist hash of the tiles' cells and the board size.
func (p *Position) Hash() uint64 { return p.hash }

// ParseMove reads a direction of the blank (U, D, L, R, or up, down, left,
// right, in either case) or the number of a tile next to the blank, and
// checks that the move is legal.
func (p *Position) ParseMove(text string) (engine.Move, error) {
	t := strings.ToUpper(strings.TrimSpace(text))
	m := engine.NoMove
	switch t {
	case "U", "UP":
		m = Up
	case "D", "DOWN":
		m = Down
	case "L", "LEFT":
		m = Left
	case "R", "RIGHT":
		m = Right
	default:
		tile, err := strconv.Atoi(t)
		if err != nil || tile < 1 || tile >= p.size*p.size {
			return engine.NoMove, fmt.Errorf("slidingtile: move %q: want the blank's direction (U, D, L or R) or a tile number 1–%d", text, p.size*p.size-1)
		}
		for d := Up; d <= Right; d++ {
			if c, ok := p.Target(d); ok && int(p.cells[c]) == tile {
				m = d
			}
		}
		if m == engine.NoMove {
			return engine.NoMove, fmt.Errorf("slidingtile: move %s: tile %d is not next to the blank", t, tile)
		}
	}
	switch {
	case p.Solved():
		return engine.NoMove, fmt.Errorf("slidingtile: move %s: the puzzle is solved", t)
	case !p.Legal(m):
		return engine.NoMove, fmt.Errorf("slidingtile: move %s: the blank is on the edge", t)
	}
	return m, nil
}

// FormatMove returns the blank's direction: U, D, L or R.
func (p *Position) FormatMove(m engine.Move) string {
	if m > Right {
		return fmt.Sprintf("move(%d)", m)
	}
	return letters[m : m+1]
}

// FormatMoves writes a sequence of moves as one word, e.g. "RULD".
func FormatMoves(moves []engine.Move) string {
	b := make([]byte, len(moves))
	for i, m := range moves {
		b[i] = letters[m&3]
	}
	return string(b)
}

// String returns the position text.
func (p *Position) String() string {
	b := make([]byte, 0, 3*MaxSize*MaxSize)
	for c := range p.size * p.size {
		if c > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(p.cells[c]), 10)
	}
	return string(b)
}

// Clone returns an independent copy of p, history included.
func (p *Position) Clone() engine.Position {
	q := *p
	q.moves = append([]engine.Move(nil), p.moves...)
	return &q
}
