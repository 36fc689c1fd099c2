package othello

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine/enginetest"
)

// FuzzParse checks the position and move parsers on any text: they never
// panic; a parsed position's text (a board or a line of moves) reads back
// to the same position; a move that parses is legal and formats back to a
// text that parses to it, and playing it leaves a position whose text
// reads back too.
func FuzzParse(f *testing.F) {
	for _, seed := range []struct{ pos, move string }{
		{StartText, "f5"},
		{StartText, " D3 "},
		{StartText, "pass"},
		{"", "e6"},
		{"f5d6c3d3c4", "f4"},
		{"F5 d6 C3", "PASS"},
		{"f5d6c5f4e3f6g5e6e7", "a1"},
		{"f5d6c5f4e3f6g5e6e7a1", "a1"},
		{mustPass, "pass"},
		{mustPass, "b1"},
		{"f5 pass", "d6"},
		{"f5f5", ""},
		{"xxxxxxx./xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxx. o", "h1"},
		{"......../......../......../...o..../...xo.../......../......../........ x", "e4"},
		{"......../......../......../...ox.../...xo.../......../......../........ X", "z9"},
		{"......../......../......../...ox.../...xo.../......../......../......... x", "f5f5"},
		{"......../......../......../...ox.../...xo.../......../......../........", "ｆ５"},
		{"f5\x00", "é1"},
		{strings.Repeat("f5", 40), "pas"},
	} {
		f.Add(seed.pos, seed.move)
	}
	fuzzGame.Fuzz(f)
}

// fuzzGame is the game for the shared parser checks.
var fuzzGame = enginetest.Game[*Position]{
	Parse: Parse,
	Same:  func(a, b *Position) bool { return a.state == b.state },
}
