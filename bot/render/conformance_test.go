package render

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/storage"
)

// TestEveryGameConforms runs every registered game through the same
// checks, so that a game whose plug-in forgets a part fails here and not
// in front of a player: its plug-in is complete, its help renders, and
// random games played to the end through the plug-in render within
// Discord's limits at every move, with components whose custom IDs route
// back to exactly the legal moves.
func TestEveryGameConforms(t *testing.T) {
	for _, gm := range catalog.All() {
		t.Run(gm.Name, func(t *testing.T) {
			for _, p := range conformanceProblems(gm) {
				t.Error(p)
			}
			if t.Failed() {
				return
			}
			m, err := Rules(en, gm.Name)
			if err != nil {
				t.Fatalf("Rules: %v", err)
			}
			checkDiscord(t, m)
			rng := rand.New(rand.NewPCG(7, uint64(len(gm.Name))))
			// Every board draws its picture (milliseconds, ten times that
			// under -race), so the test command plays one game a game:
			// under -race on a busy machine three took minutes.
			n := 20
			if testing.Short() {
				n = 1
			}
			for range n {
				playToTheEnd(t, gm, rng)
			}
		})
	}
}

// conformanceProblems lists the parts a plug-in lacks.
func conformanceProblems(gm *games.Game) []string {
	var out []string
	need := func(ok bool, what string) {
		if !ok {
			out = append(out, gm.Name+": "+what)
		}
	}
	need(gm.Name != "" && gm.Title != "" && gm.Summary != "" && gm.MoveHelp != "", "name, title, summary and move help")
	need(gm.Players == 1 || gm.Players == 2, "1 or 2 players")
	need(gm.New != nil && gm.Parse != nil, "New and Parse")
	need(gm.Look.Board != nil && gm.Look.Describe != nil, "Look.Board and Look.Describe")
	// A solo puzzle's one player moves as X.
	sides := gm.Players
	need(gm.Look.Mark[0] != "" && gm.Look.Last[0] != "" && (sides == 1 || gm.Look.Mark[1] != "" && gm.Look.Last[1] != ""), "marks of every side")
	need(gm.Look.Colour[0] != 0 && (sides == 1 || gm.Look.Colour[1] != 0), "colours of every side")
	need(gm.Players != 1 || gm.AI == nil, "no AI for a solo puzzle: no strategy plays one")
	need(gm.Help.Rules != "" && gm.Help.Moving != "", "help: rules and how to move")
	need((gm.Players == 1) == (gm.Help.Goal != ""), "a goal for a solo puzzle (its board states it), none for a duel")
	need(gm.Input.Layout == games.MoveButtons || gm.Input.Layout == games.BoardButtons || gm.Input.Layout == games.Menus, "an input layout")
	need(gm.Input.Layout != games.Menus || len(gm.Input.Groups) > 0, "menu groups")
	need(gm.Players != 2 || gm.AI != nil, "AI knowledge for a duel")
	need(gm.AI == nil || (gm.AI.Unit > 0 && gm.AI.Evaluate != nil && gm.AI.Order != nil), "a complete AI")
	if r := gm.Setup.Rounds; r != nil {
		need(r.Min <= r.Default && r.Default <= r.Max, "a default rounds within the range")
	}
	return out
}

