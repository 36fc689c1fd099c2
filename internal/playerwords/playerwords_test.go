package playerwords

import (
	"slices"
	"testing"
)

func TestLeaks(t *testing.T) {
	ids := IDs("connect4", "tictactoe", "othello", "minimax", "greedy", "seed003-bfs", "greedy-h1")
	if want := []string{"connect4", "tictactoe", "minimax", "seed003-bfs", "greedy-h1"}; !slices.Equal(ids, want) {
		t.Errorf("IDs = %v, want %v", ids, want)
	}
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Play Connect Four against the Deep thinker (hard).", nil},
		{"Type `/play game:connect4 ai:minimax` to start.", nil},
		{"```\nseed003-bfs 13\n```", nil},
		{"vs minimax", []string{"minimax"}},
		{"Your list — connect4 — your move", []string{"connect4"}},
		{"2 rating(s) removed", []string{"(s)"}},
		{"Gambit devel", []string{"devel"}},
		{"As report 003 says", []string{"report"}},
		{"puzzles: no solution", []string{"puzzles:"}},
		{"Gambit, development build e64b12e", nil},
		{"Greedy (easy) plays othello moves", nil},
	} {
		if got := Leaks(tc.text, ids...); !slices.Equal(got, tc.want) {
			t.Errorf("Leaks(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
