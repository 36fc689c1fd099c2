package bot

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/egress"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// interactionTimeout is the default Config.InteractionTimeout, which
// bounds a handler's work; Discord wants the first response within 3
// seconds and handlers answer long before this.
const interactionTimeout = 10 * time.Second

// userError is an error the user caused and can fix: its text is shown to
// them as it is, ephemerally. Its cause, if any, is what happened in our
// terms (storage.ErrConflict for a lost race), for the code between the
// handler and the reply.
type userError struct {
	id    string // the message's ID in the catalogue
	pairs []any  // its placeholders, as for i18n.Localizer.T
	cause error
}

// Error returns the message in English, for logs and tests.
func (e *userError) Error() string { return e.text(i18n.Default) }

// text returns the message in l's language. A placeholder's value of type
// localized (a player's name, a game's title) is written in l's language
// too.
func (e *userError) text(l *i18n.Localizer) string {
	pairs := slices.Clone(e.pairs)
	for i, v := range pairs {
		if f, ok := v.(localized); ok {
			pairs[i] = f(l)
		}
	}
	return l.T(e.id, pairs...)
}

// localized is a text that depends on the language it is written in.
type localized func(*i18n.Localizer) string

// userErr returns the user's mistake: the catalogue's message id with its
// placeholders as name, value pairs, shown to the user in their language.
func userErr(id string, pairs ...any) error {
	return &userError{id: id, pairs: pairs}
}

// Unwrap returns the cause of the user's error, if any.
func (e *userError) Unwrap() error {
	return e.cause
}

// raceError is the user's answer (the catalogue's message id with its
// placeholders) to a change that lost a race with
// another (err: storage.ErrConflict or storage.ErrGameOver). It keeps err
// as its cause, so that the game seam can run the handler again on the
// game as it now is instead (onGame).
func raceError(err error, id string, pairs ...any) error {
	return &userError{id: id, pairs: pairs, cause: err}
}

// responder is the part of Discord an interaction is answered through:
// its response, the response message and follow-ups. *discordgo.Session
// is one; a handler's unit test passes a recorder instead.
type responder interface {
	InteractionRespond(i *discordgo.Interaction, resp *discordgo.InteractionResponse, options ...discordgo.RequestOption) error
	InteractionResponse(i *discordgo.Interaction, options ...discordgo.RequestOption) (*discordgo.Message, error)
	InteractionResponseEdit(i *discordgo.Interaction, edit *discordgo.WebhookEdit, options ...discordgo.RequestOption) (*discordgo.Message, error)
	FollowupMessageCreate(i *discordgo.Interaction, wait bool, data *discordgo.WebhookParams, options ...discordgo.RequestOption) (*discordgo.Message, error)
}

// envelope is what an interaction of any kind carries: who, where, and how
// to answer. Its kind's data — a command's options, a component's custom
// ID and values — is in its typed event only (command, autocomplete,
// component), so that a handler of one kind cannot read another's.
type envelope struct {
	ID, AppID, Token, GuildID, ChannelID string
	Member                               *discordgo.Member
	User                                 *discordgo.User
	Message                              *discordgo.Message // the message a component is on
	AppPermissions                       int64
	Locale                               discordgo.Locale
	GuildLocale                          *discordgo.Locale
	Context                              discordgo.InteractionContextType
	AuthorizingIntegrationOwners         map[discordgo.ApplicationIntegrationType]string
}

// envelopeOf returns what i carries whatever its kind.
func envelopeOf(i *discordgo.Interaction) envelope {
	return envelope{
		ID: i.ID, AppID: i.AppID, Token: i.Token, GuildID: i.GuildID, ChannelID: i.ChannelID,
		Member: i.Member, User: i.User, Message: i.Message, AppPermissions: i.AppPermissions,
		Locale: i.Locale, GuildLocale: i.GuildLocale, Context: i.Context, AuthorizingIntegrationOwners: i.AuthorizingIntegrationOwners,
	}
}

// command is a slash command or a user command being handled: its name,
// options and resolved users, and for a user command its target.
type command struct {
	*interaction
	name     string
	opts     options
	target   string // the user a user command was used on
	resolved *discordgo.ApplicationCommandInteractionDataResolved
}

// autocomplete is a request for a command option's choices, answered with
// choices only.
type autocomplete struct {
	*interaction
	name string
	opts options
}

// component is a click on a button or a choice in a menu: the custom ID's
// parameters (by the route that matched it) and the values chosen.
type component struct {
	*interaction
	params customid.Params
	values []string
}

// interaction is one interaction being handled, with the helpers to answer
// it. It remembers whether it has been answered so that the error path
// knows whether to respond or to follow up, and what the game seam needs
// (seam.go): the game whose lock the handler holds, the AI turns it
// queued and the boards its answers showed.
type interaction struct {
	envelope
	raw      *discordgo.Interaction // for answering it only: its kind's data is the typed event's
	b        *Bot
	out      responder
	received time.Time // by the wall clock, for latency
	at       time.Time // by the bot's clock, for deadlines
	kind     string
	onAnswer func() // if not nil, called once the first response is sent

	mu       sync.Mutex
	answered bool
	holds    storage.GameID                  // the game whose lock the handler holds, "" for none
	held     *gameHold                       // that lock, once taken
	ai       []*aiJob                        // AI turns queued, released once the handler returned
	boards   map[storage.GameID]webhookToken // the boards this interaction's messages show
}

