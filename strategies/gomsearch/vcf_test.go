package gomsearch

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/gomoku"
)

// refBoard is a plain 15×15 array and a VCF solver written on it
// without anything of the engine's (no patterns, no tables, no cache):
// the reference the engine's VCF is checked against.
type refBoard [rules.MaxSize][rules.MaxSize]int8 // 0 empty, 1 black, 2 white

func refOf(p *rules.Position) (b refBoard) {
	pts := p.Points()
	for r := range rules.MaxSize {
		for c := range rules.MaxSize {
			b[c][r] = pts[rules.Cell(c, r)]
		}
	}
	return b
}

var refDirs = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// makesFive reports whether a stone of s on the empty point (c, r) would
// make five or more in a row.
func (b *refBoard) makesFive(c, r int, s int8) bool {
	for _, d := range refDirs {
		n := 1
		for _, sign := range [2]int{1, -1} {
			x, y := c+sign*d[0], r+sign*d[1]
			for x >= 0 && y >= 0 && x < rules.MaxSize && y < rules.MaxSize && b[x][y] == s {
				n++
				x, y = x+sign*d[0], y+sign*d[1]
			}
		}
		if n >= 5 {
			return true
		}
	}
	return false
}

// fivePoints returns the empty points where s would make five, those on
// the lines through (c, r) only if c >= 0.
func (b *refBoard) fivePoints(s int8, c, r int) [][2]int {
	var out [][2]int
	try := func(x, y int) {
		if x >= 0 && y >= 0 && x < rules.MaxSize && y < rules.MaxSize && b[x][y] == 0 && b.makesFive(x, y, s) {
			for _, o := range out {
				if o == [2]int{x, y} {
					return
				}
			}
			out = append(out, [2]int{x, y})
		}
	}
	if c < 0 {
		for x := range rules.MaxSize {
			for y := range rules.MaxSize {
				try(x, y)
			}
		}
		return out
	}
	for _, d := range refDirs {
		for k := -4; k <= 4; k++ {
			try(c+k*d[0], r+k*d[1])
		}
	}
	return out
}

// vcf returns the plies to s's five by continuous fours with at most
// left fours of s, 0 if there is none.
func (b *refBoard) vcf(s int8, left int) int {
	if len(b.fivePoints(s, -1, 0)) > 0 {
		return 1
	}
	threats := b.fivePoints(3-s, -1, 0)
	if len(threats) > 1 || left == 0 {
		return 0
	}
	for x := range rules.MaxSize {
		for y := range rules.MaxSize {
			if b[x][y] != 0 || len(threats) == 1 && threats[0] != [2]int{x, y} || !b.ownNear(x, y, s) {
				continue
			}
			b[x][y] = s
			fp := b.fivePoints(s, x, y)
			switch {
			case len(fp) >= 2:
				b[x][y] = 0
				return 3
			case len(fp) == 1:
				b[fp[0][0]][fp[0][1]] = 3 - s
				r := b.vcf(s, left-1)
				b[fp[0][0]][fp[0][1]] = 0
				if r > 0 {
					b[x][y] = 0
					return r + 2
				}
			}
			b[x][y] = 0
		}
	}
	return 0
}

// ownNear reports whether s has a stone within two points of (x, y): a
// four needs three stones of s in five points with (x, y), one of them
// at most two away.
func (b *refBoard) ownNear(x, y int, s int8) bool {
	for i := max(x-2, 0); i <= min(x+2, rules.MaxSize-1); i++ {
		for j := max(y-2, 0); j <= min(y+2, rules.MaxSize-1); j++ {
			if b[i][j] == s {
				return true
			}
		}
	}
	return false
}

// shortestVCF returns the plies of s's shortest VCF with at most max
// fours, 0 if none.
func (b *refBoard) shortestVCF(s int8, max int) int {
	for left := 1; left <= max; left++ {
		if r := b.vcf(s, left); r > 0 {
			return r
		}
	}
	return 0
}

// vcfCase is a position and the plies of the shortest VCF of its side to
// move (0: none with up to 8 fours).
type vcfCase struct {
	moves string
	plies int
}

func vcfCases(t testing.TB) []vcfCase {
	f, err := os.Open("testdata/vcf.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []vcfCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		moves, plies, ok := strings.Cut(line, "\t")
		n, err := strconv.Atoi(plies)
		if !ok || err != nil {
			t.Fatalf("testdata/vcf.txt: bad line %q", line)
		}
		out = append(out, vcfCase{moves, n})
	}
	return out
}

