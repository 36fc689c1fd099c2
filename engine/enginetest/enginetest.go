// Package enginetest holds checks that the tests of every engine package
// share, so that each game's tests state only what is particular to it.
package enginetest

import (
	"reflect"
	"testing"

	"github.com/gambitbot/gambit/engine"
)

// Game is what the checks need of a game: reading a position from text,
// and telling whether two positions are the same in every detail the
// game's representation holds (beyond their texts).
type Game[P engine.Position] struct {
	Parse func(string) (P, error)
	Same  func(a, b P) bool
}

// Fuzz runs the parser checks on every fuzzed pair of a position text and
// a move text: a text that fails to parse comes with no position; one that
// parses passes CheckParsedMove with the move.
func (g Game[P]) Fuzz(f *testing.F) {
	f.Fuzz(func(t *testing.T, text, move string) {
		p, err := g.Parse(text)
		if err != nil {
			if v := reflect.ValueOf(p); v.IsValid() && !v.IsNil() {
				t.Fatalf("Parse(%q) failed with a position", text)
			}
			return
		}
		g.CheckParsedMove(t, p, move)
	})
}

// CheckParsedMove checks a position p parsed from some text, and the move
// text move read in it: p's text reads back to the same position; a move
// that parses is legal and formats back to a text that parses to it, and
// playing it leaves a position whose text reads back too. A move that
// fails to parse must come with engine.NoMove.
func (g Game[P]) CheckParsedMove(t *testing.T, p P, move string) {
	t.Helper()
	g.CheckRoundTrip(t, p)
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
	g.CheckRoundTrip(t, p)
}

// CheckRoundTrip checks that the text of p parses to the same position.
func (g Game[P]) CheckRoundTrip(t *testing.T, p P) {
	t.Helper()
	text := p.String()
	q, err := g.Parse(text)
	if err != nil {
		t.Fatalf("the text %q of a position does not parse: %v", text, err)
	}
	if q.String() != text || q.Hash() != p.Hash() || q.Terminal() != p.Terminal() ||
		q.SideToMove() != p.SideToMove() || !g.Same(p, q) {
		t.Fatalf("%q parses to %q, another position", text, q.String())
	}
}
