// Package tiles is the plug-in of the sliding-tile puzzles, the 8-puzzle
// and the 15-puzzle: their rules are engine/slidingtile, and this package
// adds their boards of buttons (a tile next to the blank slides into it
// when pressed), their emoji and help. They are solo puzzles: no AI plays
// them; strategies/puzzles solves them.
package tiles

import (
	"embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/slidingtile"
	"github.com/gambitbot/gambit/games"
)

// The standard starts, for the command line's "start": the start of
// Russell and Norvig's 8-puzzle (20 moves from this goal, whose blank is
// last) and a 15-puzzle 22 moves from the goal. The bot deals scrambled
// starts of its own.
const (
	start8  = "7,2,4,5,0,6,8,3,1"
	start15 = "5,1,3,4,9,2,7,8,13,6,10,12,15,14,11,0"
)

// locales holds the puzzles' texts, a directory for each puzzle named
// by its Name (games.Game.Texts).
//
//go:embed locales
var locales embed.FS

// Eight is the 8-puzzle plug-in.
var Eight = game(3, "8puzzle", "8-Puzzle", start8)

// Fifteen is the 15-puzzle plug-in.
var Fifteen = game(4, "15puzzle", "15-Puzzle", start15)

// blankEmoji draws the blank in an emoji grid.
const blankEmoji = "⬛"

// game returns the plug-in of the puzzle of the given side.
func game(size int, name, title, start string) *games.Game {
	n := size*size - 1
	g := &games.Game{
		Name:     name,
		Title:    title,
		Summary:  "slide the tiles 1–" + strconv.Itoa(n) + " into order, the blank last",
		Players:  1,
		Texts:    games.TextsIn(locales, "locales/"+name),
		MoveHelp: "a tile next to the blank (its number), or the blank's direction U, D, L or R",
		Solve:    games.SolveTiles,
		New: func(games.Options) (engine.Position, error) {
			return games.OrNil(rules.Parse(start))
		},
		Parse: func(text string) (engine.Position, error) {
			p, err := rules.Parse(text)
			if err == nil && p.Size() != size {
				return nil, fmt.Errorf("tiles: %s wants %d numbers, not %d", name, size*size, p.Size()*p.Size())
			}
			return games.OrNil(p, err)
		},
		Owns: func(pos engine.Position) bool { return pos.(*rules.Position).Size() == size },
		Moved: func(pos engine.Position, m engine.Move) string {
			p := pos.(*rules.Position)
			to, _ := p.Target(m)
			return strconv.Itoa(p.Tile(to))
		},
		Look: games.Look{
			Mark: [2]string{"🧩", "🧩"}, Last: [2]string{"🧩", "🧩"},
			Colour:  [2]int{0x55ACEE, 0x55ACEE},
			Picture: games.Picture{Board: 0x2B2D31, Cell: 0xE8D5B0, Mark: [2]int{0x3B2A14, 0x3B2A14}, Labels: true},
			Board:   board,
			Describe: func(c games.Change) string {
				if len(c.Changed) == 1 {
					return "slid tile **" + c.Changed[0] + "**"
				}
				return "moved the blank **" + direction(c.Move) + "**" // a move recorded without its tile
			},
		},
		Input: games.Input{Layout: games.BoardButtons},
		Help: games.Help{
			Rules: strings.Join([]string{
				"**Board.** " + strconv.Itoa(size) + "×" + strconv.Itoa(size) + ", tiles **1–" + strconv.Itoa(n) + "** and one empty cell, the blank (" + blankEmoji + ").",
				"**A move.** Slide a tile next to the blank (above, below, left or right of it, not diagonally) into it; the blank takes the tile's place.",
				"**Goal.** The tiles read 1–" + strconv.Itoa(n) + " row by row from the top-left, the blank last. Every puzzle Gambit deals can be solved; " +
					"fewer moves is better, and the board says at the end how many an optimal solution needs.",
			}, "\n\n"),
			Moving: "Press a tile next to the blank under the board, or type `/move cell:6` with the tile's number. " +
				"**Hint** shows privately the next tile to slide on an optimal solution, " +
				"**Solve** plays one out (the puzzle then counts as solved by Gambit, not by you), **Compare algorithms** runs " +
				"Gambit's search algorithms side by side on the board in front of you.",
			Goal: "Slide the tiles into order, 1–" + strconv.Itoa(n) + " row by row from the top-left, the blank last.",
		},
	}
	if size == 4 {
		g.Look.Progress = func(engine.Position, games.Options) games.Text {
			return games.Text{English: "🇦 to 🇫 are the tiles 10 to 15.", ID: "progress", GridOnly: true}
		}
	}
	return g
}

// direction names a move letter for people: "left".
func direction(move string) string {
	if d, ok := map[string]string{"U": "up", "D": "down", "L": "left", "R": "right"}[move]; ok {
		return d
	}
	return move
}

// tileEmoji draws tile t in an emoji grid: a keycap for 1–9, a regional
// letter for 10–15 (hexadecimal, A being 10), the blank for 0.
func tileEmoji(t int) string {
	switch {
	case t == 0:
		return blankEmoji
	case t <= 9:
		return strconv.Itoa(t) + "\uFE0F\u20E3"
	}
	return string(rune(0x1F1E6 + t - 10))
}

// board is the model of a sliding-tile board: each tile with its number,
// the tiles next to the blank playing the move that slides them, the tile
// the last move slid marked.
func board(pos engine.Position, last *games.Change) games.Board {
	p := pos.(*rules.Position)
	size := p.Size()
	moveAt := map[int]engine.Move{}
	for _, m := range []engine.Move{rules.Up, rules.Down, rules.Left, rules.Right} {
		if to, ok := p.Target(m); ok {
			moveAt[to] = m
		}
	}
	lastCell := -1
	if last != nil {
		// The tile slid now stands where the blank moved from: one step
		// from the blank against the move's direction.
		if m, ok := letter(last.Move); ok {
			if from, ok := p.Target(rules.Opposite(m)); ok {
				lastCell = from
			}
		}
	}
	var out games.Board
	for r := range size {
		row := make([]games.Cell, size)
		for c := range size {
			cell := r*size + c
			t := p.Tile(cell)
			row[c] = games.Cell{Emoji: tileEmoji(t), Move: engine.NoMove, Last: cell == lastCell}
			if t != 0 {
				row[c].Label = strconv.Itoa(t)
			}
			if m, ok := moveAt[cell]; ok && !p.Solved() {
				row[c].Move = m
			}
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

// letter reads a move letter U, D, L or R.
func letter(s string) (engine.Move, bool) {
	i := strings.Index("UDLR", s)
	if len(s) != 1 || i < 0 {
		return engine.NoMove, false
	}
	return engine.Move(i), true
}
