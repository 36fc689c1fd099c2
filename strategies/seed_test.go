package strategies

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/engine/tictactoe"
)

func parseAdjacency(t *testing.T, text string) *adjacency.Position {
	t.Helper()
	p, err := adjacency.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSeed001TableStoresBoundsAsExact: searched to the end of random
// endgames, report 001's search without its table agrees with brute
// force everywhere, and with the table (bounds kept as exact values) it
// gets some wrong; the strategy never calls its value exact.
func TestSeed001TableStoresBoundsAsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	wrong := 0
	for range 150 {
		p := randomPosition(t, rng, "adjacency", 28, 5+rng.IntN(3)).(*adjacency.Position)
		want := bruteForce(p)
		plies := p.PliesLeft()

		correct := newSeed001Search(p)
		correct.key = nil
		if got := correct.run(context.Background(), Limits{}, []int{plies}, 1, 0); got.Score != want {
			t.Fatalf("%v: without the table %d, brute force %d", p, got.Score, want)
		}
		buggy := newSeed001Search(p).run(context.Background(), Limits{HashMiB: 1}, []int{plies}, 1, 0)
		if buggy.Score == want {
			continue
		}
		wrong++
		res, err := Seed001Minimax{}.Search(context.Background(), p, Limits{HashMiB: 1, Depth: plies})
		if err != nil || res.Exact || res.Depth != plies {
			t.Fatalf("%v: %+v, %v", p, res, err)
		}
	}
	if wrong == 0 {
		t.Error("the table never changed a value: bounds are not stored as exact values")
	}
	t.Logf("%d of 150 endgames valued wrongly", wrong)
}

// TestSeed001Schedule: iterations of depth 2, 4, 6, … and the plies left.
func TestSeed001Schedule(t *testing.T) {
	for maxDepth, want := range map[int][]int{1: {1}, 2: {2}, 5: {2, 4, 5}, 6: {2, 4, 6}} {
		if got := seed001Depths(maxDepth); !slices.Equal(got, want) {
			t.Errorf("seed001Depths(%d) = %v, want %v", maxDepth, got, want)
		}
	}
	p := randomPosition(t, rand.New(rand.NewPCG(33, 34)), "adjacency", 28, 7)
	var depths []int
	res, err := Seed001Minimax{}.Search(context.Background(), p, Limits{HashMiB: 1, Progress: func(pr Progress) { depths = append(depths, pr.Depth) }})
	if err != nil || !slices.Equal(depths, []int{2, 4, 6, 7}) || res.Depth != 7 || res.Exact {
		t.Errorf("%v: iterations %v, result %+v, %v", p, depths, res, err)
	}
}

// TestSeed001H: report 001's h(s) on hand-built boards.
func TestSeed001H(t *testing.T) {
	c3, _ := adjacency.ParseCell("c3")
	for text, want := range map[string]int{
		// c3 flips c2 and d3 (+2); own b2 shares the empty b3 with it (−1).
		"......../......../......../......../......../...o..../.xo...../........ x 10": 1,
		// b3 is taken too: a third flip and no shared empty cell.
		"......../......../......../......../......../.o.o..../.xo...../........ x 10": 3,
		// o to move: c2 and d3 are its own, nothing to flip, and b2 is
		// the opponent's.
		"......../......../......../......../......../...o..../.xo...../........ o 10": 0,
	} {
		if got := seed001H(parseAdjacency(t, text).Board, c3); got != want {
			t.Errorf("%s: h(c3) = %d, want %d", text, got, want)
		}
	}
}

// TestSeed002OneEmptyCell: the position that crashed report 002's bot.
func TestSeed002OneEmptyCell(t *testing.T) {
	p := parseAdjacency(t, "xxxxxxxx/oooooooo/xxxxxxxx/oooooooo/xxxxxxxx/oooooooo/xxxxxxxx/ooooooo. x 1")
	h1, _ := adjacency.ParseCell("h1")
	res, err := Seed002AlphaBeta{}.Search(context.Background(), p, Limits{})
	if err != nil || res.Move != h1 || res.Score != p.After(h1).Score(engine.X) {
		t.Errorf("move %v score %d err %v, want h1 scoring %d", res.Move, res.Score, err, p.After(h1).Score(engine.X))
	}
}

// TestSeed002SearchesPastTheEnd: with one ply left the search still looks
// three plies deep, as the report's ignores the end of the game.
func TestSeed002SearchesPastTheEnd(t *testing.T) {
	p := parseAdjacency(t, "......oo/......oo/......../......../......../......../xx....../xx...... x 1")
	res, err := Seed002AlphaBeta{}.Search(context.Background(), p, Limits{})
	if err != nil || res.Depth != 3 || !p.Legal(res.Move) {
		t.Errorf("depth %d move %v err %v, want depth 3", res.Depth, res.Move, err)
	}
}

