package bot

import (
	"sync"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
)

// The languages of Gambit's messages (package i18n has them):
//
//   - an answer to one person (an ephemeral reply, an error, a help page)
//     is in the interaction's locale, the language of that person's client;
//   - a message in a channel that several people read (a board, a
//     challenge) is in the guild's locale (guild_locale), which the bot
//     remembers for the updates it makes without an interaction (the AI's
//     move, a timer) — from the gateway's guild events too, so that it
//     knows them after a restart; outside a guild (a DM), where there is no guild
//     locale, in the locale of the one who used the bot there last;
//   - English when Gambit does not speak the locale.

// place returns the key under which the locale of a channel's messages is
// remembered: the guild, or the channel outside a guild.
func place(guildID, channelID string) string {
	if guildID != "" {
		return guildID
	}
	return channelID
}

// locales remembers each guild's locale as its interactions last gave it.
type locales struct{ m sync.Map } // place → Discord locale

// learn records the locale of the shared messages where an interaction
// comes from: the guild's, or outside a guild its user's.
func (l *locales) learn(ix *mux.Envelope) {
	if loc := sharedLocale(ix); loc != "" {
		l.m.Store(place(ix.GuildID, ix.ChannelID), loc)
	}
}

// sharedLocale is the locale of the messages everyone sees where the
// interaction comes from: the guild's, or outside a guild the user's; ""
// if Discord did not say.
func sharedLocale(ix *mux.Envelope) string {
	switch {
	case ix.GuildLocale != nil && *ix.GuildLocale != "":
		return string(*ix.GuildLocale)
	case ix.GuildID == "":
		return string(ix.Locale)
	}
	return ""
}

// of returns the localizer of a guild's (or channel's) shared messages.
func (l *locales) of(guildID, channelID string) *i18n.Localizer {
	if v, ok := l.m.Load(place(guildID, channelID)); ok {
		return i18n.For(v.(string))
	}
	return i18n.Default
}

// Shared is the localizer of the messages the interaction shows in its
// channel to everyone: the guild's language.
func (l *locales) Shared(ix *mux.Interaction) *i18n.Localizer {
	if loc := sharedLocale(&ix.Envelope); loc != "" {
		return i18n.For(loc)
	}
	return l.of(ix.GuildID, ix.ChannelID)
}

// localizeCommands adds every language's names and descriptions to the
// commands, their options and their fixed choices, from the catalogue's
// cmd.<command>[.<option>].name/.desc and cmd.<command>.<option>.<value>;
// a choice of a game takes the game's title. What the catalogue lacks
// stays English only.
func localizeCommands(cmds []*discordgo.ApplicationCommand) []*discordgo.ApplicationCommand {
	for _, c := range cmds {
		key := "cmd." + c.Name
		if n := translations(key + ".name"); n != nil {
			c.NameLocalizations = &n
		}
		if d := translations(key + ".desc"); d != nil {
			c.DescriptionLocalizations = &d
		}
		localizeOptions(key, c.Options)
	}
	return cmds
}

// localizeOptions is localizeCommands for the options under key.
func localizeOptions(key string, opts []*discordgo.ApplicationCommandOption) {
	for _, o := range opts {
		k := key + "." + o.Name
		o.NameLocalizations = translations(k + ".name")
		o.DescriptionLocalizations = translations(k + ".desc")
		for _, ch := range o.Choices {
			if o.Name == "game" {
				ch.NameLocalizations = translations("game." + ch.Value.(string) + ".title")
			} else {
				ch.NameLocalizations = translations(k + "." + ch.Value.(string))
			}
		}
		localizeOptions(k, o.Options)
	}
}

// translations returns a message in every language but English, by
// Discord locale, or nil if the catalogue does not have it.
func translations(id string) map[discordgo.Locale]string {
	if !i18n.Has(id) {
		return nil
	}
	out := map[discordgo.Locale]string{}
	for loc, text := range i18n.Translations(id) {
		out[discordgo.Locale(loc)] = text
	}
	return out
}
