package connect4

import (
	"bufio"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/internal/racetest"
)

// refGame is a deliberately naive Connect Four over a 2-D array, written
// from the rules, against which the bitboard engine is checked.
// grid[row][col] holds 'x', 'o' or '.', row 0 at the bottom.
type refGame struct {
	grid   [Height][Width]byte
	played int
	winner byte // 'x', 'o', or 0 while nobody has four in a row
}

func newRef() *refGame {
	g := &refGame{}
	for r := range Height {
		for c := range Width {
			g.grid[r][c] = '.'
		}
	}
	return g
}

func (g *refGame) over() bool { return g.winner != 0 || g.played == Cells }

func (g *refGame) moves() []int {
	var out []int
	for c := range Width {
		if !g.over() && g.grid[Height-1][c] == '.' {
			out = append(out, c)
		}
	}
	return out
}

func (g *refGame) play(col int) {
	me := byte('x')
	if g.played%2 == 1 {
		me = 'o'
	}
	row := 0
	for g.grid[row][col] != '.' {
		row++
	}
	g.grid[row][col] = me
	g.played++
	// Count the run through (row, col) in each of the four directions.
	for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		run := 1
		for _, sign := range []int{1, -1} {
			r, c := row+sign*d[0], col+sign*d[1]
			for r >= 0 && r < Height && c >= 0 && c < Width && g.grid[r][c] == me {
				run++
				r, c = r+sign*d[0], c+sign*d[1]
			}
		}
		if run >= 4 {
			g.winner = me
		}
	}
}

// scoreX is the final score for x in Pons' convention.
func (g *refGame) scoreX() int {
	switch g.winner {
	case 'x':
		return (44 - g.played) / 2
	case 'o':
		return -(44 - g.played) / 2
	}
	return 0
}

func (g refGame) perft(depth int) uint64 {
	if depth == 0 || g.over() {
		return 1
	}
	var n uint64
	for _, c := range g.moves() {
		child := g
		child.play(c)
		n += child.perft(depth - 1)
	}
	return n
}

func checkAgainstRef(t *testing.T, p *Position, g *refGame) {
	t.Helper()
	for r := range Height {
		for c := range Width {
			want := g.grid[r][c]
			s, ok := p.At(c, r)
			got := byte('.')
			if ok {
				got = s.String()[0]
			}
			if got != want {
				t.Fatalf("%v: column %d row %d holds %c, reference %c", p, c+1, r, got, want)
			}
		}
	}
	if p.Terminal() != g.over() {
		t.Fatalf("%v: terminal %v, reference %v", p, p.Terminal(), g.over())
	}
	if got, want := p.Score(engine.X), g.scoreX(); got != want || p.Score(engine.O) != -want {
		t.Fatalf("%v: score x %d o %d, reference x %d", p, got, p.Score(engine.O), want)
	}
	wantResult := engine.Ongoing
	switch {
	case g.winner == 'x':
		wantResult = engine.Win
	case g.winner == 'o':
		wantResult = engine.Loss
	case g.over():
		wantResult = engine.Draw
	}
	if got := p.Result(engine.X); got != wantResult {
		t.Fatalf("%v: result for x %v, reference %v", p, got, wantResult)
	}
	var got []int
	for _, m := range p.Moves(make([]engine.Move, 0, engine.MaxMoves)) {
		got = append(got, int(m))
	}
	if want := g.moves(); !slices.Equal(got, want) {
		t.Fatalf("%v: moves %v, reference %v", p, got, want)
	}
}

// occupancy identifies a position by its stones alone, the way two move
// orders reach the same position.
func occupancy(p *Position) [2]uint64 { return p.stones }

