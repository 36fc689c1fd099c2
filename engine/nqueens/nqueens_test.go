package nqueens

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
)

// refBoard is a deliberately naive N-Queens board: a grid of booleans.
type refBoard struct {
	n    int
	grid [][]bool // grid[col][row-1]
}

func newRef(n int) *refBoard {
	g := &refBoard{n: n}
	for range n {
		g.grid = append(g.grid, make([]bool, n))
	}
	return g
}

func (g *refBoard) play(col, row int) {
	had := g.grid[col][row-1]
	for r := range g.n {
		g.grid[col][r] = false
	}
	g.grid[col][row-1] = !had
}

type queen struct{ c, r int }

func (g *refBoard) queens() []queen {
	var qs []queen
	for c := range g.n {
		for r := range g.n {
			if g.grid[c][r] {
				qs = append(qs, queen{c, r})
			}
		}
	}
	return qs
}

// conflicts counts attacking pairs by walking from each queen along rows
// and diagonals to the right.
func (g *refBoard) conflicts() int {
	n := 0
	for _, q := range g.queens() {
		for _, d := range [][2]int{{1, 0}, {1, 1}, {1, -1}} {
			for c, r := q.c+d[0], q.r+d[1]; c < g.n && r >= 0 && r < g.n; c, r = c+d[0], r+d[1] {
				if g.grid[c][r] {
					n++
				}
			}
		}
	}
	return n
}

func checkAgainstRef(t *testing.T, p *Position, g *refBoard) {
	t.Helper()
	for c := range g.n {
		want := 0
		for r := range g.n {
			if g.grid[c][r] {
				want = r + 1
			}
		}
		if p.Row(c) != want {
			t.Fatalf("%v: column %c row %d, reference %d", p, 'a'+c, p.Row(c), want)
		}
	}
	conf, placed := g.conflicts(), len(g.queens())
	solved := conf == 0 && placed == g.n
	if p.Conflicts() != conf || p.Terminal() != solved || (p.Result(engine.X) == engine.Win) != solved ||
		p.Score(engine.X) != -(g.n-placed+conf) {
		t.Fatalf("%v: conflicts %d terminal %v score %d; reference %d conflicts, %d placed", p, p.Conflicts(), p.Terminal(), p.Score(engine.X), conf, placed)
	}
	if len(p.Attacked()) == 0 != (conf == 0) {
		t.Fatalf("%v: attacked %v with %d conflicts", p, p.Attacked(), conf)
	}
	wantMoves := g.n * g.n
	if solved {
		wantMoves = 0
	}
	if got := len(p.Moves(make([]engine.Move, 0, engine.MaxMoves))); got != wantMoves {
		t.Fatalf("%v: %d moves, want %d", p, got, wantMoves)
	}
	q, err := Parse(p.String())
	if err != nil || q.Hash() != p.Hash() {
		t.Fatalf("%v: reparse %v, %v; hash differs", p, q, err)
	}
}

func TestRandomPlayMatchesReference(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 200
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range games {
		n := MinN + rng.IntN(MaxN-MinN+1)
		p, err := New(n)
		if err != nil {
			t.Fatal(err)
		}
		g := newRef(n)
		var texts []string
		for range 60 {
			checkAgainstRef(t, p, g)
			moves := p.Moves(nil)
			if len(moves) == 0 {
				break
			}
			texts = append(texts, p.String())
			m := moves[rng.IntN(len(moves))]
			p.Play(m)
			g.play(int(m)/n, int(m)%n+1)
		}
		checkAgainstRef(t, p, g)
		for i := len(texts) - 1; i >= 0; i-- {
			p.Undo()
			if p.String() != texts[i] {
				t.Fatalf("undo gave %v, want %v", p, texts[i])
			}
		}
	}
}

func TestPlaySolution(t *testing.T) {
	p, _ := New(4)
	for _, sq := range []string{"a2", "b4", "c1", "c3", "c1", "d3"} {
		m, err := p.ParseMove(sq)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	if p.String() != "2,4,1,3" || !p.Terminal() || p.Score(engine.X) != 0 || p.PliesLeft() != 0 {
		t.Fatalf("%v: terminal %v", p, p.Terminal())
	}
	if _, err := p.ParseMove("a1"); err == nil || !strings.Contains(err.Error(), "solved") {
		t.Errorf("move on a solved board: %v", err)
	}
	p.Undo()
	if p.String() != "2,4,1,0" || p.PliesLeft() != 4 {
		t.Errorf("undo: %v", p)
	}
	// Naming the queen's own square lifts it; the lift is undone too.
	m, _ := p.ParseMove("a2")
	p.Play(m)
	if p.String() != "0,4,1,0" {
		t.Errorf("lift: %v", p)
	}
	p.Undo()
	if p.String() != "2,4,1,0" {
		t.Errorf("undo of a lift: %v", p)
	}
}

func TestParseRejects(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "1 columns"},
		{"0,0,0", "3 columns"},
		{"0,0,0,0,0,0,0,0,0,0,0,0,0", "13 columns"},
		{"5,0,0,0", "column a holds"},
		{"0,-1,0,0", "column b holds"},
		{"0,0,x,0", "column c holds"},
	} {
		if _, err := Parse(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error %v, want %q", tc.text, err, tc.want)
		}
	}
	for _, n := range []int{3, 13} {
		if _, err := New(n); err == nil {
			t.Errorf("New(%d) accepted", n)
		}
	}
	p, _ := New(8)
	for _, text := range []string{"i1", "a9", "a0", "a", "1a", "a+1", "a01"} {
		if _, err := p.ParseMove(text); err == nil {
			t.Errorf("ParseMove(%q) accepted", text)
		}
	}
	if m, err := p.ParseMove(" H8 "); err != nil || p.FormatMove(m) != "h8" {
		t.Errorf("ParseMove(H8) = %v, %v", m, err)
	}
}
