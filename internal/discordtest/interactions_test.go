package discordtest_test

import (
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
)

func TestSlashCommandRespondEditAndFollowUp(t *testing.T) {
	t.Parallel()
	srv, b, alice, bob := twoPlayers(t)

	ix, in := challenge(t, srv, b, alice.ID, bob.ID)
	data := in.ApplicationCommandData()
	if data.Name != "chess" || data.Options[0].Name != "challenge" {
		t.Fatalf("bot got command %q %v", data.Name, data.Options)
	}
	if opp := data.Options[0].Options[0].UserValue(nil); opp.ID != bob.ID {
		t.Fatalf("opponent = %s, want %s", opp.ID, bob.ID)
	}
	if u := data.Resolved.Users[bob.ID]; u == nil || u.Username != "bob" {
		t.Fatalf("resolved users = %v, want bob", data.Resolved.Users)
	}
	if in.Member == nil || in.Member.User.ID != alice.ID {
		t.Fatalf("interaction member = %+v, want alice", in.Member)
	}

	button := discordgo.Button{Label: "Accept", Style: discordgo.SuccessButton, CustomID: "accept", Emoji: &discordgo.ComponentEmoji{Name: "♟️"}}
	err := b.InteractionRespond(in, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{
			Content:    "<@" + bob.ID + ">, you are challenged",
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{button}}},
		},
	})
	if err != nil {
		t.Fatalf("respond: %v", err)
	}
	msg, err := ix.Reply(ctx(t))
	if err != nil {
		t.Fatalf("reply: %v", err)
	}
	if msg.Content != "<@"+bob.ID+">, you are challenged" || msg.Ephemeral() || msg.InteractionID != ix.ID {
		t.Fatalf("reply = %+v", msg)
	}
	if c, ok := msg.Component("accept"); !ok || c.Label != "Accept" || c.Emoji.Name != "♟️" {
		t.Fatalf("accept button = %+v, %v", c, ok)
	}

	content := "Challenge sent"
	edited, err := b.InteractionResponseEdit(in, &discordgo.WebhookEdit{Content: &content})
	if err != nil {
		t.Fatalf("edit: %v", err)
	}
	if edited.ID != msg.ID || edited.Content != content {
		t.Fatalf("edit returned %s %q", edited.ID, edited.Content)
	}
	if m, _ := srv.Message(msg.ID); m.Content != content || m.Version != 1 || m.EditedTimestamp.IsZero() {
		t.Fatalf("after edit the message is %+v", m)
	}
	got, err := b.InteractionResponse(in)
	if err != nil || got.Content != content {
		t.Fatalf("get @original = %v, %v", got, err)
	}

	f, err := b.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: "Only you can see this", Flags: discordgo.MessageFlagsEphemeral})
	if err != nil {
		t.Fatalf("follow-up: %v", err)
	}
	fm, _ := srv.Message(f.ID)
	if !fm.Ephemeral() || fm.VisibleTo != alice.ID || fm.VisibleToUser(bob.ID) {
		t.Fatalf("ephemeral follow-up = %+v", fm)
	}
	followEdit := "Still only you"
	if _, err := b.FollowupMessageEdit(in, f.ID, &discordgo.WebhookEdit{Content: &followEdit}); err != nil {
		t.Fatalf("edit follow-up: %v", err)
	}
	if err := b.FollowupMessageDelete(in, f.ID); err != nil {
		t.Fatalf("delete follow-up: %v", err)
	}
	if m, _ := srv.Message(f.ID); !m.Deleted {
		t.Fatal("follow-up not deleted")
	}
	if n := len(srv.Messages(srv.ChannelID())); n != 1 {
		t.Fatalf("channel has %d messages, want 1", n)
	}
	srv.AssertNoViolations(t)
}

