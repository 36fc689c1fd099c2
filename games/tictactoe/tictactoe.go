// Package tictactoe is the plug-in of Tic-Tac-Toe: its rules are
// engine/tictactoe, and this package adds its board of buttons, help and
// what its AI searches with.
package tictactoe

import (
	"embed"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/tictactoe"
	"github.com/gambitbot/gambit/games"
)

// locales holds the game's texts in every language (games.Game.Texts).
//
//go:embed locales
var locales embed.FS

// ratings are the strategies' calibrated ratings in Tic-Tac-Toe
// (games.AI.Ratings): the arena's Bradley–Terry fit, mean 1500, measured
// on 2026-11-29 at commit 7350f53 (660 games in 37 s at load 8–9 on 2 cores shared
// with other work; 20 ms a move, 10 games a pairing, colours paired) by
//
//	gambit arena --game tictactoe --players minimax,seed003-minimax,mcts,beam,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random --games 10 --time 20ms --seed 1 --concurrency 2
var ratings = map[string]float64{
	"minimax": 1588, "seed003-minimax": 1588, "mcts": 1588, "hill-sideways": 1585,
	"hill-stochastic": 1585, "beam": 1582, "hill-steepest": 1579, "genetic": 1573, "annealing": 1549,
	"greedy": 1525, "genetic-roulette": 1232, "random": 1024,
}

// Game is the Tic-Tac-Toe plug-in.
var Game = &games.Game{
	Name:     "tictactoe",
	Title:    "Tic-Tac-Toe",
	Summary:  "three in a row on a 3×3 board",
	Players:  2,
	Texts:    games.TextsIn(locales, "locales"),
	MoveHelp: "a cell 1–9, row by row from the top-left",
	Typing:   "a cell 1–9, row by row from the top-left (empty cells show their number)",
	New:      func(games.Options) (engine.Position, error) { return rules.New(), nil },
	Parse:    func(text string) (engine.Position, error) { return games.OrNil(rules.Parse(text)) },
	Look: games.Look{
		// X red and O blue everywhere: the grid's ❌ and 🔵, the last
		// move's 🟥 and 🟦 (as in Adjacency), the embeds and the picture's
		// letters. ⭕ would be a red O beside a red X, and ❎ a green X.
		Mark: [2]string{"❌", "🔵"}, Last: [2]string{"🟥", "🟦"},
		Colour:  [2]int{0xDD2E44, 0x55ACEE},
		Picture: games.Picture{Board: 0x2B2D31, Cell: 0xF4F4F4, Mark: [2]int{0xDD2E44, 0x55ACEE}, Shape: games.Letters},
		Board:   board,
		Describe: func(c games.Change) string {
			return "took cell **" + c.Move + "**"
		},
	},
	Input: games.Input{Layout: games.BoardButtons},
	Help: games.Help{
		Rules: strings.Join([]string{
			"**Board.** 3×3, cells numbered **1–9** row by row from the top-left.",
			"**A move.** Put your mark on an empty cell. ❌ moves first, then the players take turns.",
			"**Winning.** Three of your marks in a row, a column or a diagonal win. A full board without a line is a draw.",
		}, "\n\n"),
		Moving: "Press an empty cell's button under the board, or type `/move cell:5` with the cell's number.",
	},
	// The whole game is searched, so the evaluation only guides the
	// local searches; the order tries the centre, then corners. A win
	// sooner is worth more (final), so the exact values tell how far the
	// end is.
	AI: &games.AI{
		Unit:     unit,
		Final:    final,
		Distance: distance,
		Evaluate: func(engine.Position) int { return 0 },
		Order: func(_ engine.Position, m engine.Move) int {
			return [rules.Cells]int{2, 1, 2, 1, 3, 1, 2, 1, 2}[m%rules.Cells]
		},
		Local:   lines,
		Ratings: ratings,
		// Both search the whole game, 9 plies at most, in microseconds.
		Perfect: []string{"minimax", "seed003-minimax"},
		// Always exact, so its moves are best, good or blunders; a win is
		// one unit.
		Review: &games.Review{Thresholds: &games.ReviewThresholds{Good: 0.125, Inaccuracy: 0.25, Mistake: 0.5}},
	},
}

// unit is the AI's internal units in a win.
const unit = 100

// final is the exact value of a finished game for the side to move: a
// win or a loss is worth a unit and one more for each cell left empty,
// so that a quicker win is worth more and a later loss less; a draw 0.
func final(pos engine.Position) int {
	p := pos.(*rules.Position)
	empty := 0
	for c := range engine.Move(rules.Cells) {
		if _, ok := p.Mark(c); !ok {
			empty++
		}
	}
	return p.Score(p.SideToMove()) * (unit + empty)
}

// distance reads the plies to the end from an exact value of final's
// kind: the cells empty now less those empty at the end.
func distance(p engine.Position, units int) (int, bool) {
	left := max(units, -units) - unit
	if units == 0 || left < 0 || left > p.PliesLeft() {
		return 0, false
	}
	return p.PliesLeft() - left, true
}

// board is the model of a Tic-Tac-Toe board: empty cells show their
// number, the last move is marked.
func board(pos engine.Position, last *games.Change) games.Board {
	p := pos.(*rules.Position)
	lastCell := engine.NoMove
	if last != nil {
		if n, err := strconv.Atoi(last.Move); err == nil && n >= 1 && n <= rules.Cells {
			lastCell = engine.Move(n - 1)
		}
	}
	var out games.Board
	for r := range 3 {
		row := make([]games.Cell, 3)
		for col := range 3 {
			c := engine.Move(3*r + col)
			s, ok := p.Mark(c)
			row[col] = games.Cell{Occupied: ok, Side: s, Label: strconv.Itoa(int(c) + 1), Move: c, Last: ok && c == lastCell}
		}
		out.Rows = append(out.Rows, row)
	}
	for _, l := range lineCells {
		s, ok := p.Mark(l[0])
		if ok && p.Terminal() && p.Result(s) == engine.Win && owns(p, s, l) {
			out.MarkLine(games.Spot{Row: int(l[0] / 3), Col: int(l[0] % 3)}, games.Spot{Row: int(l[2] / 3), Col: int(l[2] % 3)})
		}
	}
	return out
}

// owns reports whether side s holds every cell of a line.
func owns(p *rules.Position, s engine.Side, line [3]engine.Move) bool {
	for _, c := range line {
		if t, ok := p.Mark(c); !ok || t != s {
			return false
		}
	}
	return true
}

// lines is a small evaluation for the side to move: every line holding
// marks of one side only counts for that side, 1 for one mark and 4 for
// two, scaled by 10 and kept below a win (100).
func lines(p engine.Position) int {
	t := p.(*rules.Position)
	me := t.SideToMove()
	score := 0
	for _, line := range lineCells {
		var count [2]int
		for _, c := range line {
			if s, ok := t.Mark(c); ok {
				count[s]++
			}
		}
		switch {
		case count[me] > 0 && count[me.Other()] == 0:
			score += count[me] * count[me]
		case count[me.Other()] > 0 && count[me] == 0:
			score -= count[me.Other()] * count[me.Other()]
		}
	}
	return max(-99, min(99, 10*score))
}

var lineCells = [8][3]engine.Move{
	{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6},
}
