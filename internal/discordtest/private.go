package discordtest

import (
	"fmt"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Private channels, and the app reached through a user's installation:
// in them, and in guilds that did not add the bot ([Server.AddForeignGuild]).
//
// A DM with the bot ([Server.AddDM]) is a channel the bot is a recipient
// of: it posts and edits there as in a guild channel, and interactions come
// with context 1 (BOT_DM). A group DM ([Server.AddGroupDM]) has only people
// as recipients: the app is there because a user installed it to their
// account, so interactions come with context 2 (PRIVATE_CHANNEL) and the
// bot may answer only through them — its channel message routes get 403
// Missing Access (50001), as on Discord. In both, an interaction has no
// guild_id, carries `user` instead of `member`, and names the user's
// installation in authorizing_integration_owners ({"1": user ID}).

// dmPermissions are the bot's permissions in its DM with a user.
const dmPermissions = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
	discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles | discordgo.PermissionReadMessageHistory |
	discordgo.PermissionAddReactions | discordgo.PermissionUseExternalEmojis

// userAppPermissions are what Discord reports as app_permissions where the
// app is present only through a user's installation: what an interaction
// response may do, and nothing in the channel itself.
const userAppPermissions = discordgo.PermissionAttachFiles | discordgo.PermissionEmbedLinks |
	discordgo.PermissionMentionEveryone | discordgo.PermissionUseExternalEmojis

// privatePermissions returns the bot's permissions in a private channel.
func privatePermissions(ch *Channel) int64 {
	if slices.Contains(ch.Recipients, botRecipient) {
		return dmPermissions
	}
	return userAppPermissions
}

// botRecipient stands for the bot among a DM's recipients: the channel
// records it by this marker rather than by ID, so a DM is recognised
// whatever identity the server was started with.
const botRecipient = "bot"

// channelContext is the interaction context of a channel: 0 GUILD, 1
// BOT_DM, 2 PRIVATE_CHANNEL.
func channelContext(ch *Channel) discordgo.InteractionContextType {
	switch {
	case ch.GuildID != "":
		return discordgo.InteractionContextGuild
	case slices.Contains(ch.Recipients, botRecipient):
		return discordgo.InteractionContextBotDM
	}
	return discordgo.InteractionContextPrivateChannel
}

// AddDM opens the DM channel between a user and the bot, as a user does
// by messaging the bot; the bot can post in it.
func (s *Server) AddDM(userID string) (Channel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.users[userID]; !ok {
		return Channel{}, fmt.Errorf("discordtest: add DM: unknown user %s", userID)
	}
	return s.addPrivate(discordgo.ChannelTypeDM, []string{userID, botRecipient}), nil
}

// AddGroupDM creates a group DM of users (two or more) without the bot:
// the app is reachable there only through interactions, as when a user
// installed it to their account.
func (s *Server) AddGroupDM(userIDs ...string) (Channel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(userIDs) < 2 {
		return Channel{}, fmt.Errorf("discordtest: add group DM: %d users, need at least 2", len(userIDs))
	}
	for _, id := range userIDs {
		if _, ok := s.users[id]; !ok {
			return Channel{}, fmt.Errorf("discordtest: add group DM: unknown user %s", id)
		}
	}
	return s.addPrivate(discordgo.ChannelTypeGroupDM, slices.Clone(userIDs)), nil
}

// addPrivate creates a private channel. The caller holds s.mu.
func (s *Server) addPrivate(typ discordgo.ChannelType, recipients []string) Channel {
	ch := &Channel{ID: s.newID(), Type: typ, Recipients: recipients}
	s.channels[ch.ID] = ch
	s.broadcast()
	return *ch
}

// AddForeignGuild creates a guild the bot is not in, with one text
// channel, whose members are the given users: the app is reachable there
// only through a member's installation, so interactions name it in
// authorizing_integration_owners as {"1": user ID}, and the bot's channel
// message routes get 403 Missing Access. No gateway event announces it.
func (s *Server) AddForeignGuild(name string, userIDs ...string) (Guild, Channel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range userIDs {
		if _, ok := s.users[id]; !ok {
			return Guild{}, Channel{}, fmt.Errorf("discordtest: add foreign guild: unknown user %s", id)
		}
	}
	g := &guild{Guild: Guild{ID: s.newID(), Name: name}, created: s.clock.Now(), members: map[string]time.Time{}}
	for _, id := range userIDs {
		g.members[id] = g.created
	}
	s.guilds[g.ID] = g
	ch := s.addChannel(g.ID, "general", "")
	return g.Guild, *ch, nil
}

// botIn reports whether the bot is a member of g. The caller holds s.mu.
func (s *Server) botIn(g *guild) bool {
	_, ok := g.members[s.bot.ID]
	return ok
}

// SendUserCommand runs a user command (a context-menu command, type 2)
// on target as a user would from its profile menu in channelID ("" for
// [Server.ChannelID]): the interaction carries target_id and the target
// in its resolved users (and members, in a guild).
func (s *Server) SendUserCommand(userID, channelID, name, targetID string) (*Interaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, g, err := s.where(userID, channelID)
	if err != nil {
		return nil, err
	}
	def, err := s.findCommand(g, ch, discordgo.UserApplicationCommand, name)
	if err != nil {
		return nil, err
	}
	b := &optionBuilder{s: s, g: g, resolved: &wireResolved{}}
	if !b.resolveUser(targetID) {
		return nil, fmt.Errorf("discordtest: user command %q: unknown target %s", name, targetID)
	}
	data := wireCommandData{ID: def.ID, Name: def.Name, Type: def.Type, GuildID: def.GuildID, TargetID: targetID, Resolved: b.resolved}
	return s.deliver(discordgo.InteractionApplicationCommand, userID, ch, g, nil, data)
}
