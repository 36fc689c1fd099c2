package othsolve_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gambitbot/gambit/engine/othello"
	"github.com/gambitbot/gambit/strategies/othsolve"
)

// Solve gives the exact final disc difference for the side to move, a
// move that achieves it and the rest of a perfect game. The position is
// FFO problem #40 after its best line's first moves a2 b1 c1, a pass and
// b6: White to move with 16 empty squares, and Black, who scores +38 in
// the problem, still wins by 38.
func Example() {
	p, err := othello.Parse("ooxxxxxx/xoxxxxxx/ooxoxoox/ooxxooxx/ooxoooxx/.x.oooox/....o..x/........ o")
	if err != nil {
		fmt.Println(err)
		return
	}
	me := p.SideToMove()
	r, err := othsolve.New(1<<20).Solve(context.Background(), p.Bitboard(me), p.Bitboard(me.Other()), 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	var pv []string
	for _, m := range r.PV {
		pv = append(pv, p.FormatMove(m))
	}
	fmt.Println("score", r.Score, "move", p.FormatMove(r.Move))
	fmt.Println(strings.Join(pv, " "))
	// Output:
	// score -38 move b7
	// b7 a7 c7 b8 d7 f8 c6 f7 g7 a8 pass d8 e8 c8 g8 a6 pass h8
}
