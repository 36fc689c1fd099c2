package render

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/internal/playerwords"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// TestCompareExplainsEachAlgorithm: the Compare algorithms table names
// each algorithm by its ID (the one gambit solve takes), and below it one
// line in the player's language says what each does, so that `ids` or
// `seed003-bfs` is never left unexplained; the whole message fits one
// Discord message in every language, with every solver of a puzzle.
func TestCompareExplainsEachAlgorithm(t *testing.T) {
	var tiles, queens []string
	for _, s := range puzzles.TileSolvers() {
		tiles = append(tiles, s.Name)
	}
	for _, s := range puzzles.QueensSolvers() {
		queens = append(queens, s.Name)
	}
	for _, names := range [][]string{tiles, queens} {
		runs := make([]puzzles.Run, len(names))
		done := make([]bool, len(names))
		for i, n := range names {
			runs[i] = puzzles.Run{Algorithm: n, Solved: true, Length: 33, Nodes: 1234567, Elapsed: 1500 * time.Millisecond, Optimal: "proved"}
			done[i] = true
		}
		for _, loc := range i18n.Locales() {
			l := i18n.For(loc)
			m := Compare(l, runs, done, 1_000_000, 10*time.Second)
			if n := utf8.RuneCountInString(m.Content); n > maxContent || strings.HasSuffix(m.Content, "…") {
				t.Errorf("%s: the comparison of %v is %d characters, cut to fit", loc, names, n)
			}
			_, below, _ := strings.Cut(m.Content[strings.LastIndex(m.Content, "```"):], "\n")
			for _, n := range names {
				if !strings.Contains(below, "`"+n+"` "+l.T("solver."+n)) {
					t.Errorf("%s: no line explains %s below the table:\n%s", loc, n, m.Content)
				}
			}
			if leaks := playerwords.Leaks(m.Content, playerwords.IDs(names...)...); len(leaks) > 0 {
				t.Errorf("%s: the comparison says %q outside its table and legend's names:\n%s", loc, leaks, m.Content)
			}
		}
	}
}
