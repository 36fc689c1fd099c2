package render

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/storage"
)

// TestMenusOfferTheMovesThatMatter plays random games of every game whose
// menu under the column buttons is chosen by the position (Input.Picks):
// on each board a person is to move, that one menu is there, lists only
// legal moves, at most a menu's 25, and the ones its game promises —
// every legal move of Othello, the points next to Gomoku's stones, the
// safe squares of N-Queens — rather than one row of the board (the menus
// reached rows 1–6 of Othello, row 1 of Gomoku, a1 to g2 of 8 queens).
func TestMenusOfferTheMovesThatMatter(t *testing.T) {
	checks := map[string]func(pos engine.Position, m engine.Move) bool{
		"othello": func(engine.Position, engine.Move) bool { return true },
		"gomoku":  nextToAStone,
		"nqueens": safe,
	}
	for name := range checks {
		if gm, err := catalog.Lookup(name); err != nil || gm.Input.Picks == nil {
			t.Errorf("%s chooses no moves for its menu (%v): its menus reach a few rows of the board", name, err)
		}
	}
	randomGames := 3
	if racetest.Short(t, "one random game a game, not 3") {
		randomGames = 1
	}
	for _, gm := range catalog.All() {
		if gm.Input.Picks == nil {
			continue
		}
		check, ok := checks[gm.Name]
		if !ok {
			t.Errorf("%s picks its menu's moves, and this test does not know what it promises", gm.Name)
			continue
		}
		rng := rand.New(rand.NewPCG(3, uint64(len(gm.Name))))
		for game := range randomGames {
			pos, err := gm.Start(games.Options{})
			if err != nil {
				t.Fatal(err)
			}
			g := newGame(storage.Kind(gm.Name), storage.StatusActive, alice, bob)
			if gm.Solo() {
				g.Players = g.Players[:1]
			}
			for ply := 0; !pos.Terminal() && ply < 60; ply++ {
				g.Position, g.Moves = pos.String(), make([]string, ply)
				legal := pos.Moves(nil)
				menu := theSelect(moveComponents(en, g, gm, pos, true))
				if menu == nil {
					t.Fatalf("%s game %d ply %d: no menu under the columns", gm.Name, game, ply)
				}
				var offered []engine.Move
				for _, o := range menu.Options {
					m, err := pos.ParseMove(o.Value)
					if err != nil || !slices.Contains(legal, m) {
						t.Fatalf("%s game %d ply %d: the menu offers %q, no legal move (%v)", gm.Name, game, ply, o.Value, err)
					}
					if !check(pos, m) {
						t.Errorf("%s game %d ply %d: the menu offers %s, which it does not promise", gm.Name, game, ply, o.Value)
					}
					offered = append(offered, m)
				}
				if len(offered) > games.MaxPicks {
					t.Errorf("%s: %d options", gm.Name, len(offered))
				}
				var promised int
				for _, m := range legal {
					if check(pos, m) {
						promised++
					}
				}
				if want := min(promised, games.MaxPicks); len(offered) != want {
					t.Errorf("%s game %d ply %d: %d moves offered of %d promised", gm.Name, game, ply, len(offered), promised)
				}
				pos.Play(legal[rng.IntN(len(legal))])
			}
		}
	}
}

// theSelect returns the select menu among components, nil if none.
func theSelect(components []discordgo.MessageComponent) *discordgo.SelectMenu {
	for _, c := range components {
		if r, ok := c.(discordgo.ActionsRow); ok {
			for _, in := range r.Components {
				if s, ok := in.(discordgo.SelectMenu); ok {
					return &s
				}
			}
		}
	}
	return nil
}

// nextToAStone reports whether Gomoku's point m touches a stone, or on
// an empty board is within two points of the centre.
func nextToAStone(pos engine.Position, m engine.Move) bool {
	gm := catalog.Of(pos)
	board := gm.Look.Board(pos, nil)
	if len(pos.Moves(nil)) == len(board.Rows)*len(board.Rows[0]) { // empty
		mid := len(board.Rows) / 2
		for r, row := range board.Rows {
			for c, cell := range row {
				if cell.Move == m {
					return max(r-mid, mid-r) <= 2 && max(c-mid, mid-c) <= 2
				}
			}
		}
	}
	for r, row := range board.Rows {
		for c, cell := range row {
			if cell.Move != m {
				continue
			}
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					if rr, cc := r+dr, c+dc; rr >= 0 && rr < len(board.Rows) && cc >= 0 && cc < len(row) && board.Rows[rr][cc].Occupied {
						return true
					}
				}
			}
		}
	}
	return false
}

// safe reports whether an N-Queens move puts a queen where no other
// attacks it.
func safe(pos engine.Position, m engine.Move) bool {
	after := pos.Clone()
	after.Play(m)
	gm := catalog.Of(pos)
	for _, row := range gm.Look.Board(after, nil).Rows {
		for _, cell := range row {
			if cell.Move == m {
				return cell.Occupied && !cell.Attacked
			}
		}
	}
	return false
}
