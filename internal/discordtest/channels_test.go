package discordtest_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
)

func TestChannelMessagesAndEvents(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	subCtx, cancel := context.WithCancel(ctx(t))
	events := srv.Subscribe(subCtx)
	b := openBot(t, srv)

	first, err := b.ChannelMessageSendComplex(srv.ChannelID(), &discordgo.MessageSend{
		Content: "Board",
		Embeds:  []*discordgo.MessageEmbed{{Title: "Connect Four"}},
		Files:   []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader([]byte("PNG"))}},
	})
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if created := receive(t, b.messages, "MESSAGE_CREATE"); created.ID != first.ID {
		t.Fatalf("MESSAGE_CREATE for %s, want %s", created.ID, first.ID)
	}
	second, err := b.ChannelMessageSend(srv.ChannelID(), "second")
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if _, err := b.ChannelMessageEdit(srv.ChannelID(), first.ID, "Board, edited"); err != nil {
		t.Fatalf("edit: %v", err)
	}
	list, err := b.ChannelMessages(srv.ChannelID(), 10, "", "", "")
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	if len(list) != 2 || list[0].ID != second.ID || list[1].Content != "Board, edited" {
		t.Fatalf("list = %v, want newest first", list)
	}
	if err := b.ChannelMessageDelete(srv.ChannelID(), second.ID); err != nil {
		t.Fatalf("delete: %v", err)
	}

	msgs := srv.Messages(srv.ChannelID())
	if len(msgs) != 1 || msgs[0].Embeds[0].Title != "Connect Four" || msgs[0].Content != "Board, edited" {
		t.Fatalf("messages = %+v", msgs)
	}
	att := msgs[0].Attachments
	if len(att) != 1 || att[0].Filename != "board.png" || string(att[0].Data) != "PNG" {
		t.Fatalf("attachments = %+v", att)
	}
	resp, err := http.Get(att[0].URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "PNG" {
		t.Fatalf("attachment URL served %q", body)
	}

	var got []discordtest.EventType
	for range 4 {
		got = append(got, receive(t, events, "message event").Type)
	}
	want := []discordtest.EventType{discordtest.MessageCreated, discordtest.MessageCreated, discordtest.MessageUpdated, discordtest.MessageDeleted}
	if !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	cancel()
	for range events {
	}
	srv.AssertNoViolations(t)
}

func TestCommandRegistration(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)
	alice := srv.AddUser("alice")

	if _, err := srv.SendCommand(discordtest.SlashCommand{UserID: alice.ID, Name: "chess"}); err == nil {
		t.Fatal("an unregistered command was sent")
	}
	created, err := b.ApplicationCommandBulkOverwrite(srv.ApplicationID(), "", gameCommands)
	if err != nil {
		t.Fatalf("register: %v", err)
	}
	again, err := b.ApplicationCommandBulkOverwrite(srv.ApplicationID(), "", gameCommands)
	if err != nil {
		t.Fatalf("register again: %v", err)
	}
	if created[0].ID == "" || again[0].ID != created[0].ID || created[0].ApplicationID != srv.ApplicationID() {
		t.Fatalf("command IDs %q then %q", created[0].ID, again[0].ID)
	}
	listed, err := b.ApplicationCommands(srv.ApplicationID(), "")
	if err != nil || len(listed) != 1 || listed[0].Name != "chess" {
		t.Fatalf("list = %v, %v", listed, err)
	}
	if cmds := srv.Commands(""); len(cmds) != 1 || len(cmds[0].Options) != 2 {
		t.Fatalf("Commands = %+v", cmds)
	}
	if _, err := b.ApplicationCommandBulkOverwrite("1", "", gameCommands); err == nil {
		t.Fatal("registering for another application succeeded")
	}

	missing := discordtest.SlashCommand{UserID: alice.ID, Name: "chess",
		Options: []discordtest.Option{{Name: "challenge"}}}
	if _, err := srv.SendCommand(missing); err == nil {
		t.Fatal("a command without its required option was sent")
	}
	wrongType := discordtest.SlashCommand{UserID: alice.ID, Name: "chess",
		Options: []discordtest.Option{{Name: "challenge", Options: []discordtest.Option{{Name: "opponent", Value: 7}}}}}
	if _, err := srv.SendCommand(wrongType); err == nil {
		t.Fatal("a user option with an integer value was sent")
	}
	srv.AssertNoViolations(t)
}

func TestPermissionsAreReportedAndEnforced(t *testing.T) {
	t.Parallel()
	srv, b, alice, bob := twoPlayers(t)
	ch := srv.ChannelID()
	if err := srv.SetBotPermissions(ch, discordgo.PermissionViewChannel); err != nil {
		t.Fatal(err)
	}
	if err := srv.SetMemberPermissions(srv.GuildID(), alice.ID, discordgo.PermissionSendMessages); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.SendCommand(discordtest.SlashCommand{Name: "chess", Options: []discordtest.Option{{Name: "challenge", Options: []discordtest.Option{{Name: "opponent", Value: bob.ID}}}}, UserID: alice.ID, ChannelID: ch}); err != nil {
		t.Fatal(err)
	}
	in := receive(t, b.interactions, "interaction")
	if in.AppPermissions != discordgo.PermissionViewChannel {
		t.Errorf("app_permissions = %d, want View Channel only", in.AppPermissions)
	}
	if in.Member.Permissions != discordgo.PermissionSendMessages {
		t.Errorf("member permissions = %d, want Send Messages only", in.Member.Permissions)
	}
	_, err := b.ChannelMessageSend(ch, "hello")
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != discordtest.CodeMissingPermissions {
		t.Fatalf("posting without Send Messages: err = %v, want 50013 Missing Permissions", err)
	}
	if err := srv.SetBotPermissions(ch, 0); err != nil {
		t.Fatal(err)
	}
	_, err = b.ChannelMessages(ch, 10, "", "", "")
	if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != discordtest.CodeMissingAccess {
		t.Fatalf("reading without View Channel: err = %v, want 50001 Missing Access", err)
	}
}

func TestIdentityAndUserIDsSurviveARestart(t *testing.T) {
	t.Parallel()
	first := newServer(t)
	alice, err := first.AddUserWithID("", "alice")
	if err != nil {
		t.Fatal(err)
	}
	again := newServer(t, discordtest.WithIdentity(first.Identity()))
	if again.Identity() != first.Identity() || again.GuildID() != first.GuildID() || again.ChannelID() != first.ChannelID() ||
		again.ApplicationID() != first.ApplicationID() {
		t.Fatalf("identity %+v after restart, want %+v", again.Identity(), first.Identity())
	}
	if u, err := again.AddUserWithID(alice.ID, "alice"); err != nil || u.ID != alice.ID {
		t.Fatalf("AddUserWithID(%s) = %+v, %v", alice.ID, u, err)
	}
	if _, err := again.AddUserWithID(alice.ID, "mallory"); err == nil {
		t.Error("a taken user ID was given out twice")
	}
	if _, err := again.AddUserWithID("not-a-snowflake", "eve"); err == nil {
		t.Error("a malformed user ID was accepted")
	}
}
