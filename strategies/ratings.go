package strategies

import "github.com/gambitbot/gambit/games/catalog"

// Rating returns strategy name's calibrated rating in game (a catalog
// game's name): the figure its plug-in carries (games.AI.Ratings, with
// the arena command that measured it), fixed, since the bot rates players
// against it (storage.AIRatings) and a game never moves it. ok is false
// if none was measured.
func Rating(game, name string) (rating float64, ok bool) {
	g, err := catalog.Lookup(game)
	if err != nil || g.Name != game || g.AI == nil {
		return 0, false
	}
	rating, ok = g.AI.Ratings[name]
	return rating, ok
}
