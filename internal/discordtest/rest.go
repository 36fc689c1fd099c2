package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Discord's deadlines for interactions.
const (
	// callbackDeadline is how long Discord waits for the initial response
	// to an interaction.
	callbackDeadline = 3 * time.Second
	// tokenLifetime is how long an interaction token can be used on the
	// webhook endpoints.
	tokenLifetime = 15 * time.Minute
)

type routeEntry struct {
	h    func(*Server, *call) (any, error)
	auth bool // whether the route needs the bot token
}

// routes maps "METHOD template" (templates as in the OpenAPI description)
// to handlers. The interaction callback and webhook routes authenticate
// with the token in their path instead of the bot token, as on Discord.
var routes = map[string]routeEntry{
	"GET /gateway":     {h: (*Server).getGateway},
	"GET /gateway/bot": {h: (*Server).getGatewayBot, auth: true},
	"GET /users/@me":   {h: (*Server).getCurrentUser, auth: true},

	"GET /applications/{application_id}/commands":                   {h: (*Server).listCommands, auth: true},
	"PUT /applications/{application_id}/commands":                   {h: (*Server).putCommands, auth: true},
	"GET /applications/{application_id}/guilds/{guild_id}/commands": {h: (*Server).listCommands, auth: true},
	"PUT /applications/{application_id}/guilds/{guild_id}/commands": {h: (*Server).putCommands, auth: true},

	"POST /interactions/{interaction_id}/{interaction_token}/callback": {h: (*Server).interactionCallback},

	"POST /webhooks/{webhook_id}/{webhook_token}":                         {h: (*Server).createFollowup},
	"GET /webhooks/{webhook_id}/{webhook_token}/messages/@original":       {h: (*Server).getWebhookMessage},
	"PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original":     {h: (*Server).editWebhookMessage},
	"DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original":    {h: (*Server).deleteWebhookMessage},
	"GET /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}":    {h: (*Server).getWebhookMessage},
	"PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}":  {h: (*Server).editWebhookMessage},
	"DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": {h: (*Server).deleteWebhookMessage},
	"GET /channels/{channel_id}/messages":                                 {h: (*Server).listChannelMessages, auth: true},
	"POST /channels/{channel_id}/messages":                                {h: (*Server).createChannelMessage, auth: true},
	"GET /channels/{channel_id}/messages/{message_id}":                    {h: (*Server).getChannelMessage, auth: true},
	"PATCH /channels/{channel_id}/messages/{message_id}":                  {h: (*Server).editChannelMessage, auth: true},
	"DELETE /channels/{channel_id}/messages/{message_id}":                 {h: (*Server).deleteChannelMessage, auth: true},
}

// route returns the handler of a route and whether it needs the bot token.
func (s *Server) route(method, template string) (handler, bool) {
	e, ok := routes[method+" "+template]
	if !ok {
		return nil, false
	}
	return func(c *call) (any, error) { return e.h(s, c) }, e.auth
}

func (s *Server) getGateway(*call) (any, error) {
	return map[string]string{"url": s.gatewayURL()}, nil
}

func (s *Server) getGatewayBot(*call) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return map[string]any{
		"url":                 s.gatewayURL(),
		"shards":              s.shards.shardCount(),
		"session_start_limit": s.sessionStartLimit(),
	}, nil
}

func (s *Server) getCurrentUser(*call) (any, error) {
	return toWireUser(s.bot), nil
}

// commandScope checks the application and guild of a command route and
// returns the key the commands are kept under. The caller holds s.mu.
func (s *Server) commandScope(c *call) (string, error) {
	if c.params["application_id"] != s.appID {
		return "", errMissingAccess
	}
	guildID := c.params["guild_id"]
	if guildID != "" && s.departed[guildID] {
		return "", errMissingAccess
	}
	if guildID != "" && s.guilds[guildID] == nil {
		return "", errUnknownGuild
	}
	return guildID, nil
}

func (s *Server) listCommands(c *call) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, err := s.commandScope(c)
	if err != nil {
		return nil, err
	}
	return nonNil(s.commands[scope]), nil
}

// putCommands replaces the commands of a scope, as the bulk overwrite
// does. A command keeps its ID if one of the same name and type existed.
func (s *Server) putCommands(c *call) (any, error) {
	var cmds []Command
	if err := json.Unmarshal(c.body, &cmds); err != nil {
		return nil, fmt.Errorf("discordtest: decode commands: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, err := s.commandScope(c)
	if err != nil {
		return nil, err
	}
	old := s.commands[scope]
	for i := range cmds {
		cmd := &cmds[i]
		if cmd.Type == 0 {
			cmd.Type = discordgo.ChatApplicationCommand
		}
		cmd.ApplicationID, cmd.GuildID = s.appID, scope
		cmd.ID = s.newID()
		for _, o := range old {
			if o.Name == cmd.Name && o.Type == cmd.Type {
				cmd.ID = o.ID
			}
		}
	}
	s.commands[scope] = cmds
	s.broadcast()
	return nonNil(cmds), nil
}

// Commands returns the commands the bot registered for a guild, or the
// global commands for guildID "".
func (s *Server) Commands(guildID string) []Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.commands[guildID])
}

