package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gambitbot/gambit/games/catalog"
)

// gambit runs the command line in-process and returns its exit status and
// outputs.
func gambit(args ...string) (code int, stdout, stderr string) {
	return gambitWithInput("", args...)
}

// gambitWithInput is gambit with the given standard input.
func gambitWithInput(input string, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, stdio{in: strings.NewReader(input), out: &out, err: &errOut})
	return code, out.String(), errOut.String()
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		code, out, _ := gambit(args...)
		if code != 0 || !strings.Contains(out, "perft") || !strings.Contains(out, "Usage:") {
			t.Errorf("gambit %v: exit %d, output %q", args, code, out)
		}
	}
	// The games and what solve does come from the catalog, not a list
	// written once.
	_, out, _ := gambit("--help")
	for _, g := range catalog.All() {
		if !strings.Contains(out, g.Name) {
			t.Errorf("gambit --help does not name %s:\n%s", g.Name, out)
		}
	}
	if strings.Contains(out, "Adjacency, Connect Four and Tic-Tac-Toe") || !strings.Contains(out, "the puzzles") {
		t.Errorf("gambit --help names three games, or not that solve solves the puzzles:\n%s", out)
	}
	_, games, _ := strings.Cut(out, "for a command's options.\n")
	for _, line := range strings.Split(games, "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("gambit --help has a line of %d characters, past a terminal's 80: %q", n, line)
		}
	}
	code, _, errOut := gambit()
	if code != 2 || !strings.Contains(errOut, "Commands:") {
		t.Errorf("gambit alone: exit %d, stderr %q; want the usage and status 2", code, errOut)
	}
	code, _, errOut = gambit("fly")
	if code != 2 || !strings.Contains(errOut, `unknown command "fly"`) {
		t.Errorf("gambit fly: exit %d, stderr %q", code, errOut)
	}
	for _, args := range [][]string{{"perft", "--help"}, {"help", "perft"}} {
		code, out, _ := gambit(args...)
		if code != 0 || !strings.Contains(out, "Usage: gambit perft") || !strings.Contains(out, "-depth") {
			t.Errorf("gambit %v: exit %d, output %q", args, code, out)
		}
	}
}

func perftJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errOut := gambit(append([]string{"perft", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("perft %v: exit %d: %s", args, code, errOut)
	}
	var got map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("perft %v: %v in %q", args, err, out)
	}
	for key, v := range got {
		if _, err := v.(json.Number).Int64(); err != nil {
			t.Errorf("perft %v: %s = %v, want an integer", args, key, v)
		}
	}
	return got
}

func TestPerftJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args           []string
		leaves, sx, so string
		wantSums       bool
	}{
		{[]string{"--game", "adjacency", "--depth", "1"}, "56", "284", "220", true},
		{[]string{"--game", "adjacency", "--depth", "3", "--position", "start"}, "166320", "1010184", "819336", true},
		{[]string{"--game", "adjacency", "--depth", "4", "--rounds", "28", "--first", "x"}, "8814960", "51804540", "53974980", true},
		{[]string{"--game", "adjacency", "--depth", "5"}, "458377920", "3244772640", "2714140320", true},
		// From the start with O to move the roles mirror: the sums swap.
		{[]string{"--game", "adjacency", "--depth", "2", "--first", "o"}, "3080", "15594", "15206", true},
		// Two rounds: the game ends after 4 moves, so depth 6 counts as 4.
		{[]string{"--game", "adjacency", "--depth", "6", "--rounds", "2"}, "8814960", "51804540", "53974980", true},
		{[]string{"--game", "connect4", "--depth", "8"}, "5686266", "", "", false},
		{[]string{"--game", "tictactoe", "--depth", "9"}, "255168", "", "", false},
		{[]string{"--game", "tictactoe", "--depth", "2", "--position", "x...o.... x"}, "42", "", "", false},
	} {
		got := perftJSON(t, tc.args...)
		if got["leaves"].(json.Number).String() != tc.leaves {
			t.Errorf("perft %v: leaves %v, want %s", tc.args, got["leaves"], tc.leaves)
		}
		_, hasX := got["sum_x"]
		_, hasO := got["sum_o"]
		if hasX != tc.wantSums || hasO != tc.wantSums {
			t.Errorf("perft %v: sums present %v/%v, want %v", tc.args, hasX, hasO, tc.wantSums)
		}
		if tc.sx != "" && (got["sum_x"].(json.Number).String() != tc.sx || got["sum_o"].(json.Number).String() != tc.so) {
			t.Errorf("perft %v: sums %v %v, want %s %s", tc.args, got["sum_x"], got["sum_o"], tc.sx, tc.so)
		}
		for _, key := range []string{"seconds", "ms", "nps"} {
			if _, ok := got[key]; !ok {
				t.Errorf("perft %v: no %q", tc.args, key)
			}
		}
	}
}

