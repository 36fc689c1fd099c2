// Package queens is the plug-in of the N-Queens puzzle: its rules are
// engine/nqueens, and this package adds its board (queens in conflict
// marked), its move menus and help. It is a solo puzzle: no AI plays it;
// strategies/puzzles solves it.
package queens

import (
	"embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/nqueens"
	"github.com/gambitbot/gambit/games"
)

// DefaultN is the board's side when the player does not choose: the
// classic 8 queens.
const DefaultN = 8

// perMenu is the most options of a select menu.
const perMenu = 25

// Emoji of the board.
const (
	lightEmoji    = "⬜"
	darkEmoji     = "🟫"
	conflictEmoji = "💥"
	// queenTag marks, on the picker of a column, the row its queen
	// stands on.
	queenTag = "👑"
)

// locales holds the game's texts in every language (games.Game.Texts).
//
//go:embed locales
var locales embed.FS

// Game is the N-Queens plug-in.
var Game = &games.Game{
	Name:     "nqueens",
	Title:    "N-Queens",
	Summary:  "put N queens on an N×N board so that none attacks another",
	Players:  1,
	Setup:    games.Setup{Size: &games.Range{Min: rules.MinN, Max: rules.MaxN, Default: DefaultN}},
	Texts:    games.TextsIn(locales, "locales"),
	MoveHelp: "a square such as c4: column c's queen goes to row 4 (or is lifted if it stands there)",
	Solve:    games.SolveQueens,
	New: func(o games.Options) (engine.Position, error) {
		return games.OrNil(rules.New(o.Size))
	},
	Parse: func(text string) (engine.Position, error) { return games.OrNil(rules.Parse(text)) },
	Look: games.Look{
		Mark: [2]string{"👑", "👑"}, Last: [2]string{"🌟", "🌟"},
		Colour:  [2]int{0xFFAC33, 0xFFAC33},
		Picture: games.Picture{Board: 0x2B2D31, Cell: 0xF0D9B5, Dark: 0xB58863, Mark: [2]int{0xFFFFFF, 0xFFFFFF}, Shape: games.Queens},
		Board:   board,
		Describe: func(c games.Change) string {
			return "played **" + c.Move + "**"
		},
		Progress: func(pos engine.Position, _ games.Options) games.Text {
			p := pos.(*rules.Position)
			line := fmt.Sprintf("%d of %d queens placed", p.Placed(), p.N())
			n := p.Conflicts()
			if n > 0 {
				line += fmt.Sprintf(" · %s %d attacking pair%s", conflictEmoji, n, map[bool]string{true: "s"}[n > 1])
			}
			return games.Text{English: line, ID: "progress", Args: []any{"Placed", p.Placed(), "N", p.N(), "Pairs", n, "Emoji", conflictEmoji}}
		},
	},
	Input: games.Input{
		Layout:  games.Menus,
		Groups:  groups(),
		Hint:    hint,
		Order:   func(a, b engine.Move) int { return int(a) - int(b) }, // a1, a2, …, b1, …: Square's order
		Columns: true,
		Prompt: func(column string) string {
			return "Column **" + column + "**: choose a row (" + queenTag + " where its queen stands: lifts it), or another column."
		},
		Tag: func(pos engine.Position, m engine.Move) string {
			p := pos.(*rules.Position)
			if p.Row(int(m)/p.N()) == int(m)%p.N()+1 {
				return queenTag
			}
			return ""
		},
		Picks:            safeSquares,
		PicksPlaceholder: "Safe squares: choose one",
	},
	Help: games.Help{
		Rules: strings.Join([]string{
			"**Board.** N×N (4 to 12; 8 is the classic), columns **a, b, …** from the left and rows **1…N** from the bottom, as on a chessboard.",
			"**A move.** Each column holds at most one queen. Naming a square puts that column's queen there: it is placed if the column is empty, " +
				"moved if the column has one, and lifted off if it already stands there.",
			"**Goal.** N queens on the board and no two in the same row, column or diagonal. Queens that attack another stand on red squares in the picture and are shown as " + conflictEmoji + " in the emoji grid.",
		}, "\n\n"),
		Moving: "Click a column (**a, b, …**) under the board, then a row in the message only you see (" + queenTag + " marks the row of the column's queen: " +
			"clicking it lifts the queen); or choose a safe square in the menu (each option says what it does), or type `/move cell:c4`. " +
			"**Hint** shows privately a move of a shortest way to a solution, **Solve** plays one out (the puzzle then counts as solved by " +
			"Gambit, not by you), **Compare algorithms** runs backtracking, hill climbing, min-conflicts and a swap repair on your N, side by side.",
		Goal: "Put a queen in every column so that no two share a row, a column or a diagonal.",
	},
}

