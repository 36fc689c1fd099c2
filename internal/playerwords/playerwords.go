// Package playerwords finds developers' words in what a player reads: the
// reports and issues Gambit grew from, its package names, the IDs of its
// games, strategies and solvers, a lazy plural "(s)", a toolchain's
// "devel". The tests of the bot's catalogue, its rendered messages and
// its suggestions share it, so that one list says what a player never
// reads.
package playerwords

import (
	"regexp"
	"slices"
	"strings"
)

// history are words of the developers' history and code, in English and
// Indonesian: the reports and issues Gambit grew from, its tools, and
// package names as they prefix errors ("puzzles:") or paths
// ("strategies/adjeval", "arena/"). The Arena alone is a word of the
// players' now: a tournament's format, as on Lichess.
var history = regexp.MustCompile(`(?i)\b(reports?|laporan|issues?|isu)\b|\b(slidingtile|puzzles|games|strategies|engine|storage|render|adjeval|adjsearch|c4solver|nqueens|catalog|arena)[:/]|\(s\)|\bdevel\b`)

// code matches Markdown code: fenced blocks and inline spans, where a
// player is shown what to type (`/play game:connect4`) or a table.
var code = regexp.MustCompile("(?s)```.*?```|`[^`\n]*`")

// word matches a run of the characters IDs are made of.
var word = regexp.MustCompile(`[A-Za-z0-9][A-Za-z0-9-]*`)

// Leaks returns the developers' words in text, a text a player reads:
// the history's words anywhere, and outside Markdown code any of ids
// (the names of games, strategies and solvers that are not words of
// the language, such as "connect4" or "seed003-bfs").
func Leaks(text string, ids ...string) []string {
	var out []string
	out = append(out, history.FindAllString(text, -1)...)
	for _, w := range word.FindAllString(code.ReplaceAllString(text, " "), -1) {
		if slices.Contains(ids, strings.ToLower(w)) {
			out = append(out, w)
		}
	}
	return out
}

// IDs keeps of names those a player would not read as words: with a
// digit or a hyphen ("connect4", "greedy-h1"), or among notWords
// ("minimax", "tictactoe").
func IDs(names ...string) []string {
	var out []string
	for _, n := range names {
		n = strings.ToLower(n)
		if strings.ContainsAny(n, "0123456789-") || slices.Contains(notWords, n) {
			out = append(out, n)
		}
	}
	return out
}

// notWords are the IDs without a digit or a hyphen that are no word a
// player reads: the algorithms' bare names and a game's run together.
var notWords = []string{"minimax", "mcts", "astar", "idastar", "bfs", "dfs", "ids", "tictactoe"}
