package adjsearch

import (
	"context"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
)

// trapPosition: 14 plies left in a game that fills the board, lost by 6
// marks with perfect play. The solver's own choice among the moves that
// keep −6 (e8) leaves shallow searches no wrong reply; another (g3) lets
// some of them give marks away.
const trapPosition = ".oxx.ooo/xo.xooxo/oo.oooo./x..oo.xx/xxxx.oxx/x.x..o.o/ooxxxxox/xxo.xoxx o 14"

// solved is the exact value of b for its side to move.
func solved(t *testing.T, b adjacency.Board) int {
	t.Helper()
	if b.Terminal() {
		return diff(b)
	}
	res, err := New(nil).Search(context.Background(), b, Options{Threads: 1, MaxTableMiB: 4})
	if err != nil || !res.Exact {
		t.Fatalf("%v: not solved: %v", b, err)
	}
	return res.Score
}

// shallowGain is the marks beyond score that the replies of the engine's
// shallow searches (trapDepths) to the move m of b leave b's side to
// move, in total, each outcome solved exactly.
func shallowGain(t *testing.T, b adjacency.Board, m engine.Move, score int) int {
	t.Helper()
	c := b.After(m)
	gain := 0
	for _, d := range trapDepths {
		reply, err := New(nil).Search(context.Background(), c, Options{Depth: d, Threads: 1, MaxTableMiB: trapTableMiB})
		if err != nil {
			t.Fatal(err)
		}
		gain += solved(t, c.After(reply.Move)) - score
	}
	return gain
}

// TestTrapsKeepTheValueAndCatchShallowReplies: with Traps, a solved
// position's move keeps the exact value, and it is one whose shallow
// replies leave more marks than those to the move chosen without; the
// score is the same.
func TestTrapsKeepTheValueAndCatchShallowReplies(t *testing.T) {
	b, err := adjacency.ParseBoard(trapPosition)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := New(nil).Search(context.Background(), b, Options{Threads: 1, MaxTableMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	trapped, err := New(nil).Search(context.Background(), b, Options{Threads: 1, MaxTableMiB: 4, Traps: true})
	if err != nil {
		t.Fatal(err)
	}
	if !trapped.Exact || trapped.Score != plain.Score {
		t.Fatalf("with traps: score %d exact %v; without: %d", trapped.Score, trapped.Exact, plain.Score)
	}
	if got := -solved(t, b.After(trapped.Move)); got != plain.Score {
		t.Fatalf("with traps %s is worth %d, the position %d", b.FormatMove(trapped.Move), got, plain.Score)
	}
	if len(trapped.PV) == 0 || trapped.PV[0] != trapped.Move {
		t.Errorf("line %v does not start with the move %v", trapped.PV, trapped.Move)
	}
	with, without := shallowGain(t, b, trapped.Move, plain.Score), shallowGain(t, b, plain.Move, plain.Score)
	if with <= without {
		t.Errorf("with traps %s: shallow replies leave %+d marks; without, %s: %+d", b.FormatMove(trapped.Move), with, b.FormatMove(plain.Move), without)
	}
}
