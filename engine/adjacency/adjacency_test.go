package adjacency

import (
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/internal/racetest"
)

func mustNew(t testing.TB, rounds int, first engine.Side) *Position {
	t.Helper()
	p, err := New(rounds, first)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func refResult(r engine.Result) string {
	if r == engine.Ongoing {
		return "ongoing"
	}
	return r.String()
}

// checkAgainstRef compares every observable of p with the reference game.
func checkAgainstRef(t *testing.T, p *Position, g *refGame, where string) {
	t.Helper()
	if got, want := p.String(), g.text(); got != want {
		t.Fatalf("%s: position %q, reference %q", where, got, want)
	}
	if got, want := p.Count(engine.X), g.count('x'); got != want {
		t.Fatalf("%s: %d x marks, reference %d", where, got, want)
	}
	if got, want := p.Count(engine.O), g.count('o'); got != want {
		t.Fatalf("%s: %d o marks, reference %d", where, got, want)
	}
	if got, want := p.Score(engine.X), g.count('x')-g.count('o'); got != want || p.Score(engine.O) != -want {
		t.Fatalf("%s: score x %d o %d, reference x %d", where, got, p.Score(engine.O), want)
	}
	if got, want := p.Terminal(), g.left == 0; got != want {
		t.Fatalf("%s: terminal %v, reference %v", where, got, want)
	}
	if got, want := refResult(p.Result(engine.X)), g.result(); got != want {
		t.Fatalf("%s: result for x %s, reference %s", where, got, want)
	}
	var moves []string
	for _, m := range p.Moves(make([]engine.Move, 0, engine.MaxMoves)) {
		moves = append(moves, p.FormatMove(m))
	}
	if got, want := strings.Join(moves, " "), strings.Join(g.moves(), " "); got != want {
		t.Fatalf("%s: moves %q, reference %q", where, got, want)
	}
}

func randomGames(t *testing.T) int {
	switch {
	case racetest.Short(t, "200 random games, not 1,000"):
		return 200
	case testing.Short():
		return 1000
	}
	return 10000
}

// TestRandomGamesMatchReference plays random games of random length and
// first side with the bitboard engine and the naive reference side by
// side, comparing them after every move; before each move it also checks
// that Play then Undo restores everything, and it collects the hash of
// every position seen to check that equal positions hash equal and
// different ones differently.
func TestRandomGamesMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	hashes := make(map[string]uint64)
	texts := make(map[uint64]string)
	buf := make([]engine.Move, 0, engine.MaxMoves)
	for game := range randomGames(t) {
		rounds := MinRounds + rng.IntN(MaxRounds-MinRounds+1)
		first := engine.Side(rng.IntN(2))
		p := mustNew(t, rounds, first)
		g := newRef(rounds, first.String()[0])
		start := *p
		for ply := 0; ; ply++ {
			where := p.String()
			checkAgainstRef(t, p, g, where)
			if h, ok := hashes[where]; ok && h != p.Hash() {
				t.Fatalf("%s: hash %x, earlier %x for the same position", where, p.Hash(), h)
			}
			if other, ok := texts[p.Hash()]; ok && other != where {
				t.Fatalf("hash %x shared by %q and %q", p.Hash(), where, other)
			}
			hashes[where], texts[p.Hash()] = p.Hash(), where
			if p.Terminal() {
				break
			}
			moves := p.Moves(buf)
			before := p.Board
			try := moves[rng.IntN(len(moves))]
			p.Play(try)
			p.Undo()
			if p.Board != before {
				t.Fatalf("%s: play %s then undo left %+v, want %+v", where, p.FormatMove(try), p.Board, before)
			}
			m := moves[rng.IntN(len(moves))]
			g.play(p.FormatMove(m))
			p.Play(m)
		}
		for range 2 * rounds {
			p.Undo()
		}
		if p.Board != start.Board {
			t.Fatalf("game %d: undoing every move gave %v, want the start %v", game, p, &start)
		}
	}
}

// TestTranspositionsHashEqual reaches one position by two move orders.
func TestTranspositionsHashEqual(t *testing.T) {
	a, b := mustNew(t, 28, engine.X), mustNew(t, 28, engine.X)
	for _, m := range []string{"d4", "e5", "c3", "f6"} {
		a.Play(mustMove(t, a, m))
	}
	for _, m := range []string{"c3", "f6", "d4", "e5"} {
		b.Play(mustMove(t, b, m))
	}
	if a.String() != b.String() || a.Hash() != b.Hash() {
		t.Fatalf("%v (hash %x) and %v (hash %x): want equal positions and hashes", a, a.Hash(), b, b.Hash())
	}
	c := mustNew(t, 27, engine.X)
	for _, m := range []string{"d4", "e5", "c3", "f6"} {
		c.Play(mustMove(t, c, m))
	}
	if c.Hash() == a.Hash() {
		t.Fatalf("%v and %v differ in plies left but hash equal", a, c)
	}
}

