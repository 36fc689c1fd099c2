package discordtest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// This file is the tests' side of the stand-in: simulated users, guilds
// and channels, and the interactions users start.

// ErrNoSession is returned when a user acts while no bot session exists
// to deliver the interaction to, and no endpoint takes them by HTTP.
var ErrNoSession = errors.New("discordtest: no bot gateway session")

// GuildID returns the ID of the guild every server starts with.
func (s *Server) GuildID() string { return s.defaultGuild }

// ChannelID returns the ID of the text channel every server starts with,
// in the guild of [Server.GuildID].
func (s *Server) ChannelID() string { return s.defaultChannel }

// Users returns the simulated users, oldest first; the bot is not among
// them.
func (s *Server) Users() []User {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []User
	for _, u := range s.users {
		if u.ID != s.bot.ID {
			out = append(out, u)
		}
	}
	slices.SortFunc(out, func(a, b User) int { return compareIDs(a.ID, b.ID) })
	return out
}

// Channels returns the text channels of a guild, oldest first.
func (s *Server) Channels(guildID string) []Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Channel
	if g := s.guilds[guildID]; g != nil {
		for _, id := range g.channels {
			out = append(out, *s.channels[id])
		}
	}
	return out
}

// AddUser creates a user and makes them a member of the default guild.
func (s *Server) AddUser(username string) User {
	u, _ := s.AddUserWithID("", username) // an ID made up here is unused
	return u
}

// AddUserWithID is AddUser with a given ID (a snowflake, for a user who
// must keep their ID across restarts); an empty id makes one up. It fails
// if the ID is taken or not a snowflake.
func (s *Server) AddUserWithID(id, username string) (User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == "" {
		id = s.newID()
	}
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return User{}, fmt.Errorf("discordtest: add user: ID %q is not a snowflake", id)
	}
	if _, taken := s.users[id]; taken {
		return User{}, fmt.Errorf("discordtest: add user: ID %s is taken", id)
	}
	u := User{ID: id, Username: username}
	s.users[u.ID] = u
	s.addMember(s.guilds[s.defaultGuild], u.ID)
	return u, nil
}

// AddGuild creates a guild the bot is in, announcing it to connected
// sessions with GUILD_CREATE.
func (s *Server) AddGuild(name string) Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.addGuild(name, "")
	s.dispatch("GUILD_CREATE", s.wireGuild(g), intentGuilds)
	return g.Guild
}

// AddChannel creates a text channel in a guild, announcing it with
// CHANNEL_CREATE.
func (s *Server) AddChannel(guildID, name string) (Channel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.guilds[guildID] == nil {
		return Channel{}, fmt.Errorf("discordtest: add channel: unknown guild %s", guildID)
	}
	ch := s.addChannel(guildID, name, "")
	s.dispatch("CHANNEL_CREATE", toWireChannel(ch), intentGuilds)
	return *ch, nil
}

// AddMember makes a user a member of a guild, announcing it with
// GUILD_MEMBER_ADD.
func (s *Server) AddMember(guildID, userID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guilds[guildID]
	if g == nil {
		return fmt.Errorf("discordtest: add member: unknown guild %s", guildID)
	}
	if _, ok := s.users[userID]; !ok {
		return fmt.Errorf("discordtest: add member: unknown user %s", userID)
	}
	s.addMember(g, userID)
	return nil
}

// addGuild creates a guild with the bot as member, with the given ID or,
// if empty, a new one. The caller holds s.mu.
func (s *Server) addGuild(name, id string) *guild {
	g := &guild{Guild: Guild{ID: cmp.Or(id, s.newID()), Name: name}, created: s.clock.Now(), members: map[string]time.Time{}}
	g.members[s.bot.ID] = g.created
	s.guilds[g.ID] = g
	s.broadcast()
	return g
}

