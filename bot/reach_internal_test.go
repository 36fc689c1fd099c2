package bot

import (
	"testing"
	"time"

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
		ix := &interaction{envelope: envelope{Context: tc.context, GuildID: tc.guildID, AuthorizingIntegrationOwners: tc.owners}}
		if got := ix.interactionOnly(); got != tc.want {
			t.Errorf("%s: interactionOnly = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestReachKeepsTheLatestValidToken checks the memory of board tokens: a
// later token replaces an earlier one and never the reverse (the answers
// of two clicks may record out of order), and expired ones are dropped.
func TestReachKeepsTheLatestValidToken(t *testing.T) {
	var r reach
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	r.remember("g1", webhookToken{token: "new", at: t0.Add(time.Second)}, t0)
	r.remember("g1", webhookToken{token: "old", at: t0}, t0)
	if got := r.token("g1").token; got != "new" {
		t.Errorf("token = %q, want the later one", got)
	}
	r.remember("g2", webhookToken{token: "other", at: t0.Add(20 * time.Minute)}, t0.Add(20*time.Minute))
	if got := r.token("g1"); got.token != "" {
		t.Errorf("an expired token was kept: %q", got.token)
	}
	r.leftBehind("g2")
	if !r.isBehind("g2") {
		t.Error("a board left behind is not noted")
	}
	r.remember("g2", webhookToken{token: "newer", at: t0.Add(21 * time.Minute)}, t0.Add(21*time.Minute))
	if r.isBehind("g2") {
		t.Error("a board an answer showed again is still noted as behind")
	}
	if r.isPrivate("c1") {
		t.Error("a channel is private before anything said so")
	}
	r.markPrivate("c1")
	if !r.isPrivate("c1") {
		t.Error("a channel marked private is not")
	}
}
