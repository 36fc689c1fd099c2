// Package othello is the plug-in of Othello (Reversi): its rules are
// engine/othello, and this package adds its board, move entry, help,
// player texts (locales, embedded) and the evaluation its AI searches
// with.
package othello

import (
	"embed"
	"math/bits"
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/othello"
	"github.com/gambitbot/gambit/games"
)

// The emoji of Black's and White's discs.
const (
	blackDisc = "⚫"
	whiteDisc = "⚪"
)

// Game is the Othello plug-in.
var Game = &games.Game{
	Name:     "othello",
	Title:    "Othello",
	Summary:  "outflank and flip discs on an 8×8 board; most discs at the end wins",
	Players:  2,
	Texts:    games.TextsIn(locales, "locales"),
	MoveHelp: "a square a1–h8 (rows counted from the top), or pass",
	Typing:   "a square such as f5 (rows from the top), or pass",
	New:      func(games.Options) (engine.Position, error) { return rules.New(), nil },
	Parse:    func(text string) (engine.Position, error) { return games.OrNil(rules.Parse(text)) },
	Look: games.Look{
		Mark: [2]string{blackDisc, whiteDisc}, Last: [2]string{"⬛", "⬜"}, Empty: "🟩", EmptyName: "empty",
		Colour:   [2]int{0x31373D, 0xE6E7E8},
		Picture:  games.Picture{Board: 0x0E3B24, Cell: 0x2E8B57, Mark: [2]int{0x1A1A1A, 0xE8E8E8}, Shape: games.Discs},
		Board:    board,
		Describe: describe,
		Tally: func(pos engine.Position, s engine.Side) (int, string) {
			return pos.(*rules.Position).Count(s), "disc"
		},
		Progress: progress,
	},
	Input: games.Input{
		Layout: games.Menus,
		Groups: []games.Group{
			{Placeholder: "Rows 1–3: choose a square", Has: rows(0, 2)},
			{Placeholder: "Rows 4–6: choose a square", Has: rows(3, 5)},
			{Placeholder: "Rows 7–8: choose a square", Has: rows(6, 7)},
			{Placeholder: "No square to play: pass", Has: func(m engine.Move) bool { return m == rules.Pass }},
		},
		Hint:    hint,
		Order:   cellOrder,
		Columns: true,
		Prompt: func(column string) string {
			return "Column **" + column + "**: choose a row (`+n`: the discs it flips), or another column."
		},
		Tag: func(pos engine.Position, m engine.Move) string {
			return "+" + strconv.Itoa(bits.OnesCount64(pos.(*rules.Position).FlipsOf(m)))
		},
		// The legal moves, which are all a player may choose from (the
		// corners and edges first should there be more than a menu holds).
		Picks: func(pos engine.Position) []engine.Move {
			return games.Best(pos.Moves(nil), games.MaxPicks, edgeness, cellOrder)
		},
		PicksPlaceholder: "Your legal moves: choose a square",
	},
	Help: games.Help{
		Rules: strings.Join([]string{
			"**Board.** 8×8 squares in standard Othello notation: columns **a–h** from left to right, rows **1–8** from " +
				"**top to bottom** (unlike a chessboard). " + whiteDisc + " starts on d4 and e5, " + blackDisc + " on d5 and e4.",
			"**A move.** Put one of your discs on an empty square so that, in at least one of the eight directions (across, " +
				"up and down, diagonally), a line of your opponent's discs lies between it and one of your own discs. Every " +
				"such line, in every direction, flips to your colour. A move that flips nothing is not allowed. " + blackDisc +
				" moves first.",
			"**Passing.** If you have no such move you pass, and your opponent moves again; you cannot pass while you have a move.",
			"**End.** The game ends when neither player can move: the board is full, one colour is gone, or both are stuck. " +
				"The player with more discs on the board wins; equal counts are a draw. The final score counts the discs on " +
				"the board: empty squares are not given to the winner, as tournament scoring does.",
		}, "\n\n"),
		Moving: "Click a column (**a–h**) under the board, then a row in the message only you see: each row says how many " +
			"discs it flips (`5 · +2`). Or choose one of your legal moves in the menu (the picture marks them with a dot), or type `/move cell:f5`. " +
			"With no move, choose **pass** in the menu or type `/move cell:pass`.",
	},
	AI: &games.AI{
		Unit: Unit, Evaluate: evaluate, Order: order, Book: bookMove, Ratings: ratings,
		Gain: func(p engine.Position, m engine.Move) int { return bits.OnesCount64(p.(*rules.Position).FlipsOf(m)) },
		// Othello counts discs, and a move turns many: two discs are
		// good, six an inaccuracy, twelve a mistake, more a blunder (of
		// 64). The review's budget is 15 million nodes, about 4 seconds
		// of one thread at the generic search's 4 million a second, for a
		// 60-move game as for a short one (docs/ai.md, Reviews).
		Review: &games.Review{
			Thresholds: &games.ReviewThresholds{Good: 2, Inaccuracy: 6, Mistake: 12},
			Budget:     &games.ReviewBudget{Game: 15_000_000},
		},
	},
	Perft: func(p engine.Position, depth int) games.PerftCounts {
		return games.PerftCounts{Leaves: p.(*rules.Position).Perft(depth)}
	},
	Changes: func(pos engine.Position, m engine.Move) []engine.Move {
		return cells(pos.(*rules.Position).FlipsOf(m))
	},
}

