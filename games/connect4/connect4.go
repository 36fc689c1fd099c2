// Package connect4 is the plug-in of Connect Four: its rules are
// engine/connect4, and this package adds its board, column buttons, help
// and the evaluation its AI searches with.
package connect4

import (
	"embed"
	"math/bits"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/games"
)

// locales holds the game's texts in every language (games.Game.Texts).
//
//go:embed locales
var locales embed.FS

// ratings are the strategies' calibrated ratings in Connect Four
// (games.AI.Ratings): the arena's Bradley–Terry fit, mean 1500, measured
// on 2026-11-29 at commit 4063525 (660 games in 2 min 44 s at load 15–20 on 2 cores shared
// with other work; 20 ms a move, 10 games a pairing, colours paired) by
//
//	gambit arena --game connect4 --players minimax,mcts,seed004-minimax,beam,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random --games 10 --time 20ms --seed 1 --concurrency 2
var ratings = map[string]float64{
	"minimax": 2004, "seed004-minimax": 1724, "beam": 1654, "mcts": 1643, "genetic": 1595,
	"hill-steepest": 1577, "hill-sideways": 1548, "hill-stochastic": 1544, "annealing": 1533,
	"greedy": 1140, "genetic-roulette": 1126, "random": 910,
}

// Game is the Connect Four plug-in.
var Game = &games.Game{
	Name:     "connect4",
	Title:    "Connect Four",
	Summary:  "drop discs into 7 columns; four in a row across, up or diagonally wins",
	Players:  2,
	Texts:    games.TextsIn(locales, "locales"),
	MoveHelp: "a column 1–7",
	Typing:   "a column 1–7",
	Solve:    games.SolveExact,
	New:      func(games.Options) (engine.Position, error) { return rules.New(), nil },
	Parse:    func(text string) (engine.Position, error) { return games.OrNil(rules.Parse(text)) },
	Look: games.Look{
		Mark: [2]string{"🔴", "🟡"}, Last: [2]string{"🟥", "🟨"}, Empty: "⚫", EmptyName: "empty",
		Colour:  [2]int{0xDD2E44, 0xFDCB58},
		Picture: games.Picture{Board: 0x0B3C8C, Cell: 0xF4F4F4, Mark: [2]int{0xDD2E44, 0xF0E442}, Shape: games.Discs},
		Board:   board,
		Describe: func(c games.Change) string {
			return "dropped into column **" + c.Move + "**"
		},
	},
	Input: games.Input{Layout: games.MoveButtons},
	Help: games.Help{
		Rules: strings.Join([]string{
			"**Board.** 7 columns, 6 rows, standing upright.",
			"**A move.** Drop one of your discs into a column that is not full: it falls to the lowest empty cell. " +
				"🔴 moves first, then the players take turns.",
			"**Winning.** The first to line up four of their discs in a row, across, up and down or diagonally, wins. " +
				"A full board without four in a row is a draw.",
		}, "\n\n"),
		Moving: "Press a column's button (1–7) under the board, or type `/move cell:4` with the column's number.",
	},
	AI: &games.AI{
		Unit: Unit, Evaluate: evaluate, Order: order, Distance: distance, Ratings: ratings,
		// The search estimates in fractions of a win, and the exact values
		// are Pons' scores, where only the result counts: an eighth of a
		// win good, a quarter an inaccuracy, half a mistake. A review is
		// exact wherever the solver ends within the budget, so its
		// estimates are rare. The budget is 200 million nodes for the game,
		// and a position may spend all of it: the solver, given the later
		// positions' proofs, solves every position of most games within
		// it (the costly ones are the few just past the opening book, 10
		// to 100 million nodes each), in about 15 seconds of one thread at
		// most (docs/ai.md, Reviews).
		Review: &games.Review{
			Thresholds: &games.ReviewThresholds{Good: 0.125, Inaccuracy: 0.25, Mistake: 0.5, Results: true},
			Budget:     &games.ReviewBudget{Nodes: 200_000_000, Game: 200_000_000},
		},
	},
}