// interactionCallback answers POST /interactions/{id}/{token}/callback.
func (s *Server) interactionCallback(c *call) (_ any, err error) {
	arrived := time.Now()
	var body struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data json.RawMessage                   `json:"data"`
	}
	if err := json.Unmarshal(c.body, &body); err != nil {
		return nil, fmt.Errorf("discordtest: decode interaction response: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.interactions[c.params["interaction_id"]]
	if st == nil || st.Token != c.params["interaction_token"] {
		return nil, errUnknownInteraction
	}
	if st.answer == nil {
		// The first answer's fate, for Interaction.Answered; the
		// deferred call runs before the unlock.
		defer func() {
			st.answer = &Answer{Accepted: err == nil, At: arrived}
			s.broadcast()
		}()
	}
	if st.response != nil {
		return nil, errAlreadyAcked
	}
	if s.clock.Now().Sub(st.created) > s.answerWithin {
		return nil, errUnknownInteraction
	}
	if !callbackAllowed(st.Type, body.Type, st.MessageID != "") {
		return nil, s.ruleViolation(c, "/type", "INTERACTION_RESPONSE_TYPE_INVALID",
			fmt.Sprintf("response type %d cannot answer an interaction of type %d", body.Type, st.Type))
	}
	resp := &Response{Type: body.Type}
	var data messageBody
	if len(body.Data) > 0 && !isNull(body.Data) {
		if err := json.Unmarshal(body.Data, &data); err != nil {
			return nil, fmt.Errorf("discordtest: decode interaction response data: %w", err)
		}
	}
	switch body.Type {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
		m, err := s.interactionMessage(c, st, data, body.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource)
		if err != nil {
			return nil, err
		}
		st.originalID = m.ID
	case discordgo.InteractionResponseDeferredMessageUpdate:
		st.originalID = st.MessageID
	case discordgo.InteractionResponseUpdateMessage:
		source := s.messages[st.MessageID]
		if source.Deleted {
			return nil, errUnknownMessage
		}
		m, err := s.editMessage(c, source, data)
		if err != nil {
			return nil, err
		}
		st.originalID = m.ID
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		var d struct {
			Choices []Choice `json:"choices"`
		}
		if err := json.Unmarshal(body.Data, &d); err != nil {
			return nil, fmt.Errorf("discordtest: decode autocomplete choices: %w", err)
		}
		resp.Choices = d.Choices
	case discordgo.InteractionResponseModal:
		resp.Modal = &Modal{}
		if err := json.Unmarshal(body.Data, resp.Modal); err != nil {
			return nil, fmt.Errorf("discordtest: decode modal: %w", err)
		}
	}
	if m := s.messages[st.originalID]; m != nil {
		st.ackVersion = m.Version
	}
	st.response = resp
	s.broadcast()
	return nil, nil
}

// callbackAllowed reports whether Discord accepts a response type for an
// interaction type; onMessage tells whether the interaction came from a
// message, which updating responses need.
func callbackAllowed(it discordgo.InteractionType, rt discordgo.InteractionResponseType, onMessage bool) bool {
	switch rt {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
		return it == discordgo.InteractionApplicationCommand || it == discordgo.InteractionMessageComponent ||
			it == discordgo.InteractionModalSubmit
	case discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage:
		return onMessage && (it == discordgo.InteractionMessageComponent || it == discordgo.InteractionModalSubmit)
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		return it == discordgo.InteractionApplicationCommandAutocomplete
	case discordgo.InteractionResponseModal:
		return it == discordgo.InteractionApplicationCommand || it == discordgo.InteractionMessageComponent
	}
	return false
}

// ruleViolation records a violation of a Discord rule found by a handler
// and returns the 50035 answer. The caller holds s.mu.
func (s *Server) ruleViolation(c *call, location, code, message string) error {
	v := Violation{Method: c.method, Path: c.path, Route: c.route, Location: location, Code: code, Message: message}
	s.violations = append(s.violations, v)
	return invalidFormBody([]Violation{v})
}

// interactionMessage creates the message of an interaction response or
// follow-up. The caller holds s.mu.
func (s *Server) interactionMessage(c *call, st *interactionState, data messageBody, loading bool) (*Message, error) {
	m := &Message{
		ChannelID: st.ChannelID, GuildID: st.GuildID, Author: s.bot,
		InteractionID: st.ID, webhookID: s.appID,
	}
	if st.Type == discordgo.InteractionApplicationCommand {
		m.typ = discordgo.MessageTypeChatInputCommand
	}
	if err := data.apply(m, c.files); err != nil {
		return nil, err
	}
	var flags discordgo.MessageFlags
	if data.Flags != nil && !isNull(data.Flags) {
		if err := json.Unmarshal(data.Flags, &flags); err != nil {
			return nil, fmt.Errorf("discordtest: decode flags: %w", err)
		}
	}
	if flags&discordgo.MessageFlagsEphemeral != 0 {
		m.Flags |= discordgo.MessageFlagsEphemeral
		m.VisibleTo = st.UserID
	}
	if loading {
		m.Flags |= discordgo.MessageFlagsLoading
	} else if m.empty() {
		return nil, errEmptyMessage
	}
	if err := s.messageRules(c, nil, m); err != nil {
		return nil, err
	}
	s.storeMessage(m)
	return m, nil
}

// webhookInteraction finds the interaction whose token a webhook route
// uses. The caller holds s.mu.
func (s *Server) webhookInteraction(c *call) (*interactionState, error) {
	if c.params["webhook_id"] != s.appID {
		return nil, errUnknownWebhook
	}
	st := s.byToken[c.params["webhook_token"]]
	if st == nil || s.clock.Now().Sub(st.created) > tokenLifetime {
		return nil, errInvalidToken
	}
	return st, nil
}

// webhookMessage finds the message a webhook message route names: the
// interaction's @original or one of its follow-ups. The caller holds s.mu.
func (s *Server) webhookMessage(c *call) (*interactionState, *Message, error) {
	st, err := s.webhookInteraction(c)
	if err != nil {
		return nil, nil, err
	}
	id, ok := c.params["message_id"]
	if !ok {
		id = st.originalID
	} else if id != st.originalID && !st.followups[id] {
		return nil, nil, errUnknownMessage
	}
	m := s.messages[id]
	if m == nil || m.Deleted {
		return nil, nil, errUnknownMessage
	}
	return st, m, nil
}

func (s *Server) getWebhookMessage(c *call) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, m, err := s.webhookMessage(c)
	if err != nil {
		return nil, err
	}
	return s.wireMessage(m), nil
}

