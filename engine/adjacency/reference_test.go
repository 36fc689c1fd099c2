package adjacency

import (
	"fmt"
	"strings"
)

// refGame is a deliberately naive Adjacency implementation over a plain
// 2-D array, written straight from the rules text, against which the
// bitboard engine is checked. board[rank][file] holds 'x', 'o' or '.'.
type refGame struct {
	board  [8][8]byte
	toMove byte
	left   int
}

func newRef(rounds int, first byte) *refGame {
	g := &refGame{toMove: first, left: 2 * rounds}
	for r := range 8 {
		for f := range 8 {
			g.board[r][f] = '.'
		}
	}
	for _, c := range []string{"a1", "b1", "a2", "b2"} {
		g.board[c[1]-'1'][c[0]-'a'] = 'x'
	}
	for _, c := range []string{"g7", "h7", "g8", "h8"} {
		g.board[c[1]-'1'][c[0]-'a'] = 'o'
	}
	return g
}

func refOpponent(s byte) byte {
	if s == 'x' {
		return 'o'
	}
	return 'x'
}

// moves lists the empty cells by name, in a1, b1, …, h8 order.
func (g *refGame) moves() []string {
	var out []string
	if g.left == 0 {
		return out
	}
	for r := range 8 {
		for f := range 8 {
			if g.board[r][f] == '.' {
				out = append(out, fmt.Sprintf("%c%d", 'a'+f, r+1))
			}
		}
	}
	return out
}

func (g *refGame) play(cell string) {
	f, r := int(cell[0]-'a'), int(cell[1]-'1')
	if g.board[r][f] != '.' {
		panic("reference: cell taken: " + cell)
	}
	me := g.toMove
	g.board[r][f] = me
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		rr, ff := r+d[0], f+d[1]
		if rr >= 0 && rr < 8 && ff >= 0 && ff < 8 && g.board[rr][ff] == refOpponent(me) {
			g.board[rr][ff] = me
		}
	}
	g.toMove = refOpponent(me)
	g.left--
}

func (g *refGame) count(s byte) int {
	n := 0
	for r := range 8 {
		for f := range 8 {
			if g.board[r][f] == s {
				n++
			}
		}
	}
	return n
}

func (g *refGame) text() string {
	var rows []string
	for r := 7; r >= 0; r-- {
		rows = append(rows, string(g.board[r][:]))
	}
	return fmt.Sprintf("%s %c %d", strings.Join(rows, "/"), g.toMove, g.left)
}

// result is "ongoing", or the outcome for x: "win", "loss" or "draw".
func (g *refGame) result() string {
	if g.left > 0 {
		return "ongoing"
	}
	switch x, o := g.count('x'), g.count('o'); {
	case x > o:
		return "win"
	case x < o:
		return "loss"
	}
	return "draw"
}

// perft counts leaves and sums the marks on the board over them, by
// copying the whole game at every node.
func (g refGame) perft(depth int) (leaves, sumX, sumO uint64) {
	if depth == 0 || g.left == 0 {
		return 1, uint64(g.count('x')), uint64(g.count('o'))
	}
	for _, m := range g.moves() {
		child := g
		child.play(m)
		l, x, o := child.perft(depth - 1)
		leaves, sumX, sumO = leaves+l, sumX+x, sumO+o
	}
	return leaves, sumX, sumO
}
