package picture

import (
	"image"
	"testing"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/queens"
)

// pixel returns the colour, as 0xRRGGBB, at (dx, dy) cells from the
// centre of the cell in row r, column c of a picture of board.
func pixel(img *image.RGBA, board games.Board, r, c int, dx, dy float64) int {
	side := sideOf(board)
	x0, y0 := side/8, side/8
	if board.RowLabels != nil {
		x0 += margin(side)
	}
	p := img.RGBAAt(x0+c*side+side/2+int(dx*float64(side)), y0+r*side+side/2+int(dy*float64(side)))
	return int(p.R)<<16 | int(p.G)<<8 | int(p.B)
}

// TestQueensBoardIsAChessboard draws N-Queens with queens on a1 and b2,
// which attack each other along a diagonal, and on d5, which nothing
// attacks: the squares alternate light and dark as a chessboard's, a1
// dark; each queen is a crown, not a disc (the sky between two of its
// points shows the square); and the attacking queens stand on squares of
// the attack colour while d5's keeps its own.
func TestQueensBoardIsAChessboard(t *testing.T) {
	gm := queens.Game
	pos, err := gm.Position("1,2,0,5,0", games.Options{})
	if err != nil {
		t.Fatal(err)
	}
	board := gm.Look.Board(pos, nil)
	img, err := Draw(gm.Look, board)
	if err != nil {
		t.Fatal(err)
	}
	pic := gm.Look.Picture
	n := len(board.Rows)
	corner := -0.5 + 0.1 // inside the square, outside the queen
	for r := range n {
		for c := range n {
			want := pic.Cell
			if (n-1-r+c)%2 == 0 { // a1's colour: dark, as on a chessboard
				want = pic.Dark
			}
			cell := board.Rows[r][c]
			if cell.Occupied && cell.Attacked {
				want = Attacked
			}
			if got := pixel(img, board, r, c, corner, corner); got != want {
				t.Errorf("the square in row %s, column %s (%+v) is #%06X, want #%06X", board.RowLabels[r], board.ColLabels[c], cell, got, want)
			}
		}
	}
	attacked := map[string]bool{}
	for r, row := range board.Rows {
		for c, cell := range row {
			if !cell.Occupied {
				continue
			}
			name := board.ColLabels[c] + board.RowLabels[r]
			attacked[name] = cell.Attacked
			if got := pixel(img, board, r, c, 0, 0); got != pic.Mark[0] {
				t.Errorf("queen %s: its centre is #%06X, want the queen's #%06X", name, got, pic.Mark[0])
			}
			// Between the crown's middle point and the next one.
			if got, square := pixel(img, board, r, c, 0.08, -0.22), pixel(img, board, r, c, corner, corner); got != square {
				t.Errorf("queen %s: between its crown's points is #%06X, want its square's #%06X: drawn as a disc?", name, got, square)
			}
		}
	}
	if want := map[string]bool{"a1": true, "b2": true, "d5": false}; len(attacked) != 3 || attacked["a1"] != want["a1"] || attacked["b2"] != want["b2"] || attacked["d5"] {
		t.Errorf("the queens and whether they are attacked: %v, want %v", attacked, want)
	}
}