func (s *Server) editWebhookMessage(c *call) (any, error) {
	var data messageBody
	if err := json.Unmarshal(c.body, &data); err != nil {
		return nil, fmt.Errorf("discordtest: decode message edit: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, m, err := s.webhookMessage(c)
	if err != nil {
		return nil, err
	}
	m, err = s.editMessage(c, m, data)
	if err != nil {
		return nil, err
	}
	return s.wireMessage(m), nil
}

func (s *Server) deleteWebhookMessage(c *call) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, m, err := s.webhookMessage(c)
	if err != nil {
		return nil, err
	}
	s.deleteMessage(m)
	return nil, nil
}

// createFollowup answers POST /webhooks/{application_id}/{token}. After a
// deferred response the first follow-up replaces the "thinking" message,
// as on Discord.
func (s *Server) createFollowup(c *call) (any, error) {
	var data messageBody
	if err := json.Unmarshal(c.body, &data); err != nil {
		return nil, fmt.Errorf("discordtest: decode follow-up: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.webhookInteraction(c)
	if err != nil {
		return nil, err
	}
	if st.response == nil {
		return nil, errUnknownWebhook
	}
	var m *Message
	if orig := s.messages[st.originalID]; orig != nil && orig.Loading() {
		m, err = s.editMessage(c, orig, data)
	} else {
		m, err = s.interactionMessage(c, st, data, false)
		if err == nil {
			st.followups[m.ID] = true
		}
	}
	if err != nil {
		return nil, err
	}
	if wait, _ := strconv.ParseBool(c.query.Get("wait")); !wait {
		return nil, nil
	}
	return s.wireMessage(m), nil
}

// channelMessage finds a message by the channel message routes' IDs.
// Ephemeral messages cannot be reached through channel routes. The caller
// holds s.mu.
func (s *Server) channelMessage(c *call) (*Message, error) {
	if s.channels[c.params["channel_id"]] == nil {
		return nil, s.unknownChannel(c.params["channel_id"])
	}
	if err := s.checkBotAccess(c.params["channel_id"], c.method != http.MethodGet); err != nil {
		return nil, err
	}
	m := s.messages[c.params["message_id"]]
	if m == nil || m.Deleted || m.ChannelID != c.params["channel_id"] || m.Ephemeral() {
		return nil, errUnknownMessage
	}
	return m, nil
}

func (s *Server) listChannelMessages(c *call) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.channels[c.params["channel_id"]] == nil {
		return nil, s.unknownChannel(c.params["channel_id"])
	}
	if err := s.checkBotAccess(c.params["channel_id"], false); err != nil {
		return nil, err
	}
	limit := 50
	if l, err := strconv.Atoi(c.query.Get("limit")); err == nil && l >= 1 && l <= 100 {
		limit = l
	}
	out := []*wireMessage{}
	for i := len(s.order) - 1; i >= 0 && len(out) < limit; i-- {
		m := s.messages[s.order[i]]
		if m.ChannelID == c.params["channel_id"] && !m.Deleted && !m.Ephemeral() {
			out = append(out, s.wireMessage(m))
		}
	}
	return out, nil
}

func (s *Server) createChannelMessage(c *call) (any, error) {
	var data messageBody
	if err := json.Unmarshal(c.body, &data); err != nil {
		return nil, fmt.Errorf("discordtest: decode message: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[c.params["channel_id"]]
	if ch == nil {
		return nil, s.unknownChannel(c.params["channel_id"])
	}
	if err := s.checkBotAccess(ch.ID, true); err != nil {
		return nil, err
	}
	key, enforce, err := data.nonceKey(s.bot.ID)
	if err != nil {
		return nil, err
	}
	if enforce {
		if old := s.messages[s.nonces[key]]; old != nil && !old.Deleted && s.clock.Now().Sub(old.Timestamp) < NonceWindow {
			return s.wireMessage(old), nil
		}
	}
	m := &Message{ChannelID: ch.ID, GuildID: ch.GuildID, Author: s.bot, nonce: data.Nonce}
	if err := data.apply(m, c.files); err != nil {
		return nil, err
	}
	if m.empty() {
		return nil, errEmptyMessage
	}
	if err := s.messageRules(c, nil, m); err != nil {
		return nil, err
	}
	s.storeMessage(m)
	if enforce {
		s.nonces[key] = m.ID
	}
	return s.wireMessage(m), nil
}

// NonceWindow is how long the server remembers a message's nonce sent
// with enforce_nonce: a second message of the same author with the same
// nonce within it is answered with the first, and not created. Discord
// says "in the past few minutes" (Create Message, enforce_nonce) without
// a figure; the server takes five, on its clock. A nonce is checked
// across all the author's channels, as Discord words it ("created by the
// same author with the same nonce"); a first message since deleted no
// longer counts.
const NonceWindow = 5 * time.Minute

// nonceKey is an enforced nonce: its author's and its own value.
type nonceKey struct{ author, nonce string }

// nonceKey returns the key of b's nonce, sent by author, and whether
// Discord enforces it: enforce_nonce true with a nonce. A nonce is a
// string or an integer; the integer 5 and the string "5" are one nonce.
func (b messageBody) nonceKey(author string) (nonceKey, bool, error) {
	if b.Nonce == nil || isNull(b.Nonce) || b.EnforceNonce == nil || !*b.EnforceNonce {
		return nonceKey{}, false, nil
	}
	var v any
	if err := json.Unmarshal(b.Nonce, &v); err != nil {
		return nonceKey{}, false, fmt.Errorf("discordtest: decode nonce: %w", err)
	}
	switch n := v.(type) {
	case string:
		return nonceKey{author, n}, true, nil
	case float64:
		return nonceKey{author, string(b.Nonce)}, true, nil
	}
	return nonceKey{}, false, fmt.Errorf("discordtest: nonce %s is neither a string nor an integer", b.Nonce)
}

func (s *Server) getChannelMessage(c *call) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.channelMessage(c)
	if err != nil {
		return nil, err
	}
	return s.wireMessage(m), nil
}

func (s *Server) editChannelMessage(c *call) (any, error) {
	var data messageBody
	if err := json.Unmarshal(c.body, &data); err != nil {
		return nil, fmt.Errorf("discordtest: decode message edit: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.channelMessage(c)
	if err != nil {
		return nil, err
	}
	if m.Author.ID != s.bot.ID {
		return nil, errOthersMessage
	}
	if m, err = s.editMessage(c, m, data); err != nil {
		return nil, err
	}
	return s.wireMessage(m), nil
}

func (s *Server) deleteChannelMessage(c *call) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.channelMessage(c)
	if err != nil {
		return nil, err
	}
	s.deleteMessage(m)
	return nil, nil
}

// nonNil makes a nil slice encode as [] rather than null.
func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}
