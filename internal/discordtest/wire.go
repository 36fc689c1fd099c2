package discordtest

import (
	"encoding/json"
	"time"

	"github.com/bwmarrin/discordgo"
)

// This file holds the JSON shapes of Discord objects as the server sends
// them, over REST and the gateway.

// allPermissions is the permission bit set the server grants unless a test
// takes some away (see permissions.go).
const allPermissions = "2251799813685247"

type wireUser struct {
	ID            string  `json:"id"`
	Username      string  `json:"username"`
	Discriminator string  `json:"discriminator"`
	GlobalName    *string `json:"global_name"`
	Avatar        *string `json:"avatar"`
	Bot           bool    `json:"bot,omitempty"`
}

func toWireUser(u User) wireUser {
	w := wireUser{ID: u.ID, Username: u.Username, Discriminator: "0", Bot: u.Bot}
	if u.GlobalName != "" {
		w.GlobalName = &u.GlobalName
	}
	return w
}

type wireMember struct {
	User        *wireUser `json:"user,omitempty"`
	Nick        *string   `json:"nick"`
	Roles       []string  `json:"roles"`
	JoinedAt    time.Time `json:"joined_at"`
	Deaf        bool      `json:"deaf"`
	Mute        bool      `json:"mute"`
	Flags       int       `json:"flags"`
	Pending     bool      `json:"pending"`
	Permissions string    `json:"permissions,omitempty"`
}

// member returns the member object of a user in a guild; with user false
// it leaves out the user, as resolved members do.
func (s *Server) member(g *guild, userID string, withUser bool) wireMember {
	m := wireMember{Roles: []string{}, JoinedAt: g.members[userID], Permissions: s.memberPermissions(g.ID, userID)}
	if withUser {
		u := toWireUser(s.users[userID])
		m.User = &u
	}
	return m
}

type wireChannel struct {
	ID          string `json:"id"`
	Type        int    `json:"type"`
	GuildID     string `json:"guild_id,omitempty"`
	Name        string `json:"name"`
	Position    int    `json:"position"`
	Permissions string `json:"permissions,omitempty"`
	// A thread's (threads.go).
	ParentID       string          `json:"parent_id,omitempty"`
	OwnerID        string          `json:"owner_id,omitempty"`
	ThreadMetadata *threadMetadata `json:"thread_metadata,omitempty"`
}

func toWireChannel(c *Channel) wireChannel {
	w := wireChannel{ID: c.ID, Type: int(c.Type), GuildID: c.GuildID, Name: c.Name, ParentID: c.ParentID, OwnerID: c.OwnerID}
	if c.IsThread() {
		w.ThreadMetadata = &threadMetadata{AutoArchiveDuration: 1440}
	}
	return w
}

type wireAttachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	ContentType string `json:"content_type,omitempty"`
	Size        int    `json:"size"`
	URL         string `json:"url"`
	ProxyURL    string `json:"proxy_url"`
}

type wireInteractionMetadata struct {
	ID   string                    `json:"id"`
	Type discordgo.InteractionType `json:"type"`
	User wireUser                  `json:"user"`
}

type wireMessage struct {
	ID                  string                   `json:"id"`
	Type                discordgo.MessageType    `json:"type"`
	ChannelID           string                   `json:"channel_id"`
	GuildID             string                   `json:"guild_id,omitempty"`
	Author              wireUser                 `json:"author"`
	Content             string                   `json:"content"`
	Timestamp           time.Time                `json:"timestamp"`
	EditedTimestamp     *time.Time               `json:"edited_timestamp"`
	TTS                 bool                     `json:"tts"`
	MentionEveryone     bool                     `json:"mention_everyone"`
	Mentions            []wireUser               `json:"mentions"`
	MentionRoles        []string                 `json:"mention_roles"`
	Attachments         []wireAttachment         `json:"attachments"`
	Embeds              json.RawMessage          `json:"embeds"`
	Components          json.RawMessage          `json:"components"`
	Pinned              bool                     `json:"pinned"`
	Flags               discordgo.MessageFlags   `json:"flags"`
	WebhookID           string                   `json:"webhook_id,omitempty"`
	ApplicationID       string                   `json:"application_id,omitempty"`
	InteractionMetadata *wireInteractionMetadata `json:"interaction_metadata,omitempty"`
	Nonce               json.RawMessage          `json:"nonce,omitempty"`
}

