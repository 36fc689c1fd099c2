package render

import (
	"strconv"
	"strings"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/games"
)

// boardSummary says in one line what a board model shows, for the
// picture's text alternative, which screen readers read where the emoji
// grid is not shown: the cells of each side's marks, the last move's
// cell and the marks under attack (N-Queens), or a sliding puzzle's
// tiles row by row.
func boardSummary(l *i18n.Localizer, gm *games.Game, b games.Board) string {
	if gm.Look.Picture.Labels { // numbered tiles and a blank
		rows := make([]string, len(b.Rows))
		for r, row := range b.Rows {
			tiles := make([]string, len(row))
			for c, cell := range row {
				tiles[c] = cell.Label
				if tiles[c] == "" {
					tiles[c] = "·"
				}
			}
			rows[r] = strings.Join(tiles, " ")
		}
		return l.T("board.alt_rows", "Rows", strings.Join(rows, " / "))
	}
	var marks [2][]string
	var last string
	var attacked []string
	for _, spot := range readingOrder(b) {
		r, c := spot.Row, spot.Col
		if cell := b.Rows[r][c]; cell.Occupied {
			name := cellName(l, b, r, c)
			marks[cell.Side&1] = append(marks[cell.Side&1], name)
			if cell.Last {
				last = name
			}
			if cell.Attacked {
				attacked = append(attacked, name)
			}
		}
	}
	var parts []string
	for side, cells := range marks {
		if len(cells) > 0 {
			parts = append(parts, l.T("board.alt_marks", "Mark", gm.Look.Mark[side], "Count", len(cells), "Cells", strings.Join(cells, ", ")))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, l.T("board.alt_empty"))
	}
	if last != "" {
		parts = append(parts, l.T("board.alt_last", "Cell", last))
	}
	if len(attacked) > 0 {
		parts = append(parts, l.T("board.alt_attacked", "Cells", strings.Join(attacked, ", ")))
	}
	return strings.Join(parts, "; ")
}

// readingOrder lists the cells of a board model in the order a summary
// names them: a board with files and ranks as a chessboard's by file,
// each from the bottom (a1, a2, …, b1, …); another row by row from the
// top (Tic-Tac-Toe's 1 to 9).
func readingOrder(b games.Board) []games.Spot {
	var out []games.Spot
	if b.RowLabels != nil && b.ColLabels != nil {
		for c := range b.Rows[0] {
			for r := len(b.Rows) - 1; r >= 0; r-- {
				out = append(out, games.Spot{Row: r, Col: c})
			}
		}
		return out
	}
	for r, row := range b.Rows {
		for c := range row {
			out = append(out, games.Spot{Row: r, Col: c})
		}
	}
	return out
}

// cellName names the cell in row r (0 on top), column c of a board model
// as players do: file and rank ("c4") where the board labels both, the
// cell's own label (Tic-Tac-Toe's digits), or else its column and its
// row counted from the bottom (Connect Four).
func cellName(l *i18n.Localizer, b games.Board, r, c int) string {
	switch {
	case b.RowLabels != nil && b.ColLabels != nil:
		return b.ColLabels[c] + b.RowLabels[r]
	case b.Rows[r][c].Label != "":
		return b.Rows[r][c].Label
	case b.ColLabels != nil:
		return l.T("board.alt_column_row", "Column", b.ColLabels[c], "Row", strconv.Itoa(len(b.Rows)-r))
	}
	return strconv.Itoa(r+1) + "," + strconv.Itoa(c+1)
}
