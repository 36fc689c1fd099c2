package main

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// solveLines are benchmark positions of Pons' sets with their scores.
var solveLines = []struct {
	moves string
	score int
}{
	{"2252576253462244111563365343671351441", -1},
	{"7422341735647741166133573473242566", 1},
	{"23163416124767223154467471272416755633", 0},
	{"52753311433677442422121", 8},
	{"271713432331713132", -11},
}

func TestSolve(t *testing.T) {
	for _, weak := range []bool{false, true} {
		var input strings.Builder
		for i, l := range solveLines {
			if i == 0 {
				input.WriteString(l.moves + "\n\n") // one field, then a blank line
				continue
			}
			input.WriteString(l.moves + " " + strconv.Itoa(l.score) + "\n")
		}
		args := []string{"solve", "--game", "connect4"}
		if weak {
			args = append(args, "--weak")
		}
		code, out, errOut := gambitWithInput(input.String(), args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(solveLines) {
			t.Fatalf("%v: %d lines, want %d: %q", args, len(lines), len(solveLines), out)
		}
		for i, line := range lines {
			want := solveLines[i].score
			if weak {
				want = max(-1, min(want, 1))
			}
			fields := strings.Fields(line)
			if len(fields) != 4 || fields[0] != solveLines[i].moves || fields[1] != strconv.Itoa(want) {
				t.Errorf("%v: line %q; want %s %d <nodes> <µs>", args, line, solveLines[i].moves, want)
				continue
			}
			for _, f := range fields[2:] {
				if _, err := strconv.ParseUint(f, 10, 64); err != nil {
					t.Errorf("%v: line %q: %q is not a count", args, line, f)
				}
			}
		}
		if !strings.Contains(errOut, "5 positions, 0 mismatches, mean ") || !strings.Contains(errOut, " nodes") {
			t.Errorf("%v: summary %q", args, errOut)
		}
	}
}

func TestSolveMismatch(t *testing.T) {
	input := "52753311433677442422121 8\n271713432331713132 -10\n"
	code, out, errOut := gambitWithInput(input, "solve", "--game", "connect4")
	if code != 1 || strings.Count(out, "\n") != 2 ||
		!strings.Contains(errOut, "line 2: 271713432331713132 scores -11, expected -10") ||
		!strings.Contains(errOut, "2 positions, 1 mismatches") {
		t.Errorf("exit %d, stdout %q, stderr %q; want status 1 naming line 2", code, out, errOut)
	}
	// The weak solve compares signs only: -10 and -11 agree.
	if code, _, errOut := gambitWithInput(input, "solve", "--game", "connect4", "--weak"); code != 0 {
		t.Errorf("--weak: exit %d, stderr %q; want 0", code, errOut)
	}
	code, _, errOut = gambitWithInput("52753311433677442422121 -8\n", "solve", "--game", "connect4", "--weak")
	if code != 1 || !strings.Contains(errOut, "scores 1, expected -1") {
		t.Errorf("--weak, wrong sign: exit %d, stderr %q; want status 1", code, errOut)
	}
}

func TestSolveRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		input string
		args  []string
		want  string
	}{
		{"271713432331713132\n271713432331713132 -11 7\n", nil, "line 2: 3 fields"},
		{"271713432331713132\n\n448\n", nil, `line 3: connect4: position "448"`},
		{"4444444\n", nil, "line 1: connect4: position \"4444444\": move 7: column 4 is full"},
		{"4453 draw\n", nil, `line 1: expected score "draw" is not an integer`},
		{"", []string{"--game", "adjacency"}, "solve knows connect4, 8puzzle, 15puzzle and nqueens, not adjacency"},
		{"", []string{"--game", "go"}, `unknown game "go"`},
		{"", []string{}, "--game is required"},
		{"", []string{"--game", "connect4", "more"}, `unexpected argument "more"`},
	} {
		args := tc.args
		if args == nil {
			args = []string{"--game", "connect4"}
		}
		code, _, errOut := gambitWithInput(tc.input, append([]string{"solve"}, args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "gambit solve --help") {
			t.Errorf("solve %v with %q: exit %d, stderr %q; want status 2 and an error naming %q", args, tc.input, code, errOut, tc.want)
		}
	}
}

func TestSolveHelp(t *testing.T) {
	code, out, _ := gambit("solve", "--help")
	if code != 0 || !strings.Contains(out, "Usage: gambit solve") || !strings.Contains(out, "-weak") {
		t.Errorf("solve --help: exit %d, output %q", code, out)
	}
}

// TestSolveConnectFourSaysItIsAliveAndHonoursTime: an early position off
// the opening book's lines of play (after 5 moves that neither side
// following the book would play; 58 M nodes, seconds to solve) makes
// solve say on standard error that it is still at it, give up after
// --time, and go on with the next line.
func TestSolveConnectFourSaysItIsAliveAndHonoursTime(t *testing.T) {
	defer func(d time.Duration) { solveProgressEvery = d }(solveProgressEvery)
	solveProgressEvery = time.Millisecond
	l := solveLines[0]
	code, out, errOut := gambitWithInput("67676\n"+l.moves+"\n", "solve", "--game", "connect4", "--time", "500ms")
	if code != 1 {
		t.Errorf("exit %d, want 1 for a position given up", code)
	}
	for _, want := range []string{"line 1: still solving 67676 after", "line 1: 67676 not solved within 500ms", "1 positions not solved"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
	}
	if !strings.HasPrefix(out, l.moves+" "+strconv.Itoa(l.score)+" ") || strings.Count(out, "\n") != 1 {
		t.Errorf("stdout %q, want the second line's solution alone", out)
	}
}