// user returns the user who caused the interaction: the member's user in
// a server, the user elsewhere (a DM, a group DM).
func (ix *interaction) user() *discordgo.User {
	if ix.Member != nil && ix.Member.User != nil {
		return ix.Member.User
	}
	return ix.User
}

// respond sends the interaction's first response.
func (ix *interaction) respond(resp *discordgo.InteractionResponse) error {
	ix.send()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.answered {
		return fmt.Errorf("bot: interaction %s answered twice", ix.ID)
	}
	err := ix.out.InteractionRespond(ix.raw, resp)
	ix.b.egress.Observe(err)
	if err != nil {
		return fmt.Errorf("bot: respond to interaction %s: %w", ix.ID, err)
	}
	ix.answered = true
	if ix.onAnswer != nil {
		ix.onAnswer()
	}
	if m := ix.b.cfg.Metrics; m != nil {
		m.FirstResponse.WithLabelValues(ix.kind).Observe(time.Since(ix.received).Seconds())
	}
	return nil
}

// reply answers with a new message, ephemeral if asked.
func (ix *interaction) reply(msg render.Message, ephemeral bool) error {
	data := egress.ResponseData(msg)
	if ephemeral {
		data.Flags |= discordgo.MessageFlagsEphemeral
	}
	return ix.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data})
}

// update answers a component interaction by editing its message, whose
// files the bot then no longer knows: the response's answer does not show
// the message.
func (ix *interaction) update(msg render.Message) error {
	err := ix.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: egress.ResponseData(msg)})
	if ix.Message != nil {
		ix.b.egress.Forget(ix.Message.ID)
	}
	return err
}

// say answers with an ephemeral text.
func (ix *interaction) say(id string, pairs ...any) error {
	return ix.reply(render.Message{Content: ix.lang().T(id, pairs...)}, true)
}

// deferUpdate answers a component interaction by acknowledging it without
// changing its message yet (response type 6), for a handler that must call
// Discord before it can show anything: Discord wants an answer within 3
// seconds, and one rate-limited request can take that long. The handler
// then edits the message (edit) or follows up.
func (ix *interaction) deferUpdate() error {
	return ix.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
}

// edit changes the interaction's @original: after deferUpdate, the message
// the component was on.
func (ix *interaction) edit(msg render.Message) error {
	ix.send()
	var id string
	if ix.Message != nil {
		id = ix.Message.ID
	}
	_, err := ix.b.egress.Keeping(id, msg, func(keep map[string]string) (*discordgo.Message, error) {
		return ix.out.InteractionResponseEdit(ix.raw, egress.WebhookEdit(msg, keep))
	})
	if err != nil {
		return fmt.Errorf("bot: edit the response to interaction %s: %w", ix.ID, err)
	}
	return nil
}

// editResponse changes the interaction's response to msg, uploading its
// files, without learning what the message carries: for an ephemeral
// answer edited again and again (Compare), whose files the bot never
// keeps.
func (ix *interaction) editResponse(msg render.Message) error {
	ix.send()
	_, err := ix.out.InteractionResponseEdit(ix.raw, egress.WebhookEdit(msg, nil))
	ix.b.egress.Observe(err)
	return err
}

// original returns the interaction's response message, to learn its ID.
func (ix *interaction) original() (*discordgo.Message, error) {
	ix.send()
	m, err := ix.out.InteractionResponse(ix.raw)
	ix.b.egress.Observe(err)
	if err != nil {
		return nil, fmt.Errorf("bot: get the response to interaction %s: %w", ix.ID, err)
	}
	return m, nil
}

// isAnswered reports whether the interaction's first response was sent.
func (ix *interaction) isAnswered() bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.answered
}

// followup sends a message after the first response and returns it.
func (ix *interaction) followup(msg render.Message, ephemeral bool) (*discordgo.Message, error) {
	ix.send()
	params := egress.WebhookParams(msg)
	if ephemeral {
		params.Flags |= discordgo.MessageFlagsEphemeral
	}
	m, err := ix.out.FollowupMessageCreate(ix.raw, true, params)
	ix.b.egress.Observe(err)
	if err != nil {
		return nil, fmt.Errorf("bot: follow up interaction %s: %w", ix.ID, err)
	}
	ix.b.egress.Saw(m, msg)
	return m, nil
}

// fail tells the user what went wrong, ephemerally: as the response if
// none was sent yet, as a follow-up otherwise.
func (ix *interaction) fail(text string) error {
	if !ix.isAnswered() {
		return ix.reply(render.Message{Content: text}, true)
	}
	_, err := ix.followup(render.Message{Content: text}, true)
	return err
}

// commandHandler handles a slash command or a user command.
type commandHandler func(ctx context.Context, ix *command) error

