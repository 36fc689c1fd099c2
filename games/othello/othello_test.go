package othello

import (
	"bytes"
	"io/fs"
	"math/bits"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/BurntSushi/toml"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/othello"
	"github.com/gambitbot/gambit/games"
)

// readTexts reads one language's file of Texts: its one table
// [game.othello], a plural message (a table of forms) by its "other" form.
func readTexts(t *testing.T, name string) map[string]string {
	t.Helper()
	data, err := fs.ReadFile(Game.Texts, name)
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]map[string]map[string]any
	meta, err := toml.Decode(string(data), &file)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(file) != 1 || len(file["game"]) != 1 || file["game"]["othello"] == nil {
		t.Fatalf("%s holds %v, want one table [game.othello] of texts", name, meta.Keys())
	}
	out := map[string]string{}
	for key, v := range file["game"]["othello"] {
		switch v := v.(type) {
		case string:
			out[key] = v
		case map[string]any:
			other, ok := v["other"].(string)
			if !ok {
				t.Fatalf("%s: the plural message %s has no other form", name, key)
			}
			out[key] = other
		default:
			t.Fatalf("%s: %s is a %T, want a text or plural forms", name, key, v)
		}
	}
	return out
}

var placeholders = regexp.MustCompile(`\{\{[^}]*\.([A-Z][A-Za-z]*)`)

