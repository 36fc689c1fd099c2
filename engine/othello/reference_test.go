package othello

import (
	"fmt"
	"strings"
)

// refGame is a deliberately naive Othello over a plain 2-D array, written
// straight from the rules text, against which the bitboard engine is
// checked. board[row][col] holds 'x' (Black), 'o' (White) or '.', row 0
// being row 1, the top.
type refGame struct {
	board  [8][8]byte
	toMove byte
}

func newRef() *refGame {
	g := &refGame{toMove: 'x'}
	for r := range 8 {
		for c := range 8 {
			g.board[r][c] = '.'
		}
	}
	g.board[3][3], g.board[4][4] = 'o', 'o' // d4, e5
	g.board[3][4], g.board[4][3] = 'x', 'x' // e4, d5
	return g
}

func refOpponent(s byte) byte {
	if s == 'x' {
		return 'o'
	}
	return 'x'
}

var refDirs = [8][2]int{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}

// flips lists the squares (row, col) that side s flips by playing at
// (r, c), walking each direction.
func (g *refGame) flips(s byte, r, c int) [][2]int {
	if g.board[r][c] != '.' {
		return nil
	}
	var out [][2]int
	for _, d := range refDirs {
		var line [][2]int
		rr, cc := r+d[0], c+d[1]
		for rr >= 0 && rr < 8 && cc >= 0 && cc < 8 && g.board[rr][cc] == refOpponent(s) {
			line = append(line, [2]int{rr, cc})
			rr, cc = rr+d[0], cc+d[1]
		}
		if len(line) > 0 && rr >= 0 && rr < 8 && cc >= 0 && cc < 8 && g.board[rr][cc] == s {
			out = append(out, line...)
		}
	}
	return out
}

// placements lists side s's legal squares by name, in a1, b1, …, h8
// order (row by row from the top).
func (g *refGame) placements(s byte) []string {
	var out []string
	for r := range 8 {
		for c := range 8 {
			if len(g.flips(s, r, c)) > 0 {
				out = append(out, fmt.Sprintf("%c%d", 'a'+c, r+1))
			}
		}
	}
	return out
}

func (g *refGame) over() bool {
	return len(g.placements('x')) == 0 && len(g.placements('o')) == 0
}

// moves lists the legal moves: the placements, or "pass" alone, or none
// once the game is over.
func (g *refGame) moves() []string {
	if g.over() {
		return nil
	}
	if m := g.placements(g.toMove); len(m) > 0 {
		return m
	}
	return []string{"pass"}
}

func (g *refGame) play(move string) {
	me := g.toMove
	g.toMove = refOpponent(me)
	if move == "pass" {
		return
	}
	c, r := int(move[0]-'a'), int(move[1]-'1')
	fl := g.flips(me, r, c)
	if len(fl) == 0 {
		panic("reference: illegal move " + move)
	}
	g.board[r][c] = me
	for _, f := range fl {
		g.board[f[0]][f[1]] = me
	}
}

func (g *refGame) count(s byte) int {
	n := 0
	for r := range 8 {
		for c := range 8 {
			if g.board[r][c] == s {
				n++
			}
		}
	}
	return n
}

func (g *refGame) text() string {
	var rows []string
	for r := range 8 {
		rows = append(rows, string(g.board[r][:]))
	}
	return fmt.Sprintf("%s %c", strings.Join(rows, "/"), g.toMove)
}

// perft counts the leaves to depth, copying the whole game at every node.
func (g refGame) perft(depth int) uint64 {
	if depth == 0 || g.over() {
		return 1
	}
	var n uint64
	for _, m := range g.moves() {
		child := g
		child.play(m)
		n += child.perft(depth - 1)
	}
	return n
}