func TestDeferredEphemeralResponse(t *testing.T) {
	t.Parallel()
	srv, b, alice, bob := twoPlayers(t)
	ix, in := challenge(t, srv, b, alice.ID, bob.ID)

	err := b.InteractionRespond(in, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
	})
	if err != nil {
		t.Fatalf("defer: %v", err)
	}
	thinking, err := srv.WaitMessage(ctx(t), func(m discordtest.Message) bool { return m.InteractionID == ix.ID })
	if err != nil {
		t.Fatal(err)
	}
	if !thinking.Loading() || !thinking.Ephemeral() || thinking.VisibleTo != alice.ID {
		t.Fatalf("deferred message = %+v, want loading and ephemeral to alice", thinking)
	}
	// An ephemeral message cannot be reached through the channel routes.
	_, err = b.ChannelMessage(thinking.ChannelID, thinking.ID)
	restError(t, err, 404, discordtest.CodeUnknownMessage)

	content := "Thought about it"
	if _, err := b.InteractionResponseEdit(in, &discordgo.WebhookEdit{Content: &content}); err != nil {
		t.Fatalf("edit: %v", err)
	}
	msg, err := ix.Reply(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if msg.Loading() || !msg.Ephemeral() || msg.Content != content {
		t.Fatalf("reply = %+v", msg)
	}
	srv.AssertNoViolations(t)
}

func TestFollowUpReplacesThinkingMessage(t *testing.T) {
	t.Parallel()
	srv, b, alice, bob := twoPlayers(t)
	ix, in := challenge(t, srv, b, alice.ID, bob.ID)

	if err := b.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
		t.Fatalf("defer: %v", err)
	}
	f, err := b.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: "done"})
	if err != nil {
		t.Fatalf("follow-up: %v", err)
	}
	msg, err := ix.Reply(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if msg.ID != f.ID || msg.Content != "done" || msg.Loading() {
		t.Fatalf("reply = %+v, follow-up %s", msg, f.ID)
	}
	srv.AssertNoViolations(t)
}

func TestButtonClickUpdatesMessage(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)
	alice := srv.AddUser("alice")

	posted, err := b.ChannelMessageSendComplex(srv.ChannelID(), &discordgo.MessageSend{
		Content: "Your move",
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "e4", Style: discordgo.PrimaryButton, CustomID: "move:e4"},
			discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, URL: "https://example.com/rules"},
		}}},
	})
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if _, err := srv.ClickButton(alice.ID, posted.ID, "nope"); err == nil {
		t.Fatal("clicking a missing button succeeded")
	}
	ix, err := srv.ClickButton(alice.ID, posted.ID, "move:e4")
	if err != nil {
		t.Fatalf("click: %v", err)
	}
	in := receive(t, b.interactions, "button interaction").Interaction
	if d := in.MessageComponentData(); d.CustomID != "move:e4" || d.ComponentType != discordgo.ButtonComponent {
		t.Fatalf("component data = %+v", d)
	}
	if in.Message == nil || in.Message.ID != posted.ID {
		t.Fatalf("interaction message = %+v, want %s", in.Message, posted.ID)
	}
	err = b.InteractionRespond(in, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: "1. e4"},
	})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	msg, err := ix.Reply(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	// discordgo sends "components": null, which clears them, as on Discord.
	if msg.ID != posted.ID || msg.Content != "1. e4" || len(msg.Components) != 0 {
		t.Fatalf("updated message = %+v", msg)
	}
	srv.AssertNoViolations(t)
}