// addChannel creates a text channel with the given ID or, if empty, a new
// one. The caller holds s.mu.
func (s *Server) addChannel(guildID, name, id string) *Channel {
	ch := &Channel{ID: cmp.Or(id, s.newID()), GuildID: guildID, Name: name}
	s.channels[ch.ID] = ch
	g := s.guilds[guildID]
	g.channels = append(g.channels, ch.ID)
	s.broadcast()
	return ch
}

// addMember adds a user to a guild. The caller holds s.mu.
func (s *Server) addMember(g *guild, userID string) {
	if _, ok := g.members[userID]; ok {
		return
	}
	g.members[userID] = s.clock.Now()
	m := s.member(g, userID, true)
	s.dispatch("GUILD_MEMBER_ADD", struct {
		wireMember
		GuildID string `json:"guild_id"`
	}{m, g.ID}, intentGuildMembers)
	s.broadcast()
}

// sortedGuilds returns the bot's guilds in creation order. The caller holds s.mu.
func (s *Server) sortedGuilds() []*guild {
	gs := make([]*guild, 0, len(s.guilds))
	for _, g := range s.guilds {
		if s.botIn(g) { // not the guilds only a user's installation reaches
			gs = append(gs, g)
		}
	}
	slices.SortFunc(gs, func(a, b *guild) int { return compareIDs(a.ID, b.ID) })
	return gs
}

