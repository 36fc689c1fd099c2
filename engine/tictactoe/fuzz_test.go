package tictactoe

import (
	"testing"

	"github.com/gambitbot/gambit/engine"
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
	f.Fuzz(func(t *testing.T, text, move string) {
		p, err := Parse(text)
		if err != nil {
			if p != nil {
				t.Fatalf("Parse(%q) failed with a position", text)
			}
			return
		}
		fuzzRoundTrip(t, p)
		m, err := p.ParseMove(move)
		if err != nil {
			if m != engine.NoMove {
				t.Fatalf("ParseMove(%q) failed with move %d", move, m)
			}
			return
		}
		if !p.Legal(m) {
			t.Fatalf("%s: ParseMove(%q) = %d, which is not legal", p, move, m)
		}
		name := p.FormatMove(m)
		if again, err := p.ParseMove(name); err != nil || again != m {
			t.Fatalf("%s: ParseMove(%q) = %d formatted %q, which parses to %d, %v", p, move, m, name, again, err)
		}
		p.Play(m)
		fuzzRoundTrip(t, p)
	})
}

// fuzzRoundTrip checks that the text of p parses to an equal position.
func fuzzRoundTrip(t *testing.T, p *Position) {
	t.Helper()
	text := p.String()
	q, err := Parse(text)
	if err != nil {
		t.Fatalf("the text %q of a position does not parse: %v", text, err)
	}
	if q.String() != text || q.marks != p.marks || q.stm != p.stm || q.Hash() != p.Hash() || q.Terminal() != p.Terminal() {
		t.Fatalf("%q parses to %q", text, q.String())
	}
}
