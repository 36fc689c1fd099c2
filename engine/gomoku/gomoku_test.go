package gomoku

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
)

// parse reads a position text or fails the test.
func parse(t *testing.T, text string) *Position {
	t.Helper()
	p, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// play plays moves by name or fails the test.
func play(t *testing.T, p *Position, moves ...string) {
	t.Helper()
	for _, name := range moves {
		m, err := p.ParseMove(name)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
}

// empty7 is the empty 7×7 board with side to move s.
func empty7(s string) string { return strings.TrimSuffix(strings.Repeat("......./", 7), "/") + " " + s }

// TestPerft checks the leaf counts: before anyone can have five, every
// empty point is a move (225, 225·224 on the standard board; 49·48·47 on
// 7×7); on a board where Black has an open four, its two winning moves
// end the game at once, each a single leaf.
func TestPerft(t *testing.T) {
	for _, tc := range []struct {
		p     *Position
		depth int
		want  uint64
	}{
		{Standard(), 1, 225},
		{Standard(), 2, 225 * 224},
		{parse(t, empty7("x")), 3, 49 * 48 * 47},
		// b1–e1 black, four white stones: 41 empty points, a1 and f1 win.
		{parse(t, "......./......./......./......./o....../oo....o/.xxxx.. x"), 2, 2 + 39*40},
	} {
		if got := engine.Perft(tc.p, tc.depth, nil); got != tc.want {
			t.Errorf("perft %d of %s = %d, want %d", tc.depth, tc.p, got, tc.want)
		}
	}
}

// TestFiveOrMoreWins checks the freestyle rule: five in a row wins in
// every direction, and so does six (an overline); four does not.
func TestFiveOrMoreWins(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moves []string
		won   bool
	}{
		{"across", []string{"a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"}, true},
		{"up", []string{"h4", "i4", "h5", "i5", "h6", "i6", "h7", "i7", "h8"}, true},
		{"diagonal", []string{"a1", "a2", "b2", "b3", "c3", "c4", "d4", "d5", "e5"}, true},
		{"anti-diagonal", []string{"o1", "a1", "n2", "a2", "m3", "a3", "l4", "a4", "k5"}, true},
		{"overline", []string{"a1", "a2", "b1", "b2", "c1", "c2", "e1", "e2", "f1", "f3", "d1"}, true},
		{"four", []string{"a1", "a2", "b1", "b2", "c1", "c2", "d1", "o15"}, false},
		{"broken", []string{"a1", "a2", "b1", "b2", "c1", "c2", "e1", "e2", "f1"}, false},
	} {
		p := Standard()
		play(t, p, tc.moves...)
		if p.Terminal() != tc.won {
			t.Errorf("%s: terminal %v, want %v", tc.name, p.Terminal(), tc.won)
			continue
		}
		if !tc.won {
			continue
		}
		mover := engine.Side((len(tc.moves) - 1) % 2)
		if p.Result(mover) != engine.Win || p.Result(mover.Other()) != engine.Loss || p.Score(mover) != 1 || len(p.Moves(nil)) != 0 {
			t.Errorf("%s: result %v, score %d, %d moves", tc.name, p.Result(mover), p.Score(mover), len(p.Moves(nil)))
		}
		last, _ := p.Last()
		if _, _, ok := p.Line(last); !ok {
			t.Errorf("%s: no winning line through %s", tc.name, CellName(last))
		}
		if _, err := p.ParseMove("h8"); err == nil {
			t.Errorf("%s: a move after the end parses", tc.name)
		}
	}
}

// TestLine checks the ends of a winning line, an overline's included.
func TestLine(t *testing.T) {
	p := Standard()
	play(t, p, "c3", "a1", "d4", "a2", "f6", "a3", "g7", "a4", "b2", "o1", "e5")
	from, to, ok := p.Line(Cell(4, 4))
	if !ok || CellName(from) != "b2" || CellName(to) != "g7" {
		t.Errorf("line %s–%s, %v; want b2–g7", CellName(from), CellName(to), ok)
	}
}

// TestRandomGames plays random games on every size to the end and back:
// the game ends exactly when a five appears or the board fills, the end
// agrees with a scan of the whole board, and undoing every move restores
// the start, hash included.
func TestRandomGames(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	rng := rand.New(rand.NewPCG(5, 5))
	draws := 0
	for i := range games {
		size := MinSize + i%(MaxSize-MinSize+1)
		p, err := New(size)
		if err != nil {
			t.Fatal(err)
		}
		start, hash := p.String(), p.Hash()
		n := 0
		for !p.Terminal() {
			moves := p.Moves(nil)
			if len(moves) != p.PliesLeft() {
				t.Fatalf("%s: %d moves, %d plies left", p, len(moves), p.PliesLeft())
			}
			p.Play(moves[rng.IntN(len(moves))])
			n++
			if q := parse(t, p.String()); q.Hash() != p.Hash() || q.Terminal() != p.Terminal() {
				t.Fatalf("%s reads back as another position", p)
			}
		}
		winner, won := scan(p)
		if got, ok := p.Winner(); ok != won || got != winner {
			t.Fatalf("%s: winner %v %v, the board shows %v %v", p, got, ok, winner, won)
		}
		if !won {
			draws++
			if p.Result(engine.X) != engine.Draw || p.PliesLeft() != 0 {
				t.Fatalf("%s: full board is %v", p, p.Result(engine.X))
			}
		}
		for range n {
			p.Undo()
		}
		if p.String() != start || p.Hash() != hash || p.Terminal() {
			t.Fatalf("undo leaves %s", p)
		}
	}
	t.Logf("%d draws in %d games", draws, games)
}

// scan looks for a five on the whole board, the slow way.
func scan(p *Position) (engine.Side, bool) {
	for row := range p.size {
		for col := range p.size {
			for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}} {
				s, ok := p.Stone(Cell(col, row))
				if !ok {
					continue
				}
				n := 0
				for c, r := col, row; c >= 0 && r >= 0 && c < p.size && r < p.size; c, r = c+d[0], r+d[1] {
					if t, ok := p.Stone(Cell(c, r)); !ok || t != s {
						break
					}
					n++
				}
				if n >= Win {
					return s, true
				}
			}
		}
	}
	return 0, false
}