// compareIDs orders snowflakes by age.
func compareIDs(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

// wireGuild returns the GUILD_CREATE payload of a guild. The caller holds
// s.mu.
func (s *Server) wireGuild(g *guild) map[string]any {
	channels := []wireChannel{}
	for _, id := range g.channels {
		channels = append(channels, toWireChannel(s.channels[id]))
	}
	members := []wireMember{}
	ids := make([]string, 0, len(g.members))
	for id := range g.members {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, compareIDs)
	for _, id := range ids {
		members = append(members, s.member(g, id, true))
	}
	return map[string]any{
		"id":               g.ID,
		"name":             g.Name,
		"preferred_locale": s.localeOf(g.ID),
		"owner_id":         s.bot.ID,
		"joined_at":        g.created,
		"unavailable":      false,
		"large":            false,
		"member_count":     len(members),
		"channels":         channels,
		"members":          members,
		"roles": []map[string]any{{
			"id": g.ID, "name": "@everyone", "permissions": allPermissions, "position": 0,
		}},
		"threads":      s.wireThreads(g.ID),
		"voice_states": []any{},
		"presences":    []any{},
		"emojis":       []any{},
		"stickers":     []any{},
	}
}

// Interaction is an interaction a simulated user started. Its methods
// observe how the bot answers it.
type Interaction struct {
	ID        string
	Token     string
	Type      discordgo.InteractionType
	UserID    string
	ChannelID string
	GuildID   string
	// MessageID is the message a component interaction came from.
	MessageID string

	s *Server
}

// Response is the bot's initial response to an interaction.
type Response struct {
	Type discordgo.InteractionResponseType
	// Choices are the autocomplete choices of a type 8 response.
	Choices []Choice
	// Modal is the modal of a type 9 response.
	Modal *Modal
}

// Modal is a modal the bot opened.
type Modal struct {
	CustomID   string      `json:"custom_id"`
	Title      string      `json:"title"`
	Components []Component `json:"components"`
}

// interactionState is the server's record of an interaction.
type interactionState struct {
	Interaction
	created    time.Time
	response   *Response
	originalID string          // the message @original refers to
	ackVersion int             // @original's version when acknowledged
	followups  map[string]bool // IDs of follow-up messages
	answer     *Answer         // what became of the first callback, nil before it
	wire       wireInteraction // the INTERACTION_CREATE payload, for Redeliver
}

// Option is an option of a slash command as a user fills it in. Its type
// is taken from the command the bot registered.
type Option struct {
	Name string
	// Value is a string, integer, float64 or bool as the option's type
	// requires, or an ID for user, channel, role and mentionable options.
	Value any
	// Focused marks the option being typed in an autocomplete request.
	Focused bool
	// Options holds the options of a subcommand or subcommand group.
	Options []Option
}

// SlashCommand is a slash command as a user sends it.
type SlashCommand struct {
	UserID string
	// ChannelID is where the command is used; empty means
	// [Server.ChannelID].
	ChannelID string
	Name      string
	Options   []Option
}

// SendCommand delivers a slash command from a user to the bot as an
// INTERACTION_CREATE. The command must be registered (globally or in the
// channel's guild) and the options must fit its definition, as Discord's
// client ensures.
func (s *Server) SendCommand(cmd SlashCommand) (*Interaction, error) {
	return s.sendCommand(cmd, discordgo.InteractionApplicationCommand)
}

// SendAutocomplete delivers an autocomplete request: cmd must mark exactly
// one option as Focused, whose Value is what the user has typed so far.
// The bot's choices are in the interaction's [Response].
func (s *Server) SendAutocomplete(cmd SlashCommand) (*Interaction, error) {
	return s.sendCommand(cmd, discordgo.InteractionApplicationCommandAutocomplete)
}

func (s *Server) sendCommand(cmd SlashCommand, it discordgo.InteractionType) (*Interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, g, err := s.where(cmd.UserID, cmd.ChannelID)
	if err != nil {
		return nil, err
	}
	def, err := s.findCommand(g, ch, discordgo.ChatApplicationCommand, cmd.Name)
	if err != nil {
		return nil, err
	}
	b := &optionBuilder{s: s, g: g, resolved: &wireResolved{}, autocomplete: it == discordgo.InteractionApplicationCommandAutocomplete}
	opts, err := b.build(def.Options, cmd.Options)
	if err != nil {
		return nil, fmt.Errorf("discordtest: command %q: %w", cmd.Name, err)
	}
	if b.autocomplete && b.focused != 1 {
		return nil, fmt.Errorf("discordtest: command %q: autocomplete needs exactly one focused option, got %d", cmd.Name, b.focused)
	}
	data := wireCommandData{ID: def.ID, Name: def.Name, Type: def.Type, GuildID: def.GuildID, Options: opts}
	if !b.resolved.empty() {
		data.Resolved = b.resolved
	}
	return s.deliver(it, cmd.UserID, ch, g, nil, data)
}

// where checks that a user can act in a channel: as a member of its guild
// or, in a private channel, as one of its recipients (the guild is then
// nil). The caller holds s.mu.
func (s *Server) where(userID, channelID string) (*Channel, *guild, error) {
	if channelID == "" {
		channelID = s.defaultChannel
	}
	ch := s.channels[channelID]
	if ch == nil {
		return nil, nil, fmt.Errorf("discordtest: unknown channel %s", channelID)
	}
	if ch.GuildID == "" {
		if !slices.Contains(ch.Recipients, userID) {
			return nil, nil, fmt.Errorf("discordtest: user %s is not a recipient of channel %s", userID, ch.ID)
		}
		return ch, nil, nil
	}
	g := s.guilds[ch.GuildID]
	if _, ok := g.members[userID]; !ok {
		return nil, nil, fmt.Errorf("discordtest: user %s is not a member of guild %s", userID, g.ID)
	}
	return ch, g, nil
}

// findCommand looks a command of a type up in a guild, then globally (only
// globally for g nil, a private channel), and checks that its contexts
// allow ch, as Discord's client lists only such commands. The caller holds
// s.mu.
func (s *Server) findCommand(g *guild, ch *Channel, typ discordgo.ApplicationCommandType, name string) (Command, error) {
	scopes := []string{""}
	if g != nil {
		scopes = []string{g.ID, ""}
	}
	for _, scope := range scopes {
		for _, c := range s.commands[scope] {
			if c.Name != name || c.Type != typ {
				continue
			}
			if ctx := channelContext(ch); c.Contexts != nil && !slices.Contains(c.Contexts, int(ctx)) {
				return Command{}, fmt.Errorf("discordtest: command %q cannot be used in context %d (channel %s)", name, ctx, ch.ID)
			}
			return c, nil
		}
	}
	where := "globally"
	if g != nil {
		where = "for guild " + g.ID
	}
	return Command{}, fmt.Errorf("discordtest: command %q is not registered %s", name, where)
}

// optionBuilder turns a user's options into interaction options, typed by
// the command's definition, and collects the resolved objects.
type optionBuilder struct {
	s            *Server
	g            *guild
	resolved     *wireResolved
	autocomplete bool
	focused      int
}

func (b *optionBuilder) build(defs []CommandOption, given []Option) ([]wireOption, error) {
	var out []wireOption
	for _, o := range given {
		i := slices.IndexFunc(defs, func(d CommandOption) bool { return d.Name == o.Name })
		if i < 0 {
			return nil, fmt.Errorf("unknown option %q", o.Name)
		}
		def := defs[i]
		w := wireOption{Name: o.Name, Type: def.Type, Focused: o.Focused}
		if o.Focused {
			b.focused++
		}
		switch def.Type {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			sub, err := b.build(def.Options, o.Options)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", o.Name, err)
			}
			w.Options = sub
		default:
			if err := b.value(def, o, &w); err != nil {
				return nil, err
			}
		}
		out = append(out, w)
	}
	if !b.autocomplete {
		for _, d := range defs {
			if d.Required && !slices.ContainsFunc(given, func(o Option) bool { return o.Name == d.Name }) {
				return nil, fmt.Errorf("required option %q is missing", d.Name)
			}
		}
	}
	return out, nil
}