func TestRandomGamesMatchReference(t *testing.T) {
	games := 10000
	if testing.Short() {
		games = 1000
	}
	rng := rand.New(rand.NewPCG(7, 8))
	hashes := make(map[[2]uint64]uint64)
	seen := make(map[uint64][2]uint64)
	buf := make([]engine.Move, 0, engine.MaxMoves)
	outcomes := make(map[engine.Result]int)
	for range games {
		p, g := New(), newRef()
		for {
			checkAgainstRef(t, p, g)
			key := occupancy(p)
			if h, ok := hashes[key]; ok && h != p.Hash() {
				t.Fatalf("%v: hash %x, earlier %x for the same stones", p, p.Hash(), h)
			}
			if other, ok := seen[p.Hash()]; ok && other != key {
				t.Fatalf("%v: hash %x shared with different stones", p, p.Hash())
			}
			hashes[key], seen[p.Hash()] = p.Hash(), key
			if p.Terminal() {
				break
			}
			moves := p.Moves(buf)
			before := *p
			try := moves[rng.IntN(len(moves))]
			p.Play(try)
			p.Undo()
			if p.stones != before.stones || p.hash != before.hash || p.n != before.n || p.won != before.won {
				t.Fatalf("%v: play %d then undo changed the position", &before, try+1)
			}
			m := moves[rng.IntN(len(moves))]
			p.Play(m)
			g.play(int(m))
		}
		outcomes[p.Result(engine.X)]++
		// Parsing the record gives the same position.
		q, err := Parse(p.String())
		if err != nil {
			t.Fatalf("Parse(%q): %v", p, err)
		}
		if q.stones != p.stones || q.hash != p.hash || q.won != p.won {
			t.Fatalf("Parse(%q) differs from the game that wrote it", p)
		}
		for p.Ply() > 0 {
			p.Undo()
		}
		if p.stones != [2]uint64{} || p.hash != 0 || p.Terminal() {
			t.Fatalf("undoing every move left %v, hash %x", p, p.hash)
		}
	}
	// The games must have covered every way a game ends.
	for _, r := range []engine.Result{engine.Win, engine.Loss, engine.Draw} {
		if outcomes[r] == 0 {
			t.Errorf("no random game ended in a %v for x: %v", r, outcomes)
		}
	}
}

// TestPerft pins perft counts from the empty board, recomputed by the
// naive reference: depth 7 lacks the 7 lines that fill a column in six
// moves, and from depth 8 on a game won at move 7 counts as one leaf.
func TestPerft(t *testing.T) {
	want := []uint64{1, 7, 49, 343, 2401, 16807, 117649, 823536, 5686266}
	maxDepth := len(want) - 1
	switch {
	case racetest.Short(t, "perft to depth 6, not 7"):
		maxDepth = 6
	case testing.Short():
		maxDepth = 7
	}
	for depth := 0; depth <= maxDepth; depth++ {
		if got := engine.Perft(New(), depth, nil); got != want[depth] {
			t.Errorf("perft %d = %d, want %d", depth, got, want[depth])
		}
		if depth <= maxDepth {
			if got := newRef().perft(depth); got != want[depth] {
				t.Errorf("reference perft %d = %d, want %d", depth, got, want[depth])
			}
		}
	}
}

// TestPerftMatchesReferenceMidgame compares perft 4 from random positions.
func TestPerftMatchesReferenceMidgame(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	buf := make([]engine.Move, 0, engine.MaxMoves)
	for range 20 {
		p, g := New(), newRef()
		for plies := rng.IntN(36); plies > 0 && !p.Terminal(); plies-- {
			moves := p.Moves(buf)
			m := moves[rng.IntN(len(moves))]
			p.Play(m)
			g.play(int(m))
		}
		if got, want := engine.Perft(p, 4, nil), g.perft(4); got != want {
			t.Errorf("%v: perft 4 = %d, reference %d", p, got, want)
		}
	}
}

