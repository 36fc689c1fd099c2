package bot

import (
	"context"

	"github.com/gambitbot/gambit/bot/flows/review"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
	gamereview "github.com/gambitbot/gambit/strategies/review"
)

// SetReview makes b's reviews search each position within budget, and
// call analyze (if not nil) with the game before it is analysed. Call it
// after New and before Run: the flows are made again.
func SetReview(b *Bot, budget gamereview.Budget, analyze func(g *storage.Game)) {
	b.cfg.Review.Analyst = heldAnalyst{Minimax: review.Minimax{Budget: &budget}, before: analyze}
	b.assemble()
}

// heldAnalyst is the bot's analyst with a hook before each analysis.
type heldAnalyst struct {
	review.Minimax
	before func(g *storage.Game)
}

func (a heldAnalyst) Analyze(ctx context.Context, g *storage.Game, gm *games.Game, start engine.Position, progress func(done, total int)) (*gamereview.Review, error) {
	if a.before != nil {
		a.before(g)
	}
	return a.Minimax.Analyze(ctx, g, gm, start, progress)
}
