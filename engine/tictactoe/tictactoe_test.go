package tictactoe

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
)

// refGame is a deliberately naive Tic-Tac-Toe over a 3×3 array.
type refGame struct {
	grid   [3][3]byte
	toMove byte
}

func newRef(first byte) *refGame {
	return &refGame{grid: [3][3]byte{{'.', '.', '.'}, {'.', '.', '.'}, {'.', '.', '.'}}, toMove: first}
}

func (g *refGame) winner() byte {
	lines := [][3][2]int{
		{{0, 0}, {0, 1}, {0, 2}}, {{1, 0}, {1, 1}, {1, 2}}, {{2, 0}, {2, 1}, {2, 2}},
		{{0, 0}, {1, 0}, {2, 0}}, {{0, 1}, {1, 1}, {2, 1}}, {{0, 2}, {1, 2}, {2, 2}},
		{{0, 0}, {1, 1}, {2, 2}}, {{0, 2}, {1, 1}, {2, 0}},
	}
	for _, l := range lines {
		a := g.grid[l[0][0]][l[0][1]]
		if a != '.' && a == g.grid[l[1][0]][l[1][1]] && a == g.grid[l[2][0]][l[2][1]] {
			return a
		}
	}
	return 0
}

func (g *refGame) full() bool {
	for _, row := range g.grid {
		for _, c := range row {
			if c == '.' {
				return false
			}
		}
	}
	return true
}

func (g *refGame) moves() []int {
	var out []int
	if g.winner() != 0 {
		return out
	}
	for i := range 9 {
		if g.grid[i/3][i%3] == '.' {
			out = append(out, i)
		}
	}
	return out
}

func (g *refGame) play(cell int) {
	g.grid[cell/3][cell%3] = g.toMove
	if g.toMove == 'x' {
		g.toMove = 'o'
	} else {
		g.toMove = 'x'
	}
}

func (g *refGame) text() string {
	var b strings.Builder
	for _, row := range g.grid {
		b.Write(row[:])
	}
	b.WriteByte(' ')
	b.WriteByte(g.toMove)
	return b.String()
}

func (g refGame) perft(depth int) uint64 {
	moves := g.moves()
	if depth == 0 || len(moves) == 0 {
		return 1
	}
	var n uint64
	for _, m := range moves {
		child := g
		child.play(m)
		n += child.perft(depth - 1)
	}
	return n
}

func checkAgainstRef(t *testing.T, p *Position, g *refGame) {
	t.Helper()
	if p.String() != g.text() {
		t.Fatalf("position %q, reference %q", p, g.text())
	}
	want := engine.Ongoing
	switch w := g.winner(); {
	case w == 'x':
		want = engine.Win
	case w == 'o':
		want = engine.Loss
	case g.full():
		want = engine.Draw
	}
	if got := p.Result(engine.X); got != want {
		t.Fatalf("%v: result for x %v, reference %v", p, got, want)
	}
	if p.Terminal() != (want != engine.Ongoing) {
		t.Fatalf("%v: terminal %v with result %v", p, p.Terminal(), want)
	}
	wantScore := map[engine.Result]int{engine.Win: 1, engine.Loss: -1}[want]
	if p.Score(engine.X) != wantScore || p.Score(engine.O) != -wantScore {
		t.Fatalf("%v: score x %d o %d, want x %d", p, p.Score(engine.X), p.Score(engine.O), wantScore)
	}
	var got []int
	for _, m := range p.Moves(make([]engine.Move, 0, engine.MaxMoves)) {
		got = append(got, int(m))
	}
	if ref := g.moves(); !slices.Equal(got, ref) {
		t.Fatalf("%v: moves %v, reference %v", p, got, ref)
	}
}

// TestEveryReachablePosition walks the whole game tree from both first
// sides, comparing each position with the reference, checking that Play
// then Undo restores it, and that the 64-bit hashes of distinct positions
// differ while transpositions share theirs.
func TestEveryReachablePosition(t *testing.T) {
	hashes := make(map[string]uint64)
	texts := make(map[uint64]string)
	var walk func(p *Position, g *refGame)
	walk = func(p *Position, g *refGame) {
		checkAgainstRef(t, p, g)
		text := p.String()
		if h, ok := hashes[text]; ok {
			if h != p.Hash() {
				t.Fatalf("%s: hash %x, earlier %x", text, p.Hash(), h)
			}
			return // a transposition: its subtree is done
		}
		if other, ok := texts[p.Hash()]; ok {
			t.Fatalf("hash %x shared by %q and %q", p.Hash(), text, other)
		}
		hashes[text], texts[p.Hash()] = p.Hash(), text
		for _, m := range p.Moves(nil) {
			child := *g
			child.play(int(m))
			before := *p
			p.Play(m)
			walk(p, &child)
			p.Undo()
			if !sameState(p, &before) {
				t.Fatalf("%v: play %d then undo changed the position", &before, m+1)
			}
		}
	}
	walk(New(), newRef('x'))
	walk(mustParse(t, "......... o"), newRef('o'))
	// 5,478 positions are reachable with x first (a well-known count), as
	// many with o first, and the two sets differ in who is to move.
	if len(hashes) != 2*5478 {
		t.Errorf("%d distinct positions, want %d", len(hashes), 2*5478)
	}
}

