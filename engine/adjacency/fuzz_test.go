package adjacency

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/enginetest"
)

// FuzzParse checks the position and move parsers on any text: they never
// panic; a parsed position's text reads back to the same text; ParseBoard
// and Parse agree; a cell or move that parses formats back to a name that
// parses to it again, and a legal move leaves a position whose text reads
// back too.
func FuzzParse(f *testing.F) {
	for _, seed := range []struct{ pos, move string }{
		{StartText, "c3"},
		{StartText, "A1"},
		{StartText, " h8 "},
		{"......oo/......oo/......../......../......../......../xx....../xx...... o 3", "b2"},
		{"......oo/......oo/......../......../......../......../xx....../xx...... x 0", "d4"},
		{"......../......../......../......../......../......../......../........ o 64", "i9"},
		{"......../......../......../......../......../......../......../........ x 65", "a0"},
		{"xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx x 0", "e4"},
		{"......oo/......oo/......../......../......../......../xx....../xx...... X +4", "99"},
		{"......oo/......oo/......../......../......../......../xx....../xx...... x -1", ""},
		{"......oo/......oo/......../......../......../......../xx....../xx...... x 9999999999999999999999", "z9"},
		{"......oo/......oo/......../......../......../......../xx......./xx..... x 4", "c3c3"},
		{"......oo/......oo/......../......../......../......../xx....../xx......", "ｃ３"},
		{"......oo/......oo/......../......../......../......../xx....../xx...... x 4 extra", "\x00"},
		{"", "é1"},
		{"start", strings.Repeat("a1", 50)},
	} {
		f.Add(seed.pos, seed.move)
	}
	f.Fuzz(func(t *testing.T, text, move string) {
		b, berr := ParseBoard(text)
		p, err := Parse(text)
		if (berr == nil) != (err == nil) {
			t.Fatalf("ParseBoard(%q) error %v but Parse error %v", text, berr, err)
		}

		if c, err := ParseCell(move); err == nil {
			if c >= Cells {
				t.Fatalf("ParseCell(%q) = %d, off the board", move, c)
			}
			if again, err := ParseCell(CellName(c)); err != nil || again != c {
				t.Fatalf("ParseCell(%q) = %d named %q, which parses to %d, %v", move, c, CellName(c), again, err)
			}
		} else if c != engine.NoMove {
			t.Fatalf("ParseCell(%q) failed with move %d", move, c)
		}

		if err != nil {
			return
		}
		if p.Board != b {
			t.Fatalf("ParseBoard(%q) and Parse disagree: %+v, %+v", text, b, p.Board)
		}
		fuzzGame.CheckParsedMove(t, p, move)
	})
}

// fuzzGame is the game for the shared parser checks.
var fuzzGame = enginetest.Game[*Position]{
	Parse: Parse,
	Same:  func(a, b *Position) bool { return a.Board == b.Board },
}
