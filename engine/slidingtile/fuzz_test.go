package slidingtile

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
		{"1,2,3,5,6,0,7,8,4", "L"},
		{"1,2,3,5,6,0,7,8,4", "6"},
		{"1,2,3,4,5,6,7,8,0", "U"},
		{"1,2,3,4,5,6,0,7,8", " right "},
		{"2,1,3,4,5,6,7,8,0", "D"},
		{"1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15", "15"},
		{"1,2,3,4,5,6,7,8,9,10,11,12,13,15,14,0", "u"},
		{" 0 ,1,2,3,4,5,6,7,8", "down"},
		{"1,2,3,4,5,6,7,8", "0"},
		{"1,1,1,1,1,1,1,1,1", "99"},
		{"1,2,3,4,5,6,7,8,+0", "-1"},
		{"", ""},
		{",,,,,,,,", "٥"},
	} {
		f.Add(seed.pos, seed.move)
	}
	fuzzGame.Fuzz(f)
}

// fuzzGame is the game for the shared parser checks.
var fuzzGame = enginetest.Game[*Position]{
	Parse: Parse,
	Same:  func(a, b *Position) bool { return a.size == b.size && a.cells == b.cells && a.blank == b.blank },
}
