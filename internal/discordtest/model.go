package discordtest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// User is a Discord user known to the server: the bot itself or a simulated
// person created with [Server.AddUser].
type User struct {
	ID         string
	Username   string
	GlobalName string
	Bot        bool
}

// Guild is a simulated guild (server).
type Guild struct {
	ID   string
	Name string
}

// Channel is a guild text channel or, with a Type of its own, a private
// channel: a DM with the bot or a group DM (see private.go).
type Channel struct {
	ID      string
	GuildID string // empty for a private channel
	Name    string
	// Type is the channel's type: 0 (discordgo.ChannelTypeGuildText) for
	// a guild channel, ChannelTypeDM or ChannelTypeGroupDM.
	Type discordgo.ChannelType
	// Recipients are the users of a private channel (the bot among them
	// in a DM with the bot, never in a group DM); nil in a guild.
	Recipients []string
	// ParentID is a thread's channel (Type 11 or 12, see threads.go);
	// OwnerID the user who started it.
	ParentID, OwnerID string
}

// Message is the state of a message as Discord keeps it, and so as users
// see it. Values returned by the server are snapshots: an edit produces a
// new Message rather than changing one already handed out, so snapshots
// may be kept and compared. Treat their slices as read-only.
type Message struct {
	ID        string
	ChannelID string
	GuildID   string
	Author    User
	Content   string
	Embeds    []*discordgo.MessageEmbed
	// Components is the message's component tree (action rows, buttons,
	// select menus and the components of the IS_COMPONENTS_V2 layout).
	Components  []Component
	Attachments []Attachment
	Flags       discordgo.MessageFlags
	// InteractionID is the interaction whose response or follow-up created
	// the message, if any.
	InteractionID string
	// VisibleTo is the ID of the only user who can see an ephemeral
	// message, and empty for a message everyone in the channel sees.
	VisibleTo string
	Timestamp time.Time
	// EditedTimestamp is the time of the last edit, zero if never edited.
	EditedTimestamp time.Time
	// Version counts the message's edits, starting at 0.
	Version int
	Deleted bool

	webhookID string // the application ID for interaction messages
	typ       discordgo.MessageType
	rawEmbeds json.RawMessage
	rawComps  json.RawMessage
	nonce     json.RawMessage // as sent, echoed in the answers
}

// Ephemeral reports whether only one user can see the message.
func (m Message) Ephemeral() bool { return m.Flags&discordgo.MessageFlagsEphemeral != 0 }

// Loading reports whether the message is the "Bot is thinking..." message
// of a deferred interaction response that has not been edited yet.
func (m Message) Loading() bool { return m.Flags&discordgo.MessageFlagsLoading != 0 }

// VisibleToUser reports whether the user with the given ID can see the
// message.
func (m Message) VisibleToUser(userID string) bool {
	return !m.Deleted && (m.VisibleTo == "" || m.VisibleTo == userID)
}

// Component returns the component with the given custom ID, searching the
// whole component tree.
func (m Message) Component(customID string) (Component, bool) {
	return findComponent(m.Components, customID)
}

func findComponent(comps []Component, customID string) (Component, bool) {
	for _, c := range comps {
		if c.CustomID == customID {
			return c, true
		}
		children := c.Components
		if c.Accessory != nil {
			children = append(children[:len(children):len(children)], *c.Accessory)
		}
		if c.Component != nil {
			children = append(children[:len(children):len(children)], *c.Component)
		}
		if found, ok := findComponent(children, customID); ok {
			return found, true
		}
	}
	return Component{}, false
}

// Component is a message or modal component, decoded from what the bot
// sent. One struct covers every component type; fields that do not apply
// to a type are zero.
type Component struct {
	Type        discordgo.ComponentType `json:"type"`
	CustomID    string                  `json:"custom_id,omitempty"`
	Style       int                     `json:"style,omitempty"`
	Label       string                  `json:"label,omitempty"`
	Emoji       *Emoji                  `json:"emoji,omitempty"`
	URL         string                  `json:"url,omitempty"`
	Disabled    bool                    `json:"disabled,omitempty"`
	Placeholder string                  `json:"placeholder,omitempty"`
	MinValues   *int                    `json:"min_values,omitempty"`
	MaxValues   *int                    `json:"max_values,omitempty"`
	Options     []SelectOption          `json:"options,omitempty"`
	Required    *bool                   `json:"required,omitempty"`
	// Content is the markdown of a text display component.
	Content string `json:"content,omitempty"`
	// Value is the prefilled or submitted value of a text input.
	Value string `json:"value,omitempty"`
	// Components holds the children of action rows, sections and
	// containers.
	Components []Component `json:"components,omitempty"`
	// Accessory is a section's accessory.
	Accessory *Component `json:"accessory,omitempty"`
	// Component is a label's child.
	Component *Component `json:"component,omitempty"`
	// AccentColor is a container's colour, nil for none.
	AccentColor *int `json:"accent_color,omitempty"`
	// Items are a media gallery's pictures.
	Items []MediaItem `json:"items,omitempty"`
	// Media is a thumbnail's picture.
	Media *Media `json:"media,omitempty"`
	// File is a file component's file.
	File *Media `json:"file,omitempty"`
}

