package main

import (
	"strings"
	"testing"
)

// TestPlayWholeTicTacToeGame plays cells 5, 1, 2, … in order against
// minimax: the cells it took are refused with a message and asked again,
// as is a cell that does not exist, until the game ends. Minimax solves
// each move, which ends its search: its time is only a hang guard, so
// that a busy machine cannot cut a search short and spoil its play.
func TestPlayWholeTicTacToeGame(t *testing.T) {
	code, out, errOut := gambitWithInput("5\n5\n0\nmoves\n\n1\n2\n3\n4\n6\n7\n8\n9\n", "play", "--game", "tictactoe", "--time", "10m")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"You play x.",
		" 1 | 2 | 3\n---+---+---\n 4 | 5 | 6\n---+---+---\n 7 | 8 | 9\n", // the start, cells numbered
		" 4 | x | 6\n",
		"minimax plays ",
		"Not a legal move: move 5: the cell is taken.",
		`Not a legal move: move "0": want a cell 1–9.`,
		"Legal moves: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// "moves" lists every empty cell: nine less x's 5 and minimax's reply.
	i := strings.Index(out, "Legal moves: ")
	if listed := strings.Fields(out[i+len("Legal moves: ") : i+strings.Index(out[i:], "\n")]); len(listed) != 7 {
		t.Errorf("moves listed %v, want the 7 empty cells", listed)
	}
	// Perfect play from minimax: a draw or its win, played to the end.
	end := out[strings.LastIndex(out, "Game over:"):]
	if !strings.HasPrefix(end, "Game over: a draw. Final score: you 0, minimax 0.") &&
		!strings.HasPrefix(end, "Game over: minimax wins. Final score: you -1, minimax 1.") {
		t.Errorf("the game ends %q", end)
	}
	if strings.Contains(out, "you resign") || strings.Contains(out, "End of input") {
		t.Errorf("the game did not reach its end:\n%s", out)
	}
}

func TestPlayEndOfInputResigns(t *testing.T) {
	code, out, _ := gambitWithInput("5\n", "play", "--game", "tictactoe", "--time", "100ms")
	if code != 0 || !strings.Contains(out, "End of input.") || !strings.HasSuffix(out, "Game over: you resign: minimax wins. Final score: you 0, minimax 0.\n") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	code, out, _ = gambitWithInput("quit\n", "play", "--game", "connect4", "--first", "ai", "--vs", "random")
	if code != 0 || !strings.Contains(out, "You play o.") || !strings.Contains(out, "random plays ") ||
		!strings.Contains(out, " 1 2 3 4 5 6 7\n") || !strings.Contains(out, "you resign: random wins") {
		t.Errorf("connect4, ai first, quit: exit %d, output:\n%s", code, out)
	}
}

func TestPlayAdjacencyCoordinates(t *testing.T) {
	code, out, _ := gambitWithInput("i9\nc3\nresign\n", "play", "--game", "adjacency", "--rounds", "2", "--vs", "random")
	for _, want := range []string{
		"   a b c d e f g h\n8  . . . . . . o o  8\n",
		"2  x x . . . . . .  2\n1  x x . . . . . .  1\n   a b c d e f g h\n",
		"3  . . x . . . . .  3\n", // c3 played
		`Not a legal move: cell "i9": want a file a–h and a rank 1–8`,
		"you resign: random wins",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("exit %d: output lacks %q:\n%s", code, want, out)
		}
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
	} {
		code, out, errOut := gambit(append([]string{"play"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("play %v: exit %d, stdout %q, stderr %q; want status 2 and an error naming %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

// TestPlayListsEveryLegalMove: after x 1, o 5, x 4, o 7 (report 003's
// replica answers deterministically) the five empty cells are listed, not
// a line of play that ends when x completes a column.
func TestPlayListsEveryLegalMove(t *testing.T) {
	code, out, errOut := gambitWithInput("1\n4\nmoves\nquit\n", "play", "--game", "tictactoe", "--vs", "seed003-minimax")
	if code != 0 || !strings.Contains(out, "Legal moves: 2 3 6 8 9\n") {
		t.Errorf("exit %d (%s), output:\n%s", code, errOut, out)
	}
}
