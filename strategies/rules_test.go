package strategies

import (
	"slices"
	"testing"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// TestExactSolversReachTheirGames checks that every exact solver is
// registered under a catalog game's plug-in and that the search rules of
// that game's positions carry it: a plug-in the catalog does not list
// would leave the solver unreachable and the search only heuristic.
func TestExactSolversReachTheirGames(t *testing.T) {
	if len(exact) == 0 {
		t.Fatal("no exact solver registered; Connect Four has one")
	}
	for g := range exact {
		name := g.Name
		if !slices.Contains(catalog.All(), g) || g.AI == nil {
			t.Errorf("exact solver for %q: no catalog game with AI of that plug-in", name)
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
// registered under catalog games' plug-ins: one the catalog does not list
// would send its game to the generic search.
func TestOwnEnginesAreCatalogGames(t *testing.T) {
	for g := range ownEngines {
		if !slices.Contains(catalog.All(), g) {
			t.Errorf("minimax's own engine for %q: no catalog game of that plug-in", g.Name)
		}
	}
}
