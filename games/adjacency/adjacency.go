// Package adjacency is the plug-in of the Adjacency Strategy Game, the
// game of Gambit's original reports: its rules are engine/adjacency, and
// this package adds its notation, board, move menus, help and the
// evaluation its AI searches with.
package adjacency

import (
	"embed"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/games"
)

// DefaultRounds is the length of a game when the players do not choose:
// long enough to be a game, short enough for a coffee break.
const DefaultRounds = 8

// locales holds the game's texts in every language (games.Game.Texts).
//
//go:embed locales
var locales embed.FS

// ratings are the strategies' calibrated ratings in Adjacency
// (games.AI.Ratings): the arena's Bradley–Terry fit, mean 1500, measured
// at 8 rounds on 2026-11-29 at commit f063c04 (624 games in 1 min 12 s at
// load 2–3 on 2 cores; 20 ms a move, 8 games a pairing, colours and first
// movers paired) by
//
//	gambit arena --game adjacency --rounds 8 --players minimax,mcts,beam,seed001-minimax,seed002-alphabeta,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random --games 8 --time 20ms --seed 1 --concurrency 2
//
// minimax-learned is minimax (the same engine and learned evaluation);
// minimax-hand keeps the 16 points below it of a 40-game match between
// the two evaluations at 8 rounds, 20 ms (docs/ai.md, "The learned
// evaluation").
var ratings = map[string]float64{
	"minimax": 1725, "minimax-learned": 1725, "minimax-hand": 1709, "mcts": 1625, "seed001-minimax": 1589,
	"annealing": 1586, "seed002-alphabeta": 1579, "hill-sideways": 1579, "hill-stochastic": 1565,
	"hill-steepest": 1558, "beam": 1527, "genetic": 1440, "genetic-roulette": 1371, "greedy": 1337,
	"random": 1019,
}

// Game is the Adjacency plug-in.
var Game = &games.Game{
	Name:     "adjacency",
	Title:    "Adjacency",
	Summary:  "claim cells on an 8×8 board and capture the neighbours; most marks after the agreed rounds wins",
	Players:  2,
	Setup:    games.Setup{Rounds: &games.Range{Min: rules.MinRounds, Max: rules.MaxRounds, Default: DefaultRounds}, ChooseFirst: true},
	Texts:    games.TextsIn(locales, "locales"),
	MoveHelp: "a cell a1–h8",
	Typing:   "a cell: files a–h across, ranks 8..1 down, such as c3",
	New: func(o games.Options) (engine.Position, error) {
		return games.OrNil(rules.New(o.Rounds, o.First))
	},
	Parse: func(text string) (engine.Position, error) { return games.OrNil(rules.Parse(text)) },
	Look: games.Look{
		Mark: [2]string{"🔴", "🔵"}, Last: [2]string{"🟥", "🟦"}, Empty: "🟩", EmptyName: "empty",
		Colour:   [2]int{0xDD2E44, 0x55ACEE},
		Picture:  games.Picture{Board: 0x1E3D2B, Cell: 0x3F7A52, Mark: [2]int{0xDD2E44, 0x56B4E9}, Shape: games.Discs},
		Board:    board,
		Describe: describe,
		Tally: func(pos engine.Position, s engine.Side) (int, string) {
			return pos.(*rules.Position).Count(s), "mark"
		},
		Progress: func(pos engine.Position, o games.Options) games.Text {
			left := (pos.PliesLeft() + 1) / 2
			return games.Text{English: fmt.Sprintf("%d of %d rounds left", left, o.Rounds), ID: "progress", Args: []any{"Left", left, "Rounds", o.Rounds}}
		},
	},
	Input: games.Input{
		Layout: games.Menus,
		Groups: []games.Group{
			{Placeholder: "Ranks 1–3: choose a cell", Has: ranks(0, 2)},
			{Placeholder: "Ranks 4–6: choose a cell", Has: ranks(3, 5)},
			{Placeholder: "Ranks 7–8: choose a cell", Has: ranks(6, 7)},
		},
		Hint: func(pos engine.Position, m engine.Move) games.Text {
			n := pos.(*rules.Position).Captures(m)
			return games.Text{English: "captures " + strconv.Itoa(n), ID: "hint", Args: []any{"N", n}}
		},
		Order:   func(a, b engine.Move) int { return 8*(int(a%8)-int(b%8)) + int(a/8) - int(b/8) }, // a1, a2, …, b1, …
		Columns: true,
		Prompt: func(file string) string {
			return "File **" + file + "**: choose a rank (`+n`: the marks it captures), or another file."
		},
		Tag: func(pos engine.Position, m engine.Move) string {
			return "+" + strconv.Itoa(pos.(*rules.Position).Captures(m))
		},
	},
	Help: games.Help{
		Rules: strings.Join([]string{
			"**Board.** 8×8, cells named like a chessboard: files **a–h** from left to right, ranks **1–8** from bottom to top. " +
				"X starts with a1, b1, a2, b2 (bottom-left corner), O with g7, h7, g8, h8 (top-right corner).",
			"**A move.** Put one of your marks on any empty cell; passing is not allowed. Every opponent mark directly " +
				"above, below, left or right of that cell (not diagonally) becomes yours. Nothing else changes: captured marks " +
				"do not capture further.",
			"**Length.** The players agree on 2–28 rounds (`rounds:` of `/play`) of one move each, so a game lasts exactly twice that many moves; " +
				"28 rounds fill the board. X moves first unless the players agree otherwise.",
			"**Winning.** After the last round the player with more marks on the board wins; equal counts are a draw.",
			"**Who starts matters.** The last move has the last capture: with best play on both sides, games of 5, 6 and 7 " +
				"rounds are won by whoever moves second, by two marks (2–4 rounds are drawn), and in Gambit's AI tournaments " +
				"the second mover wins most short games. `first:` of `/play` decides who starts.",
		}, "\n\n"),
		Moving: "Click a file (**a–h**) under the board, then a rank in the message only you see: each rank says how many " +
			"marks it captures (`3 · +2`). Or choose a cell in one of the menus (ranks 1–3, 4–6 and 7–8), or type `/move cell:e4`.",
	},
	AI: &games.AI{
		Unit: Unit, Evaluate: evaluate, Order: order, Ratings: ratings,
		Gain: func(p engine.Position, m engine.Move) int { return p.(*rules.Position).Captures(m) },
	},
	Perft: func(p engine.Position, depth int) games.PerftCounts {
		c := p.(*rules.Position).Board.Perft(depth)
		return games.PerftCounts{Leaves: c.Leaves, HasSums: true, SumX: c.SumX, SumO: c.SumO}
	},
	Changes: func(pos engine.Position, m engine.Move) []engine.Move {
		return cells(pos.(*rules.Position).Flips(m))
	},
}

