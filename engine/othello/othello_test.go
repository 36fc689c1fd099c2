package othello

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/internal/racetest"
)

func mustParse(t testing.TB, text string) *Position {
	t.Helper()
	p, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustMove(t testing.TB, p *Position, text string) engine.Move {
	t.Helper()
	m, err := p.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkAgainstRef compares every observable of p with the reference game.
func checkAgainstRef(t *testing.T, p *Position, g *refGame) {
	t.Helper()
	where := p.String()
	if want := g.text(); where != want {
		t.Fatalf("position %q, reference %q", where, want)
	}
	x, o := g.count('x'), g.count('o')
	if p.Count(engine.X) != x || p.Count(engine.O) != o {
		t.Fatalf("%s: %d x and %d o discs, reference %d and %d", where, p.Count(engine.X), p.Count(engine.O), x, o)
	}
	if p.Score(engine.X) != x-o || p.Score(engine.O) != o-x {
		t.Fatalf("%s: score x %d o %d, reference x %d", where, p.Score(engine.X), p.Score(engine.O), x-o)
	}
	if p.Terminal() != g.over() {
		t.Fatalf("%s: terminal %v, reference %v", where, p.Terminal(), g.over())
	}
	want := engine.Ongoing
	switch {
	case !g.over():
	case x > o:
		want = engine.Win
	case x < o:
		want = engine.Loss
	default:
		want = engine.Draw
	}
	if p.Result(engine.X) != want {
		t.Fatalf("%s: result for x %v, reference %v", where, p.Result(engine.X), want)
	}
	var moves []string
	for _, m := range p.Moves(make([]engine.Move, 0, engine.MaxMoves)) {
		moves = append(moves, p.FormatMove(m))
		if !p.Legal(m) {
			t.Fatalf("%s: move %s listed but not legal", where, p.FormatMove(m))
		}
		if m != Pass {
			var want uint64
			for _, f := range g.flips(g.toMove, int(m/8), int(m%8)) {
				want |= 1 << (8*f[0] + f[1])
			}
			if got := p.FlipsOf(m); got != want {
				t.Fatalf("%s: %s flips %v, reference %v", where, p.FormatMove(m), cells(got), cells(want))
			}
		}
	}
	if got, want := strings.Join(moves, " "), strings.Join(g.moves(), " "); got != want {
		t.Fatalf("%s: moves %q, reference %q", where, got, want)
	}
	if p.Legal(Pass) != (want == engine.Ongoing && len(g.placements(g.toMove)) == 0) {
		t.Fatalf("%s: Legal(pass) %v", where, p.Legal(Pass))
	}
}

// cells lists the cells of a bitboard.
func cells(b uint64) []engine.Move {
	var out []engine.Move
	for c := range engine.Move(Cells) {
		if b>>c&1 == 1 {
			out = append(out, c)
		}
	}
	return out
}

// TestRandomGamesMatchReference plays random games with the bitboard
// engine and the naive reference side by side, comparing them after every
// move; before each move it checks that Play then Undo restores
// everything, and it collects the hash of every position seen to check
// that equal positions hash equal and different ones differently. After
// each game it checks that PliesLeft never undercounted the moves that
// followed, and that undoing every move gives back the start. The games
// must pass, and end in wins, losses and draws.
func TestRandomGamesMatchReference(t *testing.T) {
	games := 3000
	switch {
	case racetest.Short(t, "60 random games, not 300"):
		games = 60
	case testing.Short():
		games = 300
	}
	rng := rand.New(rand.NewPCG(1, 2))
	hashes := make(map[string]uint64)
	texts := make(map[uint64]string)
	outcomes := make(map[engine.Result]int)
	passes := 0
	buf := make([]engine.Move, 0, engine.MaxMoves)
	for range games {
		p, g := New(), newRef()
		var left []int // PliesLeft before each move
		for {
			checkAgainstRef(t, p, g)
			where := p.String()
			if h, ok := hashes[where]; ok && h != p.Hash() {
				t.Fatalf("%s: hash %x, earlier %x for the same position", where, p.Hash(), h)
			}
			if other, ok := texts[p.Hash()]; ok && other != where {
				t.Fatalf("hash %x shared by %q and %q", p.Hash(), where, other)
			}
			hashes[where], texts[p.Hash()] = p.Hash(), where
			if p.Terminal() {
				if p.PliesLeft() != 0 {
					t.Fatalf("%s: over, yet %d plies left", where, p.PliesLeft())
				}
				break
			}
			left = append(left, p.PliesLeft())
			moves := p.Moves(buf)
			before := p.state
			try := moves[rng.IntN(len(moves))]
			p.Play(try)
			p.Undo()
			if p.state != before {
				t.Fatalf("%s: play %s then undo left %+v, want %+v", where, p.FormatMove(try), p.state, before)
			}
			m := moves[rng.IntN(len(moves))]
			if m == Pass {
				passes++
			}
			g.play(p.FormatMove(m))
			p.Play(m)
		}
		for i, l := range left {
			if played := len(left) - i; l < played {
				t.Fatalf("game %d moves long: %d plies left at move %d, but %d followed", len(left), l, i+1, played)
			}
		}
		outcomes[p.Result(engine.X)]++
		for range left {
			p.Undo()
		}
		if p.String() != StartText || p.state != New().state {
			t.Fatalf("undoing every move gave %v, want the start", p)
		}
	}
	for _, r := range []engine.Result{engine.Win, engine.Loss, engine.Draw} {
		if outcomes[r] == 0 {
			t.Errorf("no random game ended in a %v for x: %v", r, outcomes)
		}
	}
	if passes == 0 {
		t.Error("no random game passed")
	}
}

// published are the perft counts from the start, a pass counted as a move
// and a finished game as one leaf (Aart Bik's table, OEIS A124004).
var published = []uint64{1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284}

// TestPerft checks engine.Perft and Position.Perft from the start against
// the published counts: to depth 8 with -short, 10 without.
func TestPerft(t *testing.T) {
	maxDepth := len(published) - 1
	if testing.Short() {
		maxDepth = 8
	}
	p := New()
	for depth := 0; depth <= maxDepth; depth++ {
		if got := engine.Perft(p, depth, nil); got != published[depth] {
			t.Errorf("perft %d = %d, want %d", depth, got, published[depth])
		}
		if got := p.Perft(depth); got != published[depth] {
			t.Errorf("Position.Perft(%d) = %d, want %d", depth, got, published[depth])
		}
	}
	if p.String() != StartText {
		t.Errorf("perft left %v", p)
	}
	refDepth := 5
	if !testing.Short() {
		refDepth = 6
	}
	if got := newRef().perft(refDepth); got != published[refDepth] {
		t.Errorf("reference perft %d = %d, want %d", refDepth, got, published[refDepth])
	}
}

// TestPerftMatchesReferenceMidgame compares perft 3 with the reference
// from random positions read back from their texts, passes and endgames
// included.
func TestPerftMatchesReferenceMidgame(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	positions := 60
	if testing.Short() {
		positions = 15
	}
	buf := make([]engine.Move, 0, engine.MaxMoves)
	for range positions {
		p, g := New(), newRef()
		for plies := rng.IntN(64); plies > 0 && !p.Terminal(); plies-- {
			moves := p.Moves(buf)
			m := moves[rng.IntN(len(moves))]
			g.play(p.FormatMove(m))
			p.Play(m)
		}
		q := mustParse(t, p.String())
		want := g.perft(3)
		if got := engine.Perft(q, 3, nil); got != want {
			t.Errorf("%v: perft 3 = %d, reference %d", q, got, want)
		}
		if got := q.Perft(3); got != want {
			t.Errorf("%v: Position.Perft(3) = %d, reference %d", q, got, want)
		}
	}
}

// TestShortestGame checks the shortest games: no game ends before move 9,
// and f5 d6 c5 f4 e3 f6 g5 e6 e7 wipes White out after 9 moves, 13–0,
// with the reference agreeing.
func TestShortestGame(t *testing.T) {
	p := New()
	ended := 0
	engine.Perft(p, 8, func(q engine.Position) {
		if q.Terminal() {
			ended++
		}
	})
	if ended != 0 {
		t.Errorf("%d games end within 8 moves, want none", ended)
	}
	const line = "f5d6c5f4e3f6g5e6e7"
	q := mustParse(t, line)
	g := newRef()
	for i := 0; i < len(line); i += 2 {
		g.play(line[i : i+2])
	}
	checkAgainstRef(t, q, g)
	if !q.Terminal() || q.Count(engine.X) != 13 || q.Count(engine.O) != 0 || q.Result(engine.X) != engine.Win ||
		q.Score(engine.X) != 13 || q.Score(engine.O) != -13 || len(q.Moves(nil)) != 0 {
		t.Errorf("%s: terminal %v, %d–%d, result %v, score %d: want a 13–0 wipe-out won by x",
			line, q.Terminal(), q.Count(engine.X), q.Count(engine.O), q.Result(engine.X), q.Score(engine.X))
	}
	if _, err := q.ParseMove("a1"); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("a move after the wipe-out: %v, want an error saying the game is over", err)
	}
}

// mustPass is a position where Black has no move and White has.
const mustPass = "..xxxx.o/o.xxxxxo/ooxxxxxo/oooooxx./ooxoxxx./oooxxxx./ooxxxx../o.xxxx.. x"

// TestPass checks a pass: the one legal move of a side without another,
// refused while a square flips something, written "pass", and undone.
func TestPass(t *testing.T) {
	p := mustParse(t, mustPass)
	if got := p.Moves(nil); len(got) != 1 || got[0] != Pass || !p.Legal(Pass) || p.Terminal() {
		t.Fatalf("%v: moves %v, Legal(pass) %v, terminal %v; want pass alone", p, got, p.Legal(Pass), p.Terminal())
	}
	if _, err := p.ParseMove("b1"); err == nil || !strings.Contains(err.Error(), "must pass") {
		t.Errorf("ParseMove(b1) with no move: %v, want an error saying x must pass", err)
	}
	if _, err := p.ParseMove("c1"); err == nil || !strings.Contains(err.Error(), "taken") {
		t.Errorf("ParseMove(c1): %v, want an error saying the square is taken", err)
	}
	m := mustMove(t, p, " PASS ")
	if p.FormatMove(m) != "pass" || p.PliesLeft() != 2*12 {
		t.Errorf("pass formats as %q; %d plies left, want 24 (12 empty squares)", p.FormatMove(m), p.PliesLeft())
	}
	h := p.Hash()
	p.Play(m)
	if p.SideToMove() != engine.O || p.Legal(Pass) || len(p.Moves(nil)) == 0 || p.Hash() == h {
		t.Errorf("after the pass: %v, Legal(pass) %v, hash unchanged %v; want o to move with squares to play", p, p.Legal(Pass), p.Hash() == h)
	}
	if _, err := p.ParseMove("pass"); err == nil || !strings.Contains(err.Error(), "only when it has no move") {
		t.Errorf("a pass with moves: %v", err)
	}
	p.Undo()
	if p.String() != mustPass || p.Hash() != h {
		t.Errorf("undoing the pass gave %v", p)
	}
	if Pass >= engine.MaxMoves || p.Legal(Pass+1) || p.Legal(engine.NoMove) {
		t.Error("moves past Pass are legal")
	}
}

// TestTerminalWithEmptySquares checks a game that ends with empty squares
// because neither side can move.
func TestTerminalWithEmptySquares(t *testing.T) {
	// Row 1: white a1, black b1–g1 and h1 empty would let white move; here
	// every black disc is walled in by edges and black discs only.
	p := mustParse(t, "xxxxxxx./xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxx. o")
	if !p.Terminal() || p.Result(engine.X) != engine.Win || p.Score(engine.X) != 62 || p.PliesLeft() != 0 || len(p.Moves(nil)) != 0 {
		t.Errorf("%v: terminal %v, result %v, score %d, %d plies left; want a finished 62–0 game", p, p.Terminal(), p.Result(engine.X), p.Score(engine.X), p.PliesLeft())
	}
	d := mustParse(t, "oooooooo/oooooooo/oooooooo/oooooooo/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx x")
	if !d.Terminal() || d.Result(engine.O) != engine.Draw || d.Score(engine.O) != 0 {
		t.Errorf("%v: full board 32–32: terminal %v, result %v", d, d.Terminal(), d.Result(engine.O))
	}
}

func TestParseRoundTrip(t *testing.T) {
	for _, text := range []string{
		StartText,
		mustPass,
		"......../......../......../...ox.../...xo.../......../......../........ o",
		"xxxxxxx./xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxx. o",
	} {
		if p := mustParse(t, text); p.String() != text {
			t.Errorf("Parse(%q).String() = %q", text, p)
		}
	}
	if p := mustParse(t, StartText); p.state != New().state {
		t.Errorf("Parse(StartText) = %+v, New() = %+v", p.state, New().state)
	}
	if p := mustParse(t, ""); p.String() != StartText {
		t.Errorf("Parse(\"\") = %v, want the start", p)
	}
}

// TestParseLine reads move lines: the community's notation, either case,
// spaces, and passes written or implied.
func TestParseLine(t *testing.T) {
	p := mustParse(t, "f5d6c3d3c4")
	// f5 flips e5, d6 d5, c3 d4, d3 d4 back, c4 d4 again.
	want := "......../......../..xo..../..xxx.../...oxx../...o..../......../........ o"
	if p.String() != want {
		t.Errorf("f5d6c3d3c4 gives %q, want %q", p, want)
	}
	if q := mustParse(t, " F5 d6 C3d3 c4 "); q.String() != want {
		t.Errorf("the line with spaces and capitals gives %q", q)
	}
	for range 5 {
		p.Undo()
	}
	if p.String() != StartText {
		t.Errorf("undoing the line's five moves gives %v", p)
	}
	// A line through a pass reads alike with the pass written or not.
	rng := rand.New(rand.NewPCG(5, 6))
	for tries := 0; ; tries++ {
		q := New()
		var written, implied []string
		for !q.Terminal() {
			moves := q.Moves(nil)
			m := moves[rng.IntN(len(moves))]
			written = append(written, q.FormatMove(m))
			if m != Pass {
				implied = append(implied, q.FormatMove(m))
			}
			q.Play(m)
		}
		if len(written) == len(implied) {
			if tries > 1000 {
				t.Fatal("no random game with a pass in 1000")
			}
			continue
		}
		a, b := mustParse(t, strings.Join(written, " ")), mustParse(t, strings.Join(implied, ""))
		if a.String() != q.String() || b.String() != q.String() || !b.Terminal() {
			t.Errorf("a game with passes: read back as %v written, %v implied; played %v", a, b, q)
		}
		break
	}
}

func TestParseRejectsMalformed(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{StartText + " extra", "want 2 fields"},
		{"......../......../...ox.../...xo.../......../......../........ x", "7 rows"},
		{"......../......../......../...ox.../...xo.../......../......../......... x", "row 8 has 9 characters"},
		{"......../......../...z..../...ox.../...xo.../......../......../........ x", "square d3 holds 'z'"},
		{"......../......../......../...oX.../...xo.../......../......../........ x", "square e4"},
		{"......../......../......../...o..../...xo.../......../......../........ x", "centre square e4 is empty"},
		{"......../......../......../...ox.../...xo.../......../......../........ b", "side to move"},
		{"f5f5", `move 2 ("f5"): the square is taken`},
		{"f5e6", `move 2 ("e6"): it flips nothing`},
		{"f5 pass", "move 2 (\"pass\"): a side may pass only when it has no move"},
		{"f5 z9", "want a column a–h and a row 1–8"},
		{"f5d6c5f4e3f6g5e6e7a1", "move 10 (\"a1\"): the game is over"},
		{"f", "want a column"},
	} {
		_, err := Parse(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error %v, want one naming %q", tc.text, err, tc.want)
		}
	}
	p := New()
	if err := p.PlayLine("f5 d6 zz"); err == nil || !strings.Contains(err.Error(), `othello: line "f5 d6 zz": move 3`) {
		t.Errorf("PlayLine error %v", err)
	}
	if p.String() != mustParse(t, "f5d6").String() {
		t.Errorf("PlayLine stopped at %v, want the moves before the bad one played", p)
	}
}

