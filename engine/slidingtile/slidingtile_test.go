package slidingtile

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/internal/racetest"
)

// refPuzzle is a deliberately naive sliding puzzle over a 2-D grid, moving
// tiles by number.
type refPuzzle struct {
	size int
	grid [][]int
}

func newRef(text string, size int) *refPuzzle {
	g := &refPuzzle{size: size}
	var v []int
	for _, f := range strings.Split(text, ",") {
		var x int
		fmt.Sscan(f, &x)
		v = append(v, x)
	}
	for r := range size {
		g.grid = append(g.grid, append([]int(nil), v[r*size:(r+1)*size]...))
	}
	return g
}

func (g *refPuzzle) find(t int) (int, int) {
	for r, row := range g.grid {
		for c, x := range row {
			if x == t {
				return r, c
			}
		}
	}
	panic("no tile")
}

func (g *refPuzzle) solved() bool {
	want := 1
	for r, row := range g.grid {
		for c, x := range row {
			if r == g.size-1 && c == g.size-1 {
				return x == 0
			}
			if x != want {
				return false
			}
			want++
		}
	}
	return true
}

// movable returns the tiles next to the blank, sorted.
func (g *refPuzzle) movable() []int {
	if g.solved() {
		return nil
	}
	br, bc := g.find(0)
	var out []int
	for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
		r, c := br+d[0], bc+d[1]
		if r >= 0 && r < g.size && c >= 0 && c < g.size {
			out = append(out, g.grid[r][c])
		}
	}
	slices.Sort(out)
	return out
}

func (g *refPuzzle) slide(t int) {
	br, bc := g.find(0)
	r, c := g.find(t)
	g.grid[br][bc], g.grid[r][c] = t, 0
}

func (g *refPuzzle) text() string {
	var parts []string
	for _, row := range g.grid {
		for _, x := range row {
			parts = append(parts, fmt.Sprint(x))
		}
	}
	return strings.Join(parts, ",")
}

func (g *refPuzzle) manhattan() int {
	d := 0
	for r, row := range g.grid {
		for c, x := range row {
			if x != 0 {
				d += abs(r-(x-1)/g.size) + abs(c-(x-1)%g.size)
			}
		}
	}
	return d
}

func checkAgainstRef(t *testing.T, p *Position, g *refPuzzle) {
	t.Helper()
	if p.String() != g.text() {
		t.Fatalf("position %q, reference %q", p, g.text())
	}
	if p.Terminal() != g.solved() || (p.Result(engine.X) == engine.Win) != g.solved() {
		t.Fatalf("%v: terminal %v result %v, reference solved %v", p, p.Terminal(), p.Result(engine.X), g.solved())
	}
	if p.Score(engine.X) != -g.manhattan() || p.SideToMove() != engine.X {
		t.Fatalf("%v: score %d, reference −%d", p, p.Score(engine.X), g.manhattan())
	}
	var tiles []int
	for _, m := range p.Moves(nil) {
		c, ok := p.Target(m)
		if !ok || !p.Legal(m) {
			t.Fatalf("%v: move %v leaves the board", p, p.FormatMove(m))
		}
		tiles = append(tiles, p.Tile(c))
	}
	slices.Sort(tiles)
	if ref := g.movable(); !slices.Equal(tiles, ref) {
		t.Fatalf("%v: movable tiles %v, reference %v", p, tiles, ref)
	}
	if p.Hash() != mustParse(t, p.String()).Hash() {
		t.Fatalf("%v: hash differs from a fresh parse", p)
	}
}