// completeHandler answers a command's autocomplete request.
type completeHandler func(ctx context.Context, ix *autocomplete) error

// componentHandler handles a component interaction whose custom ID
// matched a route.
type componentHandler func(ctx context.Context, ix *component) error

// route is one component route.
type route struct {
	pattern customid.Pattern
	handle  componentHandler
}

// router finds the handler of a custom ID.
type router []route

// match returns the handler of a custom ID and its parameters.
func (r router) match(id string) (componentHandler, customid.Params, customid.Pattern, bool) {
	for _, rt := range r {
		if p, ok := rt.pattern.Match(id); ok {
			return rt.handle, p, rt.pattern, true
		}
	}
	return nil, nil, "", false
}

// onInteraction handles one interaction, however it arrived (the gateway,
// or the HTTP endpoint of Serve; ingress.Handler): it drops a duplicate
// delivery (firstDelivery), refuses work once the bot is stopping, and
// runs the middleware chain (middleware.go), which turns whatever goes
// wrong — a user's mistake, a failure of ours, a panic — into one
// ephemeral reply. answered, if not nil, is called once the interaction's
// first response has been sent.
func (b *Bot) onInteraction(i *discordgo.Interaction, answered func()) {
	ix := &interaction{envelope: envelopeOf(i), raw: i, b: b, out: b.answers, received: time.Now(), at: b.now(), onAnswer: answered}
	if !b.seen.first(i.ID, ix.received) {
		b.log.Info("duplicate delivery of an interaction ignored", "interaction", i.ID, "seen", "here")
		return
	}
	if b.closing.Load() {
		_ = ix.say("error.restarting")
		return
	}
	b.locales.learn(&ix.envelope)
	b.inflight.Add(1)
	defer b.inflight.Done()
	ctx, cancel := context.WithTimeout(context.Background(), b.cfg.InteractionTimeout)
	defer cancel()
	if !b.firstDelivery(ctx, ix) {
		return
	}
	_ = b.handle(ctx, ix) // answered and counted by the chain
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
// check is bounded by a fifth of Config.InteractionTimeout (2 s by
// default), so that the answer still reaches Discord within its 3 s.
func (b *Bot) firstDelivery(ctx context.Context, ix *interaction) bool {
	if ix.raw.Type == discordgo.InteractionApplicationCommandAutocomplete {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, b.cfg.InteractionTimeout/5)
	defer cancel()
	first, err := b.store.FirstDelivery(ctx, ix.ID, deliveryTTL)
	switch {
	case err != nil:
		b.log.Error("could not record an interaction before acting on it; it was refused", "interaction", ix.ID, "err", err)
		if err := ix.say("error.unrecorded"); err != nil {
			b.log.Warn("could not tell the user", "interaction", ix.ID, "err", err)
		}
		return false
	case !first:
		b.log.Info("duplicate delivery of an interaction ignored", "interaction", ix.ID, "seen", "store")
	}
	return first
}

// dispatch runs the handler of an interaction.
func (b *Bot) dispatch(ctx context.Context, ix *interaction) error {
	if ix.user() == nil {
		ix.kind = "unknown"
		return userErr("error.who")
	}
	if ix.interactionOnly() {
		b.reach.markPrivate(ix.ChannelID)
	}
	switch i := ix.raw; i.Type {
	case discordgo.InteractionApplicationCommand:
		data := i.ApplicationCommandData()
		ix.kind = "command:/" + data.Name
		if data.CommandType == discordgo.UserApplicationCommand {
			ix.kind = "user:" + data.Name
		}
		h, ok := b.commands[data.Name]
		if !ok {
			return userErr("error.unknown_command", "Name", echo(data.Name))
		}
		return h(ctx, &command{interaction: ix, name: data.Name, opts: optionsOf(data.Options), target: data.TargetID, resolved: data.Resolved})
	case discordgo.InteractionApplicationCommandAutocomplete:
		data := i.ApplicationCommandData()
		ix.kind = "autocomplete:/" + data.Name
		ac := &autocomplete{interaction: ix, name: data.Name, opts: optionsOf(data.Options)}
		h, ok := b.complete[data.Name]
		if !ok {
			return ac.choices(nil)
		}
		return h(ctx, ac)
	case discordgo.InteractionMessageComponent:
		data := i.MessageComponentData()
		h, params, pattern, ok := b.router.match(data.CustomID)
		if !ok {
			ix.kind = "component:unknown"
			return userErr("error.old_button")
		}
		ix.kind = "component:" + string(pattern)
		return h(ctx, &component{interaction: ix, params: params, values: data.Values})
	}
	ix.kind = "unsupported"
	return userErr("error.unsupported")
}

// choices answers an autocomplete request.
func (ix *autocomplete) choices(c []*discordgo.ApplicationCommandOptionChoice) error {
	if c == nil {
		c = []*discordgo.ApplicationCommandOptionChoice{}
	}
	if len(c) > 25 {
		c = c[:25]
	}
	return ix.respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: c},
	})
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
