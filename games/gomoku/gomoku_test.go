package gomoku

import (
	"testing"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/gomoku"
	"github.com/gambitbot/gambit/games"
)

// position reads a 7×7 position text or fails the test.
func position(t *testing.T, text string) *rules.Position {
	t.Helper()
	p, err := rules.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEvaluateReadsThreats checks the decisive threats from both sides'
// point of view, and that a quiet position is worth less than any of
// them.
func TestEvaluateReadsThreats(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       int
	}{
		// Black has four on row 1 (a1–d1, e1 empty): Black to move wins.
		{"four to move", "......./......./o....../......./......./ooo..../xxxx... x", winsNext},
		// Black has an open four (b1–e1, a1 and f1 empty): White to move blocks one end only.
		{"open four against", "......./......./......./......./o....../oo...../.xxxx.. o", -losesNext},
		// White to move with an open three on row 3 and no black four.
		{"open three to move", "......./......./......./..ooo../......./x....../x.x.x.. o", openFour},
		// Black to move faces open threes on two lines and has none.
		{"two threes against", "x.x.x../......./.ooo.../x.....o/......o/......o/x.x.... x", -twoThrees},
	} {
		p := position(t, tc.text)
		if got := evaluate(p); got != tc.want {
			t.Errorf("%s: %s evaluates to %d, want %d", tc.name, p, got, tc.want)
		}
	}
	quiet := position(t, "......./......./......./...x.../...o.../......./....... x")
	if v := evaluate(quiet); v <= -twoThrees || v >= twoThrees {
		t.Errorf("a quiet position evaluates to %d, as much as a threat", v)
	}
}

// TestEvaluateIsSymmetric checks that the same stones are worth the
// same to their owner whichever colour they are.
func TestEvaluateIsSymmetric(t *testing.T) {
	p := position(t, "......./......./..xo.../...x.../..oxo../......./....... x")
	pts := p.Points()
	swapped := pts
	for c, v := range swapped {
		if v != 0 {
			swapped[c] = 3 - v
		}
	}
	a, b := Evaluate(&pts, 7, engine.X), Evaluate(&swapped, 7, engine.O)
	if a != b || a == 0 {
		t.Errorf("colour-swapped points evaluate to %d and %d, want the same, not 0", a, b)
	}
}

// TestOrderPrefersTheFight checks move order: a point next to stones
// before a far one, and the centre first on an empty board.
func TestOrderPrefersTheFight(t *testing.T) {
	p := rules.Standard()
	if order(p, rules.Cell(7, 7)) <= order(p, rules.Cell(0, 0)) {
		t.Errorf("on an empty board h8 ranks %d, a1 %d", order(p, rules.Cell(7, 7)), order(p, rules.Cell(0, 0)))
	}
	p.Play(rules.Cell(3, 3))
	if order(p, rules.Cell(4, 4)) <= order(p, rules.Cell(7, 7)) {
		t.Errorf("next to d4, e5 ranks %d and h8 %d", order(p, rules.Cell(4, 4)), order(p, rules.Cell(7, 7)))
	}
}

// TestRowGroupsHoldEveryPointOnce checks the menus: every point of the
// standard board in exactly one, none with more than 25.
func TestRowGroupsHoldEveryPointOnce(t *testing.T) {
	count := make([]int, len(Game.Input.Groups))
	for _, m := range rules.Standard().Moves(nil) {
		in := 0
		for i, g := range Game.Input.Groups {
			if g.Has(m) {
				in++
				count[i]++
			}
		}
		if in != 1 {
			t.Errorf("%s is in %d menus", rules.CellName(m), in)
		}
	}
	for i, n := range count {
		if n > 25 {
			t.Errorf("menu %d has %d points", i+1, n)
		}
	}
}

// TestBoardMarksTheFive checks the board model: row 15 on top, the last
// stone marked, and a won game's line drawn from end to end.
func TestBoardMarksTheFive(t *testing.T) {
	p := rules.Standard()
	var last games.Change
	for _, name := range []string{"a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"} {
		m, err := p.ParseMove(name)
		if err != nil {
			t.Fatal(err)
		}
		last = Game.Play(p, m)
	}
	b := Game.Look.Board(p, &last)
	if len(b.Rows) != 15 || b.RowLabels[0] != "15" || b.ColLabels[14] != "o" {
		t.Fatalf("board of %d rows labelled %v, %v", len(b.Rows), b.RowLabels, b.ColLabels)
	}
	if c := b.Rows[14][4]; !c.Last || !c.Occupied || c.Side != engine.X {
		t.Errorf("e1 is %+v, want black's last stone", c)
	}
	want := [][2]games.Spot{{{Row: 14, Col: 0}, {Row: 14, Col: 4}}}
	if len(b.Lines) != 1 || b.Lines[0] != want[0] {
		t.Errorf("lines %v, want %v", b.Lines, want)
	}
}
