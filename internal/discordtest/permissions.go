package discordtest

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// Permissions are granted in full unless a test takes some away: the
// bot's in a channel with [Server.SetBotPermissions], a member's in a guild
// with [Server.SetMemberPermissions]. Interactions report them as Discord
// does (app_permissions, member.permissions, the channel's permissions),
// and the channel message routes refuse a bot that lacks View Channel or
// Send Messages with 50001 Missing Access or 50013 Missing Permissions.

// CodeMissingPermissions is Discord's JSON error code for an action the
// bot lacks a permission for.
const CodeMissingPermissions = 50013

var errMissingPermissions = newAPIError(http.StatusForbidden, CodeMissingPermissions, "Missing Permissions")

// allPermissionBits is allPermissions as a number.
var allPermissionBits, _ = strconv.ParseInt(allPermissions, 10, 64)

// SetBotPermissions sets the permissions the bot has in a channel.
func (s *Server) SetBotPermissions(channelID string, perms int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.channels[channelID] == nil {
		return fmt.Errorf("discordtest: set bot permissions: unknown channel %s", channelID)
	}
	s.botPerms[channelID] = perms
	return nil
}

// SetMemberPermissions sets a member's permissions in a guild.
func (s *Server) SetMemberPermissions(guildID, userID string, perms int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guilds[guildID]
	if g == nil {
		return fmt.Errorf("discordtest: set member permissions: unknown guild %s", guildID)
	}
	if _, ok := g.members[userID]; !ok {
		return fmt.Errorf("discordtest: set member permissions: %s is not a member of %s", userID, guildID)
	}
	s.memberPerms[guildID+"/"+userID] = perms
	return nil
}

// botPermissions returns the bot's permissions in a channel. The caller
// holds s.mu.
func (s *Server) botPermissions(channelID string) int64 {
	if p, ok := s.botPerms[channelID]; ok {
		return p
	}
	if ch := s.channels[channelID]; ch != nil && ch.IsThread() {
		return s.botPermissions(ch.ParentID) // a thread's are its channel's
	}
	if ch := s.channels[channelID]; ch != nil && ch.GuildID == "" {
		return privatePermissions(ch)
	} else if ch != nil && s.guilds[ch.GuildID] != nil && !s.botIn(s.guilds[ch.GuildID]) {
		return userAppPermissions
	}
	return allPermissionBits
}

// memberPermissions returns a member's permissions in a guild as the wire
// string. The caller holds s.mu.
func (s *Server) memberPermissions(guildID, userID string) string {
	if p, ok := s.memberPerms[guildID+"/"+userID]; ok {
		return strconv.FormatInt(p, 10)
	}
	return allPermissions
}

// checkBotAccess refuses a channel message route when the bot cannot see
// the channel or, with send, post in it: Send Messages in a channel,
// Send Messages in Threads in a thread. The caller holds s.mu.
func (s *Server) checkBotAccess(channelID string, send bool) error {
	p := s.botPermissions(channelID)
	if p&discordgo.PermissionAdministrator != 0 {
		return nil
	}
	if p&discordgo.PermissionViewChannel == 0 {
		return errMissingAccess
	}
	need := int64(discordgo.PermissionSendMessages)
	if ch := s.channels[channelID]; ch != nil && ch.IsThread() {
		need = discordgo.PermissionSendMessagesInThreads
	}
	if send && p&need == 0 {
		return errMissingPermissions
	}
	return nil
}