// value checks an option's value against its type and resolves IDs.
func (b *optionBuilder) value(def CommandOption, o Option, w *wireOption) error {
	w.Value = o.Value
	if o.Focused {
		return nil // a partial input is sent as typed
	}
	ok := false
	switch def.Type {
	case discordgo.ApplicationCommandOptionString:
		_, ok = o.Value.(string)
	case discordgo.ApplicationCommandOptionInteger:
		switch o.Value.(type) {
		case int, int64:
			ok = true
		}
	case discordgo.ApplicationCommandOptionNumber:
		switch o.Value.(type) {
		case int, int64, float64:
			ok = true
		}
	case discordgo.ApplicationCommandOptionBoolean:
		_, ok = o.Value.(bool)
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
		id, _ := o.Value.(string)
		ok = b.resolveUser(id) || def.Type == discordgo.ApplicationCommandOptionMentionable
	case discordgo.ApplicationCommandOptionChannel:
		id, _ := o.Value.(string)
		ok = b.resolveChannel(id)
	case discordgo.ApplicationCommandOptionRole:
		_, ok = o.Value.(string)
	}
	if !ok {
		return fmt.Errorf("option %q: value %v does not fit option type %d", o.Name, o.Value, def.Type)
	}
	if len(def.Choices) > 0 && !slices.ContainsFunc(def.Choices, func(c Choice) bool { return fmt.Sprint(c.Value) == fmt.Sprint(o.Value) }) {
		return fmt.Errorf("option %q: %v is not one of its choices", o.Name, o.Value)
	}
	return nil
}

// resolveUser adds a user, and their membership, to the resolved data.
func (b *optionBuilder) resolveUser(id string) bool {
	u, ok := b.s.users[id]
	if !ok {
		return false
	}
	if b.resolved.Users == nil {
		b.resolved.Users, b.resolved.Members = map[string]wireUser{}, map[string]wireMember{}
	}
	b.resolved.Users[id] = toWireUser(u)
	if b.g == nil {
		return true // a private channel has no members
	}
	if _, member := b.g.members[id]; member {
		b.resolved.Members[id] = b.s.member(b.g, id, false)
	}
	return true
}

