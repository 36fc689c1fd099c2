// Package mux is the interaction machinery below the bot's flows: the
// kinds of interaction a handler gets (a *Command, an *Autocomplete, a
// *Component, each over the *Interaction of every kind), how a handler
// answers (Reply, Update, Edit, Followup…), the user's errors, the handler
// and middleware types, and the Mux, where one entry declares a command's
// definition with its handler and autocomplete, and a component's custom
// ID pattern with its handler, alone or in a Group whose routes run under
// a middleware (the bot's game seam: lock and load the game).
//
// It knows no flow and no game: a flow declares its routes on a Mux
// (Routes) and its handlers close over the dependencies it was built with,
// as disgo's handler.Mux does. Only this package reads an interaction's
// raw discordgo value, so a command handler cannot read a component's
// custom ID.
package mux

import (
	"fmt"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/egress"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/render"
)

// Responder is the part of Discord an interaction is answered through:
// its response, the response message and follow-ups. *discordgo.Session
// is one; a handler's unit test passes a recorder instead.
type Responder interface {
	InteractionRespond(i *discordgo.Interaction, resp *discordgo.InteractionResponse, options ...discordgo.RequestOption) error
	InteractionResponse(i *discordgo.Interaction, options ...discordgo.RequestOption) (*discordgo.Message, error)
	InteractionResponseEdit(i *discordgo.Interaction, edit *discordgo.WebhookEdit, options ...discordgo.RequestOption) (*discordgo.Message, error)
	FollowupMessageCreate(i *discordgo.Interaction, wait bool, data *discordgo.WebhookParams, options ...discordgo.RequestOption) (*discordgo.Message, error)
}

// Outgoing is what an interaction's answers tell the bot's outgoing
// client (*egress.Client is one): each call's error for the REST error
// count, and which files the messages it shows carry, so that an edit
// uploads only what changed.
type Outgoing interface {
	Observe(err error)
	Forget(messageID string)
	Saw(m *discordgo.Message, msg render.Message)
	Keeping(messageID string, msg render.Message, send func(keep map[string]string) (*discordgo.Message, error)) (*discordgo.Message, error)
}

// Envelope is what an interaction of any kind carries: who, where, and how
// to answer. Its kind's data — a command's options, a component's custom
// ID and values — is in its typed event only (Command, Autocomplete,
// Component), so that a handler of one kind cannot read another's.
type Envelope struct {
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
func envelopeOf(i *discordgo.Interaction) Envelope {
	return Envelope{
		ID: i.ID, AppID: i.AppID, Token: i.Token, GuildID: i.GuildID, ChannelID: i.ChannelID,
		Member: i.Member, User: i.User, Message: i.Message, AppPermissions: i.AppPermissions,
		Locale: i.Locale, GuildLocale: i.GuildLocale, Context: i.Context, AuthorizingIntegrationOwners: i.AuthorizingIntegrationOwners,
	}
}

// Command is a slash command or a user command being handled: its name,
// options and resolved users, and for a user command its target.
type Command struct {
	*Interaction
	Name     string
	Opts     Options
	Target   string // the user a user command was used on
	Resolved *discordgo.ApplicationCommandInteractionDataResolved
}

// Autocomplete is a request for a command option's choices, answered with
// Choices only.
type Autocomplete struct {
	*Interaction
	Name string
	Opts Options
}

// Component is a click on a button or a choice in a menu: the custom ID's
// parameters (by the route that matched it) and the values chosen.
type Component struct {
	*Interaction
	Params customid.Params
	Values []string
}

// Interaction is one interaction being handled, with the helpers to answer
// it. It remembers whether it has been answered so that the error path
// knows whether to respond or to follow up.
type Interaction struct {
	Envelope
	// Kind names the interaction for metrics and logs ("command:/play",
	// "component:v1/move/{game}/{ply}/{move}"), once the Mux has
	// dispatched it.
	Kind string
	// Received is when it arrived by the wall clock, for latency; At by
	// the bot's clock, for deadlines.
	Received, At time.Time

	raw      *discordgo.Interaction // for answering it; only dispatch reads its kind's data
	out      Responder
	outgoing Outgoing
	onAnswer func(*Interaction) // if not nil, called once the first response is sent

	mu         sync.Mutex
	answered   bool
	beforeSend func() // if not nil, called before each Discord call (the game seam's lock)
}

// NewInteraction returns the interaction i to be answered through out, its answers
// reported to outgoing; onAnswer, if not nil, is called once its first
// response is sent.
func NewInteraction(i *discordgo.Interaction, out Responder, outgoing Outgoing, received, at time.Time, onAnswer func(*Interaction)) *Interaction {
	return &Interaction{Envelope: envelopeOf(i), raw: i, out: out, outgoing: outgoing, Received: received, At: at, onAnswer: onAnswer}
}

// IsAutocomplete reports whether the interaction asks for an option's
// choices: it acts on nothing.
func (ix *Interaction) IsAutocomplete() bool {
	return ix.raw.Type == discordgo.InteractionApplicationCommandAutocomplete
}

// Caller returns the user who caused the interaction: the member's user in
// a server, the user elsewhere (a DM, a group DM).
func (ix *Interaction) Caller() *discordgo.User {
	if ix.Member != nil && ix.Member.User != nil {
		return ix.Member.User
	}
	return ix.User
}

// Lang is the localizer of the one who started the interaction.
func (ix *Interaction) Lang() *i18n.Localizer {
	return i18n.For(string(ix.Locale))
}

// InteractionOnly reports whether the bot can reach the interaction's
// channel only through interactions: a group DM, or a server where the app
// is installed to the user but not to the server.
func (ix *Interaction) InteractionOnly() bool {
	switch ix.Context {
	case discordgo.InteractionContextBotDM:
		return false
	case discordgo.InteractionContextPrivateChannel:
		return true
	}
	if ix.GuildID == "" {
		return true
	}
	owners := ix.AuthorizingIntegrationOwners
	_, guildInstall := owners[discordgo.ApplicationIntegrationGuildInstall]
	return len(owners) > 0 && !guildInstall
}

// BeforeSend makes f run before each Discord call made through ix, until
// it is called again (with nil: nothing). The game seam turns the game's
// lock to sending with it.
func (ix *Interaction) BeforeSend(f func()) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.beforeSend = f
}