func TestSelectWithDeferredUpdate(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)
	alice := srv.AddUser("alice")
	minV := 1
	posted, err := b.ChannelMessageSendComplex(srv.ChannelID(), &discordgo.MessageSend{
		Content: "Pick a game",
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: "game", MinValues: &minV, MaxValues: 1, Options: []discordgo.SelectMenuOption{
				{Label: "Chess", Value: "chess", Emoji: &discordgo.ComponentEmoji{Name: "♟️"}},
				{Label: "Connect Four", Value: "connect4", Emoji: &discordgo.ComponentEmoji{Name: "🔴"}},
			}},
		}}},
	})
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if _, err := srv.SelectValues(alice.ID, posted.ID, "game", "go"); err == nil {
		t.Fatal("selecting a value that is not an option succeeded")
	}
	ix, err := srv.SelectValues(alice.ID, posted.ID, "game", "connect4")
	if err != nil {
		t.Fatalf("select: %v", err)
	}
	in := receive(t, b.interactions, "select interaction").Interaction
	if v := in.MessageComponentData().Values; len(v) != 1 || v[0] != "connect4" {
		t.Fatalf("values = %v", v)
	}
	if err := b.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err != nil {
		t.Fatalf("deferred update: %v", err)
	}
	content := "Connect Four it is"
	if _, err := b.InteractionResponseEdit(in, &discordgo.WebhookEdit{Content: &content}); err != nil {
		t.Fatalf("edit: %v", err)
	}
	msg, err := ix.Reply(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if msg.ID != posted.ID || msg.Content != content {
		t.Fatalf("message = %+v", msg)
	}
	if _, ok := msg.Component("game"); !ok {
		t.Fatal("the edit without components removed them")
	}
	srv.AssertNoViolations(t)
}

func TestAutocomplete(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)
	registerCommands(t, b, srv)
	alice := srv.AddUser("alice")

	ix, err := srv.SendAutocomplete(discordtest.SlashCommand{
		UserID: alice.ID, Name: "chess",
		Options: []discordtest.Option{{Name: "challenge", Options: []discordtest.Option{{Name: "opening", Value: "sic", Focused: true}}}},
	})
	if err != nil {
		t.Fatalf("autocomplete: %v", err)
	}
	in := receive(t, b.interactions, "autocomplete").Interaction
	if in.Type != discordgo.InteractionApplicationCommandAutocomplete {
		t.Fatalf("type = %v", in.Type)
	}
	focused := in.ApplicationCommandData().Options[0].Options[0]
	if !focused.Focused || focused.StringValue() != "sic" {
		t.Fatalf("focused option = %+v", focused)
	}
	err = b.InteractionRespond(in, &discordgo.InteractionResponse{
		Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{
			{Name: "Sicilian Defence", Value: "sicilian"},
		}},
	})
	if err != nil {
		t.Fatalf("respond: %v", err)
	}
	resp, err := ix.Response(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Choices) != 1 || resp.Choices[0].Value != "sicilian" {
		t.Fatalf("choices = %+v", resp.Choices)
	}
	if _, err := ix.Reply(ctx(t)); err == nil {
		t.Fatal("Reply of an autocomplete interaction succeeded")
	}
	srv.AssertNoViolations(t)
}

func TestModalSubmit(t *testing.T) {
	t.Parallel()
	srv, b, alice, bob := twoPlayers(t)
	ix, in := challenge(t, srv, b, alice.ID, bob.ID)

	err := b.InteractionRespond(in, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseModal,
		Data: &discordgo.InteractionResponseData{
			CustomID: "move-modal", Title: "Your move",
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.TextInput{CustomID: "move", Label: "Move", Style: discordgo.TextInputShort, Required: true},
			}}},
		},
	})
	if err != nil {
		t.Fatalf("respond with modal: %v", err)
	}
	resp, err := ix.Response(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Modal == nil || resp.Modal.Title != "Your move" {
		t.Fatalf("response = %+v", resp)
	}
	submit, err := ix.SubmitModal(map[string]string{"move": "e2e4"})
	if err != nil {
		t.Fatalf("submit: %v", err)
	}
	sin := receive(t, b.interactions, "modal submit").Interaction
	data := sin.ModalSubmitData()
	input := data.Components[0].(*discordgo.ActionsRow).Components[0].(*discordgo.TextInput)
	if data.CustomID != "move-modal" || input.CustomID != "move" || input.Value != "e2e4" {
		t.Fatalf("modal data = %+v, input %+v", data, input)
	}
	reply(t, b, sin, "You played e2e4")
	msg, err := submit.Reply(ctx(t))
	if err != nil || msg.Content != "You played e2e4" {
		t.Fatalf("reply = %+v, %v", msg, err)
	}
	srv.AssertNoViolations(t)
}