// MediaItem is a picture of a media gallery.
type MediaItem struct {
	Media       Media  `json:"media"`
	Description string `json:"description,omitempty"`
}

// Media is a picture or file a component shows: an https URL or
// attachment://filename, naming a file uploaded with the message.
type Media struct {
	URL string `json:"url"`
}

// attachmentScheme prefixes the URL of media uploaded with the message.
const attachmentScheme = "attachment://"

// media returns the URLs of the media a component tree shows.
func media(comps []Component) []string {
	var out []string
	for _, c := range comps {
		for _, it := range c.Items {
			out = append(out, it.Media.URL)
		}
		for _, m := range []*Media{c.Media, c.File} {
			if m != nil {
				out = append(out, m.URL)
			}
		}
		children := c.Components
		if c.Accessory != nil {
			children = append(children[:len(children):len(children)], *c.Accessory)
		}
		out = append(out, media(children)...)
	}
	return out
}

// Attachment returns the message's attachment of that file name.
func (m Message) Attachment(filename string) (Attachment, bool) {
	for _, a := range m.Attachments {
		if a.Filename == filename {
			return a, true
		}
	}
	return Attachment{}, false
}

// Emoji is an emoji on a component: a Unicode emoji (Name only) or a
// custom emoji (ID and Name).
type Emoji struct {
	ID       string `json:"id,omitempty"`
	Name     string `json:"name,omitempty"`
	Animated bool   `json:"animated,omitempty"`
}

// SelectOption is an option of a string select menu.
type SelectOption struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
	Emoji       *Emoji `json:"emoji,omitempty"`
	Default     bool   `json:"default,omitempty"`
}

// Attachment is a file uploaded with a message.
type Attachment struct {
	ID          string
	Filename    string
	ContentType string
	Data        []byte
	// URL serves the file from the stand-in.
	URL string
}

// Command is an application command registered by the bot.
type Command struct {
	ID            string                           `json:"id"`
	ApplicationID string                           `json:"application_id"`
	GuildID       string                           `json:"guild_id,omitempty"`
	Type          discordgo.ApplicationCommandType `json:"type"`
	Name          string                           `json:"name"`
	Description   string                           `json:"description"`
	// NameLocalizations and DescriptionLocalizations are the name and
	// description by Discord locale ("id"), nil if there are none.
	NameLocalizations        map[string]string `json:"name_localizations,omitempty"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
	Options                  []CommandOption   `json:"options"`
	// DefaultMemberPermissions is the permission bit set, as a decimal
	// string, a member needs to see the command; nil for everyone.
	DefaultMemberPermissions *string `json:"default_member_permissions"`
	// Contexts lists where the command can be used (0 guild, 1 bot DM,
	// 2 private channel); nil for the default.
	Contexts []int `json:"contexts"`
	// IntegrationTypes lists the installations the command is available
	// in (0 guild install, 1 user install); nil for the default.
	IntegrationTypes []int `json:"integration_types"`
}

// CommandOption is an option of a registered application command.
type CommandOption struct {
	Type         discordgo.ApplicationCommandOptionType `json:"type"`
	Name         string                                 `json:"name"`
	Description  string                                 `json:"description"`
	Required     bool                                   `json:"required"`
	Autocomplete bool                                   `json:"autocomplete"`
	Choices      []Choice                               `json:"choices"`
	Options      []CommandOption                        `json:"options"`
	MinValue     *float64                               `json:"min_value,omitempty"`
	MaxValue     *float64                               `json:"max_value,omitempty"`
	MinLength    *int                                   `json:"min_length,omitempty"`
	MaxLength    *int                                   `json:"max_length,omitempty"`
	ChannelTypes []int                                  `json:"channel_types,omitempty"`
	// NameLocalizations and DescriptionLocalizations are as a Command's.
	NameLocalizations        map[string]string `json:"name_localizations,omitempty"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
}

// Choice is a choice of a command option, or one of the choices the bot
// answered an autocomplete request with.
type Choice struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
	// NameLocalizations is the name by Discord locale, nil if none.
	NameLocalizations map[string]string `json:"name_localizations,omitempty"`
}