// sameState compares everything but the history of moves played.
func sameState(p, q *Position) bool {
	return p.marks == q.marks && p.stm == q.stm && p.hash == q.hash && p.n == q.n
}

func mustParse(t testing.TB, text string) *Position {
	t.Helper()
	p, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRandomGamesMatchReference(t *testing.T) {
	games := 10000
	if testing.Short() {
		games = 1000
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for range games {
		first := engine.Side(rng.IntN(2))
		p, g := mustParse(t, "......... "+first.String()), newRef(first.String()[0])
		start := *p
		for !p.Terminal() {
			checkAgainstRef(t, p, g)
			moves := p.Moves(nil)
			m := moves[rng.IntN(len(moves))]
			p.Play(m)
			g.play(int(m))
		}
		checkAgainstRef(t, p, g)
		q := mustParse(t, p.String())
		if q.marks != p.marks || q.hash != p.hash || q.stm != p.stm {
			t.Fatalf("Parse(%q) differs from the game that wrote it", p)
		}
		for p.n > 0 {
			p.Undo()
		}
		if !sameState(p, &start) {
			t.Fatalf("undoing the whole game gave %v, want %v", p, &start)
		}
	}
}

// TestPerft: from the empty board, the well-known counts of games ending
// at move 5 (1,440), 6 (5,328), 7 (47,952), 8 (72,576) and 9 give every
// depth: perft 6 = 1,440 + (15,120 − 1,440)·4, and so on to the 255,168
// possible games; the reference recomputes each.
func TestPerft(t *testing.T) {
	want := []uint64{1, 9, 72, 504, 3024, 15120, 56160, 154944, 255168, 255168}
	for depth, w := range want {
		if got := engine.Perft(New(), depth, nil); got != w {
			t.Errorf("perft %d = %d, want %d", depth, got, w)
		}
		if got := newRef('x').perft(depth); got != w {
			t.Errorf("reference perft %d = %d, want %d", depth, got, w)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "want 2 fields"},
		{"......... x x", "want 2 fields"},
		{"........ x", "8 cells"},
		{".......... x", "10 cells"},
		{"....X.... o", "cell 5"},
		{"....z.... o", "cell 5"},
		{"......... y", "side to move"},
		{"xx....... x", "x to move with 2 marks against 0"},
		{"x........ x", "x to move with 1 marks against 0"},
		{"xxxoo.o.. x", "x has a line but is to move"},
		{"xxxooo... o", "has a line but is to move"},
	} {
		_, err := Parse(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error %v, want one naming %q", tc.text, err, tc.want)
		}
	}
	for _, text := range []string{StartText, "......... o", "x...o.... x", "xxx.oo... o", "xo.xo.x.. o"} {
		if p, err := Parse(text); err != nil || p.String() != text {
			t.Errorf("Parse(%q) = %v, %v", text, p, err)
		}
	}
}

func TestParseMove(t *testing.T) {
	p := mustParse(t, "x...o.... x")
	for _, tc := range []struct{ text, want string }{
		{"1", "taken"}, {"5", "taken"}, {"0", "want a cell"}, {"10", "want a cell"}, {"a", "want a cell"},
	} {
		if _, err := p.ParseMove(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMove(%q) error %v, want %q", tc.text, err, tc.want)
		}
	}
	if m, err := p.ParseMove("9"); err != nil || p.FormatMove(m) != "9" {
		t.Errorf("ParseMove(9) = %v, %v", m, err)
	}
	if _, err := mustParse(t, "xxx.oo... o").ParseMove("4"); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("ParseMove in a won game: %v", err)
	}
}

func BenchmarkPlayUndo(b *testing.B) {
	p := New()
	moves := p.Moves(nil)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.Play(moves[i%len(moves)])
		p.Undo()
	}
}

func BenchmarkMoves(b *testing.B) {
	p := mustParse(b, "x...o.... x")
	buf := make([]engine.Move, 0, engine.MaxMoves)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.Moves(buf)
	}
}
