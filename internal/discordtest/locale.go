package discordtest

// defaultLocale is the locale of users and guilds nobody set one for.
const defaultLocale = "en-US"

// SetLocale sets the Discord locale ("id", "en-US") of a user, which their
// interactions carry as locale, or of a guild, which interactions in it
// carry as guild_locale. An empty locale restores the default, en-US.
func (s *Server) SetLocale(id, locale string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.locales == nil {
		s.locales = map[string]string{}
	}
	if locale == "" {
		delete(s.locales, id)
		return
	}
	s.locales[id] = locale
}

// localeOf returns the locale of a user or guild. The caller holds s.mu.
func (s *Server) localeOf(id string) string {
	if l, ok := s.locales[id]; ok {
		return l
	}
	return defaultLocale
}
