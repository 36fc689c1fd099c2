package games

import (
	"fmt"
	"strings"
)

// Text draws the board model as plain text, for terminals and logs: a line
// per row, top row first, a cell being its mark's side ("x" or "o"), else
// its label, else "."; the row labels stand on both sides of their row and
// the column labels on a line below. Cells are right-aligned to the widest
// label, one space apart.
func (b Board) Text() string {
	width := 1
	for _, row := range b.Rows {
		for _, c := range row {
			width = max(width, len([]rune(c.Label)))
		}
	}
	for _, l := range b.ColLabels {
		width = max(width, len([]rune(l)))
	}
	rowWidth := 0
	for _, l := range b.RowLabels {
		rowWidth = max(rowWidth, len([]rune(l)))
	}
	var out strings.Builder
	line := func(label string, cells []string) {
		if rowWidth > 0 {
			fmt.Fprintf(&out, "%*s  ", rowWidth, label)
		}
		for i, c := range cells {
			if i > 0 {
				out.WriteByte(' ')
			}
			fmt.Fprintf(&out, "%*s", width, c)
		}
		if rowWidth > 0 && label != "" {
			out.WriteString("  " + label)
		}
		out.WriteByte('\n')
	}
	for r, row := range b.Rows {
		cells := make([]string, len(row))
		for i, c := range row {
			switch {
			case c.Occupied:
				cells[i] = c.Side.String()
			case c.Label != "":
				cells[i] = c.Label
			default:
				cells[i] = "."
			}
		}
		label := ""
		if r < len(b.RowLabels) {
			label = b.RowLabels[r]
		}
		line(label, cells)
	}
	if len(b.ColLabels) > 0 {
		line("", b.ColLabels)
	}
	return out.String()
}
