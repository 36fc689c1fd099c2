package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/bwmarrin/discordgo"
)

// Threads. A thread is a channel of its own (type 11, public, or 12,
// private) under a guild text channel, its parent: started from one of
// the parent's messages (POST /channels/{id}/messages/{id}/threads; the
// thread's ID is the message's, as on Discord) or without one (POST
// /channels/{id}/threads). Its messages are those of any channel, read
// and posted through the channel message routes with the thread's ID.
// The bot's permissions in a thread are its parent's; starting a public
// thread needs Create Public Threads (a private one Create Private
// Threads), posting in one Send Messages in Threads, else 50013. A
// thread cannot be started in a thread or outside a guild text channel
// (50024), nor twice from one message (160004). Each new thread is
// dispatched as THREAD_CREATE, and a guild's threads are in its
// GUILD_CREATE.

// Discord's JSON error codes of the thread routes.
const (
	// CodeInvalidChannelType answers an action the channel's type does
	// not allow, such as a thread in a thread.
	CodeInvalidChannelType = 50024
	// CodeThreadExists answers a second thread from one message.
	CodeThreadExists = 160004
)

var (
	errInvalidChannelType = newAPIError(http.StatusBadRequest, CodeInvalidChannelType, "Cannot execute action on this channel type")
	errThreadExists       = newAPIError(http.StatusBadRequest, CodeThreadExists, "A thread has already been created for this message")
)

func init() {
	routes["POST /channels/{channel_id}/messages/{message_id}/threads"] = routeEntry{h: (*Server).startThreadFromMessage, auth: true}
	routes["POST /channels/{channel_id}/threads"] = routeEntry{h: (*Server).startThread, auth: true}
}

// threadMetadata is a thread channel's thread_metadata.
type threadMetadata struct {
	Archived            bool `json:"archived"`
	AutoArchiveDuration int  `json:"auto_archive_duration"`
	Locked              bool `json:"locked"`
}

// IsThread reports whether the channel is a thread.
func (c Channel) IsThread() bool {
	return c.Type == discordgo.ChannelTypeGuildPublicThread || c.Type == discordgo.ChannelTypeGuildPrivateThread
}

// threadBody is the body of both thread routes.
type threadBody struct {
	Name string                `json:"name"`
	Type discordgo.ChannelType `json:"type"`
}

// threadParent checks that the bot may start a thread of type typ in the
// channel a thread route names, and returns the channel. The caller holds
// s.mu.
func (s *Server) threadParent(c *call, typ discordgo.ChannelType) (*Channel, error) {
	ch := s.channels[c.params["channel_id"]]
	if ch == nil {
		return nil, s.unknownChannel(c.params["channel_id"])
	}
	if err := s.checkBotAccess(ch.ID, false); err != nil {
		return nil, err
	}
	if ch.GuildID == "" || ch.Type != discordgo.ChannelTypeGuildText {
		return nil, errInvalidChannelType
	}
	need := int64(discordgo.PermissionCreatePublicThreads)
	if typ == discordgo.ChannelTypeGuildPrivateThread {
		need = discordgo.PermissionCreatePrivateThreads
	}
	if p := s.botPermissions(ch.ID); p&discordgo.PermissionAdministrator == 0 && p&need == 0 {
		return nil, errMissingPermissions
	}
	return ch, nil
}

// addThread creates a thread of parent named name, with the given ID,
// and announces it. The caller holds s.mu.
func (s *Server) addThread(parent *Channel, id, name string, typ discordgo.ChannelType) *Channel {
	th := &Channel{ID: id, GuildID: parent.GuildID, Name: name, Type: typ, ParentID: parent.ID, OwnerID: s.bot.ID}
	s.channels[th.ID] = th
	s.dispatch("THREAD_CREATE", struct {
		wireChannel
		NewlyCreated bool `json:"newly_created"`
	}{toWireChannel(th), true}, intentGuilds)
	s.broadcast()
	return th
}

func (s *Server) startThreadFromMessage(c *call) (any, error) {
	var data threadBody
	if err := json.Unmarshal(c.body, &data); err != nil {
		return nil, fmt.Errorf("discordtest: decode thread: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	parent, err := s.threadParent(c, discordgo.ChannelTypeGuildPublicThread)
	if err != nil {
		return nil, err
	}
	m := s.messages[c.params["message_id"]]
	if m == nil || m.Deleted || m.ChannelID != parent.ID || m.Ephemeral() {
		return nil, errUnknownMessage
	}
	if s.channels[m.ID] != nil {
		return nil, errThreadExists
	}
	return toWireChannel(s.addThread(parent, m.ID, data.Name, discordgo.ChannelTypeGuildPublicThread)), nil
}

func (s *Server) startThread(c *call) (any, error) {
	var data threadBody
	if err := json.Unmarshal(c.body, &data); err != nil {
		return nil, fmt.Errorf("discordtest: decode thread: %w", err)
	}
	typ := data.Type
	if typ == 0 {
		typ = discordgo.ChannelTypeGuildPrivateThread // Discord's default
	}
	if typ != discordgo.ChannelTypeGuildPublicThread && typ != discordgo.ChannelTypeGuildPrivateThread {
		return nil, errInvalidChannelType
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	parent, err := s.threadParent(c, typ)
	if err != nil {
		return nil, err
	}
	return toWireChannel(s.addThread(parent, s.newID(), data.Name, typ)), nil
}

// Threads returns the threads started in a channel, oldest first.
func (s *Server) Threads(channelID string) []Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.threadsOf(func(th *Channel) bool { return th.ParentID == channelID })
}

// Channel returns a channel or thread by its ID.
func (s *Server) Channel(id string) (Channel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[id]
	if ch == nil {
		return Channel{}, false
	}
	return *ch, true
}

// threadsOf returns the threads that keep satisfies, oldest first. The
// caller holds s.mu.
func (s *Server) threadsOf(keep func(*Channel) bool) []Channel {
	var out []Channel
	for _, ch := range s.channels {
		if ch.IsThread() && keep(ch) {
			out = append(out, *ch)
		}
	}
	slices.SortFunc(out, func(a, b Channel) int { return compareIDs(a.ID, b.ID) })
	return out
}

// wireThreads returns a guild's threads as its GUILD_CREATE lists them.
// The caller holds s.mu.
func (s *Server) wireThreads(guildID string) []wireChannel {
	out := []wireChannel{}
	for _, th := range s.threadsOf(func(th *Channel) bool { return th.GuildID == guildID }) {
		out = append(out, toWireChannel(&th))
	}
	return out
}

// ChannelAndThreads returns the messages of a channel and of its
// threads that are not deleted, oldest first, as one list: what a client
// showing a channel with its threads inline reads (the playground).
func (s *Server) ChannelAndThreads(channelID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, id := range s.order {
		m := s.messages[id]
		if m.Deleted {
			continue
		}
		if ch := s.channels[m.ChannelID]; m.ChannelID == channelID || ch != nil && ch.ParentID == channelID {
			out = append(out, *m)
		}
	}
	return out
}