// TestDrawOnAFullBoard checks a full 7×7 board without a five.
func TestDrawOnAFullBoard(t *testing.T) {
	p := parse(t, "xxooxxo/ooxxoox/xxooxxo/ooxxoox/xxooxxo/ooxxoox/xxooxxo o")
	if !p.Terminal() || p.Result(engine.O) != engine.Draw || p.Score(engine.X) != 0 || len(p.Moves(nil)) != 0 {
		t.Errorf("full board: terminal %v, result %v", p.Terminal(), p.Result(engine.O))
	}
}

// TestParseLine reads a line of moves from the standard start.
func TestParseLine(t *testing.T) {
	p := parse(t, "H8, h9 I9")
	if p.SideToMove() != engine.O || p.Size() != MaxSize {
		t.Fatalf("%s", p)
	}
	for name, want := range map[string]string{"h8": "x", "h9": "o", "i9": "x"} {
		c, _ := p.ParseCell(name)
		if s, ok := p.Stone(c); !ok || s.String() != want {
			t.Errorf("%s holds %v %v, want %s", name, s, ok, want)
		}
	}
	if p.String() != parse(t, p.String()).String() {
		t.Errorf("%s does not read back", p)
	}
}

// TestParseRejectsMalformed checks that bad texts get an error naming
// the fault.
func TestParseRejectsMalformed(t *testing.T) {
	for text, want := range map[string]string{
		"h8 h8":                         "taken",
		"h8 p1":                         "want a column",
		"h8 h16":                        "want a column",
		"h8 h08":                        "want a column",
		"a1 a2 b1 b2 c1 c2 d1 d2 e1 e2": "over",
		empty7("x x"):                   "2 fields",
		"....../....../....../....../....../...... x":         "rows",
		strings.Replace(empty7("x"), ".......", "......", 1):  "characters",
		strings.Replace(empty7("x"), ".......", "...z...", 1): "holds",
		empty7("o"): "black moves first",
		"......./......./......./......./......./oooo..o/xxxxx.. x": "five in a row",
		"......./......./......./......./......./......./....... q": "side to move",
	} {
		p, err := Parse(text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, %v; want an error with %q", text, p, err, want)
		}
	}
}

// TestParseMove reads points in either case and refuses others.
func TestParseMove(t *testing.T) {
	p := parse(t, empty7("x"))
	for text, ok := range map[string]bool{"a1": true, " G7 ": true, "h1": false, "a8": false, "a0": false, "": false, "a": false, "a1x": false} {
		m, err := p.ParseMove(text)
		if (err == nil) != ok || (ok && p.FormatMove(m) != strings.ToLower(strings.TrimSpace(text))) {
			t.Errorf("ParseMove(%q) = %d, %v", text, m, err)
		}
	}
}