// resolveChannel adds a channel to the resolved data.
func (b *optionBuilder) resolveChannel(id string) bool {
	ch, ok := b.s.channels[id]
	if !ok {
		return false
	}
	if b.resolved.Channels == nil {
		b.resolved.Channels = map[string]wireChannel{}
	}
	w := toWireChannel(ch)
	w.Permissions = allPermissions
	b.resolved.Channels[id] = w
	return true
}

// ClickButton clicks a button of a message as a user. The button must be
// visible to the user, enabled and not a link button.
func (s *Server) ClickButton(userID, messageID, customID string) (*Interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, c, err := s.findMessageComponent(userID, messageID, customID)
	if err != nil {
		return nil, err
	}
	if c.Type != discordgo.ButtonComponent || discordgo.ButtonStyle(c.Style) == discordgo.LinkButton {
		return nil, fmt.Errorf("discordtest: component %q is not a clickable button", customID)
	}
	ch, g, err := s.where(userID, m.ChannelID)
	if err != nil {
		return nil, err
	}
	return s.deliver(discordgo.InteractionMessageComponent, userID, ch, g, m,
		wireComponentData{CustomID: customID, ComponentType: c.Type})
}

// SelectValues picks values in a select menu of a message as a user. For a
// string select the values must be among its options; for user and channel
// selects they are IDs, which are resolved.
func (s *Server) SelectValues(userID, messageID, customID string, values ...string) (*Interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, c, err := s.findMessageComponent(userID, messageID, customID)
	if err != nil {
		return nil, err
	}
	if !isSelect(c.Type) {
		return nil, fmt.Errorf("discordtest: component %q is not a select menu", customID)
	}
	minV, maxV := 1, 1
	if c.MinValues != nil {
		minV = *c.MinValues
	}
	if c.MaxValues != nil {
		maxV = *c.MaxValues
	}
	if len(values) < minV || len(values) > maxV {
		return nil, fmt.Errorf("discordtest: select %q takes %d to %d values, got %d", customID, minV, maxV, len(values))
	}
	ch, g, err := s.where(userID, m.ChannelID)
	if err != nil {
		return nil, err
	}
	b := &optionBuilder{s: s, g: g, resolved: &wireResolved{}}
	for _, v := range values {
		ok := true
		switch c.Type {
		case discordgo.SelectMenuComponent:
			ok = slices.ContainsFunc(c.Options, func(o SelectOption) bool { return o.Value == v })
		case discordgo.UserSelectMenuComponent:
			ok = b.resolveUser(v)
		case discordgo.ChannelSelectMenuComponent:
			ok = b.resolveChannel(v)
		}
		if !ok {
			return nil, fmt.Errorf("discordtest: select %q has no option %q", customID, v)
		}
	}
	data := wireComponentData{CustomID: customID, ComponentType: c.Type, Values: values}
	if !b.resolved.empty() {
		data.Resolved = b.resolved
	}
	return s.deliver(discordgo.InteractionMessageComponent, userID, ch, g, m, data)
}

// findMessageComponent finds an enabled component on a message the user
// can see. The caller holds s.mu.
func (s *Server) findMessageComponent(userID, messageID, customID string) (*Message, Component, error) {
	m := s.messages[messageID]
	if m == nil || !m.VisibleToUser(userID) {
		return nil, Component{}, fmt.Errorf("discordtest: user %s cannot see message %s", userID, messageID)
	}
	c, ok := m.Component(customID)
	if !ok {
		return nil, Component{}, fmt.Errorf("discordtest: message %s has no component %q", messageID, customID)
	}
	if c.Disabled {
		return nil, Component{}, fmt.Errorf("discordtest: component %q is disabled", customID)
	}
	return m, c, nil
}

