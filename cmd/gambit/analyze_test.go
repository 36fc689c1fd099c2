package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/strategies/analysis"
)

func TestAnalyzeJSON(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		move  string // "" when any legal move will do
		score int
		exact bool
	}{
		// x to move wins at once on 3 (top row); o threatens nothing.
		{[]string{"--game", "tictactoe", "--position", "xx..o.o.. x"}, "3", 1, true},
		// Perfect play from the start draws.
		{[]string{"--game", "tictactoe"}, "", 0, true},
		// The last cell of a full Adjacency board: O, 32 marks to 31, takes h1
		// and flips g1 and h2: 35 to 29.
		{[]string{"--game", "adjacency", "--position", "oooooooo/oooooooo/oooooooo/oooooooo/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxx. o 1"}, "h1", 6, true},
		// The Connect Four start, from the opening book: the centre wins
		// with the first player's last stone, +1 in Pons' convention.
		{[]string{"--game", "connect4", "--position", "start"}, "4", 1, true},
		// A Connect Four benchmark position: exact score -1 from Pons' set.
		{[]string{"--game", "connect4", "--position", "2252576253462244111563365343671351441"}, "", -1, true},
	} {
		// Every case is solved exactly, which ends the search on its own:
		// the time is only a hang guard (5 s did not cover the Connect
		// Four book under -race on a busy machine).
		code, out, errOut := gambit(append([]string{"analyze", "--json", "--time", "10m"}, tc.args...)...)
		if code != 0 {
			t.Fatalf("analyze %v: exit %d: %s", tc.args, code, errOut)
		}
		var got analysis.Report
		if err := json.Unmarshal([]byte(out), &got); err != nil || strings.Count(out, "\n") != 1 {
			t.Fatalf("analyze %v: %q is not one JSON line: %v", tc.args, out, err)
		}
		if (tc.move != "" && got.Move != tc.move) || got.Score != tc.score || got.Exact != tc.exact {
			t.Errorf("analyze %v = %+v; want move %q score %d exact %v", tc.args, got, tc.move, tc.score, tc.exact)
		}
		if len(got.PV) == 0 || got.PV[0] != got.Move || got.Depth == 0 || got.Nodes == 0 {
			t.Errorf("analyze %v: pv %v, depth %d, nodes %d", tc.args, got.PV, got.Depth, got.Nodes)
		}
	}
}

// TestAnalyzeMoves: --moves plays a game's moves first — the position
// analysed is the one the same moves reach, whatever separates them.
func TestAnalyzeMoves(t *testing.T) {
	analyze := func(args ...string) analysis.Report {
		t.Helper()
		code, out, errOut := gambit(append([]string{"analyze", "--json", "--depth", "4"}, args...)...)
		if code != 0 {
			t.Fatalf("analyze %v: exit %d: %s", args, code, errOut)
		}
		var r analysis.Report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		r.Millis, r.NPS = 0, 0
		return r
	}
	// O first in a 3-round game: c1 takes b1, h6 takes h7, a3 takes a2,
	// f8 takes g8.
	const after = ".....xxo/......ox/.......x/......../......../o......./ox....../xoo..... o 2"
	viaMoves := analyze("--game", "adjacency", "--rounds", "3", "--first", "o", "--moves", "c1,h6 a3  f8")
	viaText := analyze("--game", "adjacency", "--position", after)
	if viaMoves.Move == "" || viaMoves.Move != viaText.Move || viaMoves.Score != viaText.Score || !viaMoves.Exact {
		t.Errorf("--moves gave %+v, the position text %+v", viaMoves, viaText)
	}
	// Connect Four: columns, either way; a JSON list as the arena prints it.
	if a, b := analyze("--game", "connect4", "--moves", `["4","4","5", "3"]`), analyze("--game", "connect4", "--position", "4453"); a.Move != b.Move || a.Score != b.Score {
		t.Errorf("connect4 --moves %+v, --position %+v", a, b)
	}
}

func TestAnalyzeText(t *testing.T) {
	code, out, errOut := gambit("analyze", "--game", "adjacency", "--depth", "3")
	if code != 0 || !strings.HasPrefix(out, "minimax plays ") || !strings.Contains(out, "depth 3") {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	// Each completed iteration is reported on stderr.
	if !strings.Contains(errOut, "depth  1") || !strings.Contains(errOut, "depth  3") {
		t.Errorf("progress on stderr: %q", errOut)
	}
}

func TestAnalyzeRejectsBadArguments(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "adjacency", "--strategy", "oracle"}, `unknown strategy "oracle"`},
		{[]string{"--game", "adjacency", "--time", "0s"}, "--time must be positive"},
		{[]string{"--game", "adjacency", "--time", "soon"}, "invalid value"},
		{[]string{"--game", "adjacency", "--threads", "0"}, "--threads"},
		{[]string{"--game", "tictactoe", "--position", "xxxoo.... o"}, "the game is over"},
		{[]string{"--game", "connect4", "--rounds", "3"}, "apply to adjacency only"},
		{[]string{"--game", "15puzzle"}, "solve it with gambit solve --game 15puzzle"},
		{[]string{"--position", "start"}, "--game is required"},
		{[]string{"--game", "adjacency", "--moves", "a3 z9"}, `--moves: move 2: adjacency: cell "z9"`},
		{[]string{"--game", "adjacency", "--moves", "a3 a3"}, "--moves: move 2: adjacency: move a3: the cell is taken"},
		{[]string{"--game", "tictactoe", "--moves", "1 4 2 5 3 6"}, "--moves: move 6: tictactoe: move 6: the game is over"},
	} {
		code, _, errOut := gambit(append([]string{"analyze"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("analyze %v: exit %d, %q; want status 2 naming %q", tc.args, code, errOut, tc.want)
		}
	}
}
