package gomsearch

import (
	"math/rand/v2"
	"testing"

	rules "github.com/gambitbot/gambit/engine/gomoku"
)

// TestIncrementalBoardMatchesAFreshOne plays and takes back random moves
// on boards of several sizes: after each, everything the board keeps up
// to date — keys, empty points' shapes, class counts, totals, stone
// counts nearby, hash — equals what a board built from scratch on the
// same position holds.
func TestIncrementalBoardMatchesAFreshOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{7, 9, 15} {
		pos, _ := rules.New(size)
		b := newBoard(pos)
		for range 60 {
			if pos.Terminal() {
				break
			}
			moves := pos.Moves(nil)
			m := moves[rng.IntN(len(moves))]
			b.play(fromCell(m))
			pos.Play(m)
			fresh := newBoard(pos)
			if b.key != fresh.key || !sameShapes(b, fresh) || b.count != fresh.count || b.total != fresh.total ||
				b.near != fresh.near || b.hash != fresh.hash || b.won != fresh.won || b.side != fresh.side || b.empty != fresh.empty {
				t.Fatalf("%d×%d after %v: the incremental board differs from a fresh one", size, size, pos)
			}
		}
		for len(b.moves) > 0 {
			b.undo()
			pos.Undo()
		}
		if fresh := newBoard(pos); b.key != fresh.key || !sameShapes(b, fresh) || b.count != fresh.count || b.total != fresh.total || b.near != fresh.near || b.hash != fresh.hash {
			t.Fatalf("%d×%d: taking every move back does not restore the empty board", size, size)
		}
	}
}

// sameShapes reports whether a and b hold the same shapes on the empty
// points (an occupied point's are brought up to date when it empties).
func sameShapes(a, b *board) bool {
	for p := range a.cell {
		if a.cell[p] == 0 && (a.packed[0][p] != b.packed[0][p] || a.packed[1][p] != b.packed[1][p]) {
			return false
		}
	}
	return true
}

// TestShapes checks the shape table on lines whose shapes are known.
func TestShapes(t *testing.T) {
	cases := []struct {
		line string // nine points, the centre (index 4) the stone judged: x own, o opponent, # edge
		want uint8
	}{
		{"..xxxxx..", shFive},
		{"...xxxxxx", shFive}, // an overline wins too (freestyle)
		{"...xxxx..", shF4},
		{"..xxxx.x.", shF4}, // two points make five
		{"..oxxxx..", shB4},
		{"..x.xxx.o", shB4},
		{"...xxx...", shF3},
		{"..x.xx...", shF3},
		{"..oxxx...", shB3},
		{"...xx....", shF2},
		{"..oxx....", shB2},
		{"....x....", shF1},
		{"#o..xxo..", shDead},
		{"..o.x..o.", shDead},
		{"..o.x...o", shB1},
	}
	for _, c := range cases {
		var k uint16
		for i := range 8 {
			var v uint16
			switch c.line[slotPoint(i)] {
			case 'x':
				v = 1
			case 'o':
				v = 2
			case '#':
				v = edge
			}
			k |= v << (2 * i)
		}
		tables()
		if got := shapeOf[0][k]; got != c.want {
			t.Errorf("%s: shape %d, want %d", c.line, got, c.want)
		}
	}
}
