package strategies

import (
	"slices"
	"testing"

	"github.com/gambitbot/gambit/games/catalog"
)

// TestDifficultyFollowsEachGamesRatings is the labels' promise to a
// player: in every game, no AI labelled hard is rated below one labelled
// medium, nor medium below easy; the game's strongest AI is hard (or
// perfect) and its weakest easy; perfect is only where the plug-in says.
func TestDifficultyFollowsEachGamesRatings(t *testing.T) {
	rank := func(d Difficulty) int { return slices.Index(Difficulties, d) }
	for _, g := range catalog.All() {
		infos := ForGame(g.Name)
		if len(infos) < 2 {
			continue
		}
		var best, worst Info
		for _, a := range infos {
			ra, _ := Rating(g.Name, a.Name)
			da := a.DifficultyIn(g.Name)
			if da == "" {
				t.Errorf("%s: %s has no difficulty", g.Name, a.Name)
				continue
			}
			if (da == Perfect) != slices.Contains(g.AI.Perfect, a.Name) {
				t.Errorf("%s: %s is %s; the plug-in's perfect players are %v", g.Name, a.Name, da, g.AI.Perfect)
			}
			if best.Name == "" || ra > mustRating(t, g.Name, best.Name) {
				best = a
			}
			if worst.Name == "" || ra < mustRating(t, g.Name, worst.Name) {
				worst = a
			}
			for _, b := range infos {
				rb, _ := Rating(g.Name, b.Name)
				db := b.DifficultyIn(g.Name)
				if da == Perfect || db == Perfect {
					continue
				}
				if rank(da) > rank(db) && ra < rb {
					t.Errorf("%s: %s is %s at %.0f, below %s, %s at %.0f", g.Name, a.Name, da, ra, b.Name, db, rb)
				}
			}
		}
		if d := best.DifficultyIn(g.Name); d != Hard && d != Perfect {
			t.Errorf("%s: the strongest AI, %s, is %s", g.Name, best.Name, d)
		}
		if d := worst.DifficultyIn(g.Name); d != Easy {
			t.Errorf("%s: the weakest AI, %s, is %s", g.Name, worst.Name, d)
		}
	}
	if d := (Info{Name: "random", Games: []string{"chess"}}).DifficultyIn("chess"); d != "" {
		t.Errorf("a game outside the catalog: %q, want none", d)
	}
}

// mustRating is Rating for a strategy known to have one.
func mustRating(t *testing.T, game, name string) float64 {
	t.Helper()
	r, ok := Rating(game, name)
	if !ok {
		t.Fatalf("%s has no rating in %s", name, game)
	}
	return r
}
