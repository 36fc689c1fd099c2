package nqueens

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
		{"0,0,0,0", "a1"},
		{"2,4,1,3", "a2"},
		{"2,4,1,0", "d3"},
		{"1,1,1,1,1,1,1,1", "h8"},
		{"0,0,0,0,0,0,0,0,0,0,0,0", "l12"},
		{"0,0,0,0,0,0,0,0,0,0,0,0,0", "a1"},
		{"0,0,0", "a1"},
		{"5,0,0,0", "a0"},
		{" 1 , 2,3,4", " B3 "},
		{"0,0,0,0", "a+1"},
		{"0,0,0,0", "a01"},
		{"", ""},
		{"a,b,c,d", "٥"},
	} {
		f.Add(seed.pos, seed.move)
	}
	fuzzGame.Fuzz(f)
}

// fuzzGame is the game for the shared parser checks.
var fuzzGame = enginetest.Game[*Position]{
	Parse: Parse,
	Same:  func(a, b *Position) bool { return a.n == b.n && a.rows == b.rows },
}
