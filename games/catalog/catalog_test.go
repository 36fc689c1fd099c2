package catalog

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
)

// TestLookup finds every registered game by its name in any case, and
// checks that the listings agree: Names follows All, the duels come
// before the solo puzzles, no name repeats, and an unknown name's error
// lists them all.
func TestLookup(t *testing.T) {
	for _, name := range []string{"adjacency", "Connect4", " tictactoe "} {
		g, err := Lookup(name)
		if err != nil || !strings.EqualFold(g.Name, strings.TrimSpace(name)) {
			t.Errorf("Lookup(%q) = %v, %v", name, g.Name, err)
		}
	}
	names, seen, solo := Names(), map[string]bool{}, false
	if len(All()) != len(names) || len(names) < 6 {
		t.Fatalf("%d games, %d names; want the same, at least the 6 games of the first release", len(All()), len(names))
	}
	for i, g := range All() {
		if names[i] != g.Name || seen[g.Name] || !Known(g.Name) {
			t.Errorf("game %d: %s, named %q, seen before %v, known %v", i, g.Name, names[i], seen[g.Name], Known(g.Name))
		}
		if found, err := Lookup(strings.ToUpper(g.Name)); err != nil || found != g {
			t.Errorf("Lookup(%q) = %v, %v", strings.ToUpper(g.Name), found, err)
		}
		if g.Solo() {
			solo = true
		} else if solo {
			t.Errorf("the duel %s is listed after a solo puzzle", g.Name)
		}
		seen[g.Name] = true
	}
	_, err := Lookup("chess")
	if err == nil || !strings.Contains(err.Error(), strings.Join(names, ", ")) {
		t.Errorf("Lookup(chess) error %v, want the known names listed", err)
	}
}

// TestOfTellsSharedTypesApart checks that the two sliding-tile puzzles,
// which share a position type, are each found by Of, and that a position
// text of one is not read as the other.
func TestOfTellsSharedTypesApart(t *testing.T) {
	for _, name := range []string{"8puzzle", "15puzzle", "nqueens", "connect4"} {
		g, _ := Lookup(name)
		p, err := g.Start(games.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := Of(p); got != g {
			t.Errorf("Of(%s start) = %v", name, got)
		}
	}
	eight, _ := Lookup("8puzzle")
	if _, err := eight.Position("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0", games.Options{}); err == nil {
		t.Error("the 8-puzzle read a 15-puzzle position")
	}
}

// TestSizeOption checks the board size option of N-Queens: the default,
// a chosen size, bounds, and games without sizes refusing one.
func TestSizeOption(t *testing.T) {
	q, _ := Lookup("nqueens")
	for _, tc := range []struct {
		size int
		want string
	}{{0, "0,0,0,0,0,0,0,0"}, {5, "0,0,0,0,0"}} {
		if p, err := q.Start(games.Options{Size: tc.size}); err != nil || p.String() != tc.want {
			t.Errorf("nqueens size %d: %v, %v; want %s", tc.size, p, err, tc.want)
		}
	}
	for _, size := range []int{3, 13} {
		if _, err := q.Start(games.Options{Size: size}); err == nil {
			t.Errorf("nqueens size %d accepted", size)
		}
	}
	c4, _ := Lookup("connect4")
	if _, err := c4.Start(games.Options{Size: 5}); err == nil {
		t.Error("connect4 took a size")
	}
}

func TestStartAndPosition(t *testing.T) {
	adj, _ := Lookup("adjacency")
	for _, tc := range []struct {
		opts games.Options
		want string
	}{
		{games.Options{}, "......oo/......oo/......../......../......../......../xx....../xx...... x 16"}, // 8 rounds, the default
		{games.Options{Rounds: 5, First: engine.O}, "......oo/......oo/......../......../......../......../xx....../xx...... o 10"},
	} {
		for _, text := range []string{"", "start"} {
			p, err := adj.Position(text, tc.opts)
			if err != nil || p.String() != tc.want {
				t.Errorf("Position(%q, %+v) = %v, %v; want %s", text, tc.opts, p, err, tc.want)
			}
		}
	}
	if _, err := adj.Start(games.Options{Rounds: 29}); err == nil {
		t.Error("29 rounds accepted")
	}
	if _, err := adj.Position("......oo/......oo/......../......../......../......../xx....../xx...... x 56", games.Options{Rounds: 4}); err == nil {
		t.Error("rounds accepted with a position text")
	}
	c4, _ := Lookup("connect4")
	if p, err := c4.Position("4453", games.Options{}); err != nil || p.String() != "4453" {
		t.Errorf("connect4 Position(4453) = %v, %v", p, err)
	}
	if _, err := c4.Start(games.Options{Rounds: 4}); err == nil || !strings.Contains(err.Error(), "no rounds") {
		t.Errorf("connect4 with rounds: %v", err)
	}
	ttt, _ := Lookup("tictactoe")
	if p, err := ttt.Position("start", games.Options{}); err != nil || p.String() != "......... x" {
		t.Errorf("tictactoe start = %v, %v", p, err)
	}
	if _, err := ttt.Position("x........ x", games.Options{}); err == nil {
		t.Error("unreachable tictactoe position accepted")
	}
}

func TestPerft(t *testing.T) {
	for _, g := range All() {
		p, err := g.Start(games.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for depth := range 4 {
			got := g.CountLeaves(p, depth)
			if want := engine.Perft(p, depth, nil); got.Leaves != want {
				t.Errorf("%s perft %d = %d, engine.Perft %d", g.Name, depth, got.Leaves, want)
			}
			if got.HasSums != (g.Name == "adjacency") {
				t.Errorf("%s: HasSums %v", g.Name, got.HasSums)
			}
		}
	}
	adj, _ := Lookup("adjacency")
	p, _ := adj.Start(games.Options{Rounds: 28})
	if c := adj.CountLeaves(p, 2); c != (games.PerftCounts{Leaves: 3080, HasSums: true, SumX: 15206, SumO: 15594}) {
		t.Errorf("adjacency perft 2 = %+v", c)
	}
}

// TestPlugInsSayHowTheyArePlayedAndSolved checks what the command line
// reads from the plug-ins rather than from a list of its own: how a move
// is typed in every duel the AI plays (gambit play's usage), a way of
// solving every puzzle (gambit solve, strategies/puzzles) and a review's
// figures only where a search reviews.
func TestPlugInsSayHowTheyArePlayedAndSolved(t *testing.T) {
	for _, g := range All() {
		if duel := g.Players == 2 && g.AI != nil; duel != (g.Typing != "") {
			t.Errorf("%s: how a move is typed %q; want it for a duel the AI plays, and only then", g.Name, g.Typing)
		}
		if g.Solo() && g.Solve == games.NoSolve {
			t.Errorf("%s is a puzzle solved in no way", g.Name)
		}
		if r := g.AI; r != nil && r.Review != nil && r.Review.Thresholds == nil && r.Review.Budget == nil {
			t.Errorf("%s: an empty Review; leave it nil for the defaults", g.Name)
		}
		if r := g.AI; r != nil && r.Review != nil && r.Review.Thresholds != nil {
			if th := r.Review.Thresholds; !(0 < th.Good && th.Good <= th.Inaccuracy && th.Inaccuracy <= th.Mistake) {
				t.Errorf("%s: review thresholds %+v; want 0 < good ≤ inaccuracy ≤ mistake", g.Name, *th)
			}
		}
	}
}