func mustParse(t testing.TB, text string) *Position {
	t.Helper()
	p, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// scramble makes a random walk of the given length from the goal.
func scramble(rng *rand.Rand, size, length int) *Position {
	p := Goal(size)
	for range length {
		if to, ok := p.Target(engine.Move(rng.IntN(4))); ok {
			p.slide(to) // Play refuses moves on the goal
		}
	}
	q, _ := Parse(p.String())
	return q
}

func TestRandomPlayMatchesReference(t *testing.T) {
	games := 2000
	switch {
	case racetest.Short(t, "50 random games, not 200"):
		games = 50
	case testing.Short():
		games = 200
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range games {
		size := 3 + i%2
		p := scramble(rng, size, 200)
		start := p.String()
		g := newRef(start, size)
		for range 100 {
			checkAgainstRef(t, p, g)
			moves := p.Moves(nil)
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			c, _ := p.Target(m)
			g.slide(p.Tile(c))
			p.Play(m)
		}
		checkAgainstRef(t, p, g)
		for len(p.moves) > 0 {
			p.Undo()
		}
		if p.String() != start || p.Hash() != mustParse(t, start).Hash() {
			t.Fatalf("undoing every move gave %v, want %v", p, start)
		}
	}
}

// TestParityIsReachability: of all 9! arrangements of the 8-puzzle, Parse
// accepts exactly those a breadth-first search from the goal reaches
// (181,440 = 9!/2). The search keys the arrangements by their cells, not
// their text, which under -race cost twice the CPU.
func TestParityIsReachability(t *testing.T) {
	type cells [9]uint8
	key := func(p *Position) (k cells) {
		copy(k[:], p.cells[:9])
		return k
	}
	reached := map[cells]bool{key(Goal(3)): true}
	queue := []Position{*Goal(3)}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for m := Up; m <= Right; m++ {
			to, ok := p.Target(m)
			if !ok {
				continue
			}
			q := p
			q.slide(to)
			if k := key(&q); !reached[k] {
				reached[k] = true
				queue = append(queue, q)
			}
		}
	}
	if len(reached) != 181440 {
		t.Fatalf("%d arrangements reached, want 181,440", len(reached))
	}
	var perm cells
	for i := range perm {
		perm[i] = uint8(i)
	}
	accepted := 0
	text := make([]byte, 0, 17)
	var visit func(k int)
	visit = func(k int) {
		if k == len(perm) {
			text = text[:0]
			for i, c := range perm {
				if i > 0 {
					text = append(text, ',')
				}
				text = append(text, '0'+c)
			}
			_, err := Parse(string(text))
			if (err == nil) != reached[perm] {
				t.Fatalf("Parse(%q) error %v; reachable %v", text, err, reached[perm])
			}
			if err == nil {
				accepted++
			} else if !errors.Is(err, ErrUnsolvable) {
				t.Fatalf("Parse(%q): %v does not wrap ErrUnsolvable", text, err)
			}
			return
		}
		for i := k; i < len(perm); i++ {
			perm[k], perm[i] = perm[i], perm[k]
			visit(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	visit(0)
	if accepted != 181440 {
		t.Errorf("%d arrangements accepted", accepted)
	}
}

// TestParity15: random walks from the 15-puzzle's goal always parse, and
// swapping two tiles of any of them makes it unsolvable.
func TestParity15(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		p := scramble(rng, 4, 1+rng.IntN(300))
		tiles := p.Tiles()
		a, b := rng.IntN(16), rng.IntN(16)
		for a == b || tiles[a] == 0 || tiles[b] == 0 {
			a, b = rng.IntN(16), rng.IntN(16)
		}
		tiles[a], tiles[b] = tiles[b], tiles[a]
		var parts []string
		for _, x := range tiles {
			parts = append(parts, fmt.Sprint(x))
		}
		text := strings.Join(parts, ",")
		if _, err := Parse(text); !errors.Is(err, ErrUnsolvable) || !strings.Contains(err.Error(), "blank's row") {
			t.Fatalf("Parse(%q) = %v; want an unsolvable position, the blank's row explained", text, err)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "1 numbers"},
		{"1,2,3,4,5,6,7,8", "8 numbers"},
		{"1,2,3,4,5,6,7,8,0,9", "10 numbers"},
		{"1,2,3,4,5,6,7,8,9", "cell 9"},
		{"1,2,3,4,5,6,7,8,x", "cell 9"},
		{"1,2,3,4,5,6,7,-8,0", "cell 8"},
		{"1,2,3,4,5,6,7,7,0", "7 appears twice"},
		{"2,1,3,4,5,6,7,8,0", "1 inversions"},
		{"1,2,3,4,5,6,7,8,9,10,11,12,13,15,14,0", "unsolvable"},
	} {
		_, err := Parse(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error %v, want one naming %q", tc.text, err, tc.want)
		}
	}
	for _, text := range []string{"1,2,3,5,6,0,7,8,4", "1,2,3,4,5,6,7,8,0", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15"} {
		if p, err := Parse(text); err != nil || p.String() != text {
			t.Errorf("Parse(%q) = %v, %v", text, p, err)
		}
	}
	if p := mustParse(t, " 1, 2,3,5,6,0,7,8,4 "); p.String() != "1,2,3,5,6,0,7,8,4" {
		t.Errorf("spaces: %v", p)
	}
}

func TestParseMove(t *testing.T) {
	p := mustParse(t, "1,2,3,5,6,0,7,8,4") // blank on the right of the middle row
	for _, tc := range []struct{ text, want string }{
		{"R", "edge"}, {"right", "edge"}, {"1", "not next to the blank"}, {"9", "tile number 1–8"},
		{"0", "tile number"}, {"x", "blank's direction"}, {"", "blank's direction"},
	} {
		if _, err := p.ParseMove(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMove(%q) error %v, want %q", tc.text, err, tc.want)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"u", "U"}, {"Down", "D"}, {"L", "L"}, {"3", "U"}, {"4", "D"}, {"6", "L"},
	} {
		if m, err := p.ParseMove(tc.text); err != nil || p.FormatMove(m) != tc.want {
			t.Errorf("ParseMove(%q) = %v, %v; want %s", tc.text, m, err, tc.want)
		}
	}
	if _, err := Goal(3).ParseMove("U"); err == nil || !strings.Contains(err.Error(), "solved") {
		t.Errorf("ParseMove on the goal: %v", err)
	}
	if got := FormatMoves([]engine.Move{Right, Up, Left, Down}); got != "RULD" {
		t.Errorf("FormatMoves = %q", got)
	}
}

// TestSolveByTiles plays a solution by tile numbers: the blank goes right
// twice.
func TestSolveByTiles(t *testing.T) {
	p := mustParse(t, "1,2,3,4,5,6,0,7,8")
	for _, tile := range []string{"7", "8"} {
		m, err := p.ParseMove(tile)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	if !p.Terminal() || p.Result(engine.X) != engine.Win || p.Score(engine.X) != 0 || p.PliesLeft() != 0 || len(p.Moves(nil)) != 0 {
		t.Fatalf("after 7, 8: %v terminal %v", p, p.Terminal())
	}
	if got := FormatMoves(p.moves); got != "RR" {
		t.Errorf("moves %q, want RR", got)
	}
}

func BenchmarkPlayUndo(b *testing.B) {
	p := mustParse(b, "14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3")
	moves := p.Moves(nil)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.Play(moves[i%len(moves)])
		p.Undo()
	}
}
