package adjsearch

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	adjgame "github.com/gambitbot/gambit/games/adjacency"
	"github.com/gambitbot/gambit/internal/racetest"
)

// randomBoard plays random moves from the start of a game of the given
// rounds until left plies remain.
func randomBoard(t testing.TB, rng *rand.Rand, rounds, left int) adjacency.Board {
	t.Helper()
	b, err := adjacency.NewBoard(rounds, engine.Side(rng.IntN(2)))
	if err != nil {
		t.Fatal(err)
	}
	var buf []engine.Move
	for b.PliesLeft() > left {
		buf = b.Moves(buf)
		b = b.After(buf[rng.IntN(len(buf))])
	}
	return b
}

// plainSolve is the exact value of p for the side to move by plain
// alpha-beta over the engine.Position interface: no table, no ordering.
func plainSolve(p engine.Position, alpha, beta int) int {
	if p.Terminal() {
		return p.(*adjacency.Position).Score(p.SideToMove())
	}
	best := -infinity
	for _, m := range p.Moves(nil) {
		p.Play(m)
		v := -plainSolve(p, -beta, -max(alpha, best))
		p.Undo()
		if best = max(best, v); best >= beta {
			break
		}
	}
	return best
}

// plainAlphaBeta is the depth-limited value of p in Units by plain
// alpha-beta over the engine.Position interface: a finished game scores
// its mark difference, a leaf the plug-in's evaluation — or, in a game
// that fills the board, the settled cells plus fillEval of the empty ones,
// a leaf with one ply left being searched to the end, as the set game
// does.
func plainAlphaBeta(p engine.Position, depth, alpha, beta int) int {
	if p.Terminal() {
		return p.(*adjacency.Position).Score(p.SideToMove()) * Unit
	}
	b := p.(*adjacency.Position).Board
	switch {
	case depth > 0:
	case !fills(b):
		return adjgame.Evaluate(b)
	case b.PliesLeft() > 1:
		return settled(b)*Unit + fillEval(empties(b))
	}
	best := -infinity
	for _, m := range p.Moves(nil) {
		p.Play(m)
		v := -plainAlphaBeta(p, max(depth-1, 0), -beta, -max(alpha, best))
		p.Undo()
		if best = max(best, v); best >= beta {
			break
		}
	}
	return best
}

func position(t testing.TB, b adjacency.Board) *adjacency.Position {
	t.Helper()
	p, err := adjacency.Parse(b.String())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSolveMatchesPlainMinimax: on random positions, full boards of 28
// rounds and sparse ones of 8, the engine's exact value equals plain
// alpha-beta's, on one thread and on two, and its move reaches that value.
func TestSolveMatchesPlainMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 2))
	cases := 40
	if testing.Short() {
		cases = 16
	}
	for i := range cases {
		rounds, left := 28, 7+rng.IntN(4)
		if i%4 == 3 {
			rounds, left = 8, 4+rng.IntN(2)
		}
		b := randomBoard(t, rng, rounds, left)
		want := plainSolve(position(t, b), -infinity, infinity)
		for _, threads := range []int{1, 2} {
			res, err := New(nil).Search(context.Background(), b, Options{Threads: threads, MaxTableMiB: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Exact || res.Score != want || res.Depth != left {
				t.Fatalf("%v, %d threads: got score %d exact %v depth %d, want exact %d", b, threads, res.Score, res.Exact, res.Depth, want)
			}
			if !b.Legal(res.Move) {
				t.Fatalf("%v: illegal move %v", b, res.Move)
			}
			if got := -plainSolve(position(t, b.After(res.Move)), -infinity, infinity); got != want {
				t.Fatalf("%v: move %s reaches %d, want %d", b, b.FormatMove(res.Move), got, want)
			}
		}
	}
}

// TestSolveKeepsTheWindowContract: the exact solver's node search, asked
// about random windows (most far from the value, where cut-offs without
// search fire) on random endgames and their children in turn, one table
// kept throughout so that earlier calls' bounds are found again, returns
// fail-soft bounds that hold: at most alpha only when the value is at most
// that, at least beta only when the value is at least that, else the
// value. Centred root windows alone (TestSolveMatchesPlainMinimax) let
// an unsound cut-off go unseen, such as one that takes a lower bound in
// the table for an upper one.
func TestSolveKeepsTheWindowContract(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 5))
	positions := 24
	switch {
	case racetest.Short(t, "3 endgames a way of keying, not 8"):
		positions = 3
	case testing.Short():
		positions = 8
	}
	// Both ways of keying a board that fills: by its marks, and by its
	// empty cells with values relative to the settled cells (fill.go).
	for _, fill := range []bool{false, true} {
		r := solverRun(context.Background(), New(nil), newTable(1<<20), fill)
		windowContract(t, rng, newThread(r), positions)
	}
}