// ranks returns a group test for the moves on ranks lo–hi (0-based).
func ranks(lo, hi int) func(engine.Move) bool {
	return func(m engine.Move) bool { r := int(m / 8); return r >= lo && r <= hi }
}

// cells lists the cells of a bitboard in cell order.
func cells(b uint64) []engine.Move {
	var out []engine.Move
	for ; b != 0; b &= b - 1 {
		out = append(out, engine.Move(bits.TrailingZeros64(b)))
	}
	return out
}

// board is the model of an Adjacency board: rank 8 on top, rank numbers on
// the left and file letters below, the last move and its captures marked.
func board(pos engine.Position, last *games.Change) games.Board {
	b := pos.(*rules.Position).Board
	lastCell, changed := engine.NoMove, map[engine.Move]bool{}
	if last != nil {
		if c, err := rules.ParseCell(last.Move); err == nil {
			lastCell = c
		}
		for _, name := range last.Changed {
			if c, err := rules.ParseCell(name); err == nil {
				changed[c] = true
			}
		}
	}
	var out games.Board
	for rank := 7; rank >= 0; rank-- {
		row := make([]games.Cell, 8)
		for file := range 8 {
			c := engine.Move(8*rank + file)
			s, ok := b.Mark(c)
			row[file] = games.Cell{Occupied: ok, Side: s, Move: c, Last: ok && c == lastCell, Changed: ok && changed[c]}
		}
		out.Rows = append(out.Rows, row)
		out.RowLabels = append(out.RowLabels, strconv.Itoa(rank+1))
	}
	for file := range 8 {
		out.ColLabels = append(out.ColLabels, string(rune('a'+file)))
	}
	return out
}

// describe says what the last move did: "played **c1**, capturing b1, c2".
func describe(c games.Change) string {
	line := "played **" + c.Move + "**"
	if len(c.Changed) > 0 {
		line += ", capturing " + strings.Join(c.Changed, ", ")
	}
	return line
}
