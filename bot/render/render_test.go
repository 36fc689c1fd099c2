package render

import (
	"github.com/gambitbot/gambit/bot/i18n"

	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/bwmarrin/discordgo"
	"github.com/forPelevin/gomoji"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/engine/tictactoe"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// ---- building games and positions ----------------------------------------

var (
	alice = storage.Player{ID: storage.User("111"), Name: "alice"}
	bob   = storage.Player{ID: storage.User("222"), Name: "bob"}
	bot   = storage.Player{ID: storage.AI("minimax")}
)

var deadline = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

// cases is how many random positions a test checks: full, or a tenth of
// it under -short. README.md's test command runs -short with -race, where
// every board's picture costs ten times as much, on machines that may be
// busy; the full counts run without -short.
func cases(full int) int {
	if testing.Short() {
		return full / 10
	}
	return full
}

// newGame returns a game of kind between p0 (the challenger) and p1.
func newGame(kind storage.Kind, status storage.Status, p0, p1 storage.Player) *storage.Game {
	g := &storage.Game{
		ID:       "0001k",
		Version:  3,
		Kind:     kind,
		Status:   status,
		Players:  []storage.Player{p0, p1},
		Settings: storage.Settings{MoveTime: 2 * time.Second, First: "me"},
	}
	if kind == storage.Kind("adjacency") {
		g.Settings.Rounds = 8
	}
	return g
}

// play plays n random legal moves (fewer if the game ends) from the start
// of kind and returns the position and the moves in the game's notation.
func play(t *testing.T, kind storage.Kind, rounds int, rng *rand.Rand, n int) (engine.Position, []string) {
	t.Helper()
	var pos engine.Position
	var err error
	if kind == storage.Kind("adjacency") {
		pos, err = adjacency.New(rounds, engine.X)
	} else {
		var gm *games.Game
		gm, err = catalog.Lookup(string(kind))
		if err == nil {
			pos, err = gm.Start(games.Options{})
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for range n {
		legal := pos.Moves(nil)
		if len(legal) == 0 {
			break
		}
		m := legal[rng.IntN(len(legal))]
		moves = append(moves, pos.FormatMove(m))
		pos.Play(m)
	}
	return pos, moves
}

// seat puts the game's players on sides: xSeat plays X; Turn follows the
// side to move of pos.
func seat(g *storage.Game, pos engine.Position, moves []string, xSeat int) {
	g.Moves = moves
	g.Position = pos.String()
	g.Last = lastOf(g.Kind, pos, moves)
	g.Turn = xSeat
	if pos.SideToMove() == engine.O {
		g.Turn = 1 - xSeat
	}
}

// lastOf returns the record of the last of moves, which led to pos, as the
// bot keeps it: the plug-in's Play of that move on the position before it
// (the start of the game, X first, with pos's rounds, replayed).
func lastOf(kind storage.Kind, pos engine.Position, moves []string) *storage.LastMove {
	if len(moves) == 0 {
		return nil
	}
	gm := gameOf(kind)
	var opts games.Options
	if a, ok := pos.(*adjacency.Position); ok {
		opts.Rounds = (a.PliesLeft() + len(moves)) / 2
	}
	before, err := gm.Start(opts)
	if err != nil {
		panic(err)
	}
	for _, mv := range moves[:len(moves)-1] {
		m, err := before.ParseMove(mv)
		if err != nil {
			panic(err)
		}
		before.Play(m)
	}
	m, err := before.ParseMove(moves[len(moves)-1])
	if err != nil {
		panic(err)
	}
	c := gm.Play(before, m)
	return &storage.LastMove{Move: c.Move, Changed: c.Changed}
}

// ---- inspecting messages --------------------------------------------------

// units counts UTF-16 code units, which is never less than what Discord
// counts as characters.
func units(s string) int { return len(utf16.Encode([]rune(s))) }

// flatten returns the buttons and selects of a message with the index of
// their row.
func flatten(t *testing.T, m Message) (buttons []discordgo.Button, selects []discordgo.SelectMenu, rowOf map[string]int) {
	t.Helper()
	rowOf = map[string]int{}
	for i, c := range rows(m) {
		r, ok := c.(discordgo.ActionsRow)
		if !ok {
			t.Fatalf("component %d is %T, want an action row", i, c)
		}
		for _, cc := range r.Components {
			switch x := cc.(type) {
			case discordgo.Button:
				buttons = append(buttons, x)
				rowOf[x.CustomID] = i
			case discordgo.SelectMenu:
				selects = append(selects, x)
				rowOf[x.CustomID] = i
			default:
				t.Fatalf("row %d holds a %T", i, cc)
			}
		}
	}
	return buttons, selects, rowOf
}

// checkDiscord fails t for anything in m that Discord would refuse or
// render wrongly.
func checkDiscord(t *testing.T, m Message) {
	t.Helper()
	for _, p := range discordProblems(m) {
		t.Error(p)
	}
}

// discordProblems lists what Discord would refuse or render wrongly in m.
func discordProblems(m Message) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if m.Components == nil {
		bad("Components is nil; want a slice, empty to clear")
	}
	text := m.Content
	if m.V2() {
		out = append(out, v2Problems(m)...)
		text = texts(m.Components)
	}
	if m.AllowedMentions == nil {
		bad("AllowedMentions is nil: the message could ping anyone")
	} else {
		if len(m.AllowedMentions.Parse) != 0 {
			bad("AllowedMentions.Parse = %v, want none", m.AllowedMentions.Parse)
		}
		for _, u := range m.AllowedMentions.Users {
			if !strings.Contains(text, "<@"+u+">") {
				bad("user %s may be pinged but is not mentioned in %q", u, text)
			}
		}
	}
	if n := units(m.Content); n > 2000 {
		bad("content is %d long, limit 2000", n)
	}
	if len(m.Embeds) > 10 {
		bad("%d embeds, limit 10", len(m.Embeds))
	}
	for i, e := range m.Embeds {
		total := units(e.Title) + units(e.Description)
		if n := units(e.Title); n > 256 {
			bad("embed %d: title is %d long, limit 256", i, n)
		}
		if n := units(e.Description); n > 4096 {
			bad("embed %d: description is %d long, limit 4096", i, n)
		}
		if len(e.Fields) > 25 {
			bad("embed %d: %d fields, limit 25", i, len(e.Fields))
		}
		for j, f := range e.Fields {
			if n := units(f.Name); n == 0 || n > 256 {
				bad("embed %d field %d: name is %d long, want 1–256", i, j, n)
			}
			if n := units(f.Value); n == 0 || n > 1024 {
				bad("embed %d field %d: value is %d long, want 1–1024", i, j, n)
			}
			total += units(f.Name) + units(f.Value)
		}
		if e.Footer != nil {
			if n := units(e.Footer.Text); n > 2048 {
				bad("embed %d: footer is %d long, limit 2048", i, n)
			}
			total += units(e.Footer.Text)
		}
		if total > 6000 {
			bad("embed %d: %d characters in all, limit 6000", i, total)
		}
		if e.Color < 0 || e.Color > 0xFFFFFF {
			bad("embed %d: colour %#x", i, e.Color)
		}
	}
	if !m.V2() && len(rows(m)) > 5 { // a components-v2 message has a limit of 40 components instead
		bad("%d action rows, limit 5", len(rows(m)))
	}
	ids := map[string]bool{}
	checkID := func(id string) {
		if id == "" || len(id) > customid.MaxLen {
			bad("custom ID %q: want 1–100 characters", id)
		}
		if ids[id] {
			bad("custom ID %q is used twice", id)
		}
		ids[id] = true
	}
	for i, c := range rows(m) {
		r, ok := c.(discordgo.ActionsRow)
		if !ok {
			bad("component %d is %T, want an action row", i, c)
			continue
		}
		if n := len(r.Components); n == 0 || n > 5 {
			bad("row %d has %d components, want 1–5", i, n)
		}
		for _, cc := range r.Components {
			switch x := cc.(type) {
			case discordgo.Button:
				checkID(x.CustomID)
				if x.URL != "" {
					bad("button %q has a URL", x.CustomID)
				}
				if x.Style == discordgo.LinkButton || x.Style == 0 {
					bad("button %q has style %d", x.CustomID, x.Style)
				}
				if units(x.Label) > 80 {
					bad("button %q: label %q longer than 80", x.CustomID, x.Label)
				}
				if x.Label == "" && x.Emoji == nil {
					bad("button %q has neither label nor emoji", x.CustomID)
				}
				if x.Emoji != nil {
					if _, err := gomoji.GetInfo(x.Emoji.Name); err != nil || x.Emoji.ID != "" {
						bad("button %q: emoji %q is not a Unicode emoji", x.CustomID, x.Emoji.Name)
					}
				}
			case discordgo.SelectMenu:
				checkID(x.CustomID)
				if len(r.Components) != 1 {
					bad("select %q shares its row", x.CustomID)
				}
				if n := len(x.Options); n == 0 || n > 25 {
					bad("select %q has %d options, want 1–25", x.CustomID, n)
				}
				if units(x.Placeholder) > 150 {
					bad("select %q: placeholder longer than 150", x.CustomID)
				}
				if x.MinValues == nil || *x.MinValues != 1 || x.MaxValues != 1 {
					bad("select %q: want exactly one value chosen", x.CustomID)
				}
				values := map[string]bool{}
				for _, o := range x.Options {
					if n := units(o.Label); n == 0 || n > 100 {
						bad("select %q: label %q: want 1–100 characters", x.CustomID, o.Label)
					}
					if n := units(o.Value); n == 0 || n > 100 {
						bad("select %q: value %q: want 1–100 characters", x.CustomID, o.Value)
					}
					if units(o.Description) > 100 {
						bad("select %q: description %q longer than 100", x.CustomID, o.Description)
					}
					if values[o.Value] {
						bad("select %q: value %q twice", x.CustomID, o.Value)
					}
					values[o.Value] = true
				}
			default:
				bad("row %d holds a %T", i, cc)
			}
		}
	}
	if s, ok := flagPair(m); ok {
		bad("two adjacent regional indicators (a flag) in %q", s)
	}
	return out
}

// flagPair reports a string of m where two regional indicators touch,
// which Discord would render as a flag.
func flagPair(m Message) (string, bool) {
	b, err := json.Marshal(struct {
		Content    string
		Embeds     []*discordgo.MessageEmbed
		Components []discordgo.MessageComponent
	}{m.Content, m.Embeds, m.Components})
	if err != nil {
		panic(err)
	}
	isRI := func(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }
	prev := rune(0)
	for i, r := range string(b) {
		if isRI(prev) && isRI(r) {
			return string(b)[max(0, i-40):min(len(b), i+40)], true
		}
		prev = r
	}
	return "", false
}

var patterns = []customid.Pattern{
	customid.Move, customid.Pick, customid.File, customid.Cell, customid.Resign, customid.ResignConfirm, customid.Rematch,
	customid.Accept, customid.Take, customid.Decline, customid.Repost, customid.PrivacyDelete,
	customid.Hint, customid.Solve, customid.Compare, customid.ChallengePick, customid.Review,
	customid.Abort, customid.AbortConfirm, customid.DrawOffer, customid.DrawAccept, customid.DrawDecline,
}

// parseID matches a custom ID against Gambit's patterns.
func parseID(t *testing.T, id string) (customid.Pattern, customid.Params) {
	t.Helper()
	var found []customid.Pattern
	var params customid.Params
	for _, p := range patterns {
		if ps, ok := p.Match(id); ok {
			found = append(found, p)
			params = ps
		}
	}
	if len(found) != 1 {
		t.Fatalf("custom ID %q matches patterns %v, want exactly one", id, found)
	}
	return found[0], params
}

// checkIDs checks that every custom ID of m parses back with its pattern
// and names g at its ply, and returns the IDs by pattern.
func checkIDs(t *testing.T, g *storage.Game, m Message) map[customid.Pattern][]customid.Params {
	t.Helper()
	buttons, selects, _ := flatten(t, m)
	var ids []string
	for _, b := range buttons {
		ids = append(ids, b.CustomID)
	}
	for _, s := range selects {
		ids = append(ids, s.CustomID)
	}
	out := map[customid.Pattern][]customid.Params{}
	for _, id := range ids {
		p, ps := parseID(t, id)
		if ps["game"] != string(g.ID) {
			t.Errorf("custom ID %q names game %q, want %q", id, ps["game"], g.ID)
		}
		if v, ok := ps["ply"]; ok && v != strconv.Itoa(len(g.Moves)) {
			t.Errorf("custom ID %q names ply %q, want %d", id, v, len(g.Moves))
		}
		if strings.Contains(string(p), "{version}") != (ps["version"] != "") {
			t.Errorf("custom ID %q lacks its version", id)
		}
		out[p] = append(out[p], ps)
	}
	return out
}

// buttonByID finds a button of m.
func buttonByID(t *testing.T, m Message, id string) (discordgo.Button, bool) {
	buttons, _, _ := flatten(t, m)
	for _, b := range buttons {
		if b.CustomID == id {
			return b, true
		}
	}
	return discordgo.Button{}, false
}

func description(t *testing.T, m Message) string {
	t.Helper()
	if m = unlayout(m); len(m.Embeds) != 1 {
		t.Fatalf("%d embeds, want 1", len(m.Embeds))
	}
	return m.Embeds[0].Description
}

// ---- decoding boards -------------------------------------------------------

// tokens splits a line into emoji: a code point with the variation
// selectors and keycap marks that follow it. Spaces and zero-width spaces
// separate.
func tokens(line string) []string {
	var out []string
	for _, r := range line {
		switch {
		case r == '\uFE0F' || r == '\u20E3':
			if len(out) > 0 {
				out[len(out)-1] += string(r)
			}
		case r == ' ' || r == '\u200b':
		default:
			out = append(out, string(r))
		}
	}
	return out
}

// A decoded cell: its side and whether it is marked as the last move.
type decoded struct {
	side      engine.Side
	mark      bool
	last      bool
	emptyCell bool
}

// The emoji of each game, as the format pins them.
var (
	adjacencyCells = map[string]decoded{
		"🟩": {emptyCell: true}, "🔴": {side: engine.X, mark: true}, "🔵": {side: engine.O, mark: true},
		"🟥": {side: engine.X, mark: true, last: true}, "🟦": {side: engine.O, mark: true, last: true},
	}
	connect4Cells = map[string]decoded{
		"⚫": {emptyCell: true}, "🔴": {side: engine.X, mark: true}, "🟡": {side: engine.O, mark: true},
		"🟥": {side: engine.X, mark: true, last: true}, "🟨": {side: engine.O, mark: true, last: true},
	}
	tictactoeCells = map[string]decoded{
		"❌": {side: engine.X, mark: true}, "🔵": {side: engine.O, mark: true},
		"🟥": {side: engine.X, mark: true, last: true}, "🟦": {side: engine.O, mark: true, last: true},
	}
)

// all reports whether f holds for every token.
func all(tk []string, f func(string) bool) bool {
	for _, e := range tk {
		if !f(e) {
			return false
		}
	}
	return true
}

func keycapOf(d int) string { return strconv.Itoa(d) + "\uFE0F\u20E3" }

// decodeGrid reads the board back from a game's description: cell → what
// the grid shows there, in the engine's cell numbering (Connect Four:
// 7*row+col... as col + 7*row).
func decodeGrid(t *testing.T, kind storage.Kind, desc string) map[int]decoded {
	t.Helper()
	lines := strings.Split(desc, "\n")
	out := map[int]decoded{}
	switch kind {
	case storage.Kind("adjacency"):
		rank := 7
		for i, l := range lines {
			tk := tokens(l)
			if len(tk) != 9 || rank < 0 || tk[0] != keycapOf(rank+1) {
				continue
			}
			for file, e := range tk[1:] {
				d, ok := adjacencyCells[e]
				if !ok {
					t.Fatalf("line %q: %q is no Adjacency cell", l, e)
				}
				out[8*rank+file] = d
			}
			if rank == 0 {
				want := []string{"⬛", "🇦", "🇧", "🇨", "🇩", "🇪", "🇫", "🇬", "🇭"}
				if i+1 >= len(lines) || !slices.Equal(tokens(lines[i+1]), want) {
					t.Fatalf("no file letters a–h under rank 1 in\n%s", desc)
				}
			}
			rank--
		}
		if rank != -1 {
			t.Fatalf("found ranks down to %d only in\n%s", rank+2, desc)
		}
	case storage.Kind("connect4"):
		row := connect4.Height - 1
		for i, l := range lines {
			tk := tokens(l)
			if len(tk) != connect4.Width || row < 0 {
				continue
			}
			if !all(tk, func(e string) bool { _, ok := connect4Cells[e]; return ok }) {
				continue
			}
			for col, e := range tk {
				out[col+7*row] = connect4Cells[e]
			}
			if row == 0 {
				want := []string{keycapOf(1), keycapOf(2), keycapOf(3), keycapOf(4), keycapOf(5), keycapOf(6), keycapOf(7)}
				if i+1 >= len(lines) || !slices.Equal(tokens(lines[i+1]), want) {
					t.Fatalf("no column numbers 1–7 under the board in\n%s", desc)
				}
			}
			row--
		}
		if row != -1 {
			t.Fatalf("found %d rows in\n%s", connect4.Height-1-row, desc)
		}
	case storage.Kind("tictactoe"):
		row := 0
		for _, l := range lines {
			tk := tokens(l)
			if len(tk) != 3 || row > 2 {
				continue
			}
			var cells []decoded
			for col, e := range tk {
				if e == keycapOf(3*row+col+1) {
					cells = append(cells, decoded{emptyCell: true})
				} else if d, ok := tictactoeCells[e]; ok {
					cells = append(cells, d)
				}
			}
			if len(cells) != 3 {
				continue
			}
			for col, d := range cells {
				out[3*row+col] = d
			}
			row++
		}
		if row != 3 {
			t.Fatalf("found %d rows in\n%s", row, desc)
		}
	}
	return out
}

// mark returns what pos holds in a cell numbered as decodeGrid numbers it.
func mark(pos engine.Position, cell int) (engine.Side, bool) {
	switch p := pos.(type) {
	case *adjacency.Position:
		return p.Mark(engine.Move(cell))
	case *connect4.Position:
		return p.At(cell%7, cell/7)
	case *tictactoe.Position:
		return p.Mark(engine.Move(cell))
	}
	panic(fmt.Sprintf("unknown position %T", pos))
}

// lastCell returns the cell of the last of moves, numbered as decodeGrid
// numbers it.
func lastCell(t *testing.T, pos engine.Position, moves []string) int {
	t.Helper()
	text := moves[len(moves)-1]
	switch p := pos.(type) {
	case *adjacency.Position:
		c, err := adjacency.ParseCell(text)
		if err != nil {
			t.Fatal(err)
		}
		return int(c)
	case *connect4.Position:
		col := int(text[0] - '1')
		for row := connect4.Height - 1; row >= 0; row-- {
			if _, ok := p.At(col, row); ok {
				return col + 7*row
			}
		}
		t.Fatalf("column %s is empty", text)
	case *tictactoe.Position:
		return int(text[0] - '1')
	}
	panic("unreachable")
}

// ---- tests -----------------------------------------------------------------

// scenario is one state of a game to render.
type scenario struct {
	name string
	view View
}

// scenarios returns every status of a game of kind, with positions from
// random play.
func scenarios(t *testing.T, kind storage.Kind, rng *rand.Rand) []scenario {
	t.Helper()
	var out []scenario
	add := func(name string, v View) { out = append(out, scenario{string(kind) + "/" + name, v}) }

	pending := newGame(kind, storage.StatusPending, alice, bob)
	pending.Deadline = deadline
	add("pending", View{Game: pending})
	expired := newGame(kind, storage.StatusExpired, alice, bob)
	add("expired", View{Game: expired, Notice: "Challenge expired."})
	declined := newGame(kind, storage.StatusDeclined, alice, bob)
	add("declined", View{Game: declined})
	withdrawn := newGame(kind, storage.StatusWithdrawn, alice, bob)
	add("withdrawn", View{Game: withdrawn})
	cancelledChallenge := newGame(kind, storage.StatusCancelled, alice, bob)
	add("cancelled-challenge", View{Game: cancelledChallenge})

	for _, n := range []int{0, 1, 2, 5} {
		pos, moves := play(t, kind, 8, rng, n)
		g := newGame(kind, storage.StatusActive, alice, bob)
		seat(g, pos, moves, n/2%2) // both seats get to move
		g.Deadline = deadline
		add(fmt.Sprintf("active-human-%d", n), View{Game: g, Pos: pos, Notice: "A move was played."})
	}

	pos, moves := play(t, kind, 8, rng, 3)
	g := newGame(kind, storage.StatusActive, alice, bot)
	seat(g, pos, moves, 0) // O, the AI, to move
	add("active-ai-thinking", View{Game: g, Pos: pos, Thinking: &Thinking{Depth: 9, Elapsed: 1234 * time.Millisecond}})
	add("active-ai-searching", View{Game: g, Pos: pos, Thinking: &Thinking{}})
	add("active-ai-queued", View{Game: g, Pos: pos, Thinking: &Thinking{Queue: 2}})
	add("active-ai-idle", View{Game: g, Pos: pos})

	changes := func(g *storage.Game) []storage.RatingChange {
		var cs []storage.RatingChange
		for i, p := range g.Players {
			before := storage.NewRating(p.ID)
			if p.ID.IsAI() {
				fixed := storage.AIRatings(nil).Fixed(kind, before)
				cs = append(cs,
					storage.RatingChange{Ladder: storage.Global(kind), Before: fixed, After: fixed},
					storage.RatingChange{Ladder: storage.Ladder{Kind: kind, Guild: "999"}, Before: fixed, After: fixed})
				continue
			}
			after := before
			after.Rating += float64(16 - 32*i)
			after.Deviation = 80
			cs = append(cs,
				storage.RatingChange{Ladder: storage.Global(kind), Before: before, After: after},
				storage.RatingChange{Ladder: storage.Ladder{Kind: kind, Guild: "999"}, Before: after, After: after})
		}
		return cs
	}
	for _, w := range []int{0, 1, storage.Draw} {
		pos, moves := play(t, kind, 8, rng, 99)
		g := newGame(kind, storage.StatusFinished, alice, bot)
		seat(g, pos, moves, 1)
		g.Result = &storage.Result{Winner: w}
		add(fmt.Sprintf("finished-%d", w), View{Game: g, Pos: pos, Changes: changes(g)})
	}
	pos, moves = play(t, kind, 8, rng, 4)
	g = newGame(kind, storage.StatusForfeited, alice, bob)
	seat(g, pos, moves, 0)
	g.Result = &storage.Result{Winner: 0, Outcome: storage.TimedOut}
	add("forfeited-timeout", View{Game: g, Pos: pos, Changes: changes(g)})
	g = newGame(kind, storage.StatusFinished, bob, alice)
	seat(g, pos, moves, 0)
	g.Result = &storage.Result{Winner: 1, Outcome: storage.Resigned}
	add("finished-resigned", View{Game: g, Pos: pos, Notice: "bob resigned."})
	g = newGame(kind, storage.StatusCancelled, alice, bot)
	seat(g, pos, moves, 0)
	add("cancelled-game", View{Game: g, Pos: pos})
	return out
}

func TestGameEveryStatus(t *testing.T) {
	defer somePictures(new(bool))() // the statuses' texts and components, not pictures
	rng := rand.New(rand.NewPCG(1, 2))
	for _, gm := range catalog.All() {
		if gm.Solo() {
			continue // the duels' statuses; puzzles: solo_test.go and TestEveryGameConforms
		}
		kind := storage.Kind(gm.Name)
		for _, sc := range scenarios(t, kind, rng) {
			t.Run(sc.name, func(t *testing.T) {
				g := sc.view.Game
				m := Game(sc.view)
				checkDiscord(t, m)
				ids := checkIDs(t, g, m)
				desc := description(t, m)
				if footer := embed(m).Footer; footer == nil || !strings.Contains(footer.Text, string(g.ID)) {
					t.Errorf("footer %v does not name game %s", footer, g.ID)
				}
				if sc.view.Notice != "" && !strings.Contains(content(m), sc.view.Notice) {
					t.Errorf("notice %q missing from content %q", sc.view.Notice, content(m))
				}
				moveIDs := len(ids[customid.Move]) + len(ids[customid.Pick])
				switch g.Status {
				case storage.StatusPending:
					checkPending(t, g, m, ids)
				case storage.StatusExpired, storage.StatusDeclined, storage.StatusWithdrawn:
					if len(rows(m)) != 0 {
						t.Errorf("%s challenge has components", g.Status)
					}
					if len(m.AllowedMentions.Users) != 0 {
						t.Errorf("%s challenge pings %v", g.Status, m.AllowedMentions.Users)
					}
					want := map[storage.Status]string{storage.StatusExpired: "Challenge expired.", storage.StatusDeclined: "Challenge declined.",
						storage.StatusWithdrawn: "Challenge withdrawn."}[g.Status]
					if !strings.Contains(content(m), want) || !strings.Contains(content(m), "challenges you to") {
						t.Errorf("content %q lacks the challenge and %q", content(m), want)
					}
				case storage.StatusActive:
					if len(ids[customid.Resign]) != 1 {
						t.Errorf("active game without one Resign button: %v", ids)
					} else if b, _ := buttonByID(t, m, customid.Resign.Build(string(g.ID), Ply(g))); b.Style != discordgo.DangerButton {
						t.Errorf("Resign has style %d, want danger", b.Style)
					}
					if len(ids[customid.Rematch]) != 0 {
						t.Error("active game offers a rematch")
					}
					mover := g.Players[g.Turn]
					if sc.view.Thinking == nil && !mover.ID.IsAI() {
						uid, _ := mover.ID.UserID()
						if !strings.HasPrefix(content(m), "<@"+uid+">, your move") {
							t.Errorf("content %q does not call the mover %s", content(m), uid)
						}
						if !slices.Equal(m.AllowedMentions.Users, []string{uid}) {
							t.Errorf("allowed mentions %v, want only %s", m.AllowedMentions.Users, uid)
						}
						if moveIDs == 0 {
							t.Error("no move components for the human to move")
						}
					} else {
						if len(m.AllowedMentions.Users) != 0 {
							t.Errorf("AI's turn pings %v", m.AllowedMentions.Users)
						}
						checkNoPlayableMoves(t, m)
						th := sc.view.Thinking
						switch {
						case th == nil:
						case th.Queue > 0:
							if !strings.Contains(desc, fmt.Sprintf("%s is queued (#%d)", PlayerName(en, kind, bot), th.Queue)) {
								t.Errorf("description does not say the AI is queued:\n%s", desc)
							}
						default:
							if !strings.Contains(desc, "🤔 "+PlayerName(en, kind, bot)+" is thinking…") {
								t.Errorf("description does not say the AI is thinking:\n%s", desc)
							}
							if th.Depth > 0 && (!strings.Contains(desc, "depth 9") || !strings.Contains(desc, "1.2s")) {
								t.Errorf("description lacks depth and time:\n%s", desc)
							}
						}
					}
				case storage.StatusCancelled:
					checkCancelled(t, sc.view, m, ids)
				default: // ended
					checkEnded(t, sc.view, m, ids)
				}
			})
		}
	}
}

func checkPending(t *testing.T, g *storage.Game, m Message, ids map[customid.Pattern][]customid.Params) {
	t.Helper()
	if !strings.HasPrefix(content(m), "<@222>, <@111> challenges you to") {
		t.Errorf("content %q", content(m))
	}
	if ts := fmt.Sprintf("<t:%d:R>", deadline.Unix()); !strings.Contains(content(m), ts) {
		t.Errorf("content %q lacks the expiry %s", content(m), ts)
	}
	if g.Kind == storage.Kind("adjacency") && !strings.Contains(content(m), "8 rounds") {
		t.Errorf("content %q lacks the rounds", content(m))
	}
	if !slices.Equal(m.AllowedMentions.Users, []string{"222"}) {
		t.Errorf("allowed mentions %v, want only the challenged 222", m.AllowedMentions.Users)
	}
	if len(ids[customid.Accept]) != 1 || len(ids[customid.Decline]) != 1 || len(rows(m)) != 1 {
		t.Fatalf("want one row with Accept and Decline, got %v", ids)
	}
	accept, _ := buttonByID(t, m, customid.Accept.Build(string(g.ID)))
	decline, _ := buttonByID(t, m, customid.Decline.Build(string(g.ID)))
	if accept.Style != discordgo.SuccessButton || decline.Style != discordgo.DangerButton {
		t.Errorf("Accept style %d, Decline style %d: want success and danger", accept.Style, decline.Style)
	}
}

// checkNoPlayableMoves fails if m has a move component a user could use.
func checkNoPlayableMoves(t *testing.T, m Message) {
	t.Helper()
	buttons, selects, _ := flatten(t, m)
	if len(selects) > 0 {
		t.Errorf("%d selects", len(selects))
	}
	for _, b := range buttons {
		if _, ok := customid.Move.Match(b.CustomID); ok && !b.Disabled {
			t.Errorf("move button %q is enabled", b.CustomID)
		}
	}
}

// checkCancelled checks a cancelled challenge or game: no buttons, no
// pings, the challenge or the board with no result, and the notice.
func checkCancelled(t *testing.T, v View, m Message, ids map[customid.Pattern][]customid.Params) {
	t.Helper()
	g := v.Game
	if len(rows(m)) != 0 || len(ids) != 0 {
		t.Errorf("cancelled %s has components %v", g.Kind, ids)
	}
	if len(m.AllowedMentions.Users) != 0 {
		t.Errorf("cancelled %s pings %v", g.Kind, m.AllowedMentions.Users)
	}
	desc := description(t, m)
	if strings.Contains(desc, " wins") || strings.Contains(desc, "Draw") {
		t.Errorf("cancelled game shows a result:\n%s", desc)
	}
	if v.Pos == nil {
		if !strings.Contains(content(m), "Challenge cancelled.") || !strings.Contains(content(m), "challenges you to") ||
			!strings.Contains(desc, "**Status** cancelled") {
			t.Errorf("cancelled challenge: content %q, description:\n%s", content(m), desc)
		}
		return
	}
	if !strings.Contains(content(m), "Game cancelled.") || !strings.Contains(desc, "Cancelled") || !strings.Contains(desc, "not rated") {
		t.Errorf("cancelled game: content %q, description:\n%s", content(m), desc)
	}
	if strings.Contains(desc, "to move") || strings.Contains(desc, "thinking") {
		t.Errorf("cancelled game still says whose turn it is:\n%s", desc)
	}
}

func checkEnded(t *testing.T, v View, m Message, ids map[customid.Pattern][]customid.Params) {
	t.Helper()
	g := v.Game
	desc := description(t, m)
	if review := len(ids[customid.Review]); len(ids[customid.Rematch]) != 1 || review != min(len(g.Moves), 1) || len(ids) != 1+review {
		t.Errorf("ended game: want a Rematch button, and Review once a move was played, got %v", ids)
	}
	if len(m.AllowedMentions.Users) != 0 {
		t.Errorf("ended game pings %v", m.AllowedMentions.Users)
	}
	if g.Result.Winner == storage.Draw {
		if !strings.Contains(desc, "Draw") {
			t.Errorf("draw not shown:\n%s", desc)
		}
	} else if w := PlayerName(en, g.Kind, g.Players[g.Result.Winner]) + " wins"; !strings.Contains(desc, w) {
		t.Errorf("%q not shown:\n%s", w, desc)
	}
	switch g.Result.Outcome {
	case storage.TimedOut:
		if !strings.Contains(desc, PlayerName(en, g.Kind, g.Players[1-g.Result.Winner])+" forfeited on time") {
			t.Errorf("timeout not shown:\n%s", desc)
		}
	case storage.Resigned:
		if !strings.Contains(desc, PlayerName(en, g.Kind, g.Players[1-g.Result.Winner])+" resigned") {
			t.Errorf("resignation not shown:\n%s", desc)
		}
	}
	if g.Kind == storage.Kind("adjacency") {
		a := v.Pos.(*adjacency.Position)
		if s := fmt.Sprintf("🔴 **%d** – **%d** 🔵", a.Count(engine.X), a.Count(engine.O)); !strings.Contains(desc, s) {
			t.Errorf("final score %q not shown:\n%s", s, desc)
		}
	}
	if v.Changes == nil {
		return
	}
	fields := embed(m).Fields
	if len(fields) != 1 {
		t.Fatalf("want a field of rating changes, got %d fields", len(fields))
	}
	for i, p := range g.Players {
		want := fmt.Sprintf("%s 1500? → %d (%+d)", PlayerName(en, g.Kind, p), 1516-32*i, 16-32*i)
		want = strings.Replace(want, "(-", "(−", 1)
		if p.ID.IsAI() {
			want = PlayerName(en, g.Kind, p) + " 1500 (fixed)"
		}
		if !strings.Contains(fields[0].Value, want) {
			t.Errorf("rating change %q not in %q", want, fields[0].Value)
		}
	}
	if strings.Count(fields[0].Value, "\n") != 1 {
		t.Errorf("want the two global changes only, got %q", fields[0].Value)
	}
}

func TestAdjacencySelects(t *testing.T) {
	defer somePictures(new(bool))() // the boards' texts and components, not pictures
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range cases(200) {
		rounds := 2 + rng.IntN(27)
		pos, moves := play(t, storage.Kind("adjacency"), rounds, rng, rng.IntN(2*rounds))
		a := pos.(*adjacency.Position)
		g := newGame(storage.Kind("adjacency"), storage.StatusActive, alice, bob)
		g.Settings.Rounds = rounds
		seat(g, pos, moves, i%2)
		m := Game(View{Game: g, Pos: pos})
		checkDiscord(t, m)
		ids := checkIDs(t, g, m)
		_, selects, rowOf := flatten(t, m)
		got := map[string]bool{}
		for k, s := range selects {
			ps, ok := customid.Pick.Match(s.CustomID)
			if !ok {
				t.Fatalf("select %q is not a Pick", s.CustomID)
			}
			group, _ := strconv.Atoi(ps["group"])
			if rowOf[s.CustomID] != k+2 { // below the two rows of files
				t.Errorf("select %d is in row %d", k, rowOf[s.CustomID])
			}
			for _, o := range s.Options {
				c, err := adjacency.ParseCell(o.Value)
				if err != nil {
					t.Fatalf("option %q: %v", o.Value, err)
				}
				if o.Label != o.Value || o.Value != adjacency.CellName(c) {
					t.Errorf("option label %q value %q", o.Label, o.Value)
				}
				wantGroup := map[int]int{0: 1, 1: 1, 2: 1, 3: 2, 4: 2, 5: 2, 6: 3, 7: 3}[int(c/8)]
				if group != wantGroup {
					t.Errorf("%s is in group %d, want %d", o.Value, group, wantGroup)
				}
				if want := fmt.Sprintf("captures %d", a.Captures(c)); o.Description != want {
					t.Errorf("%s: description %q, want %q", o.Value, o.Description, want)
				}
				if got[o.Value] {
					t.Errorf("%s offered twice", o.Value)
				}
				got[o.Value] = true
			}
		}
		var want []string
		for _, m := range pos.Moves(nil) {
			want = append(want, pos.FormatMove(m))
		}
		gotList := slices.Sorted(func(yield func(string) bool) {
			for k := range got {
				if !yield(k) {
					return
				}
			}
		})
		slices.Sort(want)
		if !slices.Equal(gotList, want) {
			t.Fatalf("position %s: options %v, legal moves %v", pos, gotList, want)
		}
		if len(ids[customid.Resign]) != 1 || rowOf[customid.Resign.Build("0001k", Ply(g))] != 1 {
			t.Errorf("Resign is not in the second row, with files f–h")
		}
	}
}

// TestAdjacencyTwoClicks checks both steps of a two-click move on random
// positions: a file button under the board for each file, enabled if a
// legal cell is in it; and for each file the picker, whose rank buttons
// play exactly the file's legal cells, each labelled with its captures.
func TestAdjacencyTwoClicks(t *testing.T) {
	defer somePictures(new(bool))() // the boards' texts and components, not pictures
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range cases(100) {
		rounds := 2 + rng.IntN(27)
		pos, moves := play(t, storage.Kind("adjacency"), rounds, rng, rng.IntN(2*rounds))
		a := pos.(*adjacency.Position)
		g := newGame(storage.Kind("adjacency"), storage.StatusActive, alice, bob)
		g.Settings.Rounds = rounds
		seat(g, pos, moves, i%2)
		legal := map[string]bool{}
		for _, m := range pos.Moves(nil) {
			legal[pos.FormatMove(m)] = true
		}
		m := Game(View{Game: g, Pos: pos})
		ids := checkIDs(t, g, m)
		if len(ids[customid.File]) != 8 {
			t.Fatalf("%d file buttons, want 8", len(ids[customid.File]))
		}
		offered := map[string]bool{}
		for k, ps := range ids[customid.File] {
			file := ps["file"]
			if want := string(rune('a' + k)); file != want {
				t.Errorf("file button %d is %q, want %q", k, file, want)
			}
			b, _ := buttonByID(t, m, customid.File.Build("0001k", Ply(g), file))
			hasLegal := false
			for r := 1; r <= 8; r++ {
				hasLegal = hasLegal || legal[file+strconv.Itoa(r)]
			}
			if b.Disabled == hasLegal {
				t.Errorf("file %s: disabled %v with a legal cell %v", file, b.Disabled, hasLegal)
			}
			picker, ok := CellPicker(en, g, pos, file)
			if !ok {
				t.Fatalf("no picker for file %s", file)
			}
			checkDiscord(t, picker)
			pids := checkIDs(t, g, picker)
			if len(pids[customid.Cell]) != 8 || len(pids[customid.File]) != 8 {
				t.Fatalf("picker of %s: %d cells and %d files, want 8 and 8", file, len(pids[customid.Cell]), len(pids[customid.File]))
			}
			if !strings.Contains(picker.Content, "File **"+file+"**") || strings.Contains(picker.Content, pickColour) != hasLegal {
				t.Errorf("picker of %s: preview %q", file, picker.Content)
			}
			for r, cps := range pids[customid.Cell] {
				cell := cps["cell"]
				if want := file + strconv.Itoa(r+1); cell != want {
					t.Errorf("picker of %s: cell button %d plays %s, want %s", file, r, cell, want)
				}
				cb, _ := buttonByID(t, picker, customid.Cell.Build("0001k", Ply(g), cell))
				if cb.Disabled == legal[cell] {
					t.Errorf("%s: disabled %v, legal %v", cell, cb.Disabled, legal[cell])
				}
				if legal[cell] {
					c, _ := adjacency.ParseCell(cell)
					if want := fmt.Sprintf("%d · +%d", r+1, a.Captures(c)); cb.Label != want {
						t.Errorf("%s: label %q, want %q", cell, cb.Label, want)
					}
					offered[cell] = true
				}
			}
		}
		if len(offered) != len(legal) {
			t.Errorf("position %s: the pickers offer %d cells, %d are legal", pos, len(offered), len(legal))
		}
	}
	g := newGame(storage.Kind("adjacency"), storage.StatusActive, alice, bob)
	pos, _ := play(t, storage.Kind("adjacency"), 8, rng, 0)
	if _, ok := CellPicker(en, g, pos, "z"); ok {
		t.Error("a picker for file z")
	}
}

func TestConnect4Buttons(t *testing.T) {
	defer somePictures(new(bool))() // the boards' texts and components, not pictures
	rng := rand.New(rand.NewPCG(5, 6))
	tested := 0
	for tested < cases(200) {
		pos, moves := play(t, storage.Kind("connect4"), 0, rng, rng.IntN(connect4.Cells))
		if pos.Terminal() {
			continue
		}
		tested++
		g := newGame(storage.Kind("connect4"), storage.StatusActive, alice, bob)
		seat(g, pos, moves, 0)
		m := Game(View{Game: g, Pos: pos})
		checkDiscord(t, m)
		ids := checkIDs(t, g, m)
		var got []string
		for _, ps := range ids[customid.Move] {
			got = append(got, ps["cell"])
		}
		var want []string
		for _, mv := range pos.Moves(nil) {
			want = append(want, pos.FormatMove(mv))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("position %s: buttons %v, playable %v", pos, got, want)
		}
		buttons, _, rowOf := flatten(t, m)
		for _, b := range buttons {
			if ps, ok := customid.Move.Match(b.CustomID); ok && (b.Label != ps["cell"] || b.Disabled) {
				t.Errorf("column button %q: label %q, disabled %v", b.CustomID, b.Label, b.Disabled)
			}
		}
		if len(rows(m)) != 2 || rowOf[customid.Resign.Build("0001k", Ply(g))] != 1 {
			t.Errorf("want two rows, Resign in the second: %d rows", len(rows(m)))
		}
		if first := rows(m)[0].(discordgo.ActionsRow); len(first.Components) != min(5, len(want)) {
			t.Errorf("first row has %d buttons for %d columns", len(first.Components), len(want))
		}
	}
}

func TestTicTacToeButtons(t *testing.T) {
	defer somePictures(new(bool))() // the boards' texts and components, not pictures
	rng := rand.New(rand.NewPCG(7, 8))
	for range cases(100) {
		pos, moves := play(t, storage.Kind("tictactoe"), 0, rng, rng.IntN(9))
		if pos.Terminal() {
			continue
		}
		p := pos.(*tictactoe.Position)
		for _, aiTurn := range []bool{false, true} {
			g := newGame(storage.Kind("tictactoe"), storage.StatusActive, alice, bob)
			if aiTurn {
				g.Players[1] = bot
			}
			seat(g, pos, moves, 0)
			if aiTurn && !g.Players[g.Turn].ID.IsAI() {
				seat(g, pos, moves, 1)
			}
			m := Game(View{Game: g, Pos: pos})
			checkDiscord(t, m)
			checkIDs(t, g, m)
			if len(rows(m)) != 4 {
				t.Fatalf("%d rows, want 3 of cells and Resign", len(rows(m)))
			}
			buttons, _, rowOf := flatten(t, m)
			cells := 0
			for _, b := range buttons {
				ps, ok := customid.Move.Match(b.CustomID)
				if !ok {
					continue
				}
				cells++
				c := engine.Move(ps["cell"][0] - '1')
				if rowOf[b.CustomID] != int(c)/3 {
					t.Errorf("cell %d in row %d", c+1, rowOf[b.CustomID])
				}
				s, marked := p.Mark(c)
				if enabled := !b.Disabled; enabled != (!marked && !aiTurn) {
					t.Errorf("%s: cell %d enabled %v, marked %v, AI's turn %v", pos, c+1, enabled, marked, aiTurn)
				}
				if marked && (b.Emoji == nil || b.Emoji.Name != map[engine.Side]string{engine.X: "❌", engine.O: "🔵"}[s]) {
					t.Errorf("%s: cell %d shows %v", pos, c+1, b.Emoji)
				}
				lastStyle := len(moves) > 0 && ps["cell"] == moves[len(moves)-1]
				if (b.Style == discordgo.PrimaryButton) != lastStyle {
					t.Errorf("%s: cell %d style %d, last move %v", pos, c+1, b.Style, lastStyle)
				}
			}
			if cells != 9 {
				t.Errorf("%d cell buttons", cells)
			}
		}
	}
}

// gridCells are the duels decodeGrid reads by hand, as a player would,
// and their cell counts: the first three games' grids, checked here
// against their engines. A newer game's plug-in tests its own board model
// (games/othello), so that adding one touches nothing here.
var gridCells = map[storage.Kind]int{"adjacency": 64, "connect4": 42, "tictactoe": 9}

func TestGridShowsMarks(t *testing.T) {
	defer somePictures(new(bool))() // the boards' texts and components, not pictures
	rng := rand.New(rand.NewPCG(9, 10))
	for _, gm := range catalog.All() {
		kind := storage.Kind(gm.Name)
		n, ok := gridCells[kind]
		if !ok {
			continue // puzzles: solo_test.go; newer duels: their plug-ins' tests
		}
		for i := range cases(150) {
			rounds := 2 + rng.IntN(27)
			pos, moves := play(t, kind, rounds, rng, rng.IntN(60))
			status := storage.StatusActive
			g := newGame(kind, status, alice, bot)
			g.Settings.Rounds = rounds
			seat(g, pos, moves, i%2)
			if pos.Terminal() {
				g.Status = storage.StatusFinished
				g.Result = &storage.Result{Winner: storage.Draw}
			}
			m := Game(View{Game: g, Pos: pos})
			desc := description(t, m)
			cells := decodeGrid(t, kind, desc)
			if len(cells) != n {
				t.Fatalf("%s: decoded %d cells, want %d", pos, len(cells), n)
			}
			lasts := 0
			for c, d := range cells {
				s, ok := mark(pos, c)
				if ok != d.mark || d.emptyCell == ok || (ok && s != d.side) {
					t.Fatalf("%s: cell %d shows %+v, position holds %v %v\n%s", pos, c, d, s, ok, desc)
				}
				if d.last {
					lasts++
					if c != lastCell(t, pos, moves) {
						t.Errorf("%s: cell %d marked as the last move, moves %v", pos, c, moves)
					}
				}
			}
			if want := min(1, len(moves)); lasts != want {
				t.Errorf("%s after %v: %d cells marked as the last move, want %d", pos, moves, lasts, want)
			}
		}
	}
}

func TestAdjacencyPlayersAndCaptures(t *testing.T) {
	defer somePictures(new(bool))() // the boards' texts and components, not pictures
	rng := rand.New(rand.NewPCG(11, 12))
	for range cases(100) {
		pos, moves := play(t, storage.Kind("adjacency"), 28, rng, 1+rng.IntN(30))
		a := pos.(*adjacency.Position)
		// The board before the last move, replayed independently.
		before, err := adjacency.New(28, engine.X)
		if err != nil {
			t.Fatal(err)
		}
		for _, mv := range moves[:len(moves)-1] {
			c, _ := adjacency.ParseCell(mv)
			before.Play(c)
		}
		last, _ := adjacency.ParseCell(moves[len(moves)-1])
		var flipped []string
		for c := range engine.Move(64) {
			s0, ok0 := before.Mark(c)
			s1, _ := a.Mark(c)
			if c != last && ok0 && s0 != s1 {
				flipped = append(flipped, adjacency.CellName(c))
			}
		}
		g := newGame(storage.Kind("adjacency"), storage.StatusActive, alice, bob)
		g.Settings.Rounds = 28
		seat(g, pos, moves, 0)
		desc := description(t, Game(View{Game: g, Pos: pos}))
		mover := PlayerName(en, g.Kind, g.Players[1-g.Turn])
		want := fmt.Sprintf("played **%s**", moves[len(moves)-1])
		if len(flipped) > 0 {
			want += ", capturing " + strings.Join(flipped, ", ")
		}
		if !strings.Contains(desc, mover+" "+want+"\n") {
			t.Errorf("want %q by %s in\n%s", want, mover, desc)
		}
		for i, p := range g.Players {
			side := engine.X
			if i == 1 {
				side = engine.O
			}
			l := fmt.Sprintf("%s %s · %d marks", gameOf(storage.Kind("adjacency")).Look.Mark[side], PlayerName(en, g.Kind, p), a.Count(side))
			if !strings.Contains(desc, l) {
				t.Errorf("want %q in\n%s", l, desc)
			}
		}
		if l := fmt.Sprintf("%d of 28 rounds left", (a.PliesLeft()+1)/2); !strings.Contains(desc, l) {
			t.Errorf("want %q in\n%s", l, desc)
		}
	}
}

func TestTitleAndSetting(t *testing.T) {
	for _, tc := range []struct {
		kind storage.Kind
		want string
	}{{storage.Kind("adjacency"), "Adjacency · 8 rounds"}, {storage.Kind("connect4"), "Connect Four"}, {storage.Kind("tictactoe"), "Tic-Tac-Toe"}} {
		pos, moves := play(t, tc.kind, 8, rand.New(rand.NewPCG(1, 1)), 2)
		g := newGame(tc.kind, storage.StatusActive, alice, bot)
		seat(g, pos, moves, 0)
		m := Game(View{Game: g, Pos: pos})
		if embed(m).Title != tc.want {
			t.Errorf("title %q, want %q", embed(m).Title, tc.want)
		}
		if f := embed(m).Footer.Text; !strings.Contains(f, "/move game:0001k") || !strings.Contains(f, "AI move time 2 seconds") {
			t.Errorf("footer %q lacks the /move hint or the AI's move time", f)
		}
	}
}

func TestBoardFromStoredPosition(t *testing.T) {
	pos, moves := play(t, storage.Kind("connect4"), 0, rand.New(rand.NewPCG(2, 2)), 9)
	g := newGame(storage.Kind("connect4"), storage.StatusActive, alice, bob)
	seat(g, pos, moves, 0)
	want := Game(View{Game: g, Pos: pos})
	got := Game(View{Game: g})
	if description(t, got) != description(t, want) {
		t.Errorf("board from the stored text differs:\n%s\nwant\n%s", description(t, got), description(t, want))
	}
	g.Position = "garbage"
	m := Game(View{Game: g})
	checkDiscord(t, m)
	if len(checkIDs(t, g, m)[customid.Resign]) != 1 {
		t.Error("a game whose board is unreadable can no longer be resigned")
	}
	g.Status, g.Result = storage.StatusFinished, &storage.Result{Winner: 1}
	m = Game(View{Game: g})
	checkDiscord(t, m)
	if ids := checkIDs(t, g, m); len(ids) != 2 || len(ids[customid.Rematch]) != 1 || len(ids[customid.Review]) != 1 {
		t.Errorf("ended game without a board: components %v, want a Rematch button and Review", ids)
	}
	if d := description(t, m); !strings.Contains(d, "<@222> wins") {
		t.Errorf("ended game without a board hides the result:\n%s", d)
	}
	m = Game(View{Game: g, Rematched: true, Notice: "A rematch was started below."})
	checkDiscord(t, m)
	if ids := checkIDs(t, g, m); len(ids) != 1 || len(ids[customid.Review]) != 1 {
		t.Errorf("ended game whose rematch was taken: components %v, want Review alone", ids)
	}
}

// TestPlayerName: an AI's difficulty is the one it has in the game
// (Tic-Tac-Toe's perfect player is hard elsewhere), and none without one
// game.
func TestPlayerName(t *testing.T) {
	for _, tc := range []struct {
		kind storage.Kind
		p    storage.Player
		want string
	}{
		{"connect4", alice, "<@111>"},
		{"connect4", bot, "🤖 Deep thinker (hard)"},
		{"tictactoe", bot, "🤖 Deep thinker (perfect)"},
		{"", bot, "🤖 Deep thinker"},
		{"connect4", storage.Player{ID: storage.AI("random")}, "🤖 Random (easy)"},
		{"connect4", storage.Player{ID: storage.AI("retired")}, "🤖 retired"},
		{"connect4", storage.Player{ID: storage.Anonymous, Name: "carol"}, "deleted user"},
	} {
		if got := PlayerName(en, tc.kind, tc.p); got != tc.want {
			t.Errorf("PlayerName(en, %q, %v) = %q, want %q", tc.kind, tc.p, got, tc.want)
		}
	}
}

func TestRules(t *testing.T) {
	for _, name := range catalog.Names() {
		m, err := Rules(en, name)
		if err != nil {
			t.Fatalf("Rules(en, %q): %v", name, err)
		}
		checkDiscord(t, m)
		desc := description(t, m)
		if len(desc) < 200 {
			t.Errorf("Rules(en, %q) is short: %q", name, desc)
		}
		if all := desc + embed(m).Fields[0].Value; !strings.Contains(all, "/move cell:") {
			t.Errorf("Rules(en, %q) does not say how to move", name)
		}
	}
	for _, name := range []string{"chess", ""} {
		if _, err := Rules(en, name); err == nil || !strings.HasPrefix(err.Error(), "render: ") {
			t.Errorf("Rules(en, %q) error %v, want one starting with render:", name, err)
		}
	}
}

// someCommands are commands of each kind the overview lists: a slash
// command, one only members who manage the server see, a user command.
var someCommands = []*discordgo.ApplicationCommand{
	{Name: "play"}, {Name: "settings", DefaultMemberPermissions: ptr(int64(discordgo.PermissionManageGuild))},
	{Name: "Challenge to a game", Type: discordgo.UserApplicationCommand},
}

func ptr[T any](v T) *T { return &v }

// TestHelpOverview checks the /help overview's lines of commands in both
// languages (bot's TestHelpListsEveryCommand checks that it lists every
// command registered, and its length), and that the AIs it recommends as
// the strongest play every game, and that it names a game whose command
// name is its title once.
func TestHelpOverview(t *testing.T) {
	for _, tc := range []struct {
		l    *i18n.Localizer
		want []string
	}{
		{en, []string{"`/play` — Start a game", "`/settings` — Gambit's settings for this server (Manage Server)", "**Challenge to a game** — in a member's menu"}},
		{i18n.For(i18n.Indonesian), []string{"`/main` — ", "`/pengaturan` — ", "(Kelola Server)", "**Tantang bermain** — di menu"}},
	} {
		m := Overview(tc.l, someCommands)
		checkDiscord(t, m)
		for _, w := range tc.want {
			if !strings.Contains(m.Embeds[0].Description, w) {
				t.Errorf("%s: the overview lacks %q:\n%s", tc.l.Locale(), w, m.Embeds[0].Description)
			}
		}
	}
	text := embedText(Overview(en, someCommands).Embeds[0])
	for _, g := range catalog.All() {
		if twice := "**" + g.Title + "** (`" + g.Name + "`)"; strings.EqualFold(g.Title, g.Name) && strings.Contains(text, twice) {
			t.Errorf("the overview names %s twice: %s", g.Title, twice)
		}
	}
	for _, i := range strategies.All() {
		for _, g := range catalog.All() {
			if g.Players == 2 && g.AI != nil && strings.Contains(text, "`"+i.Name+"`") {
				if d := i.DifficultyIn(g.Name); d != strategies.Hard && d != strategies.Perfect {
					t.Errorf("the overview recommends %s as the strongest, which is %q in %s", i.Name, d, g.Title)
				}
			}
		}
	}
}

// TestHelpListsEachGamesAIsByItsOwnDifficulty: a game's /help page puts
// each AI under its difficulty in that game, the label the suggestions
// and the board show.
func TestHelpListsEachGamesAIsByItsOwnDifficulty(t *testing.T) {
	for _, g := range catalog.All() {
		infos := strategies.ForGame(g.Name)
		if len(infos) == 0 {
			continue
		}
		lines := aiLines(en, g.Name)
		for _, i := range infos {
			want := "**" + string(i.DifficultyIn(g.Name)) + "** "
			if !slices.ContainsFunc(lines, func(line string) bool {
				return strings.HasPrefix(line, want) && strings.Contains(line, "`"+i.Name+"`")
			}) {
				t.Errorf("%s: %s is not listed as %s in %q", g.Name, i.Name, i.DifficultyIn(g.Name), lines)
			}
		}
	}
}

func TestAIRules(t *testing.T) {
	for _, i := range strategies.All() {
		m, err := AIRules(en, i.Name)
		if err != nil {
			t.Fatalf("AIRules(en, %s): %v", i.Name, err)
		}
		checkDiscord(t, m)
		e := m.Embeds[0]
		if !strings.Contains(e.Title, i.DisplayName) || !strings.Contains(strings.ToLower(e.Description), strings.ToLower(i.Blurb)) {
			t.Errorf("AIRules(en, %s): %q / %q, want the display name and the blurb", i.Name, e.Title, e.Description)
		}
		if all := embedText(e); !strings.Contains(all, "/play game:"+i.Games[0]+" ai:"+i.Name) {
			t.Errorf("AIRules(en, %s) does not say how to play it: %q", i.Name, all)
		}
		for _, g := range i.Games {
			if want := Title(en, storage.Kind(g)) + " (" + string(i.DifficultyIn(g)) + ")"; !strings.Contains(embedText(e), want) {
				t.Errorf("AIRules(en, %s) does not give its difficulty in %s, %q: %q", i.Name, g, want, embedText(e))
			}
		}
	}
	if _, err := AIRules(en, "deep-blue"); err == nil || !strings.HasPrefix(err.Error(), "render: ") {
		t.Errorf("AIRules(en, deep-blue) error %v, want one starting with render:", err)
	}
}

// embedText is an embed's description and fields.
func embedText(e *discordgo.MessageEmbed) string {
	s := e.Description
	for _, f := range e.Fields {
		s += "\n" + f.Name + "\n" + f.Value
	}
	return s
}

func standing(rank int, id storage.PlayerID, rating, rd float64, w, l, d int) storage.Standing {
	r := storage.NewRating(id)
	r.Rating, r.Deviation, r.Wins, r.Losses, r.Draws, r.Games = rating, rd, w, l, d, w+l+d
	return storage.Standing{Rank: rank, Rating: r}
}

func TestLeaderboard(t *testing.T) {
	empty := Leaderboard(en, storage.Kind("connect4"), "server", nil, nil)
	checkDiscord(t, empty)
	if d := description(t, empty); !strings.Contains(d, "No rated games yet") || !strings.Contains(d, "/play game:connect4") {
		t.Errorf("empty board says %q", d)
	}
	if f := empty.Embeds[0].Footer.Text; !strings.Contains(f, "? = provisional: settles after about a dozen games") || !strings.Contains(f, "fixed") {
		t.Errorf("footer %q does not explain provisional and fixed ratings", f)
	}
	top := []storage.Standing{
		standing(1, storage.User("111"), 1732.4, 60, 20, 5, 3),
		standing(2, storage.AI("minimax"), 1700.6, 50, 9, 1, 0),
	}
	for i := range 200 {
		top = append(top, standing(3+i, storage.User(strconv.Itoa(1000+i)), 1600-float64(i), 70, 1, 2, 3))
	}
	me := &storage.RankView{
		Player: standing(0, storage.User("333"), 1500, 200, 1, 2, 0),
	}
	m := Leaderboard(en, storage.Kind("adjacency"), "global", top, me)
	checkDiscord(t, m)
	d := description(t, m)
	for _, want := range []string{"🥇 <@111> · **1732** · 20–5–3", "🤖 Deep thinker (hard) · **1701 (fixed)** · 9–1–0", "**#4** <@1002>"} {
		if !strings.Contains(d, want) {
			t.Errorf("leaderboard lacks %q", want)
		}
	}
	if !strings.Contains(embed(m).Title, "Adjacency") || !strings.Contains(embed(m).Title, "global") {
		t.Errorf("title %q", embed(m).Title)
	}
	if strings.Contains(d, "🥇 🤖") {
		t.Errorf("an AI has a place among the people:\n%s", d)
	}
	if f := embed(m).Fields; len(f) != 1 || !strings.Contains(f[0].Value, "<@333> · **1500?** · 1–2–0") {
		t.Errorf("viewer's place missing or not provisional: %v", f)
	}
}

// TestLeaderboardRanksPeopleApartFromAIs shows a new server's ladder,
// whose only established rating is an AI's: the people are ranked from
// their first rated game, marked provisional with "?", and the AIs are
// listed apart, below, without a place.
func TestLeaderboardRanksPeopleApartFromAIs(t *testing.T) {
	top := []storage.Standing{
		standing(1, storage.AI("minimax"), 2044, storage.AIDeviation, 0, 2, 0),
		standing(0, storage.User("111"), 1662, 290, 1, 0, 0),
		standing(0, storage.User("222"), 1338, 290, 0, 1, 0),
	}
	m := Leaderboard(en, storage.Kind("connect4"), "server", top, nil)
	checkDiscord(t, m)
	lines := strings.Split(description(t, m), "\n")
	want := []string{
		"🥇 <@111> · **1662?** · 1–0–0",
		"🥈 <@222> · **1338?** · 0–1–0",
		en.T("ladder.ais"),
		"🤖 Deep thinker (hard) · **2044 (fixed)** · 0–2–0",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("leaderboard lines:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// One person, no AI: ranked first, provisional.
	m = Leaderboard(en, storage.Kind("connect4"), "server", top[1:2], nil)
	if d := description(t, m); d != "🥇 <@111> · **1662?** · 1–0–0" {
		t.Errorf("leaderboard of one provisional player: %q", d)
	}
	// Only AIs: the people's part says nobody has played yet.
	m = Leaderboard(en, storage.Kind("connect4"), "server", top[:1], nil)
	if d := description(t, m); !strings.HasPrefix(d, en.T("ladder.no_people", "Name", "connect4")+"\n"+en.T("ladder.ais")) {
		t.Errorf("leaderboard of an AI alone: %q", d)
	}
}

// TestRatingChangesExplainProvisional checks a finished game's rating
// lines: an AI's fixed rating without a change, and one line explaining
// the "?" when the human's rating is provisional.
func TestRatingChangesExplainProvisional(t *testing.T) {
	kind := storage.Kind("connect4")
	g := newGame(kind, storage.StatusFinished, alice, bot)
	human := storage.NewRating(alice.ID)
	after := human.Apply(storage.AIRatings(nil).Fixed(kind, storage.NewRating(bot.ID)), 1, deadline)
	fixed := storage.AIRatings(nil).Fixed(kind, storage.NewRating(bot.ID))
	f := ratingField(en, g, []storage.RatingChange{
		{Ladder: storage.Global(kind), Before: human, After: after},
		{Ladder: storage.Global(kind), Before: fixed, After: fixed},
	})
	want := fmt.Sprintf("%s 1500? → %d? (+%d)\n%s 1500 (fixed)\n_? = provisional: settles after about a dozen games_",
		PlayerName(en, kind, alice), roundRating(after), roundRating(after)-1500, PlayerName(en, kind, bot))
	if f == nil || f.Value != want {
		t.Errorf("rating field %+v, want %q", f, want)
	}
}

func TestStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	me := storage.User("111")
	pos, moves := play(t, storage.Kind("adjacency"), 4, rng, 99)
	won := newGame(storage.Kind("adjacency"), storage.StatusFinished, alice, bot)
	won.Settings.Rounds = 4
	seat(won, pos, moves, 0)
	won.Result = &storage.Result{Winner: 0}
	won.UpdatedAt = deadline
	lost := newGame(storage.Kind("connect4"), storage.StatusForfeited, bob, alice)
	lost.Result = &storage.Result{Winner: 0, Outcome: storage.TimedOut}
	r := storage.NewRating(me)
	r.Rating, r.Deviation, r.Games, r.Wins = 1612.5, 90, 14, 14
	m := Stats(en, me, []KindStats{
		{Kind: storage.Kind("adjacency"), Rating: &r, Rank: 7, Recent: []*storage.Game{won}},
		{Kind: storage.Kind("connect4"), Rating: &storage.Rating{Player: me, Rating: 1450, Deviation: 300, Games: 1, Losses: 1}, Recent: []*storage.Game{lost}},
		{Kind: storage.Kind("tictactoe")},
	})
	checkDiscord(t, m)
	e := embed(m)
	if !strings.Contains(e.Description, "<@111>") || len(e.Fields) != 3 {
		t.Fatalf("stats: %q with %d fields", e.Description, len(e.Fields))
	}
	a := pos.(*adjacency.Position)
	for i, want := range []string{
		fmt.Sprintf("**1613** · #7 · 14–0–0 in 14 games\n**Recent games**\n✅ Won against 🤖 Deep thinker (hard) · %d–%d marks · <t:%d:R>", a.Count(engine.X), a.Count(engine.O), deadline.Unix()),
		"**1450?** · provisional · 0–1–0 in 1 game\n**Recent games**\n❌ Lost to <@222> · on time",
		"Not played yet",
	} {
		if !strings.Contains(e.Fields[i].Value, want) {
			t.Errorf("field %d = %q, want it to contain %q", i, e.Fields[i].Value, want)
		}
	}
}

// TestCheckersCatchFaults makes sure the checks above can fail.
func TestCheckersCatchFaults(t *testing.T) {
	if _, ok := flagPair(Message{Content: "🇦🇧"}); !ok {
		t.Error("flagPair misses a flag")
	}
	if _, ok := flagPair(Message{Content: "🇦" + zwsp + "🇧"}); ok {
		t.Error("flagPair sees a flag across a zero-width space")
	}
	got := discordProblems(Message{Components: []discordgo.MessageComponent{row(
		button("1", "♞", discordgo.PrimaryButton, "a"),
		button("2", "", discordgo.PrimaryButton, "a"),
	)}})
	if len(got) != 3 {
		t.Errorf("want a fake emoji, a duplicate custom ID and missing allowed mentions reported, got %q", got)
	}
}

// TestEmojiAreReal checks every emoji of the boards against Discord's list.
func TestEmojiAreReal(t *testing.T) {
	var all []string
	for _, gm := range catalog.All() {
		p := gm.Look
		all = append(all, p.Mark[0], p.Mark[1], p.Last[0], p.Last[1])
		if p.Empty != "" {
			all = append(all, p.Empty)
		}
	}
	all = append(all, cornerEmoji)
	for d := range 10 {
		all = append(all, keycap(d))
	}
	for f := range 8 {
		all = append(all, labelEmoji(string(rune('a'+f))))
	}
	for _, e := range all {
		if _, err := gomoji.GetInfo(e); err != nil {
			t.Errorf("%q: %v", e, err)
		}
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		24 * time.Hour:          "24 hours",
		time.Hour:               "1 hour",
		90 * time.Minute:        "90 minutes",
		1500 * time.Millisecond: "1.5 seconds",
		time.Second:             "1 second",
		100 * time.Millisecond:  "0.1 seconds",
		60 * time.Second:        "1 minute",
	} {
		if got := Duration(en, d); got != want {
			t.Errorf("Duration(en, %v) = %q, want %q", d, got, want)
		}
	}
}

// en is the language of the tests' messages.
var en = i18n.Default
