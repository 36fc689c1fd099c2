package connect4

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
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
	f.Fuzz(func(t *testing.T, text, move string) {
		p, err := Parse(text)
		if err != nil {
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
	if q.String() != text || q.stones != p.stones || q.Hash() != p.Hash() || q.Terminal() != p.Terminal() || q.SideToMove() != p.SideToMove() {
		t.Fatalf("%q parses to %q", text, q.String())
	}
}