var emptyArray = json.RawMessage("[]")

// wireMessage returns a message as Discord sends it. The caller holds s.mu.
func (s *Server) wireMessage(m *Message) *wireMessage {
	w := &wireMessage{
		ID: m.ID, Type: m.typ, ChannelID: m.ChannelID, GuildID: m.GuildID,
		Author: toWireUser(m.Author), Content: m.Content, Timestamp: m.Timestamp,
		Mentions: []wireUser{}, MentionRoles: []string{}, Attachments: []wireAttachment{},
		Embeds: m.rawEmbeds, Components: m.rawComps, Flags: m.Flags, WebhookID: m.webhookID, Nonce: m.nonce,
	}
	if w.Embeds == nil {
		w.Embeds = emptyArray
	}
	if w.Components == nil {
		w.Components = emptyArray
	}
	if !m.EditedTimestamp.IsZero() {
		w.EditedTimestamp = &m.EditedTimestamp
	}
	for _, a := range m.Attachments {
		w.Attachments = append(w.Attachments, wireAttachment{
			ID: a.ID, Filename: a.Filename, ContentType: a.ContentType, Size: len(a.Data), URL: a.URL, ProxyURL: a.URL,
		})
	}
	if st := s.interactions[m.InteractionID]; st != nil {
		w.ApplicationID = s.appID
		w.InteractionMetadata = &wireInteractionMetadata{ID: st.ID, Type: st.Type, User: toWireUser(s.users[st.UserID])}
	}
	return w
}

type wireInteraction struct {
	ID                           string                    `json:"id"`
	ApplicationID                string                    `json:"application_id"`
	Type                         discordgo.InteractionType `json:"type"`
	Data                         any                       `json:"data"`
	GuildID                      string                    `json:"guild_id,omitempty"`
	Channel                      wireChannel               `json:"channel"`
	ChannelID                    string                    `json:"channel_id"`
	Member                       *wireMember               `json:"member,omitempty"`
	User                         *wireUser                 `json:"user,omitempty"`
	Token                        string                    `json:"token"`
	Version                      int                       `json:"version"`
	Message                      *wireMessage              `json:"message,omitempty"`
	AppPermissions               string                    `json:"app_permissions"`
	Locale                       string                    `json:"locale"`
	GuildLocale                  string                    `json:"guild_locale,omitempty"`
	Entitlements                 []any                     `json:"entitlements"`
	AuthorizingIntegrationOwners map[string]string         `json:"authorizing_integration_owners"`
	Context                      int                       `json:"context"`
}

// wireOption is an option of an application command interaction.
type wireOption struct {
	Name    string                                 `json:"name"`
	Type    discordgo.ApplicationCommandOptionType `json:"type"`
	Value   any                                    `json:"value,omitempty"`
	Options []wireOption                           `json:"options,omitempty"`
	Focused bool                                   `json:"focused,omitempty"`
}

// wireResolved holds the users, members and channels an interaction
// refers to by ID.
type wireResolved struct {
	Users    map[string]wireUser    `json:"users,omitempty"`
	Members  map[string]wireMember  `json:"members,omitempty"`
	Channels map[string]wireChannel `json:"channels,omitempty"`
}

func (r *wireResolved) empty() bool {
	return len(r.Users) == 0 && len(r.Members) == 0 && len(r.Channels) == 0
}

type wireCommandData struct {
	ID       string                           `json:"id"`
	Name     string                           `json:"name"`
	Type     discordgo.ApplicationCommandType `json:"type"`
	GuildID  string                           `json:"guild_id,omitempty"`
	TargetID string                           `json:"target_id,omitempty"`
	Options  []wireOption                     `json:"options,omitempty"`
	Resolved *wireResolved                    `json:"resolved,omitempty"`
}

type wireComponentData struct {
	CustomID      string                  `json:"custom_id"`
	ComponentType discordgo.ComponentType `json:"component_type"`
	Values        []string                `json:"values,omitempty"`
	Resolved      *wireResolved           `json:"resolved,omitempty"`
}

type wireModalData struct {
	CustomID   string      `json:"custom_id"`
	Components []Component `json:"components"`
}
