// Package muxtest runs a flow's handlers in a unit test: interactions
// made as Discord sends them, handled by a mux.Mux the flow declared its
// routes on, answered into a Recorder instead of Discord. No bot, no
// stand-in, no network.
package muxtest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
)

// Recorder is a mux.Responder and mux.Outgoing that records the answers
// instead of sending them.
type Recorder struct {
	// OnEdit, if not nil, is called with each edit of an interaction's
	// response, on the goroutine that edits: a test sees the edits there,
	// or holds one.
	OnEdit func(*discordgo.WebhookEdit)

	mu        sync.Mutex
	responses []*discordgo.InteractionResponse
}

// InteractionRespond records the response.
func (r *Recorder) InteractionRespond(_ *discordgo.Interaction, resp *discordgo.InteractionResponse, _ ...discordgo.RequestOption) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.responses = append(r.responses, resp)
	return nil
}

// InteractionResponse returns a message standing for @original.
func (r *Recorder) InteractionResponse(*discordgo.Interaction, ...discordgo.RequestOption) (*discordgo.Message, error) {
	return &discordgo.Message{ID: "original"}, nil
}

// InteractionResponseEdit hands the edit to OnEdit and returns a message
// standing for @original.
func (r *Recorder) InteractionResponseEdit(_ *discordgo.Interaction, edit *discordgo.WebhookEdit, _ ...discordgo.RequestOption) (*discordgo.Message, error) {
	if r.OnEdit != nil {
		r.OnEdit(edit)
	}
	return &discordgo.Message{ID: "original"}, nil
}

// FollowupMessageCreate returns a message standing for the follow-up.
func (r *Recorder) FollowupMessageCreate(*discordgo.Interaction, bool, *discordgo.WebhookParams, ...discordgo.RequestOption) (*discordgo.Message, error) {
	return &discordgo.Message{ID: "followup"}, nil
}

// Observe counts nothing: a unit test has no metrics.
func (r *Recorder) Observe(error) {}

// Forget keeps nothing: a unit test's messages carry no files to keep.
func (r *Recorder) Forget(string) {}

// Saw keeps nothing: a unit test's messages carry no files to keep.
func (r *Recorder) Saw(*discordgo.Message, render.Message) {}

// Keeping sends msg keeping no file.
func (r *Recorder) Keeping(_ string, _ render.Message, send func(map[string]string) (*discordgo.Message, error)) (*discordgo.Message, error) {
	return send(nil)
}

// Responses returns the responses recorded so far.
func (r *Recorder) Responses() []*discordgo.InteractionResponse {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*discordgo.InteractionResponse(nil), r.responses...)
}

// Only returns the one response recorded, failing t if there is not
// exactly one.
func (r *Recorder) Only(t testing.TB) *discordgo.InteractionResponse {
	t.Helper()
	got := r.Responses()
	if len(got) != 1 {
		t.Fatalf("%d responses, want 1: %v", len(got), got)
	}
	return got[0]
}

// Member is a member of guild "guild" in channel "channel" as an
// interaction carries them: user id, with perms (discordgo.Permission…).
func Member(id string, perms int64) *discordgo.Member {
	return &discordgo.Member{User: &discordgo.User{ID: id, Username: id}, Permissions: perms}
}

// Option is a command option as Discord sends it.
func Option(name string, typ discordgo.ApplicationCommandOptionType, value any) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: typ, Value: value}
}

// Command is the slash command name with opts, used by member in guild
// "guild", channel "channel", in locale.
func Command(member *discordgo.Member, locale discordgo.Locale, name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.Interaction {
	return &discordgo.Interaction{
		ID: "ix-" + name, AppID: "app", Token: "token-" + name, Type: discordgo.InteractionApplicationCommand,
		GuildID: "guild", ChannelID: "channel", Member: member, Locale: locale,
		Data: discordgo.ApplicationCommandInteractionData{Name: name, Options: opts},
	}
}

// Autocomplete is the autocomplete request of command name whose option
// focused is being typed, the others given as opts.
func Autocomplete(member *discordgo.Member, name string, focused *discordgo.ApplicationCommandInteractionDataOption, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.Interaction {
	f := *focused
	f.Focused = true
	return &discordgo.Interaction{
		ID: "ac-" + name, AppID: "app", Token: "token-ac-" + name, Type: discordgo.InteractionApplicationCommandAutocomplete,
		GuildID: "guild", ChannelID: "channel", Member: member,
		Data: discordgo.ApplicationCommandInteractionData{Name: name, Options: append(opts, &f)},
	}
}

// Click is member's click on the button customID of message "board" in
// guild "guild", channel "channel".
func Click(member *discordgo.Member, locale discordgo.Locale, customID string) *discordgo.Interaction {
	return &discordgo.Interaction{
		ID: "click-" + customID, AppID: "app", Token: "token-click-" + customID, Type: discordgo.InteractionMessageComponent,
		GuildID: "guild", ChannelID: "channel", Member: member, Locale: locale,
		Message: &discordgo.Message{ID: "board", ChannelID: "channel"},
		Data:    discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: discordgo.ButtonComponent},
	}
}

// Run handles raw with m's handler, answering into rec, and returns what
// the handler returned. The error is the handler's: a user's error is not
// turned into a reply, as the bot's chain would.
func Run(m *mux.Mux, rec *Recorder, raw *discordgo.Interaction) error {
	ix := mux.NewInteraction(raw, rec, rec, time.Now(), time.Now(), nil)
	return m.Handler()(context.Background(), ix)
}

// UserError returns the text of err, a user's error, in locale's
// language, failing t if err is not one.
func UserError(t testing.TB, err error, locale string) string {
	t.Helper()
	var ue *mux.UserError
	if !errors.As(err, &ue) {
		t.Fatalf("error %v, want a user's error", err)
	}
	return ue.Text(i18n.For(locale))
}