func mustMove(t testing.TB, p *Position, text string) engine.Move {
	t.Helper()
	m, err := p.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// perftSums runs the generic engine.Perft with a leaf callback that sums
// the marks, and checks that Board.Perft's bulk counting agrees.
func perftSums(t testing.TB, p *Position, depth int) (leaves, sumX, sumO uint64) {
	t.Helper()
	before := p.String()
	leaves = engine.Perft(p, depth, func(q engine.Position) {
		a := q.(*Position)
		sumX += uint64(a.Count(engine.X))
		sumO += uint64(a.Count(engine.O))
	})
	if p.String() != before {
		t.Fatalf("perft changed the position from %q to %q", before, p)
	}
	if fast := p.Board.Perft(depth); fast != (PerftCounts{leaves, sumX, sumO}) {
		t.Fatalf("%v: Board.Perft(%d) = %+v, engine.Perft gives %d, %d, %d", p, depth, fast, leaves, sumX, sumO)
	}
	return leaves, sumX, sumO
}

// TestPerftStart pins the perft counts and mark sums from the start of a
// 28-round game with X to move. Depths 1–3 are the known values;
// depths 4 and 5 were computed with the naive reference (refGame.perft),
// and depth 4 is recomputed by it here unless -short.
func TestPerftStart(t *testing.T) {
	want := []struct{ leaves, sumX, sumO uint64 }{
		{1, 4, 4},
		{56, 284, 220},
		{3080, 15206, 15594},
		{166320, 1010184, 819336},
		{8814960, 51804540, 53974980},
		{458377920, 3244772640, 2714140320},
	}
	maxDepth := len(want) - 1
	switch {
	case racetest.Short(t, "perft to depth 3, not 4"):
		maxDepth = 3
	case testing.Short():
		maxDepth = 4
	}
	p := mustNew(t, 28, engine.X)
	for depth := 0; depth <= maxDepth; depth++ {
		l, x, o := perftSums(t, p, depth)
		if w := want[depth]; l != w.leaves || x != w.sumX || o != w.sumO {
			t.Errorf("perft %d: %d leaves, sum x %d, sum o %d; want %d, %d, %d", depth, l, x, o, w.leaves, w.sumX, w.sumO)
		}
	}
	if !testing.Short() {
		l, x, o := newRef(28, 'x').perft(4)
		if w := want[4]; l != w.leaves || x != w.sumX || o != w.sumO {
			t.Errorf("reference perft 4: %d, %d, %d; want %d, %d, %d", l, x, o, w.leaves, w.sumX, w.sumO)
		}
	}
}

// TestPerftMatchesReferenceMidgame compares perft counts and sums with the
// reference from random midgame and endgame positions, both sides first
// and short games included.
func TestPerftMatchesReferenceMidgame(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	positions := 30
	switch {
	case racetest.Short(t, "3 positions, not 8"):
		positions = 3
	case testing.Short():
		positions = 8
	}
	buf := make([]engine.Move, 0, engine.MaxMoves)
	for range positions {
		rounds := MinRounds + rng.IntN(MaxRounds-MinRounds+1)
		first := engine.Side(rng.IntN(2))
		p := mustNew(t, rounds, first)
		g := newRef(rounds, first.String()[0])
		for plies := rng.IntN(2*rounds + 1); plies > 0; plies-- {
			moves := p.Moves(buf)
			m := moves[rng.IntN(len(moves))]
			g.play(p.FormatMove(m))
			p.Play(m)
		}
		q, err := Parse(p.String()) // a parsed position perfts alike
		if err != nil {
			t.Fatal(err)
		}
		l, x, o := perftSums(t, q, 3)
		rl, rx, ro := g.perft(3)
		if l != rl || x != rx || o != ro {
			t.Errorf("%v: perft 3 gives %d, %d, %d; reference %d, %d, %d", p, l, x, o, rl, rx, ro)
		}
	}
}

func TestParseRoundTrip(t *testing.T) {
	for _, text := range []string{
		StartText,
		"......oo/......oo/......../......../......../......../xx....../xx...... o 4",
		"xxxxxxxx/oooooooo/xoxoxoxo/......../......../......../......../........ x 0",
		"oooooooo/oooooooo/oooooooo/oooooooo/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxx. o 1",
	} {
		p, err := Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q): %v", text, err)
		}
		if p.String() != text {
			t.Errorf("Parse(%q).String() = %q", text, p)
		}
	}
	p, err := Parse(StartText)
	if err != nil {
		t.Fatal(err)
	}
	if s := mustNew(t, 28, engine.X); p.Board != s.Board {
		t.Errorf("Parse(StartText) = %+v, New(28, X) = %+v", p.Board, s.Board)
	}
}

