// Package picture draws a game's board as a PNG image: the board model of
// the game's plug-in (games.Look.Board) in the colours of its
// games.Picture, with the cell names on the edges, the last move ringed,
// the marks it captured dotted and a winning line drawn through its cells.
//
// It reads nothing but its arguments and does no I/O, like package render,
// whose emoji grid stays the text alternative of the picture.
package picture

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"github.com/gambitbot/gambit/games"
)

// Cell is the side of a cell in pixels on a board of 8 to 11 cells a
// side; a smaller board's cells are larger, a larger one's smaller
// (cellSize).
const Cell = 56

// minBoard is the side in pixels that a board's cells fill at least, so
// that a small board (Tic-Tac-Toe, the 8-puzzle) shows about as large as
// an 8×8 one.
const minBoard = 8 * Cell

// maxBoard bounds the side in pixels of a large board with its labels,
// so that Gomoku's 15×15 (891 pixels at Cell) or 12 queens show about
// as large as an 8×8 board too.
const maxBoard = minBoard * 3 / 2

// cellSize is the side in pixels of a cell of a board of rows × cols
// cells: Cell, grown until a small board fills minBoard, shrunk until a
// large one with its label margins (about one cell) fits maxBoard.
func cellSize(rows, cols int) int {
	n := max(rows, cols)
	return min(max(Cell, minBoard/n), maxBoard/(n+1))
}

// margin is the width of the label margins beside cells of side cell.
func margin(cell int) int { return cell * 2 / 3 }

// colours that do not depend on the game.
var (
	ink   = color.RGBA{0x14, 0x14, 0x14, 0xFF} // outlines, the winning line
	paper = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF} // rings and dots on marks
	label = color.RGBA{0xE8, 0xE8, 0xE8, 0xFF}
)

// Attacked is the colour of the square of an attacked mark
// (games.Cell's Attacked): the Okabe–Ito palette's vermillion, apart
// from the light and dark squares and the marks for colour-blind eyes too.
const Attacked = 0xD55E00

// Square returns the colour of the empty square in row r (0 on top),
// column c of a board of rows rows drawn in pic: a checkerboard's light or
// dark one (games.Picture's Dark: the bottom-left square is dark), or
// else the cell colour.
func Square(pic games.Picture, rows, r, c int) int {
	if pic.Dark != 0 && (rows-1-r+c)%2 == 0 {
		return pic.Dark
	}
	return pic.Cell
}

// PNG draws board in look's picture style and encodes it as a PNG.
func PNG(look games.Look, board games.Board) ([]byte, error) {
	img, err := Draw(look, board)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("picture: encode: %w", err)
	}
	return buf.Bytes(), nil
}

// Draw draws board in look's picture style.
func Draw(look games.Look, board games.Board) (*image.RGBA, error) {
	rows := len(board.Rows)
	if rows == 0 || len(board.Rows[0]) == 0 {
		return nil, fmt.Errorf("picture: empty board")
	}
	cols := len(board.Rows[0])
	cell := cellSize(rows, cols)
	left, bottom := 0, 0
	if board.RowLabels != nil {
		left = margin(cell)
	}
	if board.ColLabels != nil {
		bottom = margin(cell)
	}
	pad := cell / 8
	w, h := left+cols*cell+2*pad, rows*cell+bottom+2*pad
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	pic := look.Picture
	draw.Draw(img, img.Bounds(), &image.Uniform{rgb(pic.Board)}, image.Point{}, draw.Src)
	face, err := labelFace(cell)
	if err != nil {
		return nil, err
	}
	x0, y0 := left+pad, pad
	for r, row := range board.Rows {
		if len(row) != cols {
			return nil, fmt.Errorf("picture: row %d has %d cells, want %d", r, len(row), cols)
		}
		for c, spot := range row {
			cx, cy := x0+c*cell+cell/2, y0+r*cell+cell/2
			drawCell(img, pic, face, spot, Square(pic, rows, r, c), cx, cy, cell)
		}
		if board.RowLabels != nil {
			text(img, face, board.RowLabels[r], pad+left/2, y0+r*cell+cell/2, label)
		}
	}
	for c, l := range board.ColLabels {
		text(img, face, l, x0+c*cell+cell/2, y0+rows*cell+bottom/2, label)
	}
	centre := func(s games.Spot) [2]float32 { return pt(x0+s.Col*cell+cell/2, y0+s.Row*cell+cell/2, 0, 0) }
	for _, l := range board.Lines {
		stroke(img, centre(l[0]), centre(l[1]), float32(cell)/7, ink)
		stroke(img, centre(l[0]), centre(l[1]), float32(cell)/14, paper)
	}
	return img, nil
}

