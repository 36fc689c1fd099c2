package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/strategies"
)

func strategiesJSON(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	code, out, errOut := gambit(append([]string{"strategies", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("strategies --json %v: exit %d: %s", args, code, errOut)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("strategies --json %v: %v in %q", args, err, out)
	}
	return list
}

func TestStrategiesJSON(t *testing.T) {
	list := strategiesJSON(t)
	if len(list) != len(strategies.All()) {
		t.Errorf("%d strategies listed, %d registered", len(list), len(strategies.All()))
	}
	for _, s := range list {
		keys := make([]string, 0, len(s))
		for k := range s {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, []string{"blurb", "description", "difficulty", "display_name", "games", "name"}) {
			t.Errorf("%v: keys %v, want blurb, description, difficulty, display_name, games, name", s, keys)
		}
		if s["display_name"] == "" || s["blurb"] == "" {
			t.Errorf("%v: no display name or blurb", s["name"])
		}
		games, ok := s["games"].([]any)
		if name, _ := s["name"].(string); name == "" || !ok || len(games) == 0 {
			t.Errorf("%v: want a name and a non-empty array of games", s)
		}
		d, _ := s["difficulty"].(map[string]any)
		if len(d) != len(games) {
			t.Errorf("%v: difficulty %v, want one for each of its games %v", s["name"], s["difficulty"], games)
		}
		for _, g := range games {
			if label, _ := d[g.(string)].(string); !slices.Contains([]string{"easy", "medium", "hard", "perfect"}, label) {
				t.Errorf("%v: difficulty in %v %q outside the vocabulary", s["name"], g, label)
			}
		}
	}
	if !slices.ContainsFunc(list, func(s map[string]any) bool { return s["name"] == "minimax" }) {
		t.Error("minimax not listed")
	}
}

func TestStrategiesFilterByGame(t *testing.T) {
	for _, game := range []string{"adjacency", "connect4", "tictactoe"} {
		list := strategiesJSON(t, "--game", game)
		if len(list) != len(strategies.ForGame(game)) {
			t.Errorf("--game %s: %d listed, want %d", game, len(list), len(strategies.ForGame(game)))
		}
		for _, s := range list {
			if !slices.Contains(s["games"].([]any), any(game)) {
				t.Errorf("--game %s lists %v", game, s)
			}
		}
	}
}

func TestStrategiesTable(t *testing.T) {
	code, out, _ := gambit("strategies", "--game", "tictactoe")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || !strings.HasPrefix(lines[0], "NAME") || len(lines) != 1+len(strategies.ForGame("tictactoe")) {
		t.Fatalf("exit %d, output %q: want a header and a line per strategy", code, out)
	}
	if !slices.ContainsFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, "minimax ") && strings.Contains(l, " perfect ") && strings.Contains(l, "adjacency,connect4,tictactoe") &&
			strings.Contains(l, "Deep thinker") && strings.Contains(l, "looks many moves ahead")
	}) {
		t.Errorf("no minimax line with its games, difficulty in Tic-Tac-Toe (perfect), display name and blurb in %q", out)
	}
	code, _, errOut := gambit("strategies", "--game", "chess")
	if code != 2 || !strings.Contains(errOut, `unknown game "chess"`) {
		t.Errorf("--game chess: exit %d, stderr %q", code, errOut)
	}
}

func TestStrategiesListsPuzzleSolvers(t *testing.T) {
	for game, want := range map[string][]string{
		"8puzzle":  {"bfs", "seed003-bfs", "dfs", "ids", "greedy-h1", "greedy-h2", "astar", "idastar", "idastar-pdb", "idastar-pdb78"},
		"15puzzle": {"bfs", "seed003-bfs", "dfs", "ids", "greedy-h1", "greedy-h2", "astar", "idastar", "idastar-pdb", "idastar-pdb78"},
		"nqueens":  {"backtracking", "hill-climbing", "min-conflicts", "swap-repair"},
	} {
		var got []string
		for _, s := range strategiesJSON(t, "--game", game) {
			got = append(got, s["name"].(string))
			if !slices.Contains(s["games"].([]any), any(game)) {
				t.Errorf("--game %s lists %v", game, s)
			}
			if optimal := s["optimal"].(bool); optimal != slices.Contains([]string{"bfs", "seed003-bfs", "ids", "astar", "idastar", "idastar-pdb", "idastar-pdb78"}, s["name"].(string)) {
				t.Errorf("--game %s: %v", game, s)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("--game %s: %v, want %v", game, got, want)
		}
	}
	code, out, _ := gambit("strategies")
	if code != 0 || !strings.Contains(out, "Puzzle solvers (gambit solve):") || !strings.Contains(out, "min-conflicts") || !strings.Contains(out, "idastar-pdb") {
		t.Errorf("strategies: exit %d, %q", code, out)
	}
}
