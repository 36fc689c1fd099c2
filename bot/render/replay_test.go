package render

import (
	"bytes"
	"image"
	"image/draw"
	"image/gif"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/render/picture"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/review"
)

// drawnConnectFour is a Connect Four game of 42 moves that fills the
// board without a winner: the longest a game lasts.
const drawnConnectFour = "513724124375321254374514766334517166572266"

// randomGame plays a game of gm set up by opts with random moves to its
// end, returning its start and moves.
func randomGame(t testing.TB, name string, opts games.Options, seed uint64) (*games.Game, engine.Position, []string) {
	t.Helper()
	gm, err := catalog.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	start, err := gm.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	pos := start.Clone()
	var moves []string
	for !pos.Terminal() {
		ms := pos.Moves(nil)
		m := ms[rng.IntN(len(ms))]
		moves = append(moves, pos.FormatMove(m))
		pos.Play(m)
	}
	return gm, start, moves
}

// TestReplayShowsEveryMove decodes the replays of the longest games of
// Connect Four (42 moves; the first 16 under -short) and Adjacency (28
// rounds, 56 moves; 8 rounds under -short): a frame per position and a longer pause on the last; the
// frames, each only the rectangle that changed, drawn one over the other
// give every position's picture exactly as the board shows it (in the
// replay's palette); and the file stays far below Discord's 8 MiB upload
// limit. It logs the sizes, which depend on nothing but the code.
func TestReplayShowsEveryMove(t *testing.T) {
	c4, err := catalog.Lookup("connect4")
	if err != nil {
		t.Fatal(err)
	}
	c4start, _ := c4.Start(games.Options{})
	var c4moves []string
	for _, c := range drawnConnectFour {
		c4moves = append(c4moves, string(c))
	}
	if len(c4moves) != 42 {
		t.Fatalf("the drawn Connect Four game has %d moves, want 42", len(c4moves))
	}
	// The 28-round game's 57 frames take minutes to draw and compare
	// under -race on a busy machine: -short replays an 8-round one, and
	// the drawn Connect Four game's first 16 moves; -race -short a
	// 4-round one and the first 8 (2.7 s of CPU under -race with 8 and 16).
	rounds := 28
	switch {
	case racetest.Short(t, "a 4-round Adjacency game and Connect Four's first 8 moves"):
		rounds = 4
		c4moves = c4moves[:8]
	case testing.Short():
		rounds = 8
		c4moves = c4moves[:16]
	}
	adj, adjStart, adjMoves := randomGame(t, "adjacency", games.Options{Rounds: rounds}, 1)
	for _, c := range []struct {
		gm    *games.Game
		start engine.Position
		moves []string
		plies int
	}{{c4, c4start, c4moves, len(c4moves)}, {adj, adjStart, adjMoves, 2 * rounds}} {
		if len(c.moves) != c.plies {
			t.Fatalf("%s: %d moves, want %d", c.gm.Name, len(c.moves), c.plies)
		}
		data, err := Replay(c.gm, c.start, c.moves)
		if err != nil {
			t.Fatal(err)
		}
		anim, err := gif.DecodeAll(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: decode: %v", c.gm.Name, err)
		}
		if len(anim.Image) != c.plies+1 || anim.Delay[c.plies] != lastDelay || anim.Delay[0] != moveDelay || anim.LoopCount != 0 {
			t.Fatalf("%s: %d frames, delays %d…%d, loop %d; want %d frames, the last longer, looping",
				c.gm.Name, len(anim.Image), anim.Delay[0], anim.Delay[len(anim.Delay)-1], anim.LoopCount, c.plies+1)
		}
		want, err := frames(c.gm, c.start, c.moves)
		if err != nil {
			t.Fatal(err)
		}
		canvas := image.NewPaletted(image.Rect(0, 0, anim.Config.Width, anim.Config.Height), anim.Image[0].Palette)
		for i, f := range anim.Image {
			draw.Draw(canvas, f.Rect, f, f.Rect.Min, draw.Src)
			exp := image.NewPaletted(want[i].Bounds(), canvas.Palette)
			draw.Draw(exp, exp.Rect, want[i], image.Point{}, draw.Src)
			if !bytes.Equal(canvas.Pix, exp.Pix) {
				t.Fatalf("%s: frame %d does not show position %d", c.gm.Name, i, i)
			}
		}
		if len(data) > 1<<20 {
			t.Errorf("%s: replay of %d bytes; want at most 1 MiB, far below Discord's 8 MiB", c.gm.Name, len(data))
		}
		t.Logf("%s, %d moves: %d frames of %d×%d, %d bytes (%d bytes a move)", c.gm.Name, c.plies, len(anim.Image),
			anim.Config.Width, anim.Config.Height, len(data), len(data)/c.plies)
	}
}

