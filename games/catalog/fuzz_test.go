package catalog

import (
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
)

// FuzzPosition checks the way the bot reads a stored game: Lookup of any
// name, then Position of any text with any setup, never panics; a position
// that reads back from its own text is equal; every legal move formats to
// a text that ParseMove reads back to it; and ParseMove of any text gives
// a legal move or an error.
func FuzzPosition(f *testing.F) {
	for _, seed := range []struct {
		name, text, move string
		rounds           int
		first            byte
	}{
		{"adjacency", "", "c3", 0, 0},
		{"Adjacency", "start", "h8", 28, 1},
		{" adjacency ", "start", "a1", 29, 0},
		{"adjacency", "start", "b2", -1, 2},
		{"adjacency", "......oo/......oo/......../......../......../......../xx....../xx...... o 3", "d4", 0, 0},
		{"adjacency", "......oo/......oo/......../......../......../......../xx....../xx...... o 3", "d4", 4, 0},
		{"connect4", "start", "4", 0, 0},
		{"CONNECT4", "4453", "8", 0, 0},
		{"connect4", "", "1", 3, 0},
		{"connect4", "4444444", "4", 0, 0},
		{"tictactoe", "start", "5", 0, 0},
		{"tictactoe", "x...o.... x", "99", 0, 0},
		{"tictactoe", "start", "1", 0, 1},
		{"chess", "start", "e4", 0, 0},
		{"", "", "", 0, 0},
		{"adjacency\x00", "start", "z9", 1 << 40, 255},
	} {
		f.Add(seed.name, seed.text, seed.move, seed.rounds, seed.first)
	}
	f.Fuzz(func(t *testing.T, name, text, move string, rounds int, first byte) {
		g, err := Lookup(name)
		if err != nil {
			return
		}
		opts := games.Options{Rounds: rounds, First: engine.Side(first)}
		p, err := g.Position(text, opts)
		if err != nil {
			if p != nil {
				t.Fatalf("%s: Position(%q) returned %#v with its error %v", g.Name, text, p, err)
			}
			return
		}
		s := p.String()
		q, err := g.Position(s, games.Options{})
		if err != nil || q.String() != s || q.Hash() != p.Hash() || q.SideToMove() != p.SideToMove() || q.Terminal() != p.Terminal() {
			t.Fatalf("%s: the text %q of a position reads back as %v, %v", g.Name, s, q, err)
		}
		moves := p.Moves(make([]engine.Move, 0, engine.MaxMoves))
		if len(moves) > engine.MaxMoves || (len(moves) == 0) != p.Terminal() {
			t.Fatalf("%s %s: %d moves, terminal %v", g.Name, s, len(moves), p.Terminal())
		}
		for _, m := range moves {
			text := p.FormatMove(m)
			if again, err := p.ParseMove(text); err != nil || again != m || !p.Legal(m) {
				t.Fatalf("%s %s: legal move %d is %q, which parses to %d, %v", g.Name, s, m, text, again, err)
			}
		}
		m, err := p.ParseMove(move)
		if err == nil && !p.Legal(m) {
			t.Fatalf("%s %s: ParseMove(%q) = %d, which is not legal", g.Name, s, move, m)
		}
		if err == nil {
			p.Play(m)
			after := p.String()
			if q, err := g.Position(after, games.Options{}); err != nil || q.String() != after {
				t.Fatalf("%s: after %s the text %q reads back as %v, %v", g.Name, move, after, q, err)
			}
		}
	})
}
