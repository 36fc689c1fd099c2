package render

import (
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/engine/games"
	"github.com/gambitbot/gambit/engine/tictactoe"
	"github.com/gambitbot/gambit/storage"
)

// palette is how a game draws its sides.
type palette struct {
	mark   [2]string // a mark of engine.X and engine.O
	last   [2]string // the mark of the last move, by side
	empty  string    // an empty cell (Tic-Tac-Toe shows its cell number)
	colour [2]int    // embed colour while a side is to move or has won
}

// The palettes. Adjacency looks like a game of reversi: discs on a green
// board; Connect Four has its red and yellow discs in black holes.
var (
	adjacencyPalette = palette{
		mark: [2]string{"🔴", "🔵"}, last: [2]string{"🟥", "🟦"}, empty: "🟩",
		colour: [2]int{0xDD2E44, 0x55ACEE},
	}
	connect4Palette = palette{
		mark: [2]string{"🔴", "🟡"}, last: [2]string{"🟥", "🟨"}, empty: "⚫",
		colour: [2]int{0xDD2E44, 0xFDCB58},
	}
	tictactoePalette = palette{
		mark: [2]string{"❌", "⭕"}, last: [2]string{"❎", "🅾️"},
		colour: [2]int{0xDD2E44, 0x55ACEE},
	}
)

// paletteOf returns the palette of a game kind.
func paletteOf(k storage.Kind) palette {
	switch k {
	case storage.ConnectFour:
		return connect4Palette
	case storage.TicTacToe:
		return tictactoePalette
	}
	return adjacencyPalette
}

// cornerEmoji fills the corner left of the file letters.
const cornerEmoji = "⬛"

// zwsp keeps regional-indicator letters apart, which would otherwise pair
// up into flags.
const zwsp = "\u200b"

// keycap returns the keycap emoji of a digit 0–9, such as "4️⃣".
func keycap(d int) string { return strconv.Itoa(d) + "\uFE0F\u20E3" }

// fileLetter returns the regional-indicator letter of file 0–7 (🇦–🇭).
func fileLetter(file int) string { return string(rune(0x1F1E6 + file)) }

// cell returns the emoji of a cell holding side s (ok) or nothing.
func (p palette) cell(s engine.Side, ok, last bool) string {
	switch {
	case !ok:
		return p.empty
	case last:
		return p.last[s]
	}
	return p.mark[s]
}

// adjacencyGrid draws an Adjacency board with rank 8 on top, rank numbers
// on the left and file letters below; last is the cell of the last move or
// engine.NoMove.
func adjacencyGrid(b adjacency.Board, last engine.Move) string {
	var sb strings.Builder
	for rank := 7; rank >= 0; rank-- {
		sb.WriteString(keycap(rank + 1))
		for file := range 8 {
			c := engine.Move(8*rank + file)
			s, ok := b.Mark(c)
			sb.WriteString(adjacencyPalette.cell(s, ok, c == last))
		}
		sb.WriteString("\n")
	}
	sb.WriteString(cornerEmoji)
	for file := range 8 {
		if file > 0 {
			sb.WriteString(zwsp)
		}
		sb.WriteString(fileLetter(file))
	}
	return sb.String()
}

// connect4Grid draws a Connect Four board, bottom row last, with the
// column numbers below; lastCol is the column of the last move or -1.
func connect4Grid(p *connect4.Position, lastCol int) string {
	lastRow := topRow(p, lastCol)
	var sb strings.Builder
	for row := connect4.Height - 1; row >= 0; row-- {
		for col := range connect4.Width {
			s, ok := p.At(col, row)
			sb.WriteString(connect4Palette.cell(s, ok, col == lastCol && row == lastRow))
		}
		sb.WriteString("\n")
	}
	for col := range connect4.Width {
		sb.WriteString(keycap(col + 1))
	}
	return sb.String()
}

// topRow returns the row of the top stone of a column, or -1.
func topRow(p *connect4.Position, col int) int {
	for row := connect4.Height - 1; row >= 0; row-- {
		if _, ok := p.At(col, row); ok {
			return row
		}
	}
	return -1
}

// tictactoeGrid draws a Tic-Tac-Toe board, empty cells showing their
// number; last is the cell of the last move or engine.NoMove.
func tictactoeGrid(p *tictactoe.Position, last engine.Move) string {
	var sb strings.Builder
	for c := range engine.Move(tictactoe.Cells) {
		if c > 0 && c%3 == 0 {
			sb.WriteString("\n")
		}
		if s, ok := p.Mark(c); ok {
			sb.WriteString(tictactoePalette.cell(s, ok, c == last))
		} else {
			sb.WriteString(keycap(int(c) + 1))
		}
	}
	return sb.String()
}