func windowContract(t *testing.T, rng *rand.Rand, th *thread, positions int) {
	t.Helper()
	for range positions {
		root := randomBoard(t, rng, 28, 10+rng.IntN(2))
		boards := []adjacency.Board{root}
		for e := empties(root); e != 0; e &= e - 1 {
			boards = append(boards, root.After(engine.Move(bits.TrailingZeros64(e))))
		}
		values := make([]int, len(boards))
		for i, b := range boards {
			values[i] = plainSolve(position(t, b), -infinity, infinity)
		}
		for range 12 * len(boards) {
			i := rng.IntN(len(boards))
			b, want := boards[i], values[i]
			alpha := want - 16 + rng.IntN(33)
			beta := alpha + 1 + rng.IntN(4)
			got := th.solveNode(b, th.r.solveKey(b, hashOf(b)), alpha, beta)
			switch {
			case got <= alpha && want > got,
				got >= beta && want < got,
				got > alpha && got < beta && got != want:
				t.Fatalf("%v, window (%d, %d): solver says %d, the value is %d", b, alpha, beta, got, want)
			}
		}
	}
}

// TestDepthLimitedMatchesPlainAlphaBeta: without reductions and late-move
// pruning, the engine's depth-limited value on one thread (iterative
// deepening, table, ordering and all) equals plain alpha-beta's with the
// same evaluation, and its move is one that plain search scores so.
func TestDepthLimitedMatchesPlainAlphaBeta(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 3))
	cases := 32
	if testing.Short() {
		cases = 12
	}
	for i := range cases {
		rounds := []int{8, 16, 28, 28}[i%4] // 28 rounds: the set game
		left := 4 + rng.IntN(2*rounds-6)
		b := randomBoard(t, rng, rounds, left)
		depth := min(1+rng.IntN(4), left-1)
		e := New(nil)
		e.cfg.plain = true
		res, units := e.search(context.Background(), b, Options{Depth: depth, MaxTableMiB: 1})
		want := plainAlphaBeta(position(t, b), depth, -infinity, infinity)
		t.Logf("%v depth %d fills %v want %d units %d", b, depth, fills(b), want, units)
		if units != want || res.Depth != depth || res.Exact {
			t.Fatalf("%v depth %d: got %d (depth %d, exact %v), want %d", b, depth, units, res.Depth, res.Exact, want)
		}
		if got := -plainAlphaBeta(position(t, b.After(res.Move)), depth-1, -infinity, infinity); got != want {
			t.Fatalf("%v depth %d: move %s scores %d, want %d", b, depth, b.FormatMove(res.Move), got, want)
		}
	}
}

// TestIncrementalKeys: the key carried from move to move equals the key
// computed from scratch, through whole games.
func TestIncrementalKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 18))
	for range 20 {
		b := randomBoard(t, rng, 28, 56)
		h := hashOf(b)
		for !b.Terminal() {
			e := empties(b)
			var c int
			for n := rng.IntN(bits.OnesCount64(e)); n > 0; n-- {
				e &= e - 1
			}
			c = bits.TrailingZeros64(e)
			b, h = play(b, h, c)
			if h != hashOf(b) {
				t.Fatalf("%v: incremental key %x, from scratch %x", b, h, hashOf(b))
			}
		}
	}
}

// TestTableFollowsTheTimeLimit: a 20 ms move gets a small table, longer
// moves and more threads larger ones up to the cap, and an Engine keeps
// its table from one search to the next.
func TestTableFollowsTheTimeLimit(t *testing.T) {
	small := tableBytes(20*time.Millisecond, 0, 1, 64)
	mid := tableBytes(200*time.Millisecond, 0, 1, 64)
	big := tableBytes(5*time.Second, 0, 2, 64)
	if small > 2<<20 || mid <= small || big != 64<<20 {
		t.Fatalf("table bytes: 20 ms %d, 200 ms %d, 5 s on 2 threads %d", small, mid, big)
	}
	if got := tableBytes(5*time.Second, 0, 2, 16); got != 16<<20 {
		t.Fatalf("cap 16 MiB: got %d bytes", got)
	}
	if got := tableBytes(0, 1000, 1, 64); got != 256<<10 {
		t.Fatalf("1000 nodes: got %d bytes", got)
	}
	e := New(nil)
	now := time.Now()
	first := e.table(now.Add(20*time.Millisecond), now, Options{})
	if again := e.table(now.Add(20*time.Millisecond), now, Options{}); again != first {
		t.Fatal("the table was not kept between searches")
	}
	if grown := e.table(now.Add(time.Second), now, Options{}); grown.Bytes() <= first.Bytes() {
		t.Fatalf("a 1 s search kept the %d-byte table", first.Bytes())
	}
}

