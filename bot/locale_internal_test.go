package bot

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/storage"
)

// TestUserErrorsInTheReadersLanguage checks that a user error is put into
// words when it is shown, with its placeholders in the same language: an
// AI by its translated name, a list with the language's "or" (an option's
// name: bot/mux's TestOptionErrorsNameTheOptionInTheReadersLanguage).
func TestUserErrorsInTheReadersLanguage(t *testing.T) {
	err := mux.Err("move.not_your_turn", "Player", gamenames.Player("connect4", storage.Player{ID: storage.AI("minimax")})).(*mux.UserError)
	if got := err.Text(i18n.For(i18n.Indonesian)); !strings.Contains(got, "Pemikir mendalam (sulit)") {
		t.Errorf("Indonesian AI name: %q", got)
	}
	err = mux.Err("error.unknown_game", "Game", mux.Quote("chess"), "Choices", gamenames.DuelNames()).(*mux.UserError)
	if got := err.Text(i18n.For(i18n.Indonesian)); !strings.Contains(got, `"chess"`) || !strings.Contains(got, " atau ") {
		t.Errorf("Indonesian list: %q", got)
	}
	if got := err.Error(); !strings.Contains(got, " or ") {
		t.Errorf("Error() is not English: %q", got)
	}
}

// TestSharedLocale checks the language of the messages everyone sees where
// an interaction comes from: the guild's, else outside a guild the user's,
// remembered for edits made without an interaction.
func TestSharedLocale(t *testing.T) {
	id, en := discordgo.Locale(i18n.Indonesian), discordgo.Locale(i18n.English)
	var l locales
	l.learn(&mux.Envelope{GuildID: "g", ChannelID: "c1", Locale: en, GuildLocale: &id})
	l.learn(&mux.Envelope{ChannelID: "dm", Locale: id}) // a DM: no guild locale
	l.learn(&mux.Envelope{GuildID: "h", ChannelID: "c2", Locale: id})
	for _, c := range []struct{ guild, channel, want string }{
		{"g", "c9", i18n.Indonesian}, // the guild's, in any of its channels
		{"", "dm", i18n.Indonesian},  // the DM's user's
		{"h", "c2", i18n.English},    // a guild that gave no locale: not its user's
		{"", "other", i18n.English},  // never seen
	} {
		if got := l.of(c.guild, c.channel).Locale(); got != c.want {
			t.Errorf("of(%q, %q) = %s, want %s", c.guild, c.channel, got, c.want)
		}
	}
}