// TestPerftMoves: the position --moves reaches counts like the same
// position given as text, flip checksums included.
func TestPerftMoves(t *testing.T) {
	// O first in a 3-round game: c1 takes b1, h6 takes h7, a3 takes a2,
	// f8 takes g8.
	viaMoves := perftJSON(t, "--game", "adjacency", "--rounds", "3", "--first", "o", "--depth", "2", "--moves", "c1 h6 a3 f8")
	viaText := perftJSON(t, "--game", "adjacency", "--depth", "2", "--position", ".....xxo/......ox/.......x/......../......../o......./ox....../xoo..... o 2")
	for _, key := range []string{"leaves", "sum_x", "sum_o"} {
		if viaMoves[key] != viaText[key] {
			t.Errorf("%s: %v via --moves, %v via the position text", key, viaMoves[key], viaText[key])
		}
	}
}

func TestPerftText(t *testing.T) {
	code, out, _ := gambit("perft", "--game", "adjacency", "--depth", "2")
	if code != 0 || strings.Count(out, "\n") != 1 || !strings.Contains(out, "3080 leaves, sum_x 15206, sum_o 15594") {
		t.Errorf("exit %d, output %q; want one line with the counts", code, out)
	}
}

func TestPerftRejectsBadArguments(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--depth", "2"}, "--game is required"},
		{[]string{"--game", "adjacency"}, "--depth is required"},
		{[]string{"--game", "adjacency", "--depth", "-1"}, "--depth -1: must be 0 to 1,000"},
		{[]string{"--game", "go", "--depth", "1"}, `unknown game "go"`},
		{[]string{"--game", "connect4", "--depth", "1", "--rounds", "3"}, "apply to adjacency only"},
		{[]string{"--game", "adjacency", "--depth", "1", "--rounds", "30"}, "30 rounds"},
		{[]string{"--game", "adjacency", "--depth", "1", "--first", "z"}, "--first"},
		{[]string{"--game", "adjacency", "--depth", "1", "--position", "xx"}, "want 3 fields"},
		{[]string{"--game", "connect4", "--depth", "1", "--position", "4444444"}, "column 4 is full"},
		{[]string{"--game", "adjacency", "--depth", "x"}, "invalid value"},
		{[]string{"--game", "adjacency", "--depth", "1", "more"}, `unexpected argument "more"`},
		{[]string{"--colour", "red"}, "not defined"},
	} {
		code, out, errOut := gambit(append([]string{"perft"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "gambit perft --help") {
			t.Errorf("perft %v: exit %d, stdout %q, stderr %q; want status 2 and an error naming %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

// TestEachCommandOffersTheGamesItTakes: the games a command's usage offers
// for --game (its synopsis and the option's line) are exactly those it
// does not refuse as a puzzle without an AI: play, analyze, review and
// arena offered the puzzles and then refused them.
func TestEachCommandOffersTheGamesItTakes(t *testing.T) {
	t.Parallel()
	for cmd, args := range map[string][]string{
		"play":    nil,
		"analyze": {"--depth", "1"},
		"review":  {"--moves", "1"},
		"arena":   {"--players", "random,greedy", "--games", "2", "--nodes", "10"},
		"perft":   {"--depth", "1"},
	} {
		_, usage, _ := gambit(cmd, "--help")
		synopsis := regexp.MustCompile(`--game (\S+)`).FindStringSubmatch(usage)
		option := regexp.MustCompile(`the game: ([^(]+) \(required\)`).FindStringSubmatch(usage)
		if synopsis == nil || option == nil {
			t.Errorf("gambit %s --help names no games for --game:\n%s", cmd, usage)
			continue
		}
		offered := strings.Split(synopsis[1], "|")
		if listed := strings.Split(option[1], ", "); !slices.Equal(listed, offered) {
			t.Errorf("gambit %s --help: the synopsis offers %v, the option %v", cmd, offered, listed)
		}
		for _, name := range catalog.Names() {
			_, _, errOut := gambit(append([]string{cmd, "--game", name}, args...)...)
			if refused := strings.Contains(errOut, "is a puzzle for one player"); refused == slices.Contains(offered, name) {
				t.Errorf("gambit %s --game %s: offered %v, refused as a puzzle %v (%q)", cmd, name, slices.Contains(offered, name), refused, errOut)
			}
		}
	}
}