// playToTheEnd plays one random game of gm through its plug-in, as the bot
// does, rendering the board before every move and checking it.
func playToTheEnd(t *testing.T, gm *games.Game, rng *rand.Rand) {
	t.Helper()
	pos, err := gm.Start(games.Options{})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	if again, err := gm.Position(pos.String(), games.Options{}); err != nil || again.String() != pos.String() {
		t.Fatalf("the start %q does not read back: %v, %v", pos, again, err)
	}
	g := newGame(storage.Kind(gm.Name), storage.StatusActive, alice, bob)
	if gm.Solo() {
		g.Players = g.Players[:1]
	}
	g.Settings.Rounds = options(gm, g).Rounds
	var draw bool
	defer somePictures(&draw)()
	every := everyBoard(t)
	for {
		g.Position = pos.String()
		g.Turn = int(pos.SideToMove())
		legal := pos.Moves(nil)
		if len(g.Moves)%every == 0 || pos.Terminal() {
			draw = len(g.Moves)%everyPicture() == 0 || pos.Terminal()
			m := Game(View{Game: g, Pos: pos})
			checkDiscord(t, m)
			if t.Failed() {
				t.Fatalf("after %v", g.Moves)
			}
			if pos.Terminal() {
				break
			}
			if got := routedMoves(t, g, pos, m); !slices.Equal(got, sorted(legal)) {
				t.Fatalf("%s after %v: the components offer %v, the legal moves are %v", gm.Name, g.Moves, got, sorted(legal))
			}
		}
		mv := legal[rng.IntN(len(legal))]
		c := gm.Play(pos, mv)
		if c.Move == "" || gm.Look.Describe(c) == "" {
			t.Fatalf("%s: move %d is recorded as %+v", gm.Name, mv, c)
		}
		g.Moves = append(g.Moves, c.Move)
		g.Last = &storage.LastMove{Move: c.Move, Changed: c.Changed}
		if gm.Solo() && len(g.Moves) == soloMoves() {
			break // a random walk seldom solves a puzzle: its player gives up
		}
		if len(g.Moves) > 1000 {
			t.Fatalf("%s: no end after 1000 moves", gm.Name)
		}
	}
	draw = true
	if !gm.Solo() {
		g.Status, g.Result = storage.StatusFinished, &storage.Result{Winner: storage.Draw}
		checkDiscord(t, Game(View{Game: g, Pos: pos}))
		return
	}
	for _, status := range []storage.Status{storage.StatusAbandoned, storage.StatusFinished} {
		g.Status, g.Result = status, &storage.Result{Winner: storage.Nobody, Outcome: storage.GaveUp, MovesUsed: len(g.Moves)}
		if status == storage.StatusFinished {
			g.Result = &storage.Result{Winner: 0, MovesUsed: len(g.Moves), Optimal: 1}
		}
		m := Game(View{Game: g, Pos: pos})
		checkDiscord(t, m)
		if buttons, selects, _ := flatten(t, m); len(buttons)+len(selects) != 0 {
			t.Fatalf("%s: the %s board has components: %v %v", gm.Name, status, buttons, selects)
		}
	}
}

// everyBoard is how often playToTheEnd renders and checks a board: at
// every ply, or under -race -short at every seventh and at the end
// (rendering and routing a board back, its column pickers included, cost
// 8 s of CPU a run under -race, a Gomoku game's 100-odd boards half of
// it; the game is the same either way).
func everyBoard(t *testing.T) int {
	if racetest.Short(t, "a board checked at every seventh ply and at the end") {
		return 7
	}
	return 1
}

// soloMoves is how many random moves a solo puzzle is played before its
// player gives up: 40, or 12 under -short (each draws a board).
func soloMoves() int {
	if testing.Short() {
		return 12
	}
	return 40
}

