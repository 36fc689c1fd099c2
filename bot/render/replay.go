package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"maps"
	"slices"

	"github.com/gambitbot/gambit/bot/render/picture"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
)

// The replay's timing, in hundredths of a second (GIF's unit): each move
// shows for moveDelay, the final position for lastDelay before the replay
// starts again.
const (
	moveDelay = 80
	lastDelay = 400
)

// frames returns the pictures of a game played from start: the start,
// then the board after each move with that move marked, the final one
// with its winning line. moves are in the game's notation.
func frames(gm *games.Game, start engine.Position, moves []string) ([]*image.RGBA, error) {
	pos := start.Clone()
	img, err := picture.Draw(gm.Look, gm.Look.Board(pos, nil))
	if err != nil {
		return nil, err
	}
	out := []*image.RGBA{img}
	for i, text := range moves {
		m, err := pos.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("render: replay move %d: %w", i+1, err)
		}
		change := gm.Play(pos, m)
		img, err := picture.Draw(gm.Look, gm.Look.Board(pos, &change))
		if err != nil {
			return nil, err
		}
		out = append(out, img)
	}
	return out, nil
}

// paletteOf returns the colours of the pictures, most used first, at most
// 256 (GIF's limit): the board's own colours, and as many of the blends
// of their edges as fit. The first picture and the last hold every
// colour a game's pictures use but a captured mark's, which is a side's.
func paletteOf(imgs ...*image.RGBA) color.Palette {
	count := map[color.RGBA]int{}
	for _, img := range imgs {
		p := img.Pix
		for i := 0; i+3 < len(p); i += 4 {
			count[color.RGBA{p[i], p[i+1], p[i+2], 0xFF}]++
		}
	}
	cols := slices.SortedFunc(maps.Keys(count), func(a, b color.RGBA) int {
		if d := count[b] - count[a]; d != 0 {
			return d
		}
		return int(a.R)<<16 | int(a.G)<<8 | int(a.B) - (int(b.R)<<16 | int(b.G)<<8 | int(b.B))
	})
	pal := make(color.Palette, 0, 256)
	for _, c := range cols[:min(len(cols), 256)] {
		pal = append(pal, c)
	}
	return pal
}

// Replay draws a game played from start with moves (in the game's
// notation) as an animated GIF that loops: one frame per move, each
// moveDelay, the last lastDelay. Frames after the first hold only the
// rectangle that changed, so a move costs its own cells, not the board.
func Replay(gm *games.Game, start engine.Position, moves []string) ([]byte, error) {
	imgs, err := frames(gm, start, moves)
	if err != nil {
		return nil, err
	}
	pal := paletteOf(imgs[0], imgs[len(imgs)-1])
	index := map[color.RGBA]uint8{}
	for i, c := range pal {
		index[c.(color.RGBA)] = uint8(i)
	}
	anim := &gif.GIF{LoopCount: 0}
	var prev *image.Paletted
	for i, img := range imgs {
		p := paletted(img, pal, index)
		frame := p
		if prev != nil {
			changed := changedRect(prev, p)
			if changed.Empty() { // a pass: one pixel, to keep the frame's time
				changed = image.Rect(0, 0, 1, 1)
			}
			frame = p.SubImage(changed).(*image.Paletted)
		}
		delay := moveDelay
		if i == len(imgs)-1 {
			delay = lastDelay
		}
		anim.Image = append(anim.Image, frame)
		anim.Delay = append(anim.Delay, delay)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
		prev = p
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, fmt.Errorf("render: encode the replay: %w", err)
	}
	return buf.Bytes(), nil
}

// paletted returns img in the colours of pal, each pixel in its nearest
// colour: index holds the colours looked up so far (pal's own at first),
// so that each colour is searched for once, not once a pixel.
func paletted(img *image.RGBA, pal color.Palette, index map[color.RGBA]uint8) *image.Paletted {
	p := image.NewPaletted(img.Rect, pal)
	for y := range img.Rect.Dy() {
		src := img.Pix[y*img.Stride : y*img.Stride+4*img.Rect.Dx()]
		dst := p.Pix[y*p.Stride:]
		for x := range img.Rect.Dx() {
			c := color.RGBA{src[4*x], src[4*x+1], src[4*x+2], 0xFF}
			i, ok := index[c]
			if !ok {
				i = uint8(pal.Index(c))
				index[c] = i
			}
			dst[x] = i
		}
	}
	return p
}

// changedRect returns the smallest rectangle holding every pixel that
// differs between a and b, of the same bounds.
func changedRect(a, b *image.Paletted) image.Rectangle {
	r := image.Rectangle{}
	w, h := a.Rect.Dx(), a.Rect.Dy()
	for y := range h {
		ra, rb := a.Pix[y*a.Stride:y*a.Stride+w], b.Pix[y*b.Stride:y*b.Stride+w]
		if bytes.Equal(ra, rb) {
			continue
		}
		x0, x1 := 0, w
		for x0 < w && ra[x0] == rb[x0] {
			x0++
		}
		for x1 > x0 && ra[x1-1] == rb[x1-1] {
			x1--
		}
		r = r.Union(image.Rect(x0, y, x1, y+1))
	}
	return r.Add(a.Rect.Min)
}

// Marker colours above the boards of the turning point: the Okabe–Ito
// palette's vermillion for the move played, bluish green for the best.
var (
	playedColour = color.RGBA{0xD5, 0x5E, 0x00, 0xFF}
	bestColour   = color.RGBA{0x00, 0x9E, 0x73, 0xFF}
)

// TurningPoint draws move ply (0 the first) of a game played from start,
// beside the best move of its position, best (in the game's notation):
// two boards, the move played marked on the left under a vermillion bar,
// the best move on the right under a bluish-green one, as a PNG.
func TurningPoint(gm *games.Game, start engine.Position, moves []string, ply int, best string) ([]byte, error) {
	if ply < 0 || ply >= len(moves) {
		return nil, fmt.Errorf("render: turning point %d of %d moves", ply+1, len(moves))
	}
	pos := start.Clone()
	for i, text := range moves[:ply] {
		m, err := pos.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("render: turning point move %d: %w", i+1, err)
		}
		pos.Play(m)
	}
	var boards [2]*image.RGBA
	for i, text := range []string{moves[ply], best} {
		p := pos.Clone()
		m, err := p.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("render: turning point move %q: %w", text, err)
		}
		change := gm.Play(p, m)
		if boards[i], err = picture.Draw(gm.Look, gm.Look.Board(p, &change)); err != nil {
			return nil, err
		}
	}
	w, h := boards[0].Rect.Dx(), boards[0].Rect.Dy()
	gap, bar := w/24, w/40
	img := image.NewRGBA(image.Rect(0, 0, 2*w+gap, h+bar))
	draw.Draw(img, img.Rect, image.NewUniform(color.White), image.Point{}, draw.Src)
	for i, b := range boards {
		x := i * (w + gap)
		draw.Draw(img, image.Rect(x, 0, x+w, bar), image.NewUniform([]color.RGBA{playedColour, bestColour}[i]), image.Point{}, draw.Src)
		draw.Draw(img, image.Rect(x, bar, x+w, bar+h), b, image.Point{}, draw.Src)
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("render: encode the turning point: %w", err)
	}
	return buf.Bytes(), nil
}
