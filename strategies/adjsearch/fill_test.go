package adjsearch

import (
	"cmp"
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
)

// recolour returns b with every live filled cell (one next to an empty
// cell) given to a side at random: the same empty cells, side to move
// and plies left.
func recolour(t *testing.T, rng *rand.Rand, b adjacency.Board) adjacency.Board {
	t.Helper()
	text := []byte(b.String()) // ranks 8 to 1, each 8 cells and a separator
	e := empties(b)
	for l := live(e) &^ e; l != 0; l &= l - 1 {
		c := bits.TrailingZeros64(l)
		text[(7-c/8)*9+c%8] = "xo"[rng.IntN(2)]
	}
	c, err := adjacency.ParseBoard(string(text))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestFillValueIgnoresLiveColours: in a game that fills the board, the
// exact value by plain search is the same for every colouring of the live
// cells (those in or next to an empty cell): what lets the solver key
// such positions by their empty cells.
func TestFillValueIgnoresLiveColours(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 28))
	cases := 30
	if testing.Short() {
		cases = 10
	}
	changed := 0
	for range cases {
		b := randomBoard(t, rng, 28, 5+rng.IntN(4))
		want := plainSolve(position(t, b), -infinity, infinity)
		for range 3 {
			c := recolour(t, rng, b)
			if c != b {
				changed++
			}
			if got := plainSolve(position(t, c), -infinity, infinity); got != want {
				t.Fatalf("%v: value %d; recoloured %v: %d", b, want, c, got)
			}
		}
	}
	if changed == 0 {
		t.Fatal("no recolouring changed a board: the test compared nothing")
	}
}

// TestFillSolveMatchesBoardSolve: on endgames of 12 to 14 plies, longer
// than plain search can check, the solver keyed by empty cells and the
// one keyed by boards agree on the value, and the fill solver's move
// reaches it.
func TestFillSolveMatchesBoardSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 18))
	cases := 10
	if testing.Short() {
		cases = 4
	}
	for range cases {
		b := randomBoard(t, rng, 28, 12+rng.IntN(3))
		boards := New(nil)
		boards.cfg.boardKeys = true
		want, err := boards.Search(context.Background(), b, Options{Depth: b.PliesLeft(), MaxTableMiB: 16})
		if err != nil {
			t.Fatal(err)
		}
		got, err := New(nil).Search(context.Background(), b, Options{Depth: b.PliesLeft(), MaxTableMiB: 16})
		if err != nil {
			t.Fatal(err)
		}
		if !want.Exact || !got.Exact || got.Score != want.Score {
			t.Fatalf("%v: fill solve %d (exact %v), board solve %d (exact %v)", b, got.Score, got.Exact, want.Score, want.Exact)
		}
		after, err := boards.Search(context.Background(), b.After(got.Move), Options{Depth: b.PliesLeft() - 1, MaxTableMiB: 16})
		if err != nil {
			t.Fatal(err)
		}
		if -after.Score != want.Score {
			t.Fatalf("%v: the fill solver's move %s reaches %d, want %d", b, b.FormatMove(got.Move), -after.Score, want.Score)
		}
	}
}

// TestFillKeysFollowMoves: the solver's key carried from move to move is
// the key of the empty cells computed from scratch, and settled cells
// only grow.
func TestFillKeysFollowMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 28))
	for range 10 {
		b := randomBoard(t, rng, 28, 56)
		r := &run{fill: true}
		h := r.solveKey(b, 0)
		for !b.Terminal() {
			e := empties(b)
			for n := rng.IntN(bits.OnesCount64(e)); n > 0; n-- {
				e &= e - 1
			}
			before := ^live(empties(b))
			b, h = r.step(b, h, bits.TrailingZeros64(e))
			if h != fillKey(empties(b)) {
				t.Fatalf("%v: key %x, from scratch %x", b, h, fillKey(empties(b)))
			}
			if after := ^live(empties(b)); after&before != before {
				t.Fatalf("%v: settled cells %x lost some of %x", b, after, before)
			}
		}
	}
}

// TestLastOnes: a move's gain counted from lastOnes equals the live cells
// it settles, on every cell of random positions.
func TestLastOnes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 28))
	for range 50 {
		b := randomBoard(t, rng, 28, 1+rng.IntN(56))
		e := empties(b)
		ones := lastOnes(e)
		size := bits.OnesCount64(live(e))
		for rest := e; rest != 0; rest &= rest - 1 {
			c := bits.TrailingZeros64(rest)
			if got, want := bits.OnesCount64(closedCells[c]&ones), size-bits.OnesCount64(live(e&^(1<<c))); got != want {
				t.Fatalf("%v, %s: gain %d, want %d", b, b.FormatMove(engine.Move(c)), got, want)
			}
		}
	}
}

// TestFillMovesOrder: FillMoves lists every empty cell once, the hint
// first, then by the cells each settles (counted cell by cell), most
// first, ties to the higher cell.
func TestFillMovesOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 28))
	for range 300 {
		e := randomEmpties(rng, 1+rng.IntN(56))
		hint := []int{-1, noCell, rng.IntN(adjacency.Cells)}[rng.IntN(3)]
		var want []uint16
		size := bits.OnesCount64(live(e))
		for rest := e; rest != 0; rest &= rest - 1 {
			c := bits.TrailingZeros64(rest)
			key := uint16(size-bits.OnesCount64(live(e&^(1<<c))))<<8 | uint16(c)
			if c == hint {
				key = 0xff00 | uint16(c)
			}
			want = append(want, key)
		}
		slices.SortFunc(want, func(a, b uint16) int { return cmp.Compare(b, a) })
		var keys [adjacency.Cells]uint16
		if got := keys[:FillMoves(e, hint, &keys)]; !slices.Equal(got, want) {
			t.Fatalf("%016x, hint %d: moves %x, want %x", e, hint, got, want)
		}
	}
}

// TestSetMovesOrder: the heuristic search's lazy setMoves yields the
// moves and gains of FillMoves, in its order.
func TestSetMovesOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 39))
	for range 300 {
		e := randomEmpties(rng, 1+rng.IntN(56))
		hint := []int{-1, noCell, rng.IntN(adjacency.Cells)}[rng.IntN(3)]
		var keys [adjacency.Cells]uint16
		var want, got [][2]int
		for _, key := range keys[:FillMoves(e, hint, &keys)] {
			want = append(want, [2]int{int(uint8(key)), gainOf(key, e)})
		}
		var m setMoves
		m.reset(e, hint)
		for c, gain, ok := m.next(); ok; c, gain, ok = m.next() {
			got = append(got, [2]int{c, gain})
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%016x, hint %d: moves %v, want %v", e, hint, got, want)
		}
	}
}