// SubmitModal submits the modal the bot answered ix with, filling its text
// inputs by custom ID, and delivers the MODAL_SUBMIT interaction.
func (ix *Interaction) SubmitModal(values map[string]string) (*Interaction, error) {
	s := ix.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.interactions[ix.ID]
	if st.response == nil || st.response.Modal == nil {
		return nil, fmt.Errorf("discordtest: interaction %s was not answered with a modal", ix.ID)
	}
	modal := st.response.Modal
	var rows []Component
	var walk func(cs []Component)
	walk = func(cs []Component) {
		for _, c := range cs {
			if c.Type == discordgo.TextInputComponent {
				rows = append(rows, Component{Type: discordgo.ActionsRowComponent, Components: []Component{
					{Type: discordgo.TextInputComponent, CustomID: c.CustomID, Value: values[c.CustomID]},
				}})
			}
			walk(c.Components)
			if c.Component != nil {
				walk([]Component{*c.Component})
			}
		}
	}
	walk(modal.Components)
	for id := range values {
		if _, ok := findComponent(modal.Components, id); !ok {
			return nil, fmt.Errorf("discordtest: modal %q has no input %q", modal.CustomID, id)
		}
	}
	ch, g, err := s.where(ix.UserID, ix.ChannelID)
	if err != nil {
		return nil, err
	}
	return s.deliver(discordgo.InteractionModalSubmit, ix.UserID, ch, g, s.messages[ix.MessageID],
		wireModalData{CustomID: modal.CustomID, Components: rows})
}

// deliver records an interaction and delivers it: INTERACTION_CREATE on
// the gateway, or an HTTP POST (httpdelivery.go). The caller holds s.mu.
func (s *Server) deliver(it discordgo.InteractionType, userID string, ch *Channel, g *guild, m *Message, data any) (*Interaction, error) {
	if len(s.sessions) == 0 && len(s.web.endpoints) == 0 {
		return nil, ErrNoSession
	}
	guildID := ""
	if g != nil {
		guildID = g.ID
	}
	st := &interactionState{
		Interaction: Interaction{
			ID: s.newID(), Token: "interaction-" + randomHex(32), Type: it,
			UserID: userID, ChannelID: ch.ID, GuildID: guildID, s: s,
		},
		created:   s.clock.Now(),
		followups: map[string]bool{},
	}
	w := wireInteraction{
		ID: st.ID, ApplicationID: s.appID, Type: it, Data: data,
		Channel: toWireChannel(ch), ChannelID: ch.ID, Token: st.Token, Version: 1,
		AppPermissions: strconv.FormatInt(s.botPermissions(ch.ID), 10), Locale: s.localeOf(userID),
		Entitlements: []any{}, Context: int(channelContext(ch)),
	}
	if g != nil {
		m := s.member(g, userID, true)
		w.GuildID, w.Member, w.GuildLocale = g.ID, &m, s.localeOf(g.ID)
		w.AuthorizingIntegrationOwners = map[string]string{"0": g.ID}
		if !s.botIn(g) { // reached through the user's installation (private.go)
			w.AuthorizingIntegrationOwners = map[string]string{"1": userID}
		}
	} else {
		// A private channel: the user, not a member, and the app reached
		// through the user's installation (private.go).
		u := toWireUser(s.users[userID])
		w.User = &u
		w.AuthorizingIntegrationOwners = map[string]string{"1": userID}
	}
	w.Channel.Permissions = w.AppPermissions
	if m != nil {
		st.MessageID = m.ID
		w.Message = s.wireMessage(m)
	}
	st.wire = w
	s.interactions[st.ID] = st
	s.byToken[st.Token] = st
	s.sendInteraction(st)
	s.broadcast()
	ix := st.Interaction
	return &ix, nil
}

// Redeliver dispatches the interaction's INTERACTION_CREATE again, same ID
// and token, as Discord may after a gateway hiccup. Only the first
// response to it can succeed; a second callback gets 40060.
func (ix *Interaction) Redeliver() error {
	s := ix.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.interactions[ix.ID]
	if len(s.sessions) == 0 && len(s.web.endpoints) == 0 {
		return ErrNoSession
	}
	s.sendInteraction(st)
	return nil
}

