package bot

import (
	"context"
	"time"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/storage"
)

// PanicPattern is the custom ID pattern of the route PanicRoute adds.
const PanicPattern customid.Pattern = "v1/test-panic/{x}"

// PanicRoute adds to b's routes one whose handler panics, so that an
// end-to-end test can check how onInteraction recovers. Call it after New
// (and WrapStore) and before Run.
func PanicRoute(b *Bot) {
	b.intake.mux.Component(PanicPattern, func(context.Context, *component) error {
		panic("test panic: a handler broke")
	})
}

// WrapStore replaces the store b uses with wrap's result, which usually
// delegates to it, so that a test can hold or observe store calls. Call it
// after New and before Run, and before PanicRoute: the flows are made
// again over the new store.
func WrapStore(b *Bot, wrap func(storage.Store) storage.Store) {
	b.useStore(wrap(b.store))
}

// useStore makes b's flows again over s, for a test that replaces the
// store after New: the flows in packages of their own were given the
// store when they were made.
func (b *Bot) useStore(s storage.Store) {
	b.store = s
	b.assemble()
}

// AIClaim is the key of the claim on game id's AI turn after ply moves.
func AIClaim(id storage.GameID, ply int) string { return aiClaim(id, ply) }

// Shards returns the shards b runs now.
func Shards(b *Bot) []int { return b.life.gateway.Load().IDs() }

// AIStopped reports whether b's AI workers were told to stop (shutdown
// began): from then on a worker takes no further turn from the queue.
func AIStopped(b *Bot) bool {
	return b.ai.pool.Stopped()
}

// EndSearches makes b's AI searches run until the test ends them instead
// of until their move time: each search's context comes from search,
// given the worker's context, which the search context must derive from.
// Call it after New and before Run.
func EndSearches(b *Bot, search func(context.Context) (context.Context, context.CancelFunc)) {
	b.ai.searchContext = func(ctx context.Context, _ time.Time) (context.Context, context.CancelFunc) { return search(ctx) }
}

// KnowsGuildLocale reports whether b has learned guild's locale (from the
// gateway's guild event or an interaction).
func KnowsGuildLocale(b *Bot, guild string) bool {
	_, ok := b.places.locales.m.Load(guild)
	return ok
}