// TestVCFFindsEveryWinByFours: on every position of testdata/vcf.txt
// whose side to move wins by continuous fours (the reference solver's
// shortest win, up to 15 plies), the engine's VCF finds a win, no longer
// than 15 plies, whose first move the reference confirms; on the
// positions without one, the engine claims none that the reference,
// given one four more, does not confirm.
func TestVCFFindsEveryWinByFours(t *testing.T) {
	cases := vcfCases(t)
	wins := map[int]int{}
	e := New(1)
	for _, c := range cases {
		p, err := rules.Parse(c.moves)
		if err != nil {
			t.Fatal(err)
		}
		got, first := engineVCF(e, p)
		s := int8(p.SideToMove()) + 1
		switch {
		case c.plies > 0 && got == 0:
			t.Errorf("%s: a win by fours in %d plies; the engine found none", c.moves, c.plies)
		case c.plies > 0 && got > 15:
			t.Errorf("%s: the engine's win takes %d plies, the shortest %d", c.moves, got, c.plies)
		case got > 0:
			ref := refOf(p)
			col, row := int(first%rules.MaxSize), int(first/rules.MaxSize)
			five := ref.makesFive(col, row, s)
			ref[col][row] = s
			fp := ref.fivePoints(s, -1, 0)
			confirmed := five || len(fp) >= 2
			if !five && len(fp) == 1 {
				ref[fp[0][0]][fp[0][1]] = 3 - s
				confirmed = ref.shortestVCF(s, 9) > 0
			}
			if !confirmed {
				t.Errorf("%s: the engine wins by fours in %d plies from %s; the reference finds no win after it", c.moves, got, rules.CellName(first))
			}
		}
		if c.plies > 0 {
			wins[c.plies]++
		}
	}
	t.Logf("%d positions; wins by plies: %v", len(cases), wins)
	if wins[13]+wins[15] == 0 {
		t.Error("no win of 13 or 15 plies in the set: it does not test the reach")
	}
}

// engineVCF runs the engine's VCF, 8 fours deep, on p: the plies and the
// first move.
func engineVCF(e *Engine, p *rules.Position) (int, engine.Move) {
	e.b.reset(p)
	e.gen = e.gen%60 + 1
	e.nodes, e.budget = 0, 0
	e.clock.Start(context.Background(), 0, nil)
	e.count.M = &e.clock
	r := e.vcf(0, 8)
	if r == 0 {
		return 0, engine.NoMove
	}
	return r, toCell(e.threat[0])
}

// BenchmarkVCF runs the engine's VCF on every position of the set and
// reports the mean and the slowest position's time.
func BenchmarkVCF(b *testing.B) {
	cases := vcfCases(b)
	e := New(1)
	var worst time.Duration
	var total time.Duration
	n := 0
	for range b.N {
		for _, c := range cases {
			p, _ := rules.Parse(c.moves)
			start := time.Now()
			engineVCF(e, p)
			d := time.Since(start)
			worst, total, n = max(worst, d), total+d, n+1
		}
	}
	b.ReportMetric(float64(total.Microseconds())/float64(n), "µs/position")
	b.ReportMetric(float64(worst.Microseconds()), "µs-worst")
}

func counts(m map[int][]string) map[int]int {
	out := map[int]int{}
	for k, v := range m {
		out[k] = len(v)
	}
	return out
}

// TestGenerateVCFSet writes testdata/vcf.txt when GOMSEARCH_GEN_VCF is
// set: positions of games the engine plays against itself from random
// openings, each with the reference's shortest VCF for the side to move.
func TestGenerateVCFSet(t *testing.T) {
	if os.Getenv("GOMSEARCH_GEN_VCF") == "" {
		t.Skip("set GOMSEARCH_GEN_VCF=1 to remake testdata/vcf.txt")
	}
	rng := rand.New(rand.NewPCG(38, 2))
	byPlies := map[int][]string{}
	var none []string
	e := New(16)
	for game := 0; game < 300 && (len(byPlies[13])+len(byPlies[15]) < 4); game++ {
		t.Logf("game %d: %d positions without a win; wins by plies: %v", game, len(none), counts(byPlies))
		p := rules.Standard()
		var moves []string
		for range 3 {
			for {
				m := rules.Cell(5+rng.IntN(5), 5+rng.IntN(5))
				if p.Legal(m) {
					p.Play(m)
					moves = append(moves, rules.CellName(m))
					break
				}
			}
		}
		for !p.Terminal() && len(moves) < 120 {
			q, _ := rules.Parse(strings.Join(moves, " "))
			ref := refOf(q)
			s := int8(q.SideToMove()) + 1
			if pl := ref.shortestVCF(s, 8); pl > 0 {
				if len(byPlies[pl]) < 5 {
					byPlies[pl] = append(byPlies[pl], strings.Join(moves, " "))
				}
			} else if len(none) < 20 && len(moves) > 12 && rng.IntN(8) == 0 && ref.shortestVCF(s, 9) == 0 {
				none = append(none, strings.Join(moves, " "))
			}
			r, err := e.Search(context.Background(), q, Options{Nodes: uint64(2000 + rng.IntN(20000))})
			if err != nil {
				t.Fatal(err)
			}
			p.Play(r.Move)
			moves = append(moves, rules.CellName(r.Move))
		}
	}
	f, err := os.Create("testdata/vcf.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintln(f, "# Gomoku positions (moves from the empty board) and the plies of the shortest win by continuous fours")
	fmt.Fprintln(f, "# of the side to move (0: none with up to 9 fours), by the reference solver of vcf_test.go;")
	fmt.Fprintln(f, "# made by GOMSEARCH_GEN_VCF=1 go test -run TestGenerateVCFSet ./strategies/gomsearch/")
	for pl := 1; pl <= 17; pl += 2 {
		for _, m := range byPlies[pl] {
			fmt.Fprintf(f, "%s\t%d\n", m, pl)
		}
	}
	for _, m := range none {
		fmt.Fprintf(f, "%s\t0\n", m)
	}
}