// drawCell draws one cell centred on (cx, cy), of side side pixels: its
// square in the colour square (Attacked for an attacked mark), its mark,
// and the marks of the last move; in a style with Labels, an empty cell's
// label (a sliding tile's number) on it, or a hole for none (the blank).
func drawCell(img *image.RGBA, pic games.Picture, face font.Face, cell games.Cell, square, cx, cy, side int) {
	inset := side / 16
	sq := image.Rect(cx-side/2+inset, cy-side/2+inset, cx+side/2-inset, cy+side/2-inset)
	if pic.Labels && !cell.Occupied {
		if cell.Label == "" {
			return // the board's colour shows through
		}
		colour := pic.Cell
		if cell.Last {
			colour = lighter(pic.Cell)
		}
		draw.Draw(img, sq, &image.Uniform{rgb(colour)}, image.Point{}, draw.Src)
		text(img, face, cell.Label, cx, cy, rgb(pic.Mark[0]))
		return
	}
	if cell.Occupied && cell.Attacked {
		square = Attacked
	}
	draw.Draw(img, sq, &image.Uniform{rgb(square)}, image.Point{}, draw.Src)
	if !cell.Occupied {
		if cell.Legal { // a small dot where the side to move may play
			disc(img, cx, cy, float32(side)/10, ink)
		}
		return
	}
	c := rgb(pic.Mark[cell.Side&1])
	r := float32(side) * 0.38
	switch pic.Shape {
	case games.Letters:
		if cell.Side == 0 {
			d := r * 0.75
			stroke(img, pt(cx, cy, -d, -d), pt(cx, cy, d, d), r/3.2, c)
			stroke(img, pt(cx, cy, -d, d), pt(cx, cy, d, -d), r/3.2, c)
		} else {
			ring(img, cx, cy, r*0.85, r/3.2, c)
		}
	case games.Queens:
		queen(img, cx, cy, float32(side), c)
	default:
		disc(img, cx, cy, r+1.5, ink)
		disc(img, cx, cy, r, c)
	}
	if cell.Last {
		ring(img, cx, cy, r+float32(side)/14, float32(side)/14, paper)
		ring(img, cx, cy, r+float32(side)/7, float32(side)/28, ink)
	}
	if cell.Changed {
		disc(img, cx, cy, r/3.5, ink)
		disc(img, cx, cy, r/4.5, paper)
	}
}

// queenShape is the outline of a chess queen in a cell of side 1 centred
// on (0, 0): a crown of five points over a band and a base, drawn
// clockwise from the base's bottom left.
var queenShape = [][2]float32{
	{-0.32, 0.34}, {-0.32, 0.24}, {-0.24, 0.16}, // the base and the band
	{-0.34, -0.22}, {-0.15, 0.0}, // the points of the crown, each with the notch after it
	{-0.17, -0.3}, {-0.05, -0.02},
	{0, -0.36}, {0.05, -0.02},
	{0.17, -0.3}, {0.15, 0.0},
	{0.34, -0.22}, {0.24, 0.16},
	{0.32, 0.24}, {0.32, 0.34},
}

// queenBalls are the balls on the crown's points, in queenShape's units.
var queenBalls = [][2]float32{{-0.34, -0.22}, {-0.17, -0.3}, {0, -0.36}, {0.17, -0.3}, {0.34, -0.22}}

// queen draws a chess queen in colour c, outlined in ink, in the cell of
// side side centred on (cx, cy).
func queen(img *image.RGBA, cx, cy int, side float32, c color.Color) {
	x, y := float32(cx), float32(cy)
	shape := func(grow float32) func(z *vector.Rasterizer, ox, oy float32) {
		return func(z *vector.Rasterizer, ox, oy float32) {
			for i, p := range queenShape {
				px, py := x+p[0]*(side+grow)-ox, y+p[1]*(side+grow)-oy
				if i == 0 {
					z.MoveTo(px, py)
				} else {
					z.LineTo(px, py)
				}
			}
			z.ClosePath()
		}
	}
	outline := side / 14
	fill(img, ink, x, y, side/2, shape(outline*2))
	fill(img, c, x, y, side/2, shape(0))
	for _, b := range queenBalls {
		bx, by := int(x+b[0]*side), int(y+b[1]*side)
		disc(img, bx, by, side/16+outline/2, ink)
		disc(img, bx, by, side/16, c)
	}
}

// pt returns (cx+dx, cy+dy) as a float point.
func pt(cx, cy int, dx, dy float32) [2]float32 {
	return [2]float32{float32(cx) + dx, float32(cy) + dy}
}

// rgb returns the colour 0xRRGGBB.
func rgb(c int) color.RGBA {
	return color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 0xFF}
}

