package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSizeOptionsAreBounded gives every command's size options values
// that crashed the command or asked for more memory than a machine has:
// each is refused, before anything is allocated, with a usage error that
// names the option and its range.
func TestSizeOptionsAreBounded(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w")
	db := filepath.Join(t.TempDir(), "bench.db")
	ttt := []string{"arena", "--game", "tictactoe", "--players", "minimax,random"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--game", "nqueens", "--n", "4611686018427387904"}, "--n 4611686018427387904: must be 4 to 100,000,000"},
		{[]string{"solve", "--game", "nqueens", "--n", "1000000000"}, "--n 1000000000: must be 4 to 100,000,000"},
		{[]string{"solve", "--game", "nqueens", "--n", "0"}, "--n 0: must be 4 to 100,000,000"},
		{[]string{"solve", "--game", "nqueens", "--n", "-5"}, "--n -5: must be 4 to 100,000,000"},
		{[]string{"solve", "--game", "nqueens", "--n", "3"}, "--n 3: 3 queens cannot be placed without two attacking each other"},
		{[]string{"solve", "--game", "nqueens", "--n", "8", "--memory", "0"}, "--memory 0: must be 1 to 1,048,576 MiB"},
		{[]string{"solve", "--game", "8puzzle", "--position", "1,2,3,4,5,6,7,8,0", "--memory", "-1"}, "--memory -1: must be 1 to"},
		{[]string{"analyze", "--game", "adjacency", "--hash", "100000"}, "--hash 100000: must be 1 to 8,192 MiB"},
		{[]string{"analyze", "--game", "adjacency", "--hash", "0"}, "--hash 0: must be 1 to 8,192 MiB"},
		{[]string{"analyze", "--game", "adjacency", "--threads", "1000000"}, "--threads 1000000: must be 1 to 256"},
		{[]string{"analyze", "--game", "adjacency", "--depth", "-1"}, "--depth -1: must be 0 to 1,000"},
		{[]string{"analyze", "--game", "adjacency", "--depth", "1000000"}, "--depth 1000000: must be 0 to 1,000"},
		{append(ttt, "--hash", "100000"), "--hash 100000: must be 1 to 8,192 MiB"},
		{append(ttt, "--concurrency", "1000000"), "--concurrency 1000000: must be 1 to 256"},
		{append(ttt, "--concurrency", "64", "--hash", "1024"), "--concurrency 64 × --hash 1024 MiB: the games' tables would take 65,536 MiB at once; at most 8,192"},
		{append(ttt, "--games", "1000000000"), "--games 1000000000: must be 1 to 100,000"},
		{[]string{"perft", "--game", "tictactoe", "--depth", "-1"}, "--depth -1: must be 0 to 1,000"},
		{[]string{"perft", "--game", "tictactoe", "--depth", "1000000"}, "--depth 1000000: must be 0 to 1,000"},
		{[]string{"train", "--out", out, "--games", "1000000000"}, "--games 1000000000: must be 1 to 100,000"},
		{[]string{"train", "--out", out, "--opening", "9223372036854775807"}, "--opening 9223372036854775807: must be 0 to 1,000"},
		{[]string{"train", "--out", out, "--exact-plies", "-1"}, "--exact-plies -1: must be 0 to 1,000"},
		{[]string{"db", "bench", "--db", db, "--games", "1000000000"}, "--games 1000000000: must be 0 to 1,000,000"},
		{[]string{"db", "bench", "--db", db, "--moves", "1000000000"}, "--moves 1000000000: must be 0 to 10,000"},
		{[]string{"db", "bench", "--db", db, "--concurrency", "1000000"}, "--concurrency 1000000: must be 1 to 256"},
	} {
		code, _, errOut := gambit(tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("gambit %s: exit %d, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, errOut, tc.want)
		}
	}
}

// TestSolveMemoryBudget: a solve that would hold more than --memory
// stops there and says so, an N-Queens board before it is allocated.
func TestSolveMemoryBudget(t *testing.T) {
	code, _, errOut := gambit("solve", "--game", "nqueens", "--n", "50000000")
	if code != 1 || !strings.Contains(errOut, "min-conflicts gave up: 50,000,000 queens take more than the memory budget of 512 MiB (--memory)") {
		t.Errorf("50,000,000 queens: exit %d, stderr %q", code, errOut)
	}
	hard := "0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1" // 80 moves
	code, _, errOut = gambit("solve", "--game", "15puzzle", "--position", hard, "--algorithm", "dfs", "--memory", "4")
	if code != 1 || !strings.Contains(errOut, "dfs gave up: memory budget of 4 MiB reached after ") {
		t.Errorf("dfs within 4 MiB: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut := gambit("solve", "--game", "15puzzle", "--position", hard, "--algorithm", "seed003-bfs", "--memory", "4", "--json")
	if code != 0 || !strings.Contains(out, `"error":"memory budget of 4 MiB reached"`) { // --json reports an unsolved run as it does a solved one
		t.Errorf("seed003-bfs --json within 4 MiB: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestBotSettingsAreBounded: the bot's table and thread settings have
// analyze's bounds, checked at start instead of at the first AI move.
func TestBotSettingsAreBounded(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "secret-token-value")
	t.Setenv("GAMBIT_AI_HASH_MIB", "100000")
	t.Setenv("GAMBIT_SEARCH_THREADS", "1000000")
	t.Setenv("GAMBIT_REVIEW_THREADS", "1000")
	t.Setenv("GAMBIT_REVIEW_NICE", "5")
	// Were the settings taken, the bot would stop at this URL, not at Discord.
	t.Setenv("DISCORD_API_URL", "http://127.0.0.1:1/api/v10")
	t.Setenv("GAMBIT_DB", filepath.Join(t.TempDir(), "gambit.db"))
	code, _, errOut := gambit("bot")
	for _, want := range []string{"GAMBIT_AI_HASH_MIB=100000: at most 8,192", "GAMBIT_SEARCH_THREADS=1000000: at most 256", "GAMBIT_REVIEW_THREADS=1000: at most 256", "GAMBIT_REVIEW_NICE=5: want 10"} {
		if code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, stderr %q; want 1 and %q", code, errOut, want)
		}
	}
}
