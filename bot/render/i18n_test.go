package render

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// TestGameTextsAreInTheCatalogue checks that the catalogue has every text
// of every game the bot shows, and that its English is the plug-in's own
// (a plug-in's new wording must reach the translations too): the fixed
// texts, and the texts about positions (the last move, the progress line,
// the menus' hints and placeholders, the two-click prompt, the tallies'
// units) along random games (60 moves at most: a puzzle played at random
// may never end).
func TestGameTextsAreInTheCatalogue(t *testing.T) {
	for _, gm := range catalog.All() {
		check := func(field, english, got string) {
			t.Helper()
			if !i18n.Has("game." + gm.Name + "." + field) {
				t.Errorf("%s: the catalogue has no game.%s.%s", gm.Name, gm.Name, field)
			} else if got != english {
				t.Errorf("%s: the catalogue's English %s is %q, the plug-in's %q", gm.Name, field, got, english)
			}
		}
		fixed := map[string]string{"title": gm.Title, "summary": gm.Summary, "rules": gm.Help.Rules, "moving": gm.Help.Moving}
		if gm.Look.EmptyName != "" {
			fixed["empty"] = gm.Look.EmptyName
		}
		for field, english := range fixed {
			check(field, english, en.T("game."+gm.Name+"."+field))
		}
		for i, grp := range gm.Input.Groups {
			want := strings.NewReplacer("{{.From}}", "a1", "{{.To}}", "b2").Replace(grp.Placeholder)
			if got := placeholder(en, gm, i+1, grp.Placeholder, "a1", "b2"); got != want || !(i18n.Has("game."+gm.Name+".menu") || i18n.Has("game."+gm.Name+".menu."+strconv.Itoa(i+1))) {
				t.Errorf("%s: menu %d's placeholder is %q in the catalogue, %q in the plug-in", gm.Name, i+1, got, want)
			}
		}
		rng := rand.New(rand.NewPCG(7, uint64(len(gm.Name))))
		for range 3 {
			pos, err := gm.Start(games.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 60 && !pos.Terminal(); ply++ {
				if gm.Look.Progress != nil {
					p := gm.Look.Progress(pos, options(gm, newGame(storage.Kind(gm.Name), storage.StatusActive, alice, bob)))
					check(p.ID, p.English, gameWords(en, gm, p))
				}
				moves := pos.Moves(nil)
				for _, m := range moves {
					if gm.Input.Hint != nil {
						h := gm.Input.Hint(pos, m)
						check(h.ID, h.English, gameWords(en, gm, h))
					}
				}
				if gm.Input.Columns {
					for _, col := range gm.Look.Board(pos, nil).ColLabels {
						check("prompt", gm.Input.Prompt(col), gameText(en, gm, "prompt", "", "Column", col))
					}
				}
				if gm.Look.Tally != nil {
					for _, s := range []engine.Side{engine.X, engine.O} {
						if _, unit := gm.Look.Tally(pos, s); !i18n.Has("game."+gm.Name+".unit."+unit) && !i18n.Has("unit."+unit) {
							t.Errorf("%s: neither the game's texts nor the catalogue have its unit %s", gm.Name, unit)
						}
					}
				}
				c := gm.Play(pos, moves[rng.IntN(len(moves))])
				check("last", gm.Look.Describe(c), describe(en, gm, c))
			}
		}
	}
}

// TestStrategyTextsAreInTheCatalogue checks that every AI's display name,
// blurb and description are in the catalogue, its English the
// strategy's own.
func TestStrategyTextsAreInTheCatalogue(t *testing.T) {
	for _, i := range strategies.All() {
		for field, english := range map[string]string{"name": i.DisplayName, "blurb": i.Blurb, "how": i.Description} {
			id := "ai." + i.Name + "." + field
			if !i18n.Has(id) {
				t.Errorf("the catalogue has no %s", id)
			} else if got := en.T(id); got != english {
				t.Errorf("%s is %q in the catalogue, %q in the strategy", id, got, english)
			}
		}
	}
	for _, d := range strategies.Difficulties {
		if !i18n.Has("difficulty." + string(d)) {
			t.Errorf("the catalogue has no difficulty.%s", d)
		}
	}
}

// TestAILabelsFitInEveryLanguage checks that every AI's label (name,
// difficulty and blurb, as the ai option's list shows it) fits whole in
// Discord's 100 characters of a choice's name, in every language: a
// longer one is cut mid-sentence.
func TestAILabelsFitInEveryLanguage(t *testing.T) {
	for _, loc := range i18n.Locales() {
		l := i18n.For(loc)
		for _, info := range strategies.All() {
			for _, game := range append([]string{""}, info.Games...) {
				if s := AILabel(l, storage.Kind(game), info); units(s) > strategies.MaxLabel {
					t.Errorf("%s: %s's label in %q has %d characters, more than %d: %q", loc, info.Name, game, units(s), strategies.MaxLabel, s)
				}
			}
		}
	}
}
