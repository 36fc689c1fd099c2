package play

import (
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
)

// neededPermissions are what the bot needs in a channel to keep a board
// up to date once interaction tokens expire, with their names' IDs in the
// catalogue.
var neededPermissions = []struct {
	bit  int64
	name string
}{
	{discordgo.PermissionViewChannel, "permission.view_channel"},
	{discordgo.PermissionSendMessages, "permission.send_messages"},
	{discordgo.PermissionEmbedLinks, "permission.embed_links"},
	{discordgo.PermissionReadMessageHistory, "permission.read_message_history"},
}

// CheckChannelPermissions explains, as the member's error, which
// permissions the bot lacks in the channel of an interaction to keep a new
// game's board there. Outside a server channel of a server that installed
// Gambit there is nothing to check: in its DM the bot may post, and where
// it is reached only through interactions, boards live in interaction
// answers.
func CheckChannelPermissions(ix *mux.Interaction) error {
	if ix.GuildID == "" || ix.InteractionOnly() || ix.AppPermissions&discordgo.PermissionAdministrator != 0 {
		return nil
	}
	var missing []string
	for _, p := range neededPermissions {
		if ix.AppPermissions&p.bit == 0 {
			missing = append(missing, p.name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return mux.Err("play.missing_permissions", "Permissions", mux.Localized(func(l *i18n.Localizer) string {
		names := make([]string, len(missing))
		for i, id := range missing {
			names[i] = l.T(id)
		}
		return strings.Join(names, ", ")
	}))
}
