package tictactoe

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
		{StartText, "5"},
		{"x...o.... x", "1"},
		{"x...o.... X", " 9 "},
		{"xxx.oo... o", "4"},
		{"xxxoo.oo. x", "9"},
		{"xoxoxoxox o", "1"},
		{"ooo.xx.x. x", "4"},
		{"xxx.ooo.. x", "4"},
		{"......... o", "0"},
		{"........ x", "10"},
		{".......... x", "99"},
		{"XOX...... o", "z9"},
		{"x........ x o", ""},
		{"x...o....\tx", "٥"},
	} {
		f.Add(seed.pos, seed.move)
	}
	fuzzGame.Fuzz(f)
}

// fuzzGame is the game for the shared parser checks.
var fuzzGame = enginetest.Game[*Position]{
	Parse: Parse,
	Same:  func(a, b *Position) bool { return a.marks == b.marks && a.stm == b.stm },
}
