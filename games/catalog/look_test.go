package catalog_test

import (
	"math"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games/catalog"
)

// emojiColour is the fill of the emoji the duels draw with, as Discord
// shows them (Twemoji's palette), 0xRRGGBB.
var emojiColour = map[string]int{
	"🔴": 0xDD2E44, "🟥": 0xDD2E44, "❌": 0xDD2E44, "⭕": 0xDD2E44, "🅾️": 0xDD2E44,
	"❎": 0x77B255,
	"🔵": 0x55ACEE, "🟦": 0x55ACEE,
	"🟡": 0xFDCB58, "🟨": 0xFDCB58,
	"⚫": 0x31373D, "⬛": 0x31373D,
	"⚪": 0xE6E7E8, "⬜": 0xE6E7E8,
}

// colourDistance is the distance of two colours in RGB.
func colourDistance(a, b int) float64 {
	d := 0.0
	for shift := 0; shift <= 16; shift += 8 {
		x := float64((a>>shift)&0xFF) - float64((b>>shift)&0xFF)
		d += x * x
	}
	return math.Sqrt(d)
}

// TestEachSideHasOneColour: in every duel, a side's mark and last-move
// mark in the grid and legend, its embeds' colour and its marks on the
// picture are one colour (within 64 of 255 per channel, as the picture's
// shades differ a little from the emoji's), and the two sides' colours
// differ.
func TestEachSideHasOneColour(t *testing.T) {
	for _, gm := range catalog.All() {
		if gm.Players != 2 {
			continue
		}
		look := gm.Look
		var side [2]int
		for _, s := range []engine.Side{engine.X, engine.O} {
			mark, ok := emojiColour[look.Mark[s]]
			if !ok {
				t.Errorf("%s, %s: no colour known for its mark %s", gm.Name, s, look.Mark[s])
				continue
			}
			side[s] = mark
			last, ok := emojiColour[look.Last[s]]
			if !ok {
				t.Errorf("%s, %s: no colour known for its last-move mark %s", gm.Name, s, look.Last[s])
			}
			for what, c := range map[string]int{"last-move mark " + look.Last[s]: last, "embed colour": look.Colour[s], "picture's marks": look.Picture.Mark[s]} {
				if d := colourDistance(mark, c); ok && d > 64 {
					t.Errorf("%s, %s: %s is #%06X, %.0f from its mark %s's #%06X", gm.Name, s, what, c, d, look.Mark[s], mark)
				}
			}
		}
		if colourDistance(side[engine.X], side[engine.O]) < 128 {
			t.Errorf("%s: the sides' colours #%06X and #%06X are too close to tell apart", gm.Name, side[engine.X], side[engine.O])
		}
	}
}