// TestSeed002Simulation: createSuccessor's board and getEmptyBlock's
// order with the score sort.
func TestSeed002Simulation(t *testing.T) {
	p := parseAdjacency(t, adjacency.StartText)
	tree := &seed002Tree{bot: p.Bitboard(engine.X), opp: p.Bitboard(engine.O)}
	cell := func(name string) engine.Move {
		c, err := adjacency.ParseCell(name)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// The four capturing moves (+3) first, top rank first; then the rest
	// from a8 on.
	got := tree.children(nil)
	want := []engine.Move{cell("f8"), cell("f7"), cell("g6"), cell("h6"), cell("a8"), cell("b8")}
	if !slices.Equal(got[:6], want) {
		t.Errorf("root order starts %v, want %v", got[:6], want)
	}
	// The bot plays c1; the opponent's simulated reply on c2 puts the
	// bot's mark there and takes the bot's b2 and c1.
	tree.play(cell("c1"))
	tree.play(cell("c2"))
	bit := func(name string) uint64 { return 1 << cell(name) }
	if tree.bot != bit("a1")|bit("b1")|bit("a2")|bit("c2") || tree.opp != p.Bitboard(engine.O)|bit("b2")|bit("c1") {
		t.Errorf("after c1 c2: bot %x, opponent %x", tree.bot, tree.opp)
	}
	if v := tree.value(); v != 4-6 {
		t.Errorf("value %d, want -2", v)
	}
	tree.undo()
	tree.undo()
	if tree.bot != p.Bitboard(engine.X) || tree.opp != p.Bitboard(engine.O) {
		t.Error("undo did not restore the board")
	}
}

// TestSeed003WinsInNoHurry: with an immediate win on cell 9, the bot
// plays cell 4, which wins only later, because both score +10 and 4
// comes first.
func TestSeed003WinsInNoHurry(t *testing.T) {
	for text, want := range map[string]struct {
		move  engine.Move
		score int
	}{
		"xoo.x.... x": {3, 1},  // cell 4: a slower forced win
		"o.oxox.x. x": {1, -1}, // every move loses: the first
		"x...o.... x": {1, 0},  // a draw: the first that holds it
	} {
		p, err := tictactoe.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Seed003Minimax{}.Search(context.Background(), p, Limits{})
		if err != nil || res.Move != want.move || res.Score != want.score || !res.Exact || res.Score != bruteForce(p) {
			t.Errorf("%s: %+v, %v; want move %d score %d", text, res, err, want.move, want.score)
		}
	}
}

// TestSeed003Values: the scores are the game's on random positions.
func TestSeed003Values(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	for range 60 {
		p := randomPosition(t, rng, "tictactoe", 0, 1+rng.IntN(7))
		res, err := Seed003Minimax{}.Search(context.Background(), p, Limits{})
		if err != nil || res.Score != bruteForce(p) || !res.Exact {
			t.Fatalf("%v: %+v, %v; brute force %d", p, res, err, bruteForce(p))
		}
		p.Play(res.Move)
		if got := -bruteForce(p); got != res.Score {
			t.Fatalf("%v: the move leads to %d, not %d", p, got, res.Score)
		}
	}
}

// TestSeed004Heuristic: scorePosition on hand-counted boards.
func TestSeed004Heuristic(t *testing.T) {
	if len(seed004Windows) != 69 {
		t.Errorf("%d windows, want 69", len(seed004Windows))
	}
	for _, c := range []struct {
		text string
		x, o int
	}{
		// x d1 d2: centre 2·4, the vertical d1–d4 two and two empty +2;
		// o e1 e2: the vertical e1–e4 +2.
		{"4545", 10, 2},
		// x d1 e1 f1, o d2 e2 f2: centre 4; row 1: c1–f1 and d1–g1 three
		// and an empty +5 each, b1–e1 two and two +2; row 2 the
		// opponent's three twice −4 each. Symmetric for o.
		{"445566", 8, 8},
	} {
		p, err := connect4.Parse(c.text)
		if err != nil {
			t.Fatal(err)
		}
		if x, o := seed004Heuristic(p, engine.X), seed004Heuristic(p, engine.O); x != c.x || o != c.o {
			t.Errorf("%s: x %d o %d, want %d and %d", c.text, x, o, c.x, c.o)
		}
	}
}

// TestSeed004WinsInNoHurry: x can win at once in columns 3 and 7, but
// column 1 also wins (two plies later, the open three cannot be blocked
// at both ends) and comes first.
func TestSeed004WinsInNoHurry(t *testing.T) {
	p, err := connect4.Parse("445561")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Seed004Minimax{}.Search(context.Background(), p, Limits{})
	if err != nil || res.Move != 0 || res.Score != seed004Win || res.Depth != seed004Depth {
		t.Errorf("%+v, %v; want column 1 scoring %d", res, err, seed004Win)
	}
}