// groups are the menus of the squares: 25 squares each in column order
// (a1, a2, …, b1, …), as many as the largest board needs; a smaller board
// fills fewer of them. Which squares a menu holds depends on N, so its
// placeholder names its first and last (games.Group's From and To).
func groups() []games.Group {
	n := (rules.MaxN*rules.MaxN + perMenu - 1) / perMenu
	out := make([]games.Group, n)
	for i := range out {
		lo, hi := engine.Move(i*perMenu), engine.Move((i+1)*perMenu)
		out[i] = games.Group{
			Placeholder: "Squares {{.From}} to {{.To}}",
			Has:         func(m engine.Move) bool { return m >= lo && m < hi },
		}
	}
	return out
}

// safeSquares are the menu's squares: those where a queen, placed or
// moved there, attacks no other, in the order a1, a2, …, b1, …, the
// first columns' first should there be more than a menu holds.
func safeSquares(pos engine.Position) []engine.Move {
	p := pos.(*rules.Position)
	n := p.N()
	var out []engine.Move
	for _, m := range pos.Moves(nil) {
		col, row := int(m)/n, int(m)%n+1
		if p.Row(col) == row {
			continue // lifting a queen: the column's own square is not a place to go
		}
		safe := true
		for c := 0; c < n && safe; c++ {
			if r := p.Row(c); c != col && r != 0 && (r == row || r-row == c-col || r-row == col-c) {
				safe = false
			}
		}
		if safe {
			out = append(out, m)
		}
	}
	return out[:min(len(out), games.MaxPicks)]
}

// hint says what a square does: place, move or lift a queen.
func hint(pos engine.Position, m engine.Move) games.Text {
	p := pos.(*rules.Position)
	col, row := int(m)/p.N(), int(m)%p.N()+1
	switch p.Row(col) {
	case 0:
		return games.Text{English: "places a queen", ID: "hint_place"}
	case row:
		return games.Text{English: "lifts the queen", ID: "hint_lift"}
	}
	return games.Text{English: "moves the queen from row " + strconv.Itoa(p.Row(col)), ID: "hint_move", Args: []any{"Row", p.Row(col)}}
}

// board is the model of an N-Queens board: row N on top, row numbers on
// the left and column letters below, queens in conflict drawn as such,
// the square of the last move marked.
func board(pos engine.Position, last *games.Change) games.Board {
	p := pos.(*rules.Position)
	n := p.N()
	lastMove := engine.NoMove
	if last != nil {
		// By name: ParseMove refuses every move once the board is solved.
		for m := range engine.Move(n * n) {
			if p.FormatMove(m) == last.Move {
				lastMove = m
			}
		}
	}
	attacked := map[int]bool{}
	for _, c := range p.Attacked() {
		attacked[c] = true
	}
	var out games.Board
	for r := n; r >= 1; r-- {
		row := make([]games.Cell, n)
		for c := range n {
			m := p.Square(c, r)
			queen := p.Row(c) == r
			cell := games.Cell{Occupied: queen, Side: engine.X, Move: m, Last: queen && m == lastMove, Attacked: queen && attacked[c]}
			switch {
			case cell.Attacked:
				cell.Emoji = conflictEmoji
			case !queen && (r+c)%2 == 1: // a1 is dark, as on a chessboard
				cell.Emoji = darkEmoji
			case !queen:
				cell.Emoji = lightEmoji
			}
			row[c] = cell
		}
		out.Rows = append(out.Rows, row)
		out.RowLabels = append(out.RowLabels, strconv.Itoa(r))
	}
	for c := range n {
		out.ColLabels = append(out.ColLabels, string(rune('a'+c)))
	}
	return out
}
