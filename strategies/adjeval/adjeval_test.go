package adjeval

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/strategies/internal/boardsym"
)

func mustBoard(t *testing.T, text string) adjacency.Board {
	t.Helper()
	b, err := adjacency.ParseBoard(text)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// handMade is a position whose features are worked out by hand below:
//
//	8 x......o
//	7 .o......
//	6 o.......
//	5 ..xox...
//	4 ...xx...
//	3 ........
//	2 ........
//	1 o..xx...
//	  abcdefgh
//
// X has a8 c5 e5 d4 e4 d1 e1 (7), O h8 b7 a6 d5 a1 (5); 5 plies left.
const handMade = "x......o/.o....../o......./..xox.../...xx.../......../......../o..xx..."

func TestFeaturesOfAHandMadePosition(t *testing.T) {
	// From X's side. a7 is a hole (a8 x, b7 o, a6 o around it) where X
	// flips two, O one; b6 flips b7 and a6. O's marks have 12 empty
	// neighbours counted with multiplicity (h8: g8 h7; b7: a7 c7 b8 b6;
	// a6: a7 a5 b6; d5: d6; a1: a2 b1), X's 15 (a8: b8 a7; c5: b5 c6 c4;
	// e5: e6 f5; d4: c4 d3; e4: f4 e3; d1: c1 d2; e1: f1 e2), c4 the only
	// cell next to two. No mark lacks an empty neighbour. X's frontier is
	// those 14 distinct cells, O's 10; 12 cells are occupied. Edges: d1,
	// e1 against a6; corners: a8 against h8, a1. Empty regions: a7 (1) and
	// the other 51 cells.
	x := Features{
		FBias: 1, FMaterial: 2, FParity: 1, FThreatMine: 2, FThreatTheirs: 2, FStable: 0,
		FFrontier: 4, FFrontierFull: 48, FMultiMine: 2, FMultiTheirs: 1, FPressureMine: 12,
		FPressureTheirs: 15, FEdge: 1, FCorner: -1, FOddRegions: 2, FHoles: 2 - 1,
	}
	// From O's side every difference changes sign and mine and theirs
	// swap.
	o := Features{
		FBias: 1, FMaterial: -2, FParity: 1, FThreatMine: 2, FThreatTheirs: 2, FStable: 0,
		FFrontier: -4, FFrontierFull: -48, FMultiMine: 1, FMultiTheirs: 2, FPressureMine: 15,
		FPressureTheirs: 12, FEdge: -1, FCorner: 1, FOddRegions: 2, FHoles: 1 - 2,
	}
	for _, c := range []struct {
		side string
		want Features
	}{{"x", x}, {"o", o}} {
		got := Extract(mustBoard(t, handMade+" "+c.side+" 5"))
		for f := range NumFeatures {
			if got[f] != c.want[f] {
				t.Errorf("%s to move: %s = %d, want %d", c.side, FeatureName(f), got[f], c.want[f])
			}
		}
	}
}

func TestFeaturesStableAndParity(t *testing.T) {
	// A full rank 1 of x under a full rank 2 of o: rank 1 has no empty
	// neighbour (stable, 8), rank 2 borders rank 3 (none stable). Four
	// plies left: even. X's frontier is empty, O's is rank 3.
	b := mustBoard(t, "......../......../......../......../......../......../oooooooo/xxxxxxxx x 4")
	f := Extract(b)
	if f[FStable] != 8 || f[FParity] != 0 || f[FFrontier] != -8 || f[FEdge] != 6-2 || f[FCorner] != 2 {
		t.Errorf("stable %d parity %d frontier %d edge %d corner %d, want 8 0 -8 4 2",
			f[FStable], f[FParity], f[FFrontier], f[FEdge], f[FCorner])
	}
	if f[FThreatMine] != 1 || f[FThreatTheirs] != 0 || f[FPressureTheirs] != 0 || f[FOddRegions] != 0 {
		t.Errorf("threats %d/%d, pressure on x %d, odd regions %d; want 1/0, 0, 0 (one region of 48)",
			f[FThreatMine], f[FThreatTheirs], f[FPressureTheirs], f[FOddRegions])
	}
}

// randomBoard plays n random moves from the start of a 28-round game.
func randomBoard(rng *rand.Rand, n int) adjacency.Board {
	b, _ := adjacency.NewBoard(adjacency.MaxRounds, engine.Side(rng.IntN(2)))
	buf := make([]engine.Move, 0, engine.MaxMoves)
	for range n {
		moves := b.Moves(buf)
		b = b.After(moves[rng.IntN(len(moves))])
	}
	return b
}

// transform maps the board of a position text by f(file, rank) and
// swaps the colours when swap is set.
func transform(t *testing.T, b adjacency.Board, f func(file, rank int) (int, int), swap bool) adjacency.Board {
	t.Helper()
	fields := strings.Fields(b.String())
	var grid [8][8]byte
	for i, row := range strings.Split(fields[0], "/") {
		for file := range 8 {
			nf, nr := f(file, 7-i)
			c := row[file]
			if swap && c != '.' {
				c = 'x' + 'o' - c
			}
			grid[7-nr][nf] = c
		}
	}
	rows := make([]string, 8)
	for i := range grid {
		rows[i] = string(grid[i][:])
	}
	side := fields[1]
	if swap {
		side = map[string]string{"x": "o", "o": "x"}[side]
	}
	return mustBoard(t, strings.Join(rows, "/")+" "+side+" "+fields[2])
}

func TestEvaluationIsSymmetric(t *testing.T) {
	// The rules treat every rotation and reflection of the board, and the
	// two colours, alike: so must the features and the evaluation.
	symmetries := maps.Clone(boardsym.Symmetries)
	symmetries["colours"] = func(f, r int) (int, int) { return f, r }
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		b := randomBoard(rng, rng.IntN(56))
		want, wantF := Evaluate(b), Extract(b)
		for name, sym := range symmetries {
			c := transform(t, b, sym, name == "colours")
			if got := Extract(c); got != wantF {
				t.Fatalf("%s of %v: features %v, want %v", name, b, got, wantF)
			}
			if got := Evaluate(c); got != want {
				t.Fatalf("%s of %v: evaluation %d, want %d", name, b, got, want)
			}
			if got, want := SearchEvaluate(c), SearchEvaluate(b); got != want {
				t.Fatalf("%s of %v: search evaluation %d, want %d", name, b, got, want)
			}
		}
	}
}

