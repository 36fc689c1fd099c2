package othello

import (
	"slices"
	"testing"

	rules "github.com/gambitbot/gambit/engine/othello"
)

// TestBoardMarksTheLegalMoves: the board model marks the empty squares
// where the side to move may play, which the picture draws as dots, and
// the menu offers exactly those: at the start d3, c4, f5 and e6.
func TestBoardMarksTheLegalMoves(t *testing.T) {
	pos := rules.New()
	var marked []string
	for _, row := range board(pos, nil).Rows {
		for _, c := range row {
			if c.Legal {
				if c.Occupied {
					t.Errorf("%s is marked legal and occupied", pos.FormatMove(c.Move))
				}
				marked = append(marked, pos.FormatMove(c.Move))
			}
		}
	}
	slices.Sort(marked)
	var legal []string
	for _, m := range pos.Moves(nil) {
		legal = append(legal, pos.FormatMove(m))
	}
	slices.Sort(legal)
	if !slices.Equal(marked, legal) || len(legal) != 4 {
		t.Errorf("marked %v, legal %v; want the four opening moves", marked, legal)
	}
	var picked []string
	for _, m := range Game.Input.Picks(pos) {
		picked = append(picked, pos.FormatMove(m))
	}
	if slices.Sort(picked); !slices.Equal(picked, legal) {
		t.Errorf("the menu offers %v, want %v", picked, legal)
	}
}