// TestSearchStopsWhenTold: an expired context gets a legal move at once;
// a context cancelled during the search (from the progress callback, no
// clock involved) ends it with the last completed iteration's move.
func TestSearchStopsWhenTold(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	b := randomBoard(t, rng, 28, 50)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := New(nil).Search(ctx, b, Options{})
	if err != nil || !b.Legal(res.Move) {
		t.Fatalf("expired context: move %v, err %v", res.Move, err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var seen []Result
	res, err = New(nil).Search(ctx, b, Options{Threads: 2, Progress: func(r Result) {
		seen = append(seen, r)
		if r.Depth == 3 {
			cancel()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	last := seen[len(seen)-1]
	if res.Depth != 3 || last.Depth != 3 || res.Move != last.Move || !b.Legal(res.Move) {
		t.Fatalf("cancelled after depth 3: got depth %d move %v; last progress depth %d move %v", res.Depth, res.Move, last.Depth, last.Move)
	}
}

// TestNodeLimitedSearchReplays: a node-capped search without deadline
// gives the same answer every time, whatever the engine searched before.
func TestNodeLimitedSearchReplays(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	b := randomBoard(t, rng, 28, 40)
	e := New(nil)
	first, _ := e.Search(context.Background(), b, Options{Nodes: 20000})
	if _, err := e.Search(context.Background(), randomBoard(t, rng, 28, 30), Options{Nodes: 20000}); err != nil {
		t.Fatal(err)
	}
	again, _ := e.Search(context.Background(), b, Options{Nodes: 20000})
	if first.Move != again.Move || first.Score != again.Score || first.Depth != again.Depth || first.Nodes != again.Nodes {
		t.Fatalf("first %+v, again %+v", first, again)
	}
}

// TestFinishedGame: a finished game is an error, not a move.
func TestFinishedGame(t *testing.T) {
	b := randomBoard(t, rand.New(rand.NewPCG(1, 1)), 2, 0)
	if _, err := New(nil).Search(context.Background(), b, Options{}); err == nil {
		t.Fatal("no error for a finished game")
	}
}

// TestSearchesWithoutDeadlineRepeat: a one-thread search without deadline
// — capped by depth, by nodes, or solving to the end — gives the same
// move, score, depth, line and node count every time, on a new Engine or
// on one that searched the same position before, in a game on boards and
// in one that fills the board.
func TestSearchesWithoutDeadlineRepeat(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2))
	fill, short := randomBoard(t, rng, 28, 40), randomBoard(t, rng, 10, 12)
	cases := []struct {
		name  string
		board adjacency.Board
		opts  Options
	}{
		{"set game, depth 8", fill, Options{Depth: 8}},
		{"set game, 30,000 nodes", fill, Options{Nodes: 30000}},
		{"set game, solve", endgames(t, 16)[0], Options{}},
		{"boards, depth 5", short, Options{Depth: 5}},
		{"boards, solve", randomBoard(t, rng, 10, 6), Options{}},
	}
	for _, c := range cases {
		c.opts.MaxTableMiB = 4
		e := New(nil)
		first, _ := e.Search(context.Background(), c.board, c.opts)
		fresh, _ := New(nil).Search(context.Background(), c.board, c.opts)
		again, _ := e.Search(context.Background(), c.board, c.opts)
		for name, got := range map[string]Result{"a new Engine": fresh, "the same Engine": again} {
			if got.Move != first.Move || got.Score != first.Score || got.Depth != first.Depth || got.Nodes != first.Nodes || !slices.Equal(got.PV, first.PV) {
				t.Errorf("%s, %s: move %v score %d depth %d nodes %d line %v; first %v %d %d %d %v", c.name, name,
					got.Move, got.Score, got.Depth, got.Nodes, got.PV, first.Move, first.Score, first.Depth, first.Nodes, first.PV)
			}
		}
	}
}
