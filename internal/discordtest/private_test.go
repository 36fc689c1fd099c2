package discordtest_test

import (
	"net/http"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// privateCommands are available in every context and installation, plus a
// guild-only one and a user command.
var privateCommands = []*discordgo.ApplicationCommand{
	{
		Name: "hello", Description: "Say hello",
		Contexts:         &[]discordgo.InteractionContextType{0, 1, 2},
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{0, 1},
	},
	{Name: "server", Description: "Server only", Contexts: &[]discordgo.InteractionContextType{0}},
	{
		Name: "Wave at", Type: discordgo.UserApplicationCommand,
		Contexts:         &[]discordgo.InteractionContextType{0, 1, 2},
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{0, 1},
	},
}

func TestPrivateChannels(t *testing.T) {
	srv := newServer(t)
	b := openBot(t, srv)
	if _, err := b.ApplicationCommandBulkOverwrite(srv.ApplicationID(), "", privateCommands); err != nil {
		t.Fatalf("register commands: %v", err)
	}
	if got := srv.Commands("")[0].IntegrationTypes; len(got) != 2 {
		t.Errorf("integration_types kept as %v, want [0 1]", got)
	}
	alice, bob := srv.AddUser("alice"), srv.AddUser("bob")
	dm, err := srv.AddDM(alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	group, err := srv.AddGroupDM(alice.ID, bob.ID)
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name    string
		channel string
		context discordgo.InteractionContextType
		post    bool // whether the bot may post in the channel
	}{
		{"bot DM", dm.ID, discordgo.InteractionContextBotDM, true},
		{"group DM", group.ID, discordgo.InteractionContextPrivateChannel, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := srv.SendCommand(discordtest.SlashCommand{UserID: alice.ID, ChannelID: tc.channel, Name: "server"}); err == nil {
				t.Error("a guild-only command was delivered in a private channel")
			}
			if _, err := srv.SendCommand(discordtest.SlashCommand{UserID: alice.ID, ChannelID: tc.channel, Name: "hello"}); err != nil {
				t.Fatal(err)
			}
			in := receive(t, b.interactions, "the command").Interaction
			if in.GuildID != "" || in.Member != nil || in.User == nil || in.User.ID != alice.ID {
				t.Errorf("guild %q, member %v, user %v: want no guild, no member, the user alice", in.GuildID, in.Member, in.User)
			}
			if in.Context != tc.context || in.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall] != alice.ID {
				t.Errorf("context %d, owners %v: want context %d and alice's installation", in.Context, in.AuthorizingIntegrationOwners, tc.context)
			}
			reply(t, b, in, "hi")

			_, err := b.ChannelMessageSend(tc.channel, "posted")
			if tc.post && err != nil {
				t.Errorf("post in a DM with the bot: %v", err)
			}
			if !tc.post {
				restError(t, err, http.StatusForbidden, discordtest.CodeMissingAccess)
			}

			if _, err := srv.SendUserCommand(alice.ID, tc.channel, "Wave at", bob.ID); err != nil {
				t.Fatal(err)
			}
			in = receive(t, b.interactions, "the user command").Interaction
			data := in.ApplicationCommandData()
			if data.CommandType != discordgo.UserApplicationCommand || data.TargetID != bob.ID || data.Resolved == nil || data.Resolved.Users[bob.ID] == nil {
				t.Errorf("user command data %+v: want type 2 targeting bob, resolved", data)
			}
			reply(t, b, in, "wave")
		})
	}
	_, foreign, err := srv.AddForeignGuild("Elsewhere", alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.SendCommand(discordtest.SlashCommand{UserID: alice.ID, ChannelID: foreign.ID, Name: "hello"}); err != nil {
		t.Fatal(err)
	}
	in := receive(t, b.interactions, "the command in a guild without the bot").Interaction
	if in.GuildID == "" || in.Member == nil || in.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall] != alice.ID ||
		in.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall] != "" {
		t.Errorf("guild %q, member %v, owners %v: want the guild, a member and only alice's installation", in.GuildID, in.Member, in.AuthorizingIntegrationOwners)
	}
	reply(t, b, in, "hi")
	_, err = b.ChannelMessageSend(foreign.ID, "posted")
	restError(t, err, http.StatusForbidden, discordtest.CodeMissingAccess)

	if _, err := srv.SendUserCommand(srv.AddUser("carol").ID, group.ID, "Wave at", bob.ID); err == nil {
		t.Error("a user who is not in the group DM used a command there")
	}
	srv.AssertNoViolations(t)
}
