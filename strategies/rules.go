package strategies

import (
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// gameRules are the search rules of a game's plug-in (games.AI): its unit,
// evaluation and move order.
type gameRules struct{ ai *games.AI }

func (r gameRules) unit() int { return r.ai.Unit }

func (r gameRules) terminal(p engine.Position) int { return r.ai.Terminal(p) }

func (r gameRules) evaluate(p engine.Position) int { return r.ai.Evaluate(p) }

func (r gameRules) orderBonus(p engine.Position, m engine.Move) int { return r.ai.Order(p, m) }

// connect4Rules add the exact Connect Four solver (rules_connect4.go) to
// the plug-in's rules.
type connect4Rules struct{ gameRules }

// rulesFor returns the search rules of pos's game: its plug-in's AI, with
// an exact solver for the games that have one. A game without AI
// knowledge cannot be searched.
func rulesFor(pos engine.Position) (rules, bool) {
	g := catalog.Of(pos)
	if g == nil || g.AI == nil {
		return nil, false
	}
	r := gameRules{g.AI}
	switch pos.(type) {
	case *connect4.Position:
		return connect4Rules{r}, true
	}
	return r, true
}