//go:embed locales
var locales embed.FS

// cellOrder sorts moves a1, a2, …, b1, ….
func cellOrder(a, b engine.Move) int { return 8*(int(a%8)-int(b%8)) + int(a/8) - int(b/8) }

// edgeness ranks a square for the menu of legal moves: a corner 2, an
// edge 1, the rest 0.
func edgeness(m engine.Move) int {
	r, c := int(m/8), int(m%8)
	edges := 0
	if r == 0 || r == 7 {
		edges++
	}
	if c == 0 || c == 7 {
		edges++
	}
	return edges
}

// rows returns a group test for the moves on rows lo–hi (0 is row 1, the
// top).
func rows(lo, hi int) func(engine.Move) bool {
	return func(m engine.Move) bool { r := int(m / 8); return m < rules.Cells && r >= lo && r <= hi }
}

// cells lists the cells of a bitboard in cell order.
func cells(b uint64) []engine.Move {
	var out []engine.Move
	for ; b != 0; b &= b - 1 {
		out = append(out, engine.Move(bits.TrailingZeros64(b)))
	}
	return out
}

// board is the model of an Othello board: row 1 on top, row numbers on the
// left and column letters below, the last disc placed and the discs it
// flipped marked, and the squares where the side to move may play.
func board(pos engine.Position, last *games.Change) games.Board {
	p := pos.(*rules.Position)
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
	for r := range rules.Size {
		row := make([]games.Cell, rules.Size)
		for col := range rules.Size {
			c := engine.Move(8*r + col)
			s, ok := p.Disc(c)
			row[col] = games.Cell{Occupied: ok, Side: s, Move: c, Last: ok && c == lastCell, Changed: ok && changed[c], Legal: !ok && p.Legal(c)}
		}
		out.Rows = append(out.Rows, row)
		out.RowLabels = append(out.RowLabels, strconv.Itoa(r+1))
	}
	for col := range rules.Size {
		out.ColLabels = append(out.ColLabels, string(rune('a'+col)))
	}
	return out
}

// describe says what the last move did: "played **f5**, flipping e5" or
// "passed".
func describe(c games.Change) string {
	if c.Move == rules.PassText {
		return "passed"
	}
	line := "played **" + c.Move + "**"
	if len(c.Changed) > 0 {
		line += ", flipping " + strings.Join(c.Changed, ", ")
	}
	return line
}

// progress says how many squares are empty, or that the side to move has
// none to play and must pass.
func progress(pos engine.Position, _ games.Options) games.Text {
	p := pos.(*rules.Position)
	if p.Legal(rules.Pass) {
		mark := [2]string{blackDisc, whiteDisc}[p.SideToMove()]
		return games.Text{English: mark + " has no square to play and must pass.", ID: "must_pass", Args: []any{"Mark", mark}}
	}
	empty := bits.OnesCount64(^(p.Bitboard(engine.X) | p.Bitboard(engine.O)))
	return games.Text{English: "Empty squares: " + strconv.Itoa(empty), ID: "progress", Args: []any{"Empty", empty}}
}

// hint describes a move for its menu option: the discs it flips.
func hint(pos engine.Position, m engine.Move) games.Text {
	if m == rules.Pass {
		return games.Text{English: "no square flips anything", ID: "hint_pass"}
	}
	n := bits.OnesCount64(pos.(*rules.Position).FlipsOf(m))
	return games.Text{English: "flips " + strconv.Itoa(n), ID: "hint", Args: []any{"N", n}}
}
