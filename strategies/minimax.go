package strategies

import (
	"context"
	"fmt"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	adjgame "github.com/gambitbot/gambit/games/adjacency"
	"github.com/gambitbot/gambit/games/catalog"
	gomgame "github.com/gambitbot/gambit/games/gomoku"
)

// searchStrategies are Gambit's own strong strategies.
var searchStrategies = []Info{
	{
		Name:        "minimax",
		DisplayName: "Deep thinker",
		Blurb:       "looks many moves ahead and plays endgames perfectly",
		Games:       allGames,
		Description: "alpha-beta with iterative deepening, transposition table and exact endgame solving",
		Strategy:    Minimax{},
	},
	{
		Name:        "minimax-learned",
		DisplayName: "Deep thinker, self-taught",
		Blurb:       "Deep thinker as it plays Adjacency: judges by self-play",
		Games:       []string{adjgame.Game.Name},
		Description: "minimax with the Adjacency judgement learned by playing itself; Deep thinker plays Adjacency with the same one, so the two play alike",
		Strategy:    Minimax{Eval: LearnedEval},
	},
	{
		Name:        "minimax-hand",
		DisplayName: "Deep thinker, hand-tuned",
		Blurb:       "Deep thinker judging by rules we wrote, not by self-play",
		Games:       []string{adjgame.Game.Name},
		Description: "minimax with the Adjacency judgement written by hand instead of the learned one; in games of 28 rounds, which fill the board, both play the same way",
		Strategy:    Minimax{Eval: HandEval},
	},
}

// Minimax is Gambit's strong strategy for every game. On Adjacency it is
// the specialised engine of strategies/adjsearch (bitboards, incremental
// keys, a table sized by the move time, exact endgame solving) with the
// evaluation Eval names. On Gomoku it is the engine of
// strategies/gomsearch (incremental line patterns, threat-space search,
// one thread). On the other games it is negamax alpha-beta with
// iterative deepening, a shared transposition table, principal variation
// search, move ordering (hash move, the game's own ordering, killer and
// history heuristics), late-move reductions, Lazy SMP over Limits.Threads
// threads, and exact solving once the plies left fit in the search.
type Minimax struct {
	// Eval selects the Adjacency evaluation; the zero value is the
	// default, LearnedEval. Other games use their plug-in's.
	Eval AdjacencyEval
}

// AdjacencyEval names an evaluation minimax can search Adjacency with.
type AdjacencyEval int

const (
	// LearnedEval is strategies/adjeval's, fitted by `gambit train` and
	// searched as adjeval.SearchEvaluate: the default, which beats the
	// hand-tuned one in paired arenas (docs/ai.md, "The learned
	// evaluation").
	LearnedEval AdjacencyEval = iota
	// HandEval is the hand-tuned one of the Adjacency plug-in
	// (games/adjacency.Evaluate), the strategy minimax-hand.
	HandEval
)

// ownEngines are the games minimax searches with an engine of their own
// instead of the generic search, by plug-in; each in its file
// minimax_<game>.go, so nothing here knows a game's types.
var ownEngines = map[*games.Game]func(context.Context, engine.Position, Limits, Minimax) (Result, error){
	adjgame.Game: searchAdjacency,
	gomgame.Game: searchGomoku,
}

// Search implements Strategy.
func (m Minimax) Search(ctx context.Context, pos engine.Position, limits Limits) (Result, error) {
	if g := catalog.Of(pos); g != nil {
		if own, ok := ownEngines[g]; ok {
			return own(ctx, pos, limits, m)
		}
	}
	r, ok := rulesFor(pos)
	if !ok {
		return Result{}, fmt.Errorf("strategies: minimax: %T: %w", pos, ErrUnsupported)
	}
	return runSearch(ctx, pos, limits, r, searchConfig{lmr: true})
}
