package discordtest

import (
	"fmt"
)

// This file simulates guild membership changing under the bot: the bot
// being removed from a guild, a guild going through an outage, and members
// leaving.

// RemoveBotFromGuild removes the bot from a guild, as a moderator kicking
// it (or the guild being deleted) does. Connected sessions get GUILD_DELETE
// with unavailable false, Discord's sign of a removal rather than an
// outage. From then on the guild and its channels are gone for the bot:
// the channel message routes answer 50001 Missing Access, the guild's
// command routes too, a new session is not told about the guild, and users
// can no longer start interactions there ([Server.SendCommand] and the
// clicks fail). Messages stay readable by the test through
// [Server.Message]. Interactions delivered before the removal can still be
// answered and their tokens still work: Discord does not document what
// happens to them, and the stand-in does not guess.
//
// The default guild cannot be removed: [Server.AddUser] adds every user to
// it. Create a guild with [Server.AddGuild] to remove one.
func (s *Server) RemoveBotFromGuild(guildID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guilds[guildID]
	if g == nil {
		return fmt.Errorf("discordtest: remove the bot from guild: unknown guild %s", guildID)
	}
	if guildID == s.defaultGuild {
		return fmt.Errorf("discordtest: remove the bot from guild: %s is the default guild, which every user joins", guildID)
	}
	delete(s.guilds, guildID)
	s.departed[guildID] = true
	for _, id := range g.channels {
		delete(s.channels, id)
		s.departed[id] = true
	}
	s.dispatch("GUILD_DELETE", map[string]any{"id": guildID, "unavailable": false}, intentGuilds)
	s.broadcast()
	return nil
}

// SetGuildUnavailable simulates an outage of a guild (unavailable true):
// connected sessions get GUILD_DELETE with unavailable true, which does not
// mean the bot left. With unavailable false the outage ends and sessions
// get the guild's GUILD_CREATE again. Only the events are simulated:
// users can still act in the guild.
func (s *Server) SetGuildUnavailable(guildID string, unavailable bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guilds[guildID]
	if g == nil {
		return fmt.Errorf("discordtest: set guild unavailable: unknown guild %s", guildID)
	}
	if unavailable {
		s.dispatch("GUILD_DELETE", map[string]any{"id": guildID, "unavailable": true}, intentGuilds)
	} else {
		s.dispatch("GUILD_CREATE", s.wireGuild(g), intentGuilds)
	}
	s.broadcast()
	return nil
}

// RemoveMember makes a user leave a guild, announcing it with
// GUILD_MEMBER_REMOVE (to sessions with the GUILD_MEMBERS intent). The
// user can no longer start interactions in the guild's channels.
func (s *Server) RemoveMember(guildID, userID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guilds[guildID]
	if g == nil {
		return fmt.Errorf("discordtest: remove member: unknown guild %s", guildID)
	}
	if _, ok := g.members[userID]; !ok || userID == s.bot.ID {
		return fmt.Errorf("discordtest: remove member: %s is not a member of %s other than the bot", userID, guildID)
	}
	delete(g.members, userID)
	delete(s.memberPerms, guildID+"/"+userID)
	s.dispatch("GUILD_MEMBER_REMOVE", map[string]any{"guild_id": guildID, "user": toWireUser(s.users[userID])}, intentGuildMembers)
	s.broadcast()
	return nil
}

// unknownChannel is the error of a channel route naming a channel the bot
// cannot reach: 50001 Missing Access for a channel of a guild the bot was
// removed from, 10003 Unknown Channel otherwise. The caller holds s.mu.
func (s *Server) unknownChannel(id string) error {
	if s.departed[id] {
		return errMissingAccess
	}
	return errUnknownChannel
}
