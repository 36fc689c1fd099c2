package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// StandingsRow is one line of a tournament's table as the picture shows
// it, every cell written by the caller in the reader's language.
type StandingsRow struct {
	// Rank is the place from 1: the first three are tinted gold, silver
	// and bronze.
	Rank int
	// Place, Name, Score and Detail are the line's cells: "#4", the
	// player, "3½", the tie-breaks and record.
	Place, Name, Score, Detail string
	// Withdrawn greys the line out.
	Withdrawn bool
}

// The table's layout in pixels.
const (
	tableWidth   = 760
	tableRow     = 34
	tablePad     = 14
	tablePlace   = 60  // the place column's width
	tableName    = 300 // the name column's width
	tableScore   = 90  // the score column's width
	tableFontRow = 50  // the cell size labelFace is asked for: a 17-point font
)

// The table's colours.
var (
	tableBack  = rgb(0x2B2D31)
	tableHead  = rgb(0x1E1F22)
	tableText  = rgb(0xF2F3F5)
	tableFaint = rgb(0x949BA4)
	tableTints = map[int]color.RGBA{1: rgb(0x5C4A12), 2: rgb(0x45474D), 3: rgb(0x4D3422)}
)

// Standings draws a tournament's table as a PNG: a title line, a header
// (head: place, name, score, detail) and one line per row, long names cut
// with "…".
func Standings(title string, head [4]string, rows []StandingsRow) ([]byte, error) {
	face, err := labelFace(tableFontRow)
	if err != nil {
		return nil, err
	}
	height := tableRow*(len(rows)+2) + tablePad
	img := image.NewRGBA(image.Rect(0, 0, tableWidth, height))
	draw.Draw(img, img.Bounds(), &image.Uniform{tableBack}, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(0, 0, tableWidth, 2*tableRow), &image.Uniform{tableHead}, image.Point{}, draw.Src)
	line(img, face, title, tablePad, tableRow/2, tableWidth-2*tablePad, tableText)
	cells := func(y int, cols [4]string, c color.Color) {
		x := tablePad
		for i, w := range []int{tablePlace, tableName, tableScore, tableWidth - 2*tablePad - tablePlace - tableName - tableScore} {
			line(img, face, cols[i], x, y, w-8, c)
			x += w
		}
	}
	cells(tableRow+tableRow/2, head, tableFaint)
	for i, r := range rows {
		top := tableRow * (i + 2)
		if tint, ok := tableTints[r.Rank]; ok && !r.Withdrawn {
			draw.Draw(img, image.Rect(0, top, tableWidth, top+tableRow), &image.Uniform{tint}, image.Point{}, draw.Src)
		}
		c := tableText
		if r.Withdrawn {
			c = tableFaint
		}
		cells(top+tableRow/2, [4]string{r.Place, r.Name, r.Score, r.Detail}, c)
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("picture: encode the standings: %w", err)
	}
	return buf.Bytes(), nil
}

// line draws s from x, centred on cy vertically, cut with "…" to width.
func line(img *image.RGBA, face font.Face, s string, x, cy, width int, col color.Color) {
	d := &font.Drawer{Dst: img, Src: &image.Uniform{col}, Face: face}
	if d.MeasureString(s) > fixed.I(width) {
		r := []rune(s)
		for len(r) > 0 && d.MeasureString(string(r)+"…") > fixed.I(width) {
			r = r[:len(r)-1]
		}
		s = string(r) + "…"
	}
	m := face.Metrics()
	d.Dot = fixed.Point26_6{X: fixed.I(x), Y: fixed.I(cy) + (m.Ascent-m.Descent)/2}
	d.DrawString(s)
}