func TestSearchEvaluateHasNoTempo(t *testing.T) {
	// On an empty board every feature but the tempo ones (bias, parity) is
	// zero: the value a search sees must be 0 whoever moves and however
	// many plies are left, not swing from one ply to the next.
	empty := strings.Repeat("......../", 7) + "........"
	for left := 1; left <= 2*adjacency.MaxRounds; left++ {
		for _, side := range []string{"x", "o"} {
			b := mustBoard(t, fmt.Sprintf("%s %s %d", empty, side, left))
			if got := SearchEvaluate(b); got != 0 {
				t.Fatalf("empty board, %s to move, %d plies left: search evaluation %d, want 0 (Evaluate: %d)", side, left, got, Evaluate(b))
			}
		}
	}
	// Between positions with the same plies left it is Evaluate's
	// difference, up to the rounding of each (Grain/2) and Evaluate's
	// truncation (one Unit): a fixed-depth search chooses the same.
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		n := rng.IntN(55)
		b, c := randomBoard(rng, n), randomBoard(rng, n)
		if b.PliesLeft() != c.PliesLeft() {
			continue // different rounds of the same game: none here, 28 each
		}
		got, want := SearchEvaluate(b)-SearchEvaluate(c), Evaluate(b)-Evaluate(c)
		if d := got - want; d > Grain+2 || d < -Grain-2 {
			t.Fatalf("%v and %v: search evaluations differ by %d, evaluations by %d", b, c, got, want)
		}
		if v := SearchEvaluate(b); v%Grain != 0 {
			t.Fatalf("%v: search evaluation %d, not a multiple of %d", b, v, Grain)
		}
	}
	// A finished game is its exact mark difference, as with Evaluate.
	text := "xxxx..oo/xxxx..oo/xxxx..../xxxx..../xxxx..../......../......../........"
	if got := SearchEvaluate(mustBoard(t, text+" o 0")); got != -16*Unit {
		t.Errorf("finished, O to move: %d, want %d", got, -16*Unit)
	}
}

