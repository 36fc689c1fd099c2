// Package gomoku is the plug-in of Gomoku, five in a row by freestyle
// rules: its rules are engine/gomoku, and this package adds its board,
// move entry, help, player texts (locales, embedded) and the evaluation
// its AI searches with.
package gomoku

import (
	"embed"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/gomoku"
	"github.com/gambitbot/gambit/games"
)

// The emoji of Black's and White's stones.
const (
	blackStone = "⚫"
	whiteStone = "⚪"
)

// Game is the Gomoku plug-in.
var Game = &games.Game{
	Name:     "gomoku",
	Title:    "Gomoku",
	Summary:  "five in a row on a 15×15 board",
	Players:  2,
	Texts:    games.TextsIn(locales, "locales"),
	MoveHelp: "a point a1–o15 (columns a–o, rows counted from the bottom), such as h8",
	Typing:   "a point such as h8 (rows from the bottom)",
	New:      func(games.Options) (engine.Position, error) { return rules.Standard(), nil },
	Parse:    func(text string) (engine.Position, error) { return games.OrNil(rules.Parse(text)) },
	Look: games.Look{
		Mark: [2]string{blackStone, whiteStone}, Last: [2]string{"⬛", "⬜"}, Empty: "🟫", EmptyName: "empty",
		Colour:   [2]int{0x31373D, 0xE6E7E8},
		Picture:  games.Picture{Board: 0x8B5A2B, Cell: 0xDEB887, Mark: [2]int{0x1A1A1A, 0xF5F5F5}, Shape: games.Discs},
		Board:    board,
		Describe: func(c games.Change) string { return "played **" + c.Move + "**" },
		Progress: progress,
	},
	Input: games.Input{
		Layout:  games.Menus,
		Groups:  rowGroups(),
		Order:   gomokuOrder,
		Columns: true,
		Prompt: func(column string) string {
			return "Column **" + column + "**: choose a row, or another column under the board."
		},
		Picks:            picks,
		PicksPlaceholder: "Points next to the stones: choose one",
	},
	Help: games.Help{
		Rules: strings.Join([]string{
			"**Board.** 15×15 points: columns **a–o** from left to right, rows **1–15** from **bottom to top**; h8 is the centre. " +
				"The board starts empty.",
			"**A move.** Put one of your stones on any empty point. " + blackStone + " moves first, then the players take turns. " +
				"Stones never move and are never taken.",
			"**Winning.** The first to have five stones or more in an unbroken line — across, up and down or diagonally — wins " +
				"(freestyle rules: six or more in a row win too). A full board without five in a row is a draw.",
		}, "\n\n"),
		Moving: "Click a column (**a–o**) under the board, then a row in the message only you see. Or choose a point next to the stones in the menu, " +
			"or type `/move cell:h8`.",
	},
	AI: &games.AI{
		Unit: Unit, Evaluate: evaluate, Order: order, Ratings: ratings,
		// The search estimates in fractions of a win: an eighth of a win
		// good, a quarter an inaccuracy, half a mistake. The review's
		// budget is 4.5 million nodes, about 4 seconds of one thread at
		// its engine's (strategies/gomsearch) 1.1 million a second: a
		// 60-move game took 3.6 s of CPU at load 4 (docs/ai.md, Reviews).
		Review: &games.Review{
			Thresholds: &games.ReviewThresholds{Good: 0.125, Inaccuracy: 0.25, Mistake: 0.5},
			Budget:     &games.ReviewBudget{Game: 4_500_000},
		},
	},
}

//go:embed locales
var locales embed.FS

// picks are the menu's points: the empty points next to a stone (the
// centre and the points around it on an empty board), those with the most
// stones around them first should there be more than a menu holds, in
// the order a1, a2, …, b1, ….
func picks(pos engine.Position) []engine.Move {
	p := pos.(*rules.Position)
	size := p.Size()
	near := func(m engine.Move, d int) int { // stones within d points
		col, row := int(m%rules.MaxSize), int(m/rules.MaxSize)
		n := 0
		for dr := -d; dr <= d; dr++ {
			for dc := -d; dc <= d; dc++ {
				if c, r := col+dc, row+dr; c >= 0 && r >= 0 && c < size && r < size {
					if _, ok := p.Stone(rules.Cell(c, r)); ok {
						n++
					}
				}
			}
		}
		return n
	}
	legal := pos.Moves(nil)
	var out []engine.Move
	for _, m := range legal {
		if near(m, 1) > 0 {
			out = append(out, m)
		}
	}
	if len(out) == 0 { // an empty board: the centre and its neighbours
		for _, m := range legal {
			col, row := int(m%rules.MaxSize), int(m/rules.MaxSize)
			if dc, dr := col-size/2, row-size/2; max(dc, -dc) <= 2 && max(dr, -dr) <= 2 {
				out = append(out, m)
			}
		}
	}
	return games.Best(out, games.MaxPicks, func(m engine.Move) int { return 4*near(m, 1) + near(m, 2) }, gomokuOrder)
}

// gomokuOrder sorts points a1, a2, …, b1, ….
func gomokuOrder(a, b engine.Move) int {
	return rules.MaxSize*(int(a%rules.MaxSize)-int(b%rules.MaxSize)) + int(a/rules.MaxSize) - int(b/rules.MaxSize)
}

// rowGroups returns a menu per row of the standard board, row 1 (the
// bottom) first: every point is in exactly one.
func rowGroups() []games.Group {
	groups := make([]games.Group, rules.MaxSize)
	for r := range groups {
		groups[r] = games.Group{
			Placeholder: "Row " + strconv.Itoa(r+1) + ": choose a point",
			Has:         func(m engine.Move) bool { return m < rules.Cells && int(m/rules.MaxSize) == r },
		}
	}
	return groups
}

// board is the model of a Gomoku board: the top row first, row numbers
// on the left and column letters below, the last stone and a winning line
// marked.
func board(pos engine.Position, last *games.Change) games.Board {
	p := pos.(*rules.Position)
	size := p.Size()
	lastCell := engine.NoMove
	if last != nil {
		if c, err := p.ParseCell(last.Move); err == nil {
			lastCell = c
		}
	}
	var out games.Board
	for row := size - 1; row >= 0; row-- {
		cells := make([]games.Cell, size)
		for col := range size {
			c := rules.Cell(col, row)
			s, ok := p.Stone(c)
			cells[col] = games.Cell{Occupied: ok, Side: s, Move: c, Last: ok && c == lastCell}
		}
		out.Rows = append(out.Rows, cells)
		out.RowLabels = append(out.RowLabels, strconv.Itoa(row+1))
	}
	for col := range size {
		out.ColLabels = append(out.ColLabels, string(rune('a'+col)))
	}
	if m, ok := p.Last(); ok {
		lastCell = m
	}
	if from, to, ok := p.Line(lastCell); ok && p.Terminal() {
		spot := func(c engine.Move) games.Spot {
			return games.Spot{Row: size - 1 - int(c/rules.MaxSize), Col: int(c % rules.MaxSize)}
		}
		out.MarkLine(spot(from), spot(to))
	}
	return out
}

// progress says how many points are empty.
func progress(pos engine.Position, _ games.Options) games.Text {
	n := pos.(*rules.Position).PliesLeft()
	return games.Text{English: "Empty points: " + strconv.Itoa(n), ID: "progress", Args: []any{"Empty", n}}
}
