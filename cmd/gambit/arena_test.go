package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/strategies"
)

// arenaArgs is a cheap, node-limited tic-tac-toe run of two players.
var arenaArgs = []string{"arena", "--game", "tictactoe", "--players", "minimax, random", "--games", "3", "--nodes", "2000", "--seed", "3"}

func TestArenaMarkdown(t *testing.T) {
	code, out, errOut := gambit(arenaArgs...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"# Arena: tictactoe, round robin",
		"4 games per pairing", "2000 nodes a move", "seed 3",
		"| A | B | A wins | B wins | draws | A's score | forfeits |",
		"| minimax | random |",
		"## By first mover", "| A | B | A moving first | A's score | A's margin | A moving second | A's score | A's margin |",
		"## Elo", "| 1 | minimax |", "95% CI",
		"## Pairs", "| A | B | A's pairs | level on games | A's pair score |",
		"## Pair Elo", "| rank | player | Elo | 95% CI | pairs | score |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Not a terminal: plain progress lines, the last at 100%.
	if !strings.HasSuffix(errOut, "arena: 4/4 games (100%)\n") || strings.Contains(errOut, "\r") {
		t.Errorf("stderr %q: want plain progress lines", errOut)
	}
}

func TestArenaJSONReplays(t *testing.T) {
	args := append(append([]string{}, arenaArgs...), "--json", "--concurrency", "2")
	code, out, errOut := gambit(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var report struct {
		Game            string `json:"game"`
		GamesPerPairing int    `json:"games_per_pairing"`
		Seed            uint64 `json:"seed"`
		Results         []struct {
			A, B                string
			Wins, Losses, Draws int
			First               struct{ Wins, Losses, Draws int } `json:"a_first"`
			Second              struct{ Wins, Losses, Draws int } `json:"a_second"`
			Pairs               struct{ Wins, Losses, Draws int } `json:"pairs"`
		} `json:"results"`
		Ratings []struct {
			Elo []struct {
				Name   string
				Elo    float64
				CILow  float64 `json:"ci_low"`
				CIHigh float64 `json:"ci_high"`
			}
			PairElo []struct {
				Name  string
				Elo   float64
				Games int
			} `json:"pair_elo"`
		} `json:"ratings"`
		Games []struct {
			X, O, First, Result string
			Pair                int
			Seed                uint64
			Moves               []string
		} `json:"games"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if report.Game != "tictactoe" || report.Seed != 3 || report.GamesPerPairing != 4 || len(report.Games) != 4 {
		t.Errorf("header %+v", report)
	}
	if r := report.Results; len(r) != 1 || r[0].A != "minimax" || r[0].Wins+r[0].Losses+r[0].Draws != 4 || r[0].Losses != 0 {
		t.Errorf("results %+v: want minimax unbeaten in 4 games against random", r)
	}
	for i := 0; i+1 < len(report.Games); i += 2 { // pairs: consecutive games, sides exchanged, one seed
		g, h := report.Games[i], report.Games[i+1]
		if g.Pair != i/2 || h.Pair != i/2 || g.X != h.O || g.O != h.X || g.Seed != h.Seed {
			t.Errorf("games %d and %d: %+v, %+v; want pair %d", i, i+1, g, h, i/2)
		}
	}
	for _, r := range report.Results {
		if p := r.Pairs; p.Wins+p.Losses+p.Draws != 2 {
			t.Errorf("result %+v: want 2 pairs", r)
		}
		f, s := r.First, r.Second
		if f.Wins+f.Losses+f.Draws != 2 || s.Wins+s.Losses+s.Draws != 2 || f.Wins+s.Wins != r.Wins || f.Draws+s.Draws != r.Draws {
			t.Errorf("result %+v: want its games split 2 and 2 by first mover, adding up", r)
		}
	}
	if e := report.Ratings; len(e) != 1 || len(e[0].Elo) != 2 || !(e[0].Elo[0].CILow < e[0].Elo[0].Elo && e[0].Elo[0].Elo < e[0].Elo[0].CIHigh) ||
		len(e[0].PairElo) != 2 || e[0].PairElo[0].Games != 2 {
		t.Errorf("ratings %+v", e)
	}
	for _, g := range report.Games {
		if g.First != "x" || len(g.Moves) < 5 || !strings.Contains("1-0 0-1 1/2-1/2", g.Result) {
			t.Errorf("game %+v", g)
		}
	}
	if _, again, _ := gambit(args...); again != out {
		t.Errorf("the same seed and node limit gave another run:\n%s\n%s", out, again)
	}
}

// TestArenaExternalPlayers: --external plays another gambit binary's
// strategy (here gambit built without -race, plainGambit) through its analyze
// command, and a binary that does not answer forfeits its games.
func TestArenaExternalPlayers(t *testing.T) {
	t.Parallel()
	args := []string{"arena", "--game", "adjacency", "--rounds", "3", "--players", "minimax",
		"--external", "minimax-ext=minimax@" + plainGambit(t) + ",mute=minimax@false",
		"--games", "4", "--nodes", "100000", "--seed", "5", "--json"}
	code, out, errOut := gambit(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var report struct {
		Results []struct {
			A, B                string
			Wins, Losses, Draws int
			Pairs               struct{ Wins, Losses, Draws int } `json:"pairs"`
		} `json:"results"`
		Games []struct {
			X, O, Forfeit string
			Moves         []string
		} `json:"games"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(report.Results) != 3 || len(report.Games) != 12 {
		t.Fatalf("%d results, %d games; want 3 pairings of 4 games", len(report.Results), len(report.Games))
	}
	for _, r := range report.Results {
		switch {
		case r.A == "minimax" && r.B == "minimax-ext":
			// Both solve a 3-round game from the start: every pair is
			// drawn, each side getting the setup's exact value.
			if r.Pairs.Draws != 2 {
				t.Errorf("minimax against itself as an external player: pairs %+v; want both drawn", r.Pairs)
			}
		case r.B == "mute":
			if r.Wins != 4 {
				t.Errorf("%s against a binary that does not answer: %+v; want 4 wins by forfeit", r.A, r)
			}
		default:
			t.Errorf("unexpected pairing %+v", r)
		}
	}
	for _, g := range report.Games {
		mute := g.X == "mute" || g.O == "mute"
		if mute != (g.Forfeit != "") || mute && !strings.Contains(g.Forfeit, "mute") || !mute && len(g.Moves) != 6 {
			t.Errorf("game %+v: want 6 moves, or a forfeit by mute", g)
		}
	}
}

func TestArenaRejectsBadArguments(t *testing.T) {
	var other string // a strategy that does not play tic-tac-toe, if any
	for _, s := range strategies.All() {
		if !s.Supports("tictactoe") {
			other = s.Name
		}
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--players", "minimax,random"}, "--game is required"},
		{[]string{"--game", "tictactoe"}, "at least two"},
		{[]string{"--game", "tictactoe", "--players", "minimax"}, "at least two"},
		{[]string{"--game", "tictactoe", "--players", "minimax,nobody"}, `unknown strategy "nobody"`},
		{[]string{"--game", "8puzzle", "--players", "astar,bfs"}, "8puzzle is a puzzle for one player, with no AI to play it: solve it with gambit solve --game 8puzzle"},
		{[]string{"--game", "tictactoe", "--players", "minimax,minimax"}, "named twice"},
		{[]string{"--game", "tictactoe", "--players", "minimax,random", "--rounds", "8"}, "--rounds applies to adjacency only"},
		{[]string{"--game", "adjacency", "--players", "minimax,random", "--rounds", "8,x"}, "--rounds"},
		{[]string{"--game", "adjacency", "--players", "minimax,random", "--rounds", "30"}, "30 rounds"},
		{[]string{"--game", "tictactoe", "--players", "minimax,random", "--gauntlet", "greedy"}, "gauntlet player greedy"},
		{[]string{"--game", "tictactoe", "--players", "minimax,random", "--time", "0s"}, "--time must be positive"},
		{[]string{"--game", "tictactoe", "--players", "minimax,random", "--nodes", "0"}, "--nodes must be positive"},
		{[]string{"--game", "tictactoe", "--players", "minimax,random", "--games", "0"}, "--games 0: must be 1 to 100,000"},
		{[]string{"--game", "tictactoe", "--players", "minimax,random", "--concurrency", "0"}, "--concurrency"},
		{[]string{"--game", "tictactoe", "--players", "minimax", "--external", "old=/tmp/gambit-old"}, "want NAME=STRATEGY@PATH"},
		{[]string{"--game", "tictactoe", "--players", "minimax", "--external", "old=minimax@/no/such/gambit"}, "--external old"},
		{[]string{"--game", "tictactoe", "--players", "minimax", "--external", "minimax=minimax@" + os.Args[0]}, "named twice"},
	}
	if other != "" {
		cases = append(cases, struct {
			args []string
			want string
		}{[]string{"--game", "tictactoe", "--players", "minimax," + other}, "does not play tictactoe"})
	}
	for _, tc := range cases {
		code, out, errOut := gambit(append([]string{"arena"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "gambit arena --help") {
			t.Errorf("arena %v: exit %d, stdout %q, stderr %q; want status 2 and an error naming %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

// TestWrongStrategyListsOnlyTheGamesStrategies: the error for a strategy
// that is unknown, or does not play the game, suggests only strategies
// that play it, in arena, play and analyze alike.
func TestWrongStrategyListsOnlyTheGamesStrategies(t *testing.T) {
	var other string // a strategy that does not play tic-tac-toe
	for _, s := range strategies.All() {
		if !s.Supports("tictactoe") {
			other = s.Name
		}
	}
	if other == "" {
		t.Skip("every strategy plays tic-tac-toe")
	}
	for _, args := range [][]string{
		{"arena", "--game", "tictactoe", "--players", "minimax,nobody"},
		{"arena", "--game", "tictactoe", "--players", "minimax," + other},
		{"play", "--game", "tictactoe", "--vs", "nobody"},
		{"analyze", "--game", "tictactoe", "--position", "start", "--strategy", other},
	} {
		code, _, errOut := gambit(args...)
		if code != 2 || !strings.Contains(errOut, "want one of") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error listing strategies", args, code, errOut)
			continue
		}
		listed := errOut[strings.Index(errOut, "want one of"):]
		listed = listed[:strings.Index(listed, "\n")]
		for _, s := range strategies.All() {
			if !s.Supports("tictactoe") && strings.Contains(listed, s.Name) {
				t.Errorf("%v suggests %s, which does not play tictactoe: %q", args, s.Name, listed)
			}
		}
	}
}
