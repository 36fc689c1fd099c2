package render

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
)

// lineCells splits a line of an emoji grid into what a reader sees as
// cells: a keycap, a regional-indicator letter, one emoji with its
// variation selector; ok is false if the line holds plain text, which is
// narrower than an emoji and shifts the row.
func lineCells(line string) (cells int, ok bool) {
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\u200b' || r == '\uFE0F' || r == '\u20E3':
			// joiners of the cell before
		case r >= '0' && r <= '9' && i+2 < len(rs) && rs[i+1] == '\uFE0F' && rs[i+2] == '\u20E3':
			cells++
			i += 2
		case r < 0x2000:
			return cells, false
		default:
			cells++
		}
	}
	return cells, true
}

// TestGridRowsLineUp: every line of every game's emoji grid — the rows
// with their labels and the column labels under them — is emoji alone and
// as wide as the others, at the start and in random games (Gomoku's rows
// 11–15 were labelled with plain digits, narrower than a keycap, and sat
// shifted left).
func TestGridRowsLineUp(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, gm := range catalog.All() {
		pos, err := gm.Start(games.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 12 && !pos.Terminal(); ply++ {
			g := grid(gm.Look, gm.Look.Board(pos, nil))
			want := -1
			for n, line := range strings.Split(g, "\n") {
				cells, ok := lineCells(line)
				if !ok {
					t.Errorf("%s ply %d: line %d holds plain text: %q", gm.Name, ply, n+1, line)
				}
				if want < 0 {
					want = cells
				} else if cells != want {
					t.Errorf("%s ply %d: line %d is %d cells wide, the first %d:\n%s", gm.Name, ply, n+1, cells, want, g)
					break
				}
			}
			moves := pos.Moves(nil)
			pos.Play(moves[rng.IntN(len(moves))])
		}
	}
}

// TestPictureAloneLeavesOutTheGridsNote: the 15-puzzle's note on the
// emoji grid's letters (🇦 to 🇫 for tiles 10 to 15) goes with the grid;
// a board shown as a picture alone, whose tiles carry their numbers,
// does not say it.
func TestPictureAloneLeavesOutTheGridsNote(t *testing.T) {
	g := newGame(storage.Kind("15puzzle"), storage.StatusActive, alice, bob)
	g.Players = g.Players[:1]
	gm := gameOf(g.Kind)
	pos, err := gm.Start(games.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g.Position = pos.String()
	for form, want := range map[storage.BoardForm]bool{storage.BoardPicture: false, storage.BoardEmoji: true, storage.BoardBoth: true} {
		m := Game(View{Game: g, Pos: pos, Lang: en, Board: form})
		if says := strings.Contains(description(t, m), "🇦 to 🇫"); says != want {
			t.Errorf("board %q: says the grid's letters %v, want %v:\n%s", form, says, want, description(t, m))
		}
	}
}
