package terminal

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/strategies"
)

// play plays game (its start set up by opts) against the strategy vs with
// the person on side human, reading input; it returns what was written.
func play(t *testing.T, game, vs string, opts games.Options, human engine.Side, moveTime time.Duration, input string) string {
	t.Helper()
	g, err := catalog.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	ai, err := strategies.LookupFor(vs, g.Name)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := g.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Play(context.Background(), strings.NewReader(input), &out, Game{Game: g, Start: pos, AI: ai, MoveTime: moveTime, Human: human}); err != nil {
		t.Fatalf("Play: %v\n%s", err, out.String())
	}
	return out.String()
}

// TestWholeTicTacToeGame plays cells 5, 1, 2, … in order against minimax:
// the cells it took are refused with a message and asked again, as is a
// cell that does not exist, until the game ends. Minimax solves each move,
// which ends its search: its time is only a hang guard, so that a busy
// machine cannot cut a search short and spoil its play.
func TestWholeTicTacToeGame(t *testing.T) {
	out := play(t, "tictactoe", "minimax", games.Options{}, engine.X, 10*time.Minute, "5\n5\n0\nmoves\n\n1\n2\n3\n4\n6\n7\n8\n9\n")
	for _, want := range []string{
		"You play x.",
		"\n1 2 3\n4 5 6\n7 8 9\n", // the start, cells numbered
		"\n4 x 6\n",
		"Deep thinker plays ",
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
	if !strings.HasPrefix(end, "Game over: a draw.\n") && !strings.HasPrefix(end, "Game over: Deep thinker wins.\n") {
		t.Errorf("the game ends %q", end)
	}
	if strings.Contains(out, "you resign") || strings.Contains(out, "End of input") {
		t.Errorf("the game did not reach its end:\n%s", out)
	}
}

func TestEndOfInputResigns(t *testing.T) {
	out := play(t, "tictactoe", "minimax", games.Options{}, engine.X, 100*time.Millisecond, "5\n")
	if !strings.Contains(out, "End of input.") || !strings.HasSuffix(out, "Game over: you resign: Deep thinker wins.\n") {
		t.Errorf("output:\n%s", out)
	}
	out = play(t, "connect4", "random", games.Options{}, engine.O, time.Second, "quit\n")
	if !strings.Contains(out, "You play o.") || !strings.Contains(out, "Random plays ") ||
		!strings.Contains(out, "\n1 2 3 4 5 6 7\n") || !strings.Contains(out, "you resign: Random wins") {
		t.Errorf("connect4, ai first, quit: output:\n%s", out)
	}
}

// TestResignationHasNoFinalScore: a game resigned before its end has no
// final score, in every duel: the score of an unfinished position (0 to 0
// in Othello's start, whatever its discs) is not the result. A game that
// counts marks says how many were on the board.
func TestResignationHasNoFinalScore(t *testing.T) {
	for _, g := range catalog.All() {
		if g.Players != 2 {
			continue
		}
		t.Run(g.Name, func(t *testing.T) {
			out := play(t, g.Name, "random", games.Options{}, engine.X, time.Second, "quit\n")
			end := out[strings.LastIndex(out, "Game over:"):]
			want := "Game over: you resign: Random wins.\n"
			if start, err := g.Start(games.Options{}); err == nil && g.Look.Tally != nil {
				x, unit := g.Look.Tally(start, engine.X)
				o, _ := g.Look.Tally(start, engine.O)
				want = fmt.Sprintf("Game over: you resign: Random wins. On the board: x %d %ss, o %d.\n", x, unit, o)
			}
			if end != want {
				t.Errorf("the game ends %q, want %q", end, want)
			}
		})
	}
}

// TestAdjacencyCoordinates: the board shows the files and ranks moves are
// typed in, and the final score counts the marks.
func TestAdjacencyCoordinates(t *testing.T) {
	out := play(t, "adjacency", "random", games.Options{Rounds: 2}, engine.X, time.Second, "i9\nc3\nresign\n")
	for _, want := range []string{
		"\n8  . . . . . . o o  8\n",
		"2  x x . . . . . .  2\n1  x x . . . . . .  1\n   a b c d e f g h\n",
		"3  . . x . . . . .  3\n", // c3 played
		`Not a legal move: cell "i9": want a file a–h and a rank 1–8`,
		"you resign: Random wins",
		" marks, o ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestListsEveryLegalMove: after x 1, o 5, x 4, o 7 (report 003's
// replica answers deterministically) the five empty cells are listed, not
// a line of play that ends when x completes a column.
func TestListsEveryLegalMove(t *testing.T) {
	out := play(t, "tictactoe", "seed003-minimax", games.Options{}, engine.X, time.Second, "1\n4\nmoves\nquit\n")
	if !strings.Contains(out, "Legal moves: 2 3 6 8 9\n") {
		t.Errorf("output:\n%s", out)
	}
}

// TestProgressLines: away from a terminal, progress is a line at every
// tenth of the work and at its end, not one per step.
func TestProgressLines(t *testing.T) {
	var out bytes.Buffer
	report := Progress(&out, "arena", "games")
	for done := 1; done <= 25; done++ {
		report(done, 25)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 10 || lines[0] != "arena: 3/25 games (12%)" || lines[9] != "arena: 25/25 games (100%)" {
		t.Errorf("progress lines:\n%s", out.String())
	}
}