// routedMoves returns the moves a board's components play, in move
// order, each once: every move button and menu option, and every cell
// button of the picker that each column button opens (games.Input's
// Columns), read back through the custom ID router and the position's
// parser. Each picker must fit Discord's limits too.
func routedMoves(t *testing.T, g *storage.Game, pos engine.Position, m Message) []engine.Move {
	t.Helper()
	seen := map[engine.Move]bool{}
	var out []engine.Move
	add := func(text string) {
		mv, err := pos.ParseMove(text)
		if err != nil {
			t.Fatalf("a component plays %q: %v", text, err)
		}
		if !seen[mv] {
			seen[mv] = true
			out = append(out, mv)
		}
	}
	buttons, selects, _ := flatten(t, m)
	for _, b := range buttons {
		p, ps := parseID(t, b.CustomID)
		switch {
		case p == customid.Move && !b.Disabled:
			add(ps["cell"])
		case p == customid.File && !b.Disabled:
			picker, ok := CellPicker(en, g, pos, ps["file"])
			if !ok {
				t.Fatalf("column %s opens no picker", ps["file"])
			}
			checkDiscord(t, picker)
			cells, _, _ := flatten(t, picker)
			for _, c := range cells {
				if q, cs := parseID(t, c.CustomID); q == customid.Cell && !c.Disabled {
					add(cs["cell"])
				}
			}
		}
	}
	for _, s := range selects {
		if p, _ := parseID(t, s.CustomID); p != customid.Pick {
			t.Fatalf("select %q is not a move menu", s.CustomID)
		}
		for _, o := range s.Options {
			add(o.Value)
		}
	}
	checkIDs(t, g, m)
	return sorted(out)
}

// sorted returns moves in ascending order.
func sorted(moves []engine.Move) []engine.Move {
	out := slices.Clone(moves)
	slices.Sort(out)
	return out
}

// TestCellPickerCountsRowsUp checks that the second click of a two-click
// move lists a column's rows as the game counts them, whichever way up its
// board is drawn: Adjacency's rank 1 is at the bottom and Othello's row 1
// at the top, and both pickers read 1, 2, … up to the board's last row,
// the order their menus list the same cells in.
func TestCellPickerCountsRowsUp(t *testing.T) {
	for _, gm := range catalog.All() {
		if !gm.Input.Columns {
			continue
		}
		t.Run(gm.Name, func(t *testing.T) {
			pos, err := gm.Start(games.Options{})
			if err != nil {
				t.Fatal(err)
			}
			g := newGame(storage.Kind(gm.Name), storage.StatusActive, alice, bob)
			seat(g, pos, nil, 0)
			for _, col := range gm.Look.Board(pos, nil).ColLabels {
				picker, ok := CellPicker(en, g, pos, col)
				if !ok {
					t.Fatalf("no picker for column %s", col)
				}
				var rows []string
				for _, ps := range checkIDs(t, g, picker)[customid.Cell] {
					rows = append(rows, strings.TrimPrefix(ps["cell"], col))
				}
				var want []string
				for r := range gm.Look.Board(pos, nil).Rows {
					want = append(want, strconv.Itoa(r+1))
				}
				if !slices.Equal(rows, want) {
					t.Errorf("column %s: the picker's rows read %v, want %v", col, rows, want)
				}
			}
		})
	}
}

// discEmoji are the colours Discord draws the round emoji in (Twemoji).
var discEmoji = map[string]int{
	"🔴": 0xDD2E44, "🟠": 0xF4900C, "🟡": 0xFDCB58, "🟢": 0x78B159, "🔵": 0x55ACEE,
	"🟣": 0xAA8ED6, "🟤": 0xC1694F, "⚫": 0x31373D, "⚪": 0xE6E7E8,
}

// TestPictureMarksMatchTheEmoji checks that a game drawing discs draws
// each side in the colour of its emoji, which the text legend and the
// emoji grid show: a player told "🔴 X" looks for red on the picture.
func TestPictureMarksMatchTheEmoji(t *testing.T) {
	for _, gm := range catalog.All() {
		if gm.Look.Picture.Shape != games.Discs || gm.Look.Picture.Labels {
			continue
		}
		for side, mark := range gm.Look.Mark {
			emoji, ok := discEmoji[mark]
			if !ok {
				continue
			}
			pic := gm.Look.Picture.Mark[side]
			d := 0.0
			for shift := 0; shift <= 16; shift += 8 {
				c := float64((pic>>shift)&0xFF) - float64((emoji>>shift)&0xFF)
				d += c * c
			}
			if d > 60*60 {
				t.Errorf("%s: side %d is %s in the legend but #%06X on the picture (%s is #%06X)", gm.Name, side, mark, pic, mark, emoji)
			}
		}
	}
}