// TestTurningPointShowsBothMoves draws Tic-Tac-Toe's edge blunder beside
// the corner: two boards of the board picture's size side by side under
// their coloured bars, the left with o on the edge, the right with o in
// the corner.
func TestTurningPointShowsBothMoves(t *testing.T) {
	gm, err := catalog.Lookup("tictactoe")
	if err != nil {
		t.Fatal(err)
	}
	start, _ := gm.Start(games.Options{})
	data, err := TurningPoint(gm, start, []string{"5", "2", "1"}, 1, "1")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	single, err := picture.Draw(gm.Look, gm.Look.Board(start, nil))
	if err != nil {
		t.Fatal(err)
	}
	w, h := single.Rect.Dx(), single.Rect.Dy()
	gap, bar := w/24, w/40
	if b := img.Bounds(); b.Dx() != 2*w+gap || b.Dy() != h+bar {
		t.Fatalf("picture %v; want two boards of %d×%d side by side under bars", b, w, h)
	}
	if r, g, b, _ := img.At(w/2, bar/2).RGBA(); r>>8 != 0xD5 || g>>8 != 0x5E || b>>8 != 0 {
		t.Errorf("the bar over the move played is %x %x %x, want vermillion", r>>8, g>>8, b>>8)
	}
	if r, g, b, _ := img.At(w+gap+w/2, bar/2).RGBA(); r>>8 != 0 || g>>8 != 0x9E || b>>8 != 0x73 {
		t.Errorf("the bar over the best move is %x %x %x, want bluish green", r>>8, g>>8, b>>8)
	}
	if _, err := TurningPoint(gm, start, []string{"5", "2"}, 1, "5"); err == nil {
		t.Error("a best move on a taken cell was drawn")
	}
	if _, err := TurningPoint(gm, start, []string{"5"}, 3, "1"); err == nil {
		t.Error("a turning point past the game was drawn")
	}
}

// TestReviewMessageFitsDiscord shows the review of a Gomoku game of 225
// moves, the longest of any game, in both languages: within Discord's
// limits, the moves cut short with a last "…" line, the labels and the
// turning point in the reader's language.
func TestReviewMessageFitsDiscord(t *testing.T) {
	gm, start, moves := randomGame(t, "gomoku", games.Options{}, 3)
	pos := start.Clone()
	rev := &review.Review{Game: "gomoku", Start: start.String()}
	for _, text := range moves {
		m, err := pos.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		gm.Play(pos, m)
	}
	for i := range 225 { // the board filled: the labels need not fit the moves
		rev.Moves = append(rev.Moves, review.Move{Side: engine.Side(i % 2), Move: "o15", Best: "a1", Label: review.Labels()[i%5]})
	}
	g := newGame(storage.Kind("gomoku"), storage.StatusFinished, alice, bob)
	seat(g, pos, moves, 0)
	g.Result = &storage.Result{Winner: 0}
	for _, c := range []struct {
		lang string
		want []string
	}{
		{"en-US", []string{"Review", "**Turning point:** move 5", "a blunder", "inaccuracy"}},
		{"id", []string{"Ulasan", "**Titik balik:** langkah 5", "kesalahan fatal", "kurang tepat"}},
	} {
		m := ReviewMessage(i18n.For(c.lang), g, rev, 4, ReviewPictures{Replay: []byte("GIF89a"), Turning: []byte("png")})
		checkDiscord(t, m)
		desc := m.Embeds[0].Title + m.Embeds[0].Description
		for _, w := range c.want {
			if !strings.Contains(desc, w) {
				t.Errorf("%s: the review lacks %q:\n%s", c.lang, w, desc)
			}
		}
		if !strings.HasSuffix(m.Embeds[0].Description, "\n…") || len(m.Files) != 2 {
			t.Errorf("%s: %d files, the moves end %q", c.lang, len(m.Files), m.Embeds[0].Description[len(m.Embeds[0].Description)-20:])
		}
	}
}

// TestReviewFooterSaysHowMovesWereJudged: a move is judged exactly only
// when the positions before and after it are both exact, and the footer
// names the budget the others were searched within, in the reader's
// language; a review whose every move is exact says so, and nothing of
// the others.
func TestReviewFooterSaysHowMovesWereJudged(t *testing.T) {
	exact, estimate := review.Value{Score: 1, Exact: true}, review.Value{Score: 0.5}
	rev := &review.Review{Game: "connect4", Budget: 200_000_000, Moves: []review.Move{
		{Move: "4", Best: "4", Before: exact, After: exact},
		{Move: "4", Best: "4", Before: exact, After: estimate}, // the position after it estimated
		{Move: "3", Best: "3", Before: estimate, After: exact},
	}}
	g := newGame(storage.Kind("connect4"), storage.StatusFinished, alice, bob)
	g.Moves, g.Result = []string{"4", "4", "3"}, &storage.Result{Winner: -1}
	for lang, want := range map[string]string{
		"en-US": "1 of 3 moves judged exactly, to the end of the game; the others by a search of up to 200 million positions for the whole game",
		"id":    "1 dari 3 langkah dinilai secara pasti, sampai akhir permainan; sisanya dengan pencarian hingga 200 juta posisi untuk seluruh permainan",
	} {
		if got := ReviewMessage(i18n.For(lang), g, rev, -1, ReviewPictures{}).Embeds[0].Footer.Text; !strings.HasPrefix(got, want) {
			t.Errorf("%s: footer %q, want it to begin %q", lang, got, want)
		}
	}
	rev.Moves = rev.Moves[:1]
	if got := ReviewMessage(i18n.For("en-US"), g, rev, -1, ReviewPictures{}).Embeds[0].Footer.Text; !strings.HasPrefix(got, "Every move judged exactly, to the end of the game ·") {
		t.Errorf("every move exact: footer %q", got)
	}
}

// BenchmarkReplay draws the replay of a Connect Four game of 42 moves:
// the cost of a review's pictures but the turning point's.
func BenchmarkReplay(b *testing.B) {
	gm, err := catalog.Lookup("connect4")
	if err != nil {
		b.Fatal(err)
	}
	start, _ := gm.Start(games.Options{})
	var moves []string
	for _, c := range drawnConnectFour {
		moves = append(moves, string(c))
	}
	for b.Loop() {
		if _, err := Replay(gm, start, moves); err != nil {
			b.Fatal(err)
		}
	}
}
