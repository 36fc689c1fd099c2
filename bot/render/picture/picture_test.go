package picture

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/racetest"
)

var out = flag.String("picture.out", "", "write a sample PNG of each game into this directory")

// played plays n random moves of gm from its start and returns the position
// and the last move's record.
func played(t testing.TB, gm *games.Game, seed uint64, n int) (engine.Position, *games.Change) {
	t.Helper()
	pos, err := gm.Start(games.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	var last *games.Change
	for range n {
		moves := pos.Moves(nil)
		if len(moves) == 0 {
			break
		}
		c := gm.Play(pos, moves[rng.IntN(len(moves))])
		last = &c
	}
	return pos, last
}

// at returns the colour at the centre of the cell in row r, column c of a
// picture of board.
func at(img *image.RGBA, board games.Board, r, c int) (uint8, uint8, uint8) {
	cell := sideOf(board)
	x0, y0 := cell/8, cell/8
	if board.RowLabels != nil {
		x0 += margin(cell)
	}
	p := img.RGBAAt(x0+c*cell+cell/2, y0+r*cell+cell/2)
	return p.R, p.G, p.B
}

// sideOf is the side of a cell of a picture of board.
func sideOf(board games.Board) int { return cellSize(len(board.Rows), len(board.Rows[0])) }

// TestEveryGamePictureIsOfASize checks that no game's picture is much
// smaller than another's: Tic-Tac-Toe and the 8-puzzle as wide as an
// 8×8 board, give or take its labels.
func TestEveryGamePictureIsOfASize(t *testing.T) {
	for _, gm := range catalog.All() {
		pos, last := played(t, gm, 1, 0)
		img, err := Draw(gm.Look, gm.Look.Board(pos, last))
		if err != nil {
			t.Fatal(err)
		}
		if w := img.Bounds().Dx(); w < minBoard || w > minBoard*3/2 {
			t.Errorf("%s: its picture is %d pixels wide, want %d to %d", gm.Name, w, minBoard, minBoard*3/2)
		}
	}
}

// roundTrips are the seeds (random moves from the start) whose pictures
// TestEveryGameDraws also encodes and decodes: the start, the sample and
// the last. Encoding and decoding a PNG costs ten times the drawing under
// -race, and neither depends on the position.
var roundTrips = map[uint64]bool{0: true, 12: true, 29: true}

// TestEveryGameDraws draws positions of every game and checks the picture:
// its size follows the board, each occupied cell's centre shows its side's
// colour (or, for a captured mark, the dot on it), an empty cell's centre
// the empty colour, and, at the seeds of roundTrips, the PNG decodes to
// the same image, pixel for pixel.
//
// Under -race -short, where drawing is pure computation on one goroutine
// at ten times its CPU (7 s for the test), it draws every third seed and
// the last, and round-trips the sample's PNG only.
func TestEveryGameDraws(t *testing.T) {
	sample := racetest.Short(t, "every third seed and the last, the sample's PNG only")
	for _, gm := range catalog.All() {
		for seed := range uint64(30) {
			if sample && seed%3 != 0 && seed != 29 {
				continue
			}
			pos, last := played(t, gm, seed, int(seed))
			board := gm.Look.Board(pos, last)
			img, err := Draw(gm.Look, board)
			if err != nil {
				t.Fatalf("%s: %v", gm.Name, err)
			}
			rows, cols := len(board.Rows), len(board.Rows[0])
			side := sideOf(board)
			if w := img.Bounds().Dx(); w < cols*side || w > cols*side+margin(side)+side/4 {
				t.Errorf("%s: width %d for %d columns", gm.Name, w, cols)
			}
			if h := img.Bounds().Dy(); h < rows*side || h > rows*side+margin(side)+side/4 {
				t.Errorf("%s: height %d for %d rows", gm.Name, h, rows)
			}
			pic := gm.Look.Picture
			for r, row := range board.Rows {
				for c, cell := range row {
					if onLine(board, r, c) {
						continue // the winning line crosses the centre
					}
					want := Square(pic, rows, r, c)
					switch {
					case pic.Labels && !cell.Occupied:
						continue // a tile's number or the blank: TestTilesShowTheirNumbers
					case cell.Changed:
						want = 0xFFFFFF
					case cell.Legal && !cell.Occupied: // a dot where the side to move may play
						want = int(ink.R)<<16 | int(ink.G)<<8 | int(ink.B)
					case cell.Occupied && pic.Shape != games.Letters:
						want = pic.Mark[cell.Side]
					case cell.Occupied && cell.Side == engine.X: // a cross: its centre
						want = pic.Mark[engine.X]
					}
					if cr, cg, cb := at(img, board, r, c); cr != uint8(want>>16) || cg != uint8(want>>8) || cb != uint8(want) {
						t.Fatalf("%s seed %d: cell %d,%d (%+v) is #%02x%02x%02x, want #%06x", gm.Name, seed, r, c, cell, cr, cg, cb, want)
					}
				}
			}
			if !roundTrips[seed] || sample && seed != 12 {
				continue
			}
			data, err := PNG(gm.Look, board)
			if err != nil {
				t.Fatal(err)
			}
			back, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s seed %d: the PNG does not decode: %v", gm.Name, seed, err)
			}
			if got, ok := back.(*image.RGBA); !ok || got.Bounds() != img.Bounds() || !bytes.Equal(got.Pix, img.Pix) {
				t.Fatalf("%s seed %d: the PNG decodes to a %T of %v, not the %v picture drawn", gm.Name, seed, back, back.Bounds(), img.Bounds())
			}
			if *out != "" && seed == 12 {
				if err := os.WriteFile(filepath.Join(*out, gm.Name+".png"), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// TestTilesShowTheirNumbers draws sliding-tile boards and checks that
// every tile is a square of the tile colour with ink of its number on it,
// the tile the last move slid lighter, and the blank a hole in the
// board's colour.
func TestTilesShowTheirNumbers(t *testing.T) {
	for _, name := range []string{"8puzzle", "15puzzle"} {
		gm, _ := catalog.Lookup(name)
		pos, last := played(t, gm, 3, 5)
		board := gm.Look.Board(pos, last)
		img, err := Draw(gm.Look, board)
		if err != nil {
			t.Fatal(err)
		}
		pic := gm.Look.Picture
		lastSeen := false
		for r, row := range board.Rows {
			for c, cell := range row {
				counts := colours(img, board, r, c)
				side := sideOf(board)
				corner := pic.Cell
				if cell.Last {
					corner, lastSeen = lighter(pic.Cell), true
				}
				switch {
				case cell.Label == "":
					if counts[pic.Board] < side*side*9/10 {
						t.Errorf("%s: the blank at %d,%d is not a hole: %d pixels of the board's colour", name, r, c, counts[pic.Board])
					}
				case counts[corner] < side*side/2 || counts[pic.Mark[0]] < 20:
					t.Errorf("%s: tile %s at %d,%d: %d pixels of its colour #%06x, %d of ink", name, cell.Label, r, c, counts[corner], corner, counts[pic.Mark[0]])
				}
			}
		}
		if !lastSeen {
			t.Errorf("%s: no tile marked as the last one slid", name)
		}
	}
}

// colours counts the pixels of each colour in the cell at row r, column c
// of a picture of board.
func colours(img *image.RGBA, board games.Board, r, c int) map[int]int {
	cell := sideOf(board)
	x0, y0 := cell/8+c*cell, cell/8+r*cell
	if board.RowLabels != nil {
		x0 += margin(cell)
	}
	counts := map[int]int{}
	for y := y0; y < y0+cell; y++ {
		for x := x0; x < x0+cell; x++ {
			p := img.RGBAAt(x, y)
			counts[int(p.R)<<16|int(p.G)<<8|int(p.B)]++
		}
	}
	return counts
}

// onLine reports whether the cell is on a winning line of board.
func onLine(board games.Board, r, c int) bool {
	for _, l := range board.Lines {
		dr, dc := l[1].Row-l[0].Row, l[1].Col-l[0].Col
		for k := 0; k <= max(abs(dr), abs(dc)); k++ {
			if l[0].Row+k*sign(dr) == r && l[0].Col+k*sign(dc) == c {
				return true
			}
		}
	}
	return false
}

func abs(n int) int { return max(n, -n) }

func sign(n int) int { return max(-1, min(1, n)) }

// TestWinningLinesAreDrawn plays games to their end until one is won and
// checks that the picture draws ink between the ends of its line.
func TestWinningLinesAreDrawn(t *testing.T) {
	for _, name := range []string{"connect4", "tictactoe"} {
		gm, _ := catalog.Lookup(name)
		found := false
		for seed := uint64(0); seed < 50 && !found; seed++ {
			pos, last := played(t, gm, seed, 100)
			board := gm.Look.Board(pos, last)
			if len(board.Lines) == 0 {
				continue
			}
			found = true
			img, err := Draw(gm.Look, board)
			if err != nil {
				t.Fatal(err)
			}
			l := board.Lines[0]
			// Halfway between the line's first two cells lies on the line.
			next := games.Spot{Row: l[0].Row + sign(l[1].Row-l[0].Row), Col: l[0].Col + sign(l[1].Col-l[0].Col)}
			cell := sideOf(board)
			x0, y0 := cell/8, cell/8
			if board.RowLabels != nil {
				x0 += margin(cell)
			}
			x := x0 + (l[0].Col+next.Col+1)*cell/2
			y := y0 + (l[0].Row+next.Row+1)*cell/2
			if p := img.RGBAAt(x, y); p != paper {
				t.Errorf("%s: the line between %v and %v is %v at (%d,%d), want the line's white core", name, l[0], next, p, x, y)
			}
		}
		if !found {
			t.Errorf("%s: no won game in 50 random games", name)
		}
	}
}

// TestConcurrentDraws draws boards from several goroutines at once, as
// the bot does for several games: under -race (the test command) it fails
// if drawings share state, such as a font face. One drawing a goroutine
// is enough: the race detector needs two unordered accesses, not many.
func TestConcurrentDraws(t *testing.T) {
	gm := catalog.All()[0]
	pos, last := played(t, gm, 3, 10)
	board := gm.Look.Board(pos, last)
	want, err := PNG(gm.Look, board)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 8 {
		wg.Go(func() {
			<-start
			if got, err := PNG(gm.Look, board); err != nil || !bytes.Equal(got, want) {
				t.Errorf("a concurrent drawing differs (%v)", err)
			}
		})
	}
	close(start)
	wg.Wait()
}

func BenchmarkPNG(b *testing.B) {
	for _, gm := range catalog.All() {
		pos, last := played(b, gm, 12, 12)
		board := gm.Look.Board(pos, last)
		b.Run(gm.Name, func(b *testing.B) {
			var size int
			for b.Loop() {
				data, err := PNG(gm.Look, board)
				if err != nil {
					b.Fatal(err)
				}
				size = len(data)
			}
			b.ReportMetric(float64(size), "bytes/png")
		})
	}
}
