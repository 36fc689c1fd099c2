package gomoku

import (
	"testing"

	"github.com/gambitbot/gambit/engine/enginetest"
)

// FuzzParse checks the position and move parsers on any text: they never
// panic; a parsed position's text reads back to the same position; a move
// that parses is legal and formats back to a text that parses to it, and
// playing it leaves a position whose text reads back too.
func FuzzParse(f *testing.F) {
	for _, seed := range []struct{ pos, move string }{
		{"", "h8"},
		{"h8 h9", " I9 "},
		{"a1 a2 b1 b2 c1 c2 d1 d2", "e1"},
		{"a1 a2 b1 b2 c1 c2 d1 d2 e1", "e2"},
		{empty7("x"), "g7"},
		{empty7("o"), "a1"},
		{"xxooxxo/ooxxoox/xxooxxo/ooxxoox/xxooxxo/ooxxoox/xxooxx. x", "g1"},
		{"......./......./......./......./......./ooooo../xxxxx.o x", "f1"},
		{"h8,h8", "h015"},
		{"o15 a15", "p1"},
	} {
		f.Add(seed.pos, seed.move)
	}
	fuzzGame.Fuzz(f)
}

// fuzzGame is the game for the shared parser checks.
var fuzzGame = enginetest.Game[*Position]{
	Parse: Parse,
	Same: func(a, b *Position) bool {
		return a.size == b.size && a.board == b.board && a.side == b.side && a.state == b.state
	},
}