// grid draws pos with the last move of moves (the game's record) marked.
func grid(pos engine.Position, moves []string) string {
	last := lastMove(pos, moves)
	switch p := pos.(type) {
	case *adjacency.Position:
		return adjacencyGrid(p.Board, last)
	case *connect4.Position:
		col := -1
		if last != engine.NoMove {
			col = int(last)
		}
		return connect4Grid(p, col)
	case *tictactoe.Position:
		return tictactoeGrid(p, last)
	}
	return "```\n" + pos.String() + "\n```"
}

// lastMove reads the last of moves, in the notation of pos's game, as a
// move: a cell, or a column for Connect Four. It returns engine.NoMove when
// there is none or it names no mark on the board.
func lastMove(pos engine.Position, moves []string) engine.Move {
	if len(moves) == 0 {
		return engine.NoMove
	}
	text := moves[len(moves)-1]
	switch p := pos.(type) {
	case *adjacency.Position:
		if c, err := adjacency.ParseCell(text); err == nil {
			if _, ok := p.Mark(c); ok {
				return c
			}
		}
	case *connect4.Position:
		if n, err := strconv.Atoi(text); err == nil && n >= 1 && n <= connect4.Width && topRow(p, n-1) >= 0 {
			return engine.Move(n - 1)
		}
	case *tictactoe.Position:
		if n, err := strconv.Atoi(text); err == nil && n >= 1 && n <= tictactoe.Cells {
			if _, ok := p.Mark(engine.Move(n - 1)); ok {
				return engine.Move(n - 1)
			}
		}
	}
	return engine.NoMove
}

// lastMark returns the side that made the last move of moves on pos.
func lastMark(pos engine.Position, last engine.Move) (engine.Side, bool) {
	switch p := pos.(type) {
	case *adjacency.Position:
		return p.Mark(last)
	case *connect4.Position:
		return p.At(int(last), topRow(p, int(last)))
	case *tictactoe.Position:
		return p.Mark(last)
	}
	return 0, false
}

// seatSides returns the side each seat of g plays: Players[g.Turn] plays
// the side to move of pos.
func seatSides(g *storage.Game, pos engine.Position) [2]engine.Side {
	var sides [2]engine.Side
	turn := g.Turn & 1
	sides[turn] = pos.SideToMove()
	sides[1-turn] = pos.SideToMove().Other()
	return sides
}

// position returns the position to draw: v.Pos, or else the game's stored
// position text, or nil if there is neither.
func position(v View) engine.Position {
	if v.Pos != nil {
		return v.Pos
	}
	return parsePosition(v.Game)
}

// parsePosition reads a game's stored position text, or returns nil.
func parsePosition(g *storage.Game) engine.Position {
	if g.Position == "" {
		return nil
	}
	gm, err := games.Lookup(string(g.Kind))
	if err != nil {
		return nil
	}
	pos, err := gm.Position(g.Position, games.Options{})
	if err != nil {
		return nil
	}
	return pos
}

// adjacencyCaptures returns the cells the last move of moves flipped, in
// cell order, by replaying the game's moves from the start; nil if the
// replay does not reach pos.
func adjacencyCaptures(g *storage.Game, pos *adjacency.Position) []engine.Move {
	n := len(g.Moves)
	if n == 0 {
		return nil
	}
	rounds := g.Settings.Rounds
	if rounds == 0 {
		rounds = games.DefaultRounds
	}
	first := pos.SideToMove()
	if n%2 == 1 {
		first = first.Other()
	}
	b, err := adjacency.NewBoard(rounds, first)
	if err != nil {
		return nil
	}
	var last engine.Move
	for i, text := range g.Moves {
		m, err := b.ParseMove(text)
		if err != nil {
			return nil
		}
		if i < n-1 {
			b = b.After(m)
		}
		last = m
	}
	if b.After(last) != pos.Board {
		return nil
	}
	var flips []engine.Move
	for _, c := range neighbours(last) {
		if s, ok := b.Mark(c); ok && s != b.SideToMove() {
			flips = append(flips, c)
		}
	}
	return flips
}

// neighbours returns the cells orthogonally next to cell c, in cell order.
func neighbours(c engine.Move) []engine.Move {
	file, rank := c%8, c/8
	var out []engine.Move
	if rank > 0 {
		out = append(out, c-8)
	}
	if file > 0 {
		out = append(out, c-1)
	}
	if file < 7 {
		out = append(out, c+1)
	}
	if rank < 7 {
		out = append(out, c+8)
	}
	return out
}