// TestBenchmarkPositionsParse reads every position of Pons' test sets: all
// parse, none is finished, and the text round-trips.
func TestBenchmarkPositionsParse(t *testing.T) {
	files, err := filepath.Glob("testdata/Test_*")
	if err != nil || len(files) != 6 {
		t.Fatalf("want 6 test sets in testdata, got %v (%v)", files, err)
	}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		line := 0
		for sc.Scan() {
			line++
			fields := strings.Fields(sc.Text())
			if len(fields) != 2 {
				t.Fatalf("%s:%d: want moves and score, got %q", file, line, sc.Text())
			}
			if _, err := strconv.Atoi(fields[1]); err != nil {
				t.Fatalf("%s:%d: score: %v", file, line, err)
			}
			p, err := Parse(fields[0])
			if err != nil {
				t.Fatalf("%s:%d: %v", file, line, err)
			}
			if p.Terminal() || p.String() != fields[0] || p.Ply() != len(fields[0]) {
				t.Fatalf("%s:%d: parsed %q as %v (terminal %v)", file, line, fields[0], p, p.Terminal())
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestParse(t *testing.T) {
	for _, text := range []string{"", "start", " start "} {
		p, err := Parse(text)
		if err != nil || p.Ply() != 0 || p.String() != StartText {
			t.Errorf("Parse(%q) = %v, %v; want the empty board", text, p, err)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"4448", "move 4 is '8'"},
		{"0", "move 1 is '0'"},
		{"44a", "move 3 is 'a'"},
		{"4444444", "move 7: column 4 is full"},
		{"12121212", "move 8 comes after the game was won at move 7"},
	} {
		_, err := Parse(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error %v, want one naming %q", tc.text, err, tc.want)
		}
	}
	p, err := Parse("1212121") // x wins upward in column 1 with the 7th move
	if err != nil {
		t.Fatal(err)
	}
	if !p.Terminal() || p.Result(engine.X) != engine.Win || p.Score(engine.X) != 18 || p.Score(engine.O) != -18 {
		t.Errorf("%v: terminal %v, result %v, score %d: want an x win scoring 18", p, p.Terminal(), p.Result(engine.X), p.Score(engine.X))
	}
	if _, err := p.ParseMove("3"); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("ParseMove after the end: %v", err)
	}
}

func TestParseMove(t *testing.T) {
	p, err := Parse("444444")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ text, want string }{
		{"4", "full"}, {"0", "want a column"}, {"8", "want a column"}, {"", "want a column"}, {"12", "want a column"},
	} {
		if _, err := p.ParseMove(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMove(%q) error %v, want %q", tc.text, err, tc.want)
		}
	}
	if m, err := p.ParseMove(" 7 "); err != nil || p.FormatMove(m) != "7" {
		t.Errorf("ParseMove(\" 7 \") = %v, %v", m, err)
	}
}

func TestWinsInEveryDirection(t *testing.T) {
	for _, tc := range []struct {
		moves  string
		winner engine.Side
		score  int // for the winner
	}{
		{"1212121", engine.X, 18},     // column 1 upward
		{"1122334", engine.X, 18},     // bottom row, columns 1–4
		{"12234334544", engine.X, 16}, // diagonal c1r0–c4r3
		{"76654554344", engine.X, 16}, // the mirror diagonal c7r0–c4r3
		{"12121232", engine.O, 18},    // column 2 upward
	} {
		p, err := Parse(tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		g := newRef()
		for _, ch := range tc.moves {
			g.play(int(ch - '1'))
		}
		checkAgainstRef(t, p, g)
		if !p.Terminal() || p.Result(tc.winner) != engine.Win || p.Score(tc.winner) != tc.score || p.Score(tc.winner.Other()) != -tc.score {
			t.Errorf("%s: terminal %v, result %v, score %d; want a %v win scoring %d",
				tc.moves, p.Terminal(), p.Result(tc.winner), p.Score(tc.winner), tc.winner, tc.score)
		}
		p.Undo()
		if p.Terminal() || p.Result(engine.X) != engine.Ongoing {
			t.Errorf("%s: undoing the winning move leaves a finished game", tc.moves)
		}
	}
}

// TestThreatsAndPlayable checks Threats against brute force: a cell is a
// threat of a side if dropping that side's stone there (ignoring gravity)
// makes four in a row.
func TestThreatsAndPlayable(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	buf := make([]engine.Move, 0, engine.MaxMoves)
	for range 2000 {
		p := New()
		for plies := rng.IntN(30); plies > 0 && !p.Terminal(); plies-- {
			moves := p.Moves(buf)
			p.Play(moves[rng.IntN(len(moves))])
		}
		if p.Terminal() {
			p.Undo() // a won board has fours already
		}
		for _, s := range []engine.Side{engine.X, engine.O} {
			var want uint64
			for col := range Width {
				for row := range Height {
					bit := uint64(1) << (col*colBits + row)
					if p.mask()&bit == 0 && fourInARow(p.stones[s]|bit) {
						want |= bit
					}
				}
			}
			if got := p.Threats(s); got != want {
				t.Fatalf("%v: threats of %v %x, brute force %x", p, s, got, want)
			}
		}
		var want uint64
		for col := range Width {
			if p.mask()&top(col) == 0 {
				want |= (p.mask() + bottom(col)) & column(col)
			}
		}
		if got := p.Playable(); got != want {
			t.Fatalf("%v: playable %x, want %x", p, got, want)
		}
	}
}