func TestParseRejectsMalformed(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "want 3 fields"},
		{StartText + " extra", "want 3 fields"},
		{"......oo/......oo/......../......../......../......../xx...... x 56", "7 ranks"},
		{"......oo/......oo/......../......../......../......../xx....../xx....... x 56", "rank 1 has 9 characters"},
		{"......oo/......oo/......../......../......../......../xx....../xx..... x 56", "rank 1 has 7 characters"},
		{"......oo/......oo/...z..../......../......../......../xx....../xx...... x 56", "cell d6"},
		{"......oo/......oo/......../......../......../......../xx....../XX...... x 56", "cell a1"},
		{StartText[:len(StartText)-4] + "y 56", "side to move"},
		{StartText[:len(StartText)-2] + "57", "57 plies left but only 56 empty cells"},
		{StartText[:len(StartText)-2] + "-1", "plies left"},
		{StartText[:len(StartText)-2] + "ten", "plies left"},
	} {
		_, err := Parse(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error %v, want one naming %q", tc.text, err, tc.want)
		}
	}
}

func TestNewRejectsBadSetup(t *testing.T) {
	for _, rounds := range []int{-1, 0, 1, 29, 100} {
		if _, err := New(rounds, engine.X); err == nil {
			t.Errorf("New(%d, X) accepted", rounds)
		}
	}
	if _, err := New(10, engine.Side(2)); err == nil {
		t.Error("New(10, Side(2)) accepted")
	}
	p := mustNew(t, 2, engine.O)
	if p.SideToMove() != engine.O || p.PliesLeft() != 4 {
		t.Errorf("New(2, O): side %v, plies left %d", p.SideToMove(), p.PliesLeft())
	}
}

func TestParseMove(t *testing.T) {
	p := mustNew(t, 2, engine.X)
	for _, tc := range []struct{ text, want string }{
		{"a1", "taken"},
		{"i1", "want a file"},
		{"a9", "want a file"},
		{"a", "want a file"},
		{"", "want a file"},
	} {
		if _, err := p.ParseMove(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMove(%q) error %v, want %q", tc.text, err, tc.want)
		}
	}
	if m, err := p.ParseMove(" C3 "); err != nil || CellName(m) != "c3" {
		t.Errorf("ParseMove(\" C3 \") = %v, %v", m, err)
	}
	for _, m := range []string{"c1", "c2", "d1", "d2"} {
		p.Play(mustMove(t, p, m))
	}
	if _, err := p.ParseMove("e5"); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("ParseMove after the end: %v, want an error saying the game is over", err)
	}
	if p.Legal(0) || p.Legal(Cells) || p.Legal(engine.NoMove) {
		t.Error("Legal accepts moves in a finished game or off the board")
	}
}

func TestCapturesAndFlips(t *testing.T) {
	p, err := Parse("......../......../......../...o..../..oxo.../...o..../......../........ x 3")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Captures(mustMove(t, p, "c3")); got != 2 { // c4 and d3
		t.Errorf("Captures(c3) = %d, want 2", got)
	}
	p.Play(mustMove(t, p, "c5")) // flips c4 and d5: orthogonal neighbours only
	if got, want := p.String(), "......../......../......../..xx..../..xxo.../...o..../......../........ o 2"; got != want {
		t.Errorf("after c5: %q, want %q", got, want)
	}
	if got := p.Captures(mustMove(t, p, "e5")); got != 1 { // o to move: d5 only, not the diagonal d4
		t.Errorf("Captures(e5) for o = %d, want 1", got)
	}
}

func TestNeighboursAndDilate(t *testing.T) {
	d4, _ := ParseCell("d4")
	a1, _ := ParseCell("a1")
	h5, _ := ParseCell("h5")
	n, s, e, w := Neighbours(1 << d4)
	for _, tc := range []struct {
		board uint64
		cell  string
	}{{n, "d5"}, {s, "d3"}, {e, "e4"}, {w, "c4"}} {
		c, _ := ParseCell(tc.cell)
		if tc.board != 1<<c {
			t.Errorf("neighbour board %x, want only %s", tc.board, tc.cell)
		}
	}
	// Edges do not wrap: a1 has two neighbours, h5 three.
	if got := bits.OnesCount64(Dilate(1 << a1)); got != 2 {
		t.Errorf("a1 has %d neighbours, want 2", got)
	}
	if got := Dilate(1 << h5); got != neighbours[h5] || bits.OnesCount64(got) != 3 {
		t.Errorf("Dilate(h5) = %x, want the 3 cells g5 h4 h6", got)
	}
}
