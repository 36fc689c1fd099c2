package strategies

import (
	"testing"

	"github.com/gambitbot/gambit/games/catalog"
)

// TestRatingsComeFromThePlugins checks that Rating gives each game's
// plug-in figures (games.AI.Ratings), that every game a strategy plays
// has them, and that every figure is of a strategy that plays the game.
func TestRatingsComeFromThePlugins(t *testing.T) {
	for _, g := range catalog.All() {
		var players []Info
		for _, info := range All() {
			if info.Supports(g.Name) {
				players = append(players, info)
			}
		}
		if len(players) == 0 {
			continue
		}
		if g.AI == nil || len(g.AI.Ratings) == 0 {
			t.Errorf("%s: %d strategies play it, and its plug-in has no ratings (games.AI.Ratings)", g.Name, len(players))
			continue
		}
		for name, want := range g.AI.Ratings {
			if got, ok := Rating(g.Name, name); !ok || got != want {
				t.Errorf("Rating(%s, %s) = %v, %v; the plug-in says %v", g.Name, name, got, ok, want)
			}
			if info, err := Lookup(name); err != nil || !info.Supports(g.Name) {
				t.Errorf("%s: a rating for %s, which does not play it (%v)", g.Name, name, err)
			}
		}
	}
	for _, game := range []string{"Connect4", "chess", "8puzzle"} {
		if r, ok := Rating(game, "random"); ok {
			t.Errorf("Rating(%s, random) = %v, want none", game, r)
		}
	}
}
