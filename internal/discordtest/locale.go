package discordtest

// defaultLocale is the locale of users and guilds nobody set one for.
const defaultLocale = "en-US"

// SetLocale sets the Discord locale ("id", "en-US") of a user, which their
// interactions carry as locale, or of a guild, which interactions in it
// carry as guild_locale and its guild objects as preferred_locale. An
// empty locale restores the default, en-US. A guild's change is
// announced to connected sessions with GUILD_UPDATE, as Discord announces
// a server's new language.
func (s *Server) SetLocale(id, locale string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.locales == nil {
		s.locales = map[string]string{}
	}
	if locale == "" {
		delete(s.locales, id)
	} else {
		s.locales[id] = locale
	}
	if g := s.guilds[id]; g != nil {
		s.dispatch("GUILD_UPDATE", s.wireGuildUpdate(g), intentGuilds)
	}
}

// localeOf returns the locale of a user or guild. The caller holds s.mu.
func (s *Server) localeOf(id string) string {
	if l, ok := s.locales[id]; ok {
		return l
	}
	return defaultLocale
}

// wireGuildUpdate returns the GUILD_UPDATE payload of a guild: its guild
// object without the fields only GUILD_CREATE carries. The caller holds
// s.mu.
func (s *Server) wireGuildUpdate(g *guild) map[string]any {
	d := s.wireGuild(g)
	for _, k := range []string{"joined_at", "unavailable", "large", "member_count", "channels", "members", "threads", "voice_states", "presences"} {
		delete(d, k)
	}
	return d
}