func TestRoundToIsOddSymmetric(t *testing.T) {
	for _, v := range []int64{0, 1, 255, 256, 257, 511, 512, 513, 1 << 20} {
		if a, b := roundTo(v, 512), roundTo(-v, 512); a != -b {
			t.Errorf("roundTo(%d) = %d, roundTo(%d) = %d: want opposites", v, a, -v, b)
		}
	}
	if got := roundTo(767, 512); got != 1 {
		t.Errorf("roundTo(767, 512) = %d, want 1", got)
	}
	if got := roundTo(768, 512); got != 2 {
		t.Errorf("roundTo(768, 512) = %d, want 2 (halves away from zero)", got)
	}
}

func TestSideToMoveSign(t *testing.T) {
	// X holds 20 marks to O's 4, all far apart: good for X whoever moves,
	// with 10 plies left.
	text := "xxxx..oo/xxxx..oo/xxxx..../xxxx..../xxxx..../......../......../........"
	forX := Evaluate(mustBoard(t, text+" x 10"))
	forO := Evaluate(mustBoard(t, text+" o 10"))
	if forX <= 0 || forO >= 0 {
		t.Errorf("X 20 marks to O's 4: %d with X to move, %d with O to move; want positive, negative", forX, forO)
	}
	// A finished game is its exact mark difference in Units.
	if got := Evaluate(mustBoard(t, text+" o 0")); got != -16*Unit {
		t.Errorf("finished, O to move: %d, want %d", got, -16*Unit)
	}
}

func TestEmbeddedWeights(t *testing.T) {
	w, err := Parse(embedded)
	if err != nil {
		t.Fatalf("the embedded weights.bin: %v (regenerate it with gambit train)", err)
	}
	var zero [NumFeatures]int32
	for s := range w {
		if w[s] == zero {
			t.Errorf("stage %d has no weights", s)
		}
	}
}

func TestWeightsFileRoundTripAndDamage(t *testing.T) {
	var w Weights
	for s := range w {
		for f := range w[s] {
			w[s][f] = int32(1000*s - 37*f)
		}
	}
	data, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil || *back != w {
		t.Fatalf("round trip: %v, equal %v", err, err == nil && *back == w)
	}
	damaged := map[string][]byte{
		"one bit flipped": flip(data, 100),
		"truncated":       data[:len(data)-1],
		"too long":        append(append([]byte{}, data...), 0),
		"empty":           nil,
		"another version": resum(func(d []byte) { d[8] = 2 }, data),
		"another set":     resum(func(d []byte) { d[16] ^= 1 }, data),
		"another magic":   resum(func(d []byte) { d[0] = 'X' }, data),
	}
	for name, d := range damaged {
		if _, err := Parse(d); !errors.Is(err, ErrBadWeights) {
			t.Errorf("%s: %v, want ErrBadWeights", name, err)
		}
	}
}

func flip(data []byte, i int) []byte {
	d := append([]byte{}, data...)
	d[i] ^= 1
	return d
}

// resum edits a copy of data and recomputes its checksum, so that only
// the edit is wrong.
func resum(edit func([]byte), data []byte) []byte {
	d := append([]byte{}, data...)
	edit(d)
	binary.LittleEndian.PutUint32(d[len(d)-4:], crc32.ChecksumIEEE(d[:len(d)-4]))
	return d
}
