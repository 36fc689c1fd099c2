package bot

import "context"

// CompareTime is each solver's time in Compare algorithms, on the bot's
// clock.
const CompareTime = compareTime

// SetCompare caps each solver of Compare algorithms at nodes and, if
// before is not nil, calls it on the worker before each solver runs, with
// the context the solver runs in: a test holds the solvers there. Call it
// after New and before Run.
func SetCompare(b *Bot, nodes uint64, before func(ctx context.Context, algorithm string)) {
	b.compares.nodes, b.compares.before = nodes, before
}