// InteractionTokens returns the token of every interaction the server has
// delivered, for tests that check that none of them leaks (into logs, say).
func (s *Server) InteractionTokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.byToken))
	for tok := range s.byToken {
		out = append(out, tok)
	}
	return out
}

// Response waits for the bot's initial response to the interaction.
func (ix *Interaction) Response(ctx context.Context) (Response, error) {
	return waitFor(ctx, ix.s, func() (Response, bool, error) {
		if r := ix.s.interactions[ix.ID].response; r != nil {
			return *r, true, nil
		}
		return Response{}, false, nil
	})
}

// Answer is what became of the bot's first answer to an interaction: its
// first callback, accepted or refused.
type Answer struct {
	// Accepted reports whether Discord took the answer. A refused one came
	// after the deadline (10062 Unknown interaction) or broke a rule: the
	// user saw "This interaction failed", and never what the bot meant to
	// show.
	Accepted bool
	// At is when the answer arrived, by the system clock even on a
	// [ManualClock], so that a test can place it among its own timings:
	// the bot had decided what to answer by then.
	At time.Time
}

// Answered waits until the bot's first answer to the interaction arrived
// and tells whether Discord accepted it, and when it came. Unlike
// [Interaction.Response], it returns for an answer Discord refused too: a
// test that times what the bot did (a linearizability check, say) learns
// when each interaction was decided, whether or not its user saw it.
func (ix *Interaction) Answered(ctx context.Context) (Answer, error) {
	return waitFor(ctx, ix.s, func() (Answer, bool, error) {
		if a := ix.s.interactions[ix.ID].answer; a != nil {
			return *a, true, nil
		}
		return Answer{}, false, nil
	})
}

// Reply waits until the bot's answer to the interaction is settled and
// returns the message as the user then sees it: at once for a message
// (type 4) or update (type 7) response, and after the first edit — or
// follow-up — for a deferred response (types 5 and 6). It fails if the
// interaction was answered with autocomplete choices or a modal.
func (ix *Interaction) Reply(ctx context.Context) (Message, error) {
	return waitFor(ctx, ix.s, func() (Message, bool, error) {
		st := ix.s.interactions[ix.ID]
		if st.response == nil {
			return Message{}, false, nil
		}
		m := ix.s.messages[st.originalID]
		if m == nil {
			return Message{}, false, fmt.Errorf("discordtest: interaction %s was answered with response type %d, which has no message", ix.ID, st.response.Type)
		}
		switch st.response.Type {
		case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseUpdateMessage:
			return *m, true, nil
		}
		return *m, m.Version > st.ackVersion || m.Deleted, nil
	})
}

// DeleteMessage deletes a message as a moderator would, announcing it
// with MESSAGE_DELETE; the bot's later edits of it get 10008 Unknown
// Message.
func (s *Server) DeleteMessage(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[id]
	if m == nil || m.Deleted {
		return fmt.Errorf("discordtest: delete message: unknown message %s", id)
	}
	s.deleteMessage(m)
	return nil
}

// ClickSeen clicks a component of a message as the user saw it in seen, an
// earlier snapshot: what a client does when the bot's edit has not reached
// it yet. The component need not be on the message any more; the
// interaction carries the message as it is now, as on Discord. For a
// select, values are the chosen options.
func (s *Server) ClickSeen(userID string, seen Message, customID string, values ...string) (*Interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[seen.ID]
	if m == nil || !m.VisibleToUser(userID) {
		return nil, fmt.Errorf("discordtest: user %s cannot see message %s", userID, seen.ID)
	}
	c, ok := seen.Component(customID)
	if !ok {
		return nil, fmt.Errorf("discordtest: message %s never had component %q", seen.ID, customID)
	}
	ch, g, err := s.where(userID, m.ChannelID)
	if err != nil {
		return nil, err
	}
	return s.deliver(discordgo.InteractionMessageComponent, userID, ch, g, m,
		wireComponentData{CustomID: customID, ComponentType: c.Type, Values: values})
}
