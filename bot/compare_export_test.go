package bot

import (
	"context"

	"github.com/gambitbot/gambit/bot/flows/puzzles"
)

// CompareTime is each solver's time in Compare algorithms, on the bot's
// clock.
const CompareTime = puzzles.CompareTime

// SetCompare caps each solver of Compare algorithms at nodes and, if
// before is not nil, calls it on the worker before each solver runs, with
// the context the solver runs in: a test holds the solvers there. Call it
// after New and before Run: the flows are made again.
func SetCompare(b *Bot, nodes uint64, before func(ctx context.Context, algorithm string)) {
	b.ai.compare = puzzles.Compare{Nodes: nodes, Before: before}
	b.assemble()
}