// send runs the BeforeSend hook, if any.
func (ix *Interaction) send() {
	ix.mu.Lock()
	f := ix.beforeSend
	ix.mu.Unlock()
	if f != nil {
		f()
	}
}

// respond sends the interaction's first response.
func (ix *Interaction) respond(resp *discordgo.InteractionResponse) error {
	ix.send()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.answered {
		return fmt.Errorf("mux: interaction %s answered twice", ix.ID)
	}
	err := ix.out.InteractionRespond(ix.raw, resp)
	ix.outgoing.Observe(err)
	if err != nil {
		return fmt.Errorf("mux: respond to interaction %s: %w", ix.ID, err)
	}
	ix.answered = true
	if ix.onAnswer != nil {
		ix.onAnswer(ix)
	}
	return nil
}

// Reply answers with a new message, ephemeral if asked.
func (ix *Interaction) Reply(msg render.Message, ephemeral bool) error {
	data := egress.ResponseData(msg)
	if ephemeral {
		data.Flags |= discordgo.MessageFlagsEphemeral
	}
	return ix.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data})
}

// Update answers a component interaction by editing its message, whose
// files the bot then no longer knows: the response's answer does not show
// the message.
func (ix *Interaction) Update(msg render.Message) error {
	err := ix.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: egress.ResponseData(msg)})
	if ix.Message != nil {
		ix.outgoing.Forget(ix.Message.ID)
	}
	return err
}

// Say answers with an ephemeral text, the catalogue's message id with its
// placeholders.
func (ix *Interaction) Say(id string, pairs ...any) error {
	return ix.Reply(render.Message{Content: ix.Lang().T(id, pairs...)}, true)
}

// DeferUpdate answers a component interaction by acknowledging it without
// changing its message yet (response type 6), for a handler that must call
// Discord before it can show anything: Discord wants an answer within 3
// seconds, and one rate-limited request can take that long. The handler
// then edits the message (Edit) or follows up.
func (ix *Interaction) DeferUpdate() error {
	return ix.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
}

// DeferReply acknowledges the interaction with Discord's "thinking…"
// (response type 5), ephemeral if asked, for an answer that takes longer
// than Discord's 3 seconds: EditResponse then gives it.
func (ix *Interaction) DeferReply(ephemeral bool) error {
	data := &discordgo.InteractionResponseData{}
	if ephemeral {
		data.Flags = discordgo.MessageFlagsEphemeral
	}
	return ix.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource, Data: data})
}

// Edit changes the interaction's @original: after DeferUpdate, the message
// the component was on.
func (ix *Interaction) Edit(msg render.Message) error {
	ix.send()
	var id string
	if ix.Message != nil {
		id = ix.Message.ID
	}
	_, err := ix.outgoing.Keeping(id, msg, func(keep map[string]string) (*discordgo.Message, error) {
		return ix.out.InteractionResponseEdit(ix.raw, egress.WebhookEdit(msg, keep))
	})
	if err != nil {
		return fmt.Errorf("mux: edit the response to interaction %s: %w", ix.ID, err)
	}
	return nil
}

// EditResponse changes the interaction's response to msg, uploading its
// files, without learning what the message carries: for an ephemeral
// answer edited again and again (Compare), whose files the bot never
// keeps.
func (ix *Interaction) EditResponse(msg render.Message) error {
	ix.send()
	_, err := ix.out.InteractionResponseEdit(ix.raw, egress.WebhookEdit(msg, nil))
	ix.outgoing.Observe(err)
	return err
}

// Original returns the interaction's response message, to learn its ID.
func (ix *Interaction) Original() (*discordgo.Message, error) {
	ix.send()
	m, err := ix.out.InteractionResponse(ix.raw)
	ix.outgoing.Observe(err)
	if err != nil {
		return nil, fmt.Errorf("mux: get the response to interaction %s: %w", ix.ID, err)
	}
	return m, nil
}

// IsAnswered reports whether the interaction's first response was sent.
func (ix *Interaction) IsAnswered() bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.answered
}

// Followup sends a message after the first response and returns it.
func (ix *Interaction) Followup(msg render.Message, ephemeral bool) (*discordgo.Message, error) {
	ix.send()
	params := egress.WebhookParams(msg)
	if ephemeral {
		params.Flags |= discordgo.MessageFlagsEphemeral
	}
	m, err := ix.out.FollowupMessageCreate(ix.raw, true, params)
	ix.outgoing.Observe(err)
	if err != nil {
		return nil, fmt.Errorf("mux: follow up interaction %s: %w", ix.ID, err)
	}
	ix.outgoing.Saw(m, msg)
	return m, nil
}

// Fail tells the user what went wrong, ephemerally: as the response if
// none was sent yet, as a follow-up otherwise.
func (ix *Interaction) Fail(text string) error {
	if !ix.IsAnswered() {
		return ix.Reply(render.Message{Content: text}, true)
	}
	_, err := ix.Followup(render.Message{Content: text}, true)
	return err
}

// Choices answers an autocomplete request with at most 25 choices.
func (ix *Autocomplete) Choices(c []*discordgo.ApplicationCommandOptionChoice) error {
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