// names returns the placeholders of a message, sorted.
func names(text string) []string {
	var out []string
	for _, m := range placeholders.FindAllStringSubmatch(text, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

// fill runs a message as the bot's catalogue does: a text/template given
// its placeholders as name, value pairs.
func fill(t *testing.T, text string, pairs ...any) string {
	t.Helper()
	data := map[string]any{}
	for i := 0; i+1 < len(pairs); i += 2 {
		data[pairs[i].(string)] = pairs[i+1]
	}
	var b bytes.Buffer
	if err := template.Must(template.New("").Parse(text)).Execute(&b, data); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestTexts checks the player texts: English and Indonesian have the
// same messages with the same placeholders, and the English is the
// plug-in's own, for the fixed texts and for those about positions along
// random games (progress, must-pass, hints, prompts, the last move).
func TestTexts(t *testing.T) {
	en, id := readTexts(t, "en.toml"), readTexts(t, "id.toml")
	for key, text := range en {
		other, ok := id[key]
		switch {
		case !ok:
			t.Errorf("id.toml has no %s", key)
		case !slices.Equal(names(text), names(other)):
			t.Errorf("%s: placeholders %v in English, %v in Indonesian", key, names(text), names(other))
		case text == other && key != "title":
			t.Errorf("%s is not translated: %q", key, text)
		}
	}
	for key := range id {
		if _, ok := en[key]; !ok {
			t.Errorf("en.toml has no %s", key)
		}
	}
	want := map[string]string{
		"title": Game.Title, "summary": Game.Summary, "rules": Game.Help.Rules, "moving": Game.Help.Moving,
		"empty": Game.Look.EmptyName,
	}
	for i, g := range Game.Input.Groups {
		want["menu."+string(rune('1'+i))] = g.Placeholder
	}
	for key, english := range want {
		if en[key] != english {
			t.Errorf("%s is %q in en.toml, %q in the plug-in", key, en[key], english)
		}
	}
	check := func(what games.Text) {
		t.Helper()
		if got := fill(t, en[what.ID], what.Args...); got != what.English {
			t.Errorf("%s is %q in en.toml, %q in the plug-in", what.ID, got, what.English)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	for range 20 {
		p := rules.New()
		for !p.Terminal() {
			pr := progress(p, games.Options{})
			seen[pr.ID] = true
			check(pr)
			moves := p.Moves(nil)
			for _, m := range moves {
				h := hint(p, m)
				seen[h.ID] = true
				check(h)
			}
			m := moves[rng.IntN(len(moves))]
			c := Game.Play(p, m)
			if got := fill(t, en["last"], "Move", c.Move, "Captured", strings.Join(c.Changed, ", ")); got != describe(c) {
				t.Errorf("last is %q in en.toml, %q in the plug-in", got, describe(c))
			}
		}
	}
	for col := range "abcdefgh" {
		c := string(rune('a' + col))
		if got := fill(t, en["prompt"], "Column", c); got != Game.Input.Prompt(c) {
			t.Errorf("prompt is %q in en.toml, %q in the plug-in", got, Game.Input.Prompt(c))
		}
	}
	for _, id := range []string{"progress", "must_pass", "hint", "hint_pass"} {
		if !seen[id] {
			t.Errorf("no random game showed %s", id)
		}
	}
}

// TestInputGroups checks that every legal move of random games, the pass
// included, is in exactly one menu, and none has more than Discord's 25
// options.
func TestInputGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	passes := 0
	for range 50 {
		p := rules.New()
		for !p.Terminal() {
			moves := p.Moves(nil)
			count := make([]int, len(Game.Input.Groups))
			for _, m := range moves {
				in := 0
				for i, g := range Game.Input.Groups {
					if g.Has(m) {
						in++
						count[i]++
					}
				}
				if in != 1 || Game.Input.GroupOf(m) < 0 {
					t.Fatalf("%v: move %s is in %d menus", p, p.FormatMove(m), in)
				}
				if m == rules.Pass {
					passes++
				}
			}
			if slices.Max(count) > 25 {
				t.Fatalf("%v: menus of %v options", p, count)
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	if passes == 0 {
		t.Error("no random game passed")
	}
}

// TestBoard checks the board model: row 1 on top, the last disc placed
// and the discs it flipped marked, a pass marking nothing.
func TestBoard(t *testing.T) {
	p := rules.New()
	c := Game.Play(p, mustMove(t, p, "f5"))
	if c.Move != "f5" || !slices.Equal(c.Changed, []string{"e5"}) || describe(c) != "played **f5**, flipping e5" {
		t.Fatalf("f5 is recorded as %+v, described %q", c, describe(c))
	}
	b := board(p, &c)
	if len(b.Rows) != 8 || b.RowLabels[0] != "1" || b.RowLabels[7] != "8" || b.ColLabels[5] != "f" {
		t.Fatalf("board rows %d, labels %v %v", len(b.Rows), b.RowLabels, b.ColLabels)
	}
	f5, e5, d4 := b.Rows[4][5], b.Rows[4][4], b.Rows[3][3]
	if !f5.Occupied || f5.Side != engine.X || !f5.Last || f5.Changed || !e5.Changed || e5.Side != engine.X || d4.Side != engine.O || d4.Changed {
		t.Errorf("f5 %+v, e5 %+v, d4 %+v: want f5 the last disc, e5 flipped to black, d4 white", f5, e5, d4)
	}
	if b.Rows[5][3].Move != mustMove(t, p, "d6") {
		t.Errorf("the cell of d6 plays %d", b.Rows[5][3].Move)
	}
	pass := games.Change{Move: "pass"}
	if describe(pass) != "passed" {
		t.Errorf("a pass is described %q", describe(pass))
	}
	for _, row := range board(p, &pass).Rows {
		for _, cell := range row {
			if cell.Last || cell.Changed {
				t.Fatalf("a pass marks %+v", cell)
			}
		}
	}
}

func mustMove(t *testing.T, p *rules.Position, text string) engine.Move {
	t.Helper()
	m, err := p.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// symmetries are the eight ways to turn and mirror the board, on cell
// (row, column).
var symmetries = []func(r, c int) (int, int){
	func(r, c int) (int, int) { return r, c },
	func(r, c int) (int, int) { return c, 7 - r },
	func(r, c int) (int, int) { return 7 - r, 7 - c },
	func(r, c int) (int, int) { return 7 - c, r },
	func(r, c int) (int, int) { return r, 7 - c },
	func(r, c int) (int, int) { return 7 - r, c },
	func(r, c int) (int, int) { return c, r },
	func(r, c int) (int, int) { return 7 - c, 7 - r },
}

func transform(b uint64, f func(r, c int) (int, int)) uint64 {
	var out uint64
	for ; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		r, c := f(i/8, i%8)
		out |= 1 << (8*r + c)
	}
	return out
}

// TestEvaluate checks the evaluation on random positions: the same value
// on all eight turned and mirrored boards, within the range of final
// scores; move order ranks squares alike on them.
func TestEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		p := rules.New()
		for n := rng.IntN(60); n > 0 && !p.Terminal(); n-- {
			moves := p.Moves(nil)
			p.Play(moves[rng.IntN(len(moves))])
		}
		if p.Terminal() {
			continue
		}
		me := p.SideToMove()
		own, opp := p.Bitboard(me), p.Bitboard(me.Other())
		v := Evaluate(own, opp)
		if v <= -64*Unit || v >= 64*Unit || v != evaluate(p) {
			t.Fatalf("%v: evaluation %d, through the interface %d", p, v, evaluate(p))
		}
		for i, f := range symmetries {
			if got := Evaluate(transform(own, f), transform(opp, f)); got != v {
				t.Fatalf("%v: symmetry %d evaluates %d, want %d", p, i, got, v)
			}
			for c := range engine.Move(rules.Cells) {
				r, col := f(int(c/8), int(c%8))
				if order(p, c) != order(p, engine.Move(8*r+col)) {
					t.Fatalf("symmetry %d orders %s and its image apart", i, rules.CellName(c))
				}
			}
		}
	}
	if order(nil, rules.Pass) != 0 || order(nil, 0) != 255 || order(nil, 9) >= order(nil, 2) {
		t.Error("move order: want a pass 0, a corner 255, an X-square below an edge square")
	}
}

// TestPerft checks the plug-in's perft against engine.Perft.
func TestPerft(t *testing.T) {
	p := rules.New()
	for depth := range 6 {
		if got, want := Game.CountLeaves(p, depth), engine.Perft(p, depth, nil); got.Leaves != want || got.HasSums {
			t.Errorf("perft %d = %+v, engine.Perft %d", depth, got, want)
		}
	}
}

// TestMustPass checks what a player without a square to play sees: the
// progress line names their disc, and the one menu holds the pass.
func TestMustPass(t *testing.T) {
	p, err := rules.Parse("..xxxx.o/o.xxxxxo/ooxxxxxo/oooooxx./ooxoxxx./oooxxxx./ooxxxx../o.xxxx.. x")
	if err != nil {
		t.Fatal(err)
	}
	if got := progress(p, games.Options{}); got.English != "⚫ has no square to play and must pass." || got.ID != "must_pass" {
		t.Errorf("progress %+v", got)
	}
	if got := Game.Input.GroupOf(rules.Pass); got != 3 || Game.Input.Groups[got].Placeholder != "No square to play: pass" {
		t.Errorf("the pass is in menu %d", got)
	}
	p.Play(rules.Pass)
	if got := progress(p, games.Options{}); got.ID != "progress" || got.English != "Empty squares: 12" {
		t.Errorf("after the pass: progress %+v", got)
	}
}

// TestRatings checks the calibrated ratings: one for every strategy of
// the round robin, within the arena's range, minimax the strongest and
// random the weakest.
func TestRatings(t *testing.T) {
	names := []string{"minimax", "mcts", "beam", "annealing", "hill-steepest", "hill-sideways", "hill-stochastic",
		"genetic", "genetic-roulette", "greedy", "random"}
	if len(ratings) != len(names) {
		t.Errorf("%d ratings, want %d", len(ratings), len(names))
	}
	for _, name := range names {
		r, ok := ratings[name]
		if !ok || r < 500 || r > 3000 || r > ratings["minimax"] || r < ratings["random"] {
			t.Errorf("%s: rating %v, %v", name, r, ok)
		}
	}
}
