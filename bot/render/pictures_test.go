package render

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/internal/racetest"
)

// TestMain makes the package's tests draw a board's picture once when
// they render the same board several times (its statuses, its languages):
// a picture is a pure function of the look and the board, and drawing and
// encoding one costs a tenth of a second under -race.
func TestMain(m *testing.M) {
	MemoizePictures(16)
	racetest.Exit(m.Run())
}

// pngChecks are decodePNG's latest files.
var pngChecks = recent[error]{size: 16}

// decodePNG reports whether data decodes as a PNG, decoding the same
// bytes once.
func decodePNG(data []byte) error {
	return pngChecks.get(string(data), func() error {
		_, err := png.Decode(bytes.NewReader(data))
		return err
	})
}

// everyPicture is how often TestEveryGameConforms draws a picture: at
// every ply, or under -short (the README's test command, with -race) at
// every tenth ply and at the end, the other boards carrying the picture
// last drawn. Their text, emoji grid and components are checked at every
// ply either way, and package picture checks the drawing of random
// positions of every game.
func everyPicture() int {
	if testing.Short() {
		return 10
	}
	return 1
}

// somePictures makes Game draw a picture only while *now is true, until
// the returned function restores drawing every picture; otherwise a board
// carries the picture last drawn of its game (its look), a real PNG. A
// test that checks a board's text and components, not its picture, passes
// a false it never sets: package picture checks the drawing.
func somePictures(now *bool) (restore func()) {
	draw := drawPNG
	last := map[games.Picture][]byte{}
	drawPNG = func(look games.Look, board games.Board) ([]byte, error) {
		if data, ok := last[look.Picture]; ok && !*now {
			return data, nil
		}
		data, err := draw(look, board)
		if err == nil {
			last[look.Picture] = data
		}
		return data, err
	}
	return func() { drawPNG = draw }
}
