package bot

import (
	"context"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/mux"
)

// interactionTimeout is the default Config.Lifecycle.InteractionTimeout, which
// bounds a handler's work; Discord wants the first response within 3
// seconds and handlers answer long before this.
const interactionTimeout = 10 * time.Second

// The interaction machinery is package bot/mux's; these names keep the
// flows that have not moved into packages of their own reading as before.
type (
	interaction  = mux.Interaction
	autocomplete = mux.Autocomplete
	component    = mux.Component
)

// onInteraction handles one interaction, however it arrived (the gateway,
// or the HTTP endpoint of Serve; ingress.Handler): it drops a duplicate
// delivery (firstDelivery), refuses work once the bot is stopping, and
// runs the middleware chain (middleware.go), which turns whatever goes
// wrong — a user's mistake, a failure of ours, a panic — into one
// ephemeral reply. answered, if not nil, is called once the interaction's
// first response has been sent.
func (b *Bot) onInteraction(i *discordgo.Interaction, answered func()) {
	ix := mux.NewInteraction(i, b.discord.answers, b.discord.egress, time.Now(), b.now(), func(ix *mux.Interaction) {
		if answered != nil {
			answered()
		}
		if m := b.cfg.Metrics; m != nil {
			m.Interactions.FirstResponse.WithLabelValues(ix.Kind).Observe(time.Since(ix.Received).Seconds())
		}
	})
	if !b.intake.seen.first(i.ID, ix.Received) {
		b.log.Info("duplicate delivery of an interaction ignored", "interaction", i.ID, "seen", "here")
		return
	}
	if !b.life.work.begin() {
		_ = ix.Say("error.restarting")
		return
	}
	defer b.life.work.end()
	b.places.locales.learn(&ix.Envelope)
	ctx, cancel := context.WithTimeout(context.Background(), b.cfg.Lifecycle.InteractionTimeout)
	defer cancel()
	if !b.firstDelivery(ctx, ix) {
		return
	}
	_ = b.intake.handle(ctx, ix) // answered and counted by the chain
}

// deliveryTTL is how long the store keeps an interaction acted on
// (Store.FirstDelivery), by its clock: 15 minutes, the life of the
// interaction's token, after which nobody can answer it. A second
// delivery comes sooner: the gateway replays within a session, and
// `gambit serve` takes a signed request only while its timestamp is
// within 5 minutes of the process's clock, so the 15 minutes leave 10
// minutes for a replica's clock to lag behind the store's.
const deliveryTTL = interactionTTL

// firstDelivery reports whether the interaction is to be acted on: its
// first delivery anywhere, as the store records it. A second delivery —
// to another process sharing the store, to this one after a restart, or
// a proxy's retry — gets no answer: the first has (or will have) the one
// answer an interaction can get, and over HTTP the endpoint then answers
// 202 with no body, as after any answer through the callback route.
// Autocomplete requests act on nothing and come with every keystroke:
// they are not recorded.
//
// When the store cannot say, the interaction is not acted on and the
// member is told so, to try again (fail closed): acting could do it twice
// — the very deliveries this is for come when something is slow or
// restarting — and whatever it would do needs the store anyway. The
// check is bounded by a fifth of Config.Lifecycle.InteractionTimeout (2 s by
// default), so that the answer still reaches Discord within its 3 s.
func (b *Bot) firstDelivery(ctx context.Context, ix *interaction) bool {
	if ix.IsAutocomplete() {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, b.cfg.Lifecycle.InteractionTimeout/5)
	defer cancel()
	first, err := b.store.FirstDelivery(ctx, ix.ID, deliveryTTL)
	switch {
	case err != nil:
		b.log.Error("could not record an interaction before acting on it; it was refused", "interaction", ix.ID, "err", err)
		if err := ix.Say("error.unrecorded"); err != nil {
			b.log.Warn("could not tell the user", "interaction", ix.ID, "err", err)
		}
		return false
	case !first:
		b.log.Info("duplicate delivery of an interaction ignored", "interaction", ix.ID, "seen", "store")
	}
	return first
}

// interactionTTL is how long an interaction can be answered or followed
// up, and so how long a duplicate delivery of it matters.
const interactionTTL = 15 * time.Minute

// seenInteractions remembers the interactions handled in the last
// interactionTTL, to ignore duplicate deliveries.
type seenInteractions struct {
	mu    sync.Mutex
	ids   map[string]time.Time
	prune time.Time
}

// first records id at time now and reports whether it is new.
func (s *seenInteractions) first(id string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]time.Time{}
	}
	if now.Sub(s.prune) > time.Minute {
		for k, t := range s.ids {
			if now.Sub(t) > interactionTTL {
				delete(s.ids, k)
			}
		}
		s.prune = now
	}
	if _, dup := s.ids[id]; dup {
		return false
	}
	s.ids[id] = now
	return true
}
