package strategies

import (
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	c4game "github.com/gambitbot/gambit/games/connect4"
	othgame "github.com/gambitbot/gambit/games/othello"
)

// gameRules are the search rules of a game's plug-in (games.AI): its unit,
// evaluation and move order.
type gameRules struct{ ai *games.AI }

func (r gameRules) unit() int { return r.ai.Unit }

func (r gameRules) terminal(p engine.Position) int { return r.ai.Terminal(p) }

func (r gameRules) evaluate(p engine.Position) int { return r.ai.Evaluate(p) }

func (r gameRules) orderBonus(p engine.Position, m engine.Move) int { return r.ai.Order(p, m) }

// book answers from the game's opening book, if it has one.
func (r gameRules) book(p engine.Position, seed uint64) (engine.Move, int, int, bool) {
	if r.ai.Book == nil {
		return engine.NoMove, 0, 0, false
	}
	return r.ai.Book(p, seed)
}

// exact are the games whose search has an exact solver of its own, by
// plug-in: each makes its rules from the plug-in's, in its own file
// (rules_<game>.go), so nothing here knows a game's types.
var exact = map[*games.Game]func(gameRules) rules{
	c4game.Game:  func(r gameRules) rules { return connect4Rules{r} },
	othgame.Game: func(r gameRules) rules { return othelloRules{r} },
}

// rulesFor returns the search rules of pos's game: its plug-in's AI, with
// an exact solver for the games that have one. A game without AI
// knowledge cannot be searched.
func rulesFor(pos engine.Position) (rules, bool) {
	g := catalog.Of(pos)
	if g == nil || g.AI == nil {
		return nil, false
	}
	r := gameRules{g.AI}
	if own, ok := exact[g]; ok {
		return own(r), true
	}
	return r, true
}

// nodesLeft returns the node budget an exact solver has left under the
// search's node limit (0: no limit), and false once the limit is spent.
func (t *thread) nodesLeft() (uint64, bool) {
	limit := t.s.limits.Nodes
	if limit == 0 {
		return 0, true
	}
	used := t.count.Total()
	return limit - used, used < limit
}
