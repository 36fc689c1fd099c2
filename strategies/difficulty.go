package strategies

import (
	"slices"

	"github.com/gambitbot/gambit/games/catalog"
)

// DifficultyIn is how strong the strategy plays game (a catalog game's
// name), from that game's measurements: Perfect where the game's plug-in
// says it plays perfectly (games.AI.Perfect); otherwise by its calibrated
// rating (Rating) within the span of the ratings of every strategy that
// plays the game — the top third of the span from the weakest to the
// strongest is Hard, the bottom third Easy, the rest Medium. So each
// game's hard AIs are its strongest and its easy ones its weakest, and no
// hard AI is rated below a medium one. It is "" for a game the strategy
// does not play or that has no ratings.
func (i Info) DifficultyIn(game string) Difficulty {
	g, err := catalog.Lookup(game)
	if err != nil || g.Name != game || g.AI == nil || !i.Supports(game) {
		return ""
	}
	if slices.Contains(g.AI.Perfect, i.Name) {
		return Perfect
	}
	own, ok := g.AI.Ratings[i.Name]
	if !ok {
		return ""
	}
	lo, hi := own, own
	for _, other := range registry {
		if r, ok := g.AI.Ratings[other.Name]; ok && other.Supports(game) {
			lo, hi = min(lo, r), max(hi, r)
		}
	}
	switch third := (hi - lo) / 3; {
	case own >= hi-third:
		return Hard
	case own < lo+third:
		return Easy
	}
	return Medium
}
