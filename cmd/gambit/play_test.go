package main

import (
	"strings"
	"testing"
)

// TestPlayWiresTheGame: gambit play hands its flags to the terminal game
// (internal/terminal, where the game's own tests are): the game, the
// opponent, who moves first.
func TestPlayWiresTheGame(t *testing.T) {
	code, out, _ := gambitWithInput("quit\n", "play", "--game", "connect4", "--first", "ai", "--vs", "random")
	if code != 0 || !strings.Contains(out, "Connect Four against Random") || !strings.Contains(out, "You play o.") ||
		!strings.Contains(out, "Random plays ") || !strings.Contains(out, "you resign: Random wins") {
		t.Errorf("connect4, ai first, quit: exit %d, output:\n%s", code, out)
	}
}

func TestPlayRejectsBadArguments(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "--game is required"},
		{[]string{"--game", "tictactoe", "--vs", "nobody"}, `unknown strategy "nobody"`},
		{[]string{"--game", "tictactoe", "--first", "both"}, `--first "both"`},
		{[]string{"--game", "tictactoe", "--rounds", "8"}, "--rounds applies to adjacency only"},
		{[]string{"--game", "adjacency", "--rounds", "40"}, "40 rounds"},
		{[]string{"--game", "tictactoe", "--time", "-1s"}, "--time must be positive"},
		{[]string{"--game", "8puzzle"}, "solve it with gambit solve --game 8puzzle"},
		{[]string{"--game", "nqueens", "--vs", "random"}, "solve it with gambit solve --game nqueens"},
	} {
		code, out, errOut := gambit(append([]string{"play"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("play %v: exit %d, stdout %q, stderr %q; want status 2 and an error naming %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
