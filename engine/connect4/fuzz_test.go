package connect4

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine/enginetest"
)

// FuzzParse checks the position and move parsers on any text: they never
// panic; a parsed position's text reads back to the same position; a move
// that parses is legal and formats back to a text that parses to it, and
// playing it leaves a position whose text reads back too.
func FuzzParse(f *testing.F) {
	for _, seed := range []struct{ pos, move string }{
		{"start", "4"},
		{"", "1"},
		{"  4453  ", " 7 "},
		{"4444444", "4"},
		{"444444", "4"},
		{"1212121", "3"},
		{"12121213", "3"},
		{"123456712345671234567123456712345671234567", "1"},
		{"0", "0"},
		{"8", "8"},
		{"4 4", "44"},
		{"start4", "99"},
		{"4\x00", "z9"},
		{"٤", "٤"},
		{strings.Repeat("1234567", 7), ""},
	} {
		f.Add(seed.pos, seed.move)
	}
	fuzzGame.Fuzz(f)
}

// fuzzGame is the game for the shared parser checks.
var fuzzGame = enginetest.Game[*Position]{
	Parse: Parse,
	Same:  func(a, b *Position) bool { return a.stones == b.stones },
}