func TestParseMove(t *testing.T) {
	p := New()
	for _, tc := range []struct{ text, want string }{
		{"d4", "taken"},
		{"a1", "flips nothing"},
		{"i1", "want a column"},
		{"a9", "want a column"},
		{"a0", "want a column"},
		{"", "want a column"},
		{"f55", "want a column"},
		{"pass", "only when it has no move"},
	} {
		if m, err := p.ParseMove(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) || m != engine.NoMove {
			t.Errorf("ParseMove(%q) = %d, error %v, want %q", tc.text, m, err, tc.want)
		}
	}
	// Rows count from the top: f5 is column f, the fifth row down.
	m := mustMove(t, p, " F5 ")
	if m != 5+8*4 || p.FormatMove(m) != "f5" || CellName(m) != "f5" {
		t.Errorf("ParseMove(F5) = %d (%s)", m, p.FormatMove(m))
	}
	var first []string
	for _, m := range p.Moves(nil) {
		first = append(first, p.FormatMove(m))
	}
	if got := strings.Join(first, " "); got != "d3 c4 f5 e6" {
		t.Errorf("Black's first moves are %s, want d3 c4 f5 e6", got)
	}
	p.Play(m)
	if got := cells(p.Bitboard(engine.X)); len(got) != 4 || p.Count(engine.O) != 1 {
		t.Errorf("after f5: %v", p)
	}
	if _, err := ParseCell("j1"); err == nil || !strings.HasPrefix(err.Error(), "othello: square") {
		t.Errorf("ParseCell(j1): %v", err)
	}
}