// board is the model of a Connect Four board: the top row first, column
// numbers below, the last move's disc marked.
func board(pos engine.Position, last *games.Change) games.Board {
	p := pos.(*rules.Position)
	lastCol, lastRow := -1, -1
	if last != nil {
		if n, err := strconv.Atoi(last.Move); err == nil && n >= 1 && n <= rules.Width {
			lastCol, lastRow = n-1, topRow(p, n-1)
		}
	}
	var out games.Board
	for row := rules.Height - 1; row >= 0; row-- {
		cells := make([]games.Cell, rules.Width)
		for col := range rules.Width {
			s, ok := p.At(col, row)
			cells[col] = games.Cell{Occupied: ok, Side: s, Move: engine.Move(col), Last: ok && col == lastCol && row == lastRow}
		}
		out.Rows = append(out.Rows, cells)
	}
	for col := range rules.Width {
		out.ColLabels = append(out.ColLabels, strconv.Itoa(col+1))
	}
	markFours(&out, p)
	return out
}

// markFours marks every four in a row of the winner of a won game. Rows of
// the model count from the top.
func markFours(out *games.Board, p *rules.Position) {
	if !p.Terminal() {
		return
	}
	for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		for col := range rules.Width {
			for row := range rules.Height {
				s, ok := p.At(col, row)
				if !ok || p.Result(s) != engine.Win {
					continue
				}
				four := true
				for k := 1; k < 4 && four; k++ {
					t, ok := p.At(col+k*d[0], row+k*d[1])
					four = ok && t == s
				}
				if four {
					top := rules.Height - 1
					out.MarkLine(games.Spot{Row: top - row, Col: col}, games.Spot{Row: top - (row + 3*d[1]), Col: col + 3*d[0]})
				}
			}
		}
	}
}

// topRow returns the row of the top disc of a column, or -1.
func topRow(p *rules.Position, col int) int {
	for row := rules.Height - 1; row >= 0; row-- {
		if _, ok := p.At(col, row); ok {
			return row
		}
	}
	return -1
}

// distance reads the plies to the end from an exact value, Unit × Pons'
// score: the winning stone is move N of the game where the score is
// ±(44 − N) div 2, N of the winner's parity.
func distance(pos engine.Position, units int) (int, bool) {
	s := units / Unit
	if s == 0 || units%Unit != 0 {
		return 0, false
	}
	n := rules.Cells - pos.PliesLeft() // the stones on the board
	winner := n + 1                    // the parity of the winner's stones: the side to move's
	if s < 0 {
		winner, s = n, -s
	}
	last := 44 - 2*s
	if last%2 != winner%2 {
		last--
	}
	if last <= n || last > rules.Cells {
		return 0, false
	}
	return last - n, true
}

// Unit is the number of evaluation units in one unit of Pons' score.
const Unit = 64

const (
	// rows 1, 3 and 5 (odd, from 1) are bits 0, 2 and 4 of each column.
	oddRows = 0b0010101 * (1 | 1<<7 | 1<<14 | 1<<21 | 1<<28 | 1<<35 | 1<<42)
	centre  = 0b0111111 << (3 * 7)
)

// evaluate estimates an unfinished position by threats: an empty cell
// where a side's disc would complete four. Each threat counts for its
// side, more when it lies on the rows that side can hope to claim (odd
// rows, counted from 1 at the bottom, for the first player; even rows for
// the second), and discs in the centre column count a little. The estimate
// stays below one unit, the smallest real win.
func evaluate(p engine.Position) int {
	c := p.(*rules.Position)
	me, them := c.SideToMove(), c.SideToMove().Other()
	good := func(s engine.Side) uint64 { // the rows side s can hope to claim
		if s == engine.X {
			return oddRows
		}
		return ^uint64(oddRows)
	}
	tm, tt := c.Threats(me), c.Threats(them)
	score := 8*(bits.OnesCount64(tm)-bits.OnesCount64(tt)) +
		8*(bits.OnesCount64(tm&good(me))-bits.OnesCount64(tt&good(them))) +
		2*(bits.OnesCount64(c.Bitboard(me)&centre)-bits.OnesCount64(c.Bitboard(them)&centre))
	return max(-Unit+1, min(Unit-1, score))
}

// order: a winning drop first, then a blocking one, then centre columns
// first.
func order(p engine.Position, m engine.Move) int {
	c := p.(*rules.Position)
	cell := c.Playable() & (0b0111111 << (7 * uint(m)))
	switch {
	case cell&c.Threats(c.SideToMove()) != 0:
		return 255
	case cell&c.Threats(c.SideToMove().Other()) != 0:
		return 200
	}
	return 10 * [rules.Width]int{0, 1, 2, 3, 2, 1, 0}[m%rules.Width]
}