// fill rasterises the path drawn by path within the box around (cx, cy)
// that reaches out by reach pixels, in colour c; path gets the box's
// corner to draw relative to.
func fill(img *image.RGBA, c color.Color, cx, cy, reach float32, path func(z *vector.Rasterizer, ox, oy float32)) {
	box := image.Rect(int(cx-reach)-1, int(cy-reach)-1, int(cx+reach)+2, int(cy+reach)+2).Intersect(img.Bounds())
	if box.Empty() {
		return
	}
	z := vector.NewRasterizer(box.Dx(), box.Dy())
	path(z, float32(box.Min.X), float32(box.Min.Y))
	z.Draw(img, box, &image.Uniform{c}, box.Min)
}

// circle adds a circle of radius r around (cx, cy) to z, as four cubic
// Bézier arcs; reverse draws it the other way round (mirrored), which
// cuts a hole out of a circle drawn the first way.
func circle(z *vector.Rasterizer, cx, cy, r float32, reverse bool) {
	k := r * 0.5522847 // the control distance of a quarter circle
	s := float32(1)
	if reverse {
		s = -1
	}
	z.MoveTo(cx+r, cy)
	z.CubeTo(cx+r, cy+s*k, cx+k, cy+s*r, cx, cy+s*r)
	z.CubeTo(cx-k, cy+s*r, cx-r, cy+s*k, cx-r, cy)
	z.CubeTo(cx-r, cy-s*k, cx-k, cy-s*r, cx, cy-s*r)
	z.CubeTo(cx+k, cy-s*r, cx+r, cy-s*k, cx+r, cy)
	z.ClosePath()
}

// disc fills a circle.
func disc(img *image.RGBA, cx, cy int, r float32, c color.Color) {
	x, y := float32(cx), float32(cy)
	fill(img, c, x, y, r, func(z *vector.Rasterizer, ox, oy float32) { circle(z, x-ox, y-oy, r, false) })
}

// ring fills the band between radii r−width/2 and r+width/2.
func ring(img *image.RGBA, cx, cy int, r, width float32, c color.Color) {
	x, y := float32(cx), float32(cy)
	fill(img, c, x, y, r+width/2, func(z *vector.Rasterizer, ox, oy float32) {
		circle(z, x-ox, y-oy, r+width/2, false)
		circle(z, x-ox, y-oy, r-width/2, true) // the hole winds the other way
	})
}

// stroke fills a line of the given width from a to b, with square ends.
func stroke(img *image.RGBA, a, b [2]float32, width float32, c color.Color) {
	dx, dy := b[0]-a[0], b[1]-a[1]
	n := float32(math.Hypot(float64(dx), float64(dy)))
	if n == 0 {
		return
	}
	nx, ny := -dy/n*width/2, dx/n*width/2
	mx, my := (a[0]+b[0])/2, (a[1]+b[1])/2
	fill(img, c, mx, my, n/2+width, func(z *vector.Rasterizer, ox, oy float32) {
		z.MoveTo(a[0]+nx-ox, a[1]+ny-oy)
		z.LineTo(b[0]+nx-ox, b[1]+ny-oy)
		z.LineTo(b[0]-nx-ox, b[1]-ny-oy)
		z.LineTo(a[0]-nx-ox, a[1]-ny-oy)
		z.ClosePath()
	})
}

// labelFont is the font of the labels: Go Bold, parsed once. A parsed
// font may be shared; a face may not (it keeps a glyph buffer), so each
// drawing makes its own (labelFace).
var labelFont = sync.OnceValues(func() (*opentype.Font, error) {
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("picture: font: %w", err)
	}
	return f, nil
})

// labelFace returns a new face of the label font, for one drawing of
// cells of side cell.
func labelFace(cell int) (font.Face, error) {
	f, err := labelFont()
	if err != nil {
		return nil, err
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: float64(cell) * 0.34, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("picture: font: %w", err)
	}
	return face, nil
}

// lighter returns a colour halfway to white: the tile the last move slid.
func lighter(c int) int {
	r, g, b := c>>16&0xFF, c>>8&0xFF, c&0xFF
	return (r+0xFF)/2<<16 | (g+0xFF)/2<<8 | (b+0xFF)/2
}

// text draws s in colour col centred on (cx, cy).
func text(img *image.RGBA, face font.Face, s string, cx, cy int, col color.Color) {
	d := &font.Drawer{Dst: img, Src: &image.Uniform{col}, Face: face}
	width := d.MeasureString(s)
	m := face.Metrics()
	d.Dot = fixed.Point26_6{
		X: fixed.I(cx) - width/2,
		Y: fixed.I(cy) + (m.Ascent-m.Descent)/2,
	}
	d.DrawString(s)
}
