package mux

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestInteractionOnlyFollowsContextAndInstallation checks which
// interactions the bot answers without posting in their channel, from what
// Discord says about where and through which installation they came.
func TestInteractionOnlyFollowsContextAndInstallation(t *testing.T) {
	guild := map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationGuildInstall: "g1"}
	user := map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: "u1"}
	both := map[discordgo.ApplicationIntegrationType]string{
		discordgo.ApplicationIntegrationGuildInstall: "g1", discordgo.ApplicationIntegrationUserInstall: "u1",
	}
	for _, tc := range []struct {
		name    string
		context discordgo.InteractionContextType
		guildID string
		owners  map[discordgo.ApplicationIntegrationType]string
		want    bool
	}{
		{"a server that installed Gambit", discordgo.InteractionContextGuild, "g1", guild, false},
		{"a server that installed Gambit, used by a member who did too", discordgo.InteractionContextGuild, "g1", both, false},
		{"a server reached through the member's installation only", discordgo.InteractionContextGuild, "g1", user, true},
		{"a server, installations not said (older payloads)", discordgo.InteractionContextGuild, "g1", nil, false},
		{"the bot's DM", discordgo.InteractionContextBotDM, "", user, false},
		{"a group DM", discordgo.InteractionContextPrivateChannel, "", user, true},
		{"no guild and no context", discordgo.InteractionContextGuild, "", nil, true},
	} {
		ix := &Interaction{Envelope: Envelope{Context: tc.context, GuildID: tc.guildID, AuthorizingIntegrationOwners: tc.owners}}
		if got := ix.InteractionOnly(); got != tc.want {
			t.Errorf("%s: InteractionOnly = %v, want %v", tc.name, got, tc.want)
		}
	}
}