// EventType tells what happened to a message.
type EventType int

// Kinds of message events.
const (
	MessageCreated EventType = iota + 1
	MessageUpdated
	MessageDeleted
)

// String returns the event type's name.
func (t EventType) String() string {
	switch t {
	case MessageCreated:
		return "MessageCreated"
	case MessageUpdated:
		return "MessageUpdated"
	case MessageDeleted:
		return "MessageDeleted"
	}
	return fmt.Sprintf("EventType(%d)", int(t))
}

// Event reports a change of a message, for [Server.Subscribe].
type Event struct {
	Type EventType
	// Message is the message's state after the change.
	Message Message
}

// messageBody holds the message fields of a create or edit request. The
// fields stay raw so that an absent field (nil) can be told from null.
type messageBody struct {
	Content     json.RawMessage `json:"content"`
	Embeds      json.RawMessage `json:"embeds"`
	Components  json.RawMessage `json:"components"`
	Flags       json.RawMessage `json:"flags"`
	Attachments json.RawMessage `json:"attachments"`
	// Nonce and EnforceNonce are a new message's (createChannelMessage).
	Nonce        json.RawMessage `json:"nonce"`
	EnforceNonce *bool           `json:"enforce_nonce"`
}

// isNull reports whether a raw field was sent as null.
func isNull(raw json.RawMessage) bool { return string(raw) == "null" }

// editableFlags are the message flags a bot may set or change; the others
// (ephemeral, loading, ...) are Discord's to set.
const editableFlags = discordgo.MessageFlagsSuppressEmbeds | discordgo.MessageFlagsSuppressNotifications |
	discordgo.MessageFlagsIsComponentsV2

// apply sets the fields present in the body on m, with Discord's PATCH
// semantics: absent fields are kept, null clears. When the body lists
// attachments, the message keeps those of its attachments the list names
// by ID and gains the uploaded files the list names by their index
// ("0" for files[0]); any others go, and an ID that names neither is
// answered 400/50035 ATTACHMENT_NOT_FOUND, as Discord answers it. Without
// a list, the uploaded files are added to the attachments the message has.
func (b messageBody) apply(m *Message, files []Attachment) error {
	if b.Content != nil {
		m.Content = ""
		if !isNull(b.Content) {
			if err := json.Unmarshal(b.Content, &m.Content); err != nil {
				return fmt.Errorf("discordtest: decode content: %w", err)
			}
		}
	}
	if b.Embeds != nil {
		m.Embeds, m.rawEmbeds = nil, nil
		if !isNull(b.Embeds) {
			if err := json.Unmarshal(b.Embeds, &m.Embeds); err != nil {
				return fmt.Errorf("discordtest: decode embeds: %w", err)
			}
			m.rawEmbeds = b.Embeds
		}
	}
	if b.Components != nil {
		m.Components, m.rawComps = nil, nil
		if !isNull(b.Components) {
			if err := json.Unmarshal(b.Components, &m.Components); err != nil {
				return fmt.Errorf("discordtest: decode components: %w", err)
			}
			m.rawComps = b.Components
		}
	}
	if b.Flags != nil && !isNull(b.Flags) {
		var flags discordgo.MessageFlags
		if err := json.Unmarshal(b.Flags, &flags); err != nil {
			return fmt.Errorf("discordtest: decode flags: %w", err)
		}
		m.Flags = m.Flags&^editableFlags | flags&editableFlags
	}
	if b.Attachments != nil {
		var keep []struct {
			ID string `json:"id"`
		}
		if !isNull(b.Attachments) {
			if err := json.Unmarshal(b.Attachments, &keep); err != nil {
				return fmt.Errorf("discordtest: decode attachments: %w", err)
			}
		}
		var kept []Attachment
		for n, k := range keep {
			found := false
			for _, a := range m.Attachments {
				if k.ID == a.ID {
					kept, found = append(kept, a), true
				}
			}
			if i, err := strconv.Atoi(k.ID); err == nil && i >= 0 && i < len(files) {
				kept, found = append(kept, files[i]), true
			}
			if !found {
				return attachmentNotFound(n)
			}
		}
		m.Attachments = kept
		return nil
	}
	m.Attachments = append(m.Attachments[:len(m.Attachments):len(m.Attachments)], files...)
	return nil
}

// empty reports whether a message has nothing to show, which Discord
// refuses with 50006.
func (m *Message) empty() bool {
	return m.Content == "" && len(m.Embeds) == 0 && len(m.Components) == 0 && len(m.Attachments) == 0
}
