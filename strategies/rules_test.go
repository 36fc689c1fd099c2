package strategies

import (
	"testing"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// TestExactSolversReachTheirGames checks that every exact solver is
// registered under a catalog game's name and that the search rules of
// that game's positions carry it: a misspelt or renamed game would leave
// the solver unreachable and the search only heuristic.
func TestExactSolversReachTheirGames(t *testing.T) {
	if len(exact) == 0 {
		t.Fatal("no exact solver registered; Connect Four has one")
	}
	for name := range exact {
		g, err := catalog.Lookup(name)
		if err != nil || g.Name != name || g.AI == nil {
			t.Errorf("exact solver for %q: no catalog game with AI of that name (%v)", name, err)
			continue
		}
		pos, err := g.Start(games.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, ok := rulesFor(pos)
		if _, plain := r.(gameRules); !ok || plain {
			t.Errorf("%s: the search rules are %T, without its exact solver", name, r)
		}
	}
}

// TestOwnEnginesAreCatalogGames checks that minimax's own engines are
// registered under catalog games' names: a misspelt one would send its
// game to the generic search.
func TestOwnEnginesAreCatalogGames(t *testing.T) {
	for name := range ownEngines {
		if g, err := catalog.Lookup(name); err != nil || g.Name != name {
			t.Errorf("minimax's own engine for %q: no catalog game of that name (%v)", name, err)
		}
	}
}
