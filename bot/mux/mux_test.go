package mux

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/render"
)

// answers is a Responder and Outgoing that records the responses instead
// of sending them.
type answers struct {
	responses []*discordgo.InteractionResponse
}

func (a *answers) InteractionRespond(_ *discordgo.Interaction, resp *discordgo.InteractionResponse, _ ...discordgo.RequestOption) error {
	a.responses = append(a.responses, resp)
	return nil
}

func (a *answers) InteractionResponse(*discordgo.Interaction, ...discordgo.RequestOption) (*discordgo.Message, error) {
	return &discordgo.Message{ID: "original"}, nil
}

func (a *answers) InteractionResponseEdit(*discordgo.Interaction, *discordgo.WebhookEdit, ...discordgo.RequestOption) (*discordgo.Message, error) {
	return &discordgo.Message{ID: "original"}, nil
}

func (a *answers) FollowupMessageCreate(*discordgo.Interaction, bool, *discordgo.WebhookParams, ...discordgo.RequestOption) (*discordgo.Message, error) {
	return &discordgo.Message{ID: "followup"}, nil
}

func (a *answers) Observe(error)                          {}
func (a *answers) Forget(string)                          {}
func (a *answers) Saw(*discordgo.Message, render.Message) {}
func (a *answers) Keeping(_ string, _ render.Message, send func(map[string]string) (*discordgo.Message, error)) (*discordgo.Message, error) {
	return send(nil)
}

// deliver runs m's handler on raw, from alice, and returns the interaction
// and what the handler returned.
func deliver(m *Mux, out *answers, raw *discordgo.Interaction) (*Interaction, error) {
	raw.ID, raw.Token = "ix", "token"
	raw.Member = &discordgo.Member{User: &discordgo.User{ID: "alice"}}
	ix := NewInteraction(raw, out, out, time.Now(), time.Now(), nil)
	return ix, m.Handler()(context.Background(), ix)
}

// TestACommandIsDeclaredOnce declares a command with its definition,
// handler and autocomplete in one entry and checks that the Mux registers
// the definition, runs the handler with the options and answers the
// autocomplete requests, and that a second declaration of the name is
// refused.
func TestACommandIsDeclaredOnce(t *testing.T) {
	m := New()
	var got string
	m.Command(&discordgo.ApplicationCommand{Name: "greet", Description: "Says hello"}, func(_ context.Context, ix *Command) error {
		got = ix.Name + " " + ix.Opts.Str("who")
		return ix.Say("error.who")
	}, func(_ context.Context, ix *Autocomplete) error {
		return ix.Choices([]*discordgo.ApplicationCommandOptionChoice{{Name: ix.Opts.Focused, Value: ix.Opts.Str(ix.Opts.Focused)}})
	})
	m.Command(&discordgo.ApplicationCommand{Name: "quiet", Description: "Completes nothing"}, func(context.Context, *Command) error { return nil }, nil)

	if defs := m.Definitions(); len(defs) != 2 || defs[0].Name != "greet" || defs[1].Name != "quiet" {
		t.Fatalf("definitions %v, want greet then quiet", defs)
	}
	out := &answers{}
	who := []*discordgo.ApplicationCommandInteractionDataOption{{Name: "who", Type: discordgo.ApplicationCommandOptionString, Value: " bob ", Focused: true}}
	ix, err := deliver(m, out, &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand,
		Data: discordgo.ApplicationCommandInteractionData{Name: "greet", Options: who}})
	if err != nil || got != "greet bob" || ix.Kind != "command:/greet" || len(out.responses) != 1 {
		t.Fatalf("command: ran %q, kind %q, err %v, %d responses", got, ix.Kind, err, len(out.responses))
	}
	if _, err := deliver(m, out, &discordgo.Interaction{Type: discordgo.InteractionApplicationCommandAutocomplete,
		Data: discordgo.ApplicationCommandInteractionData{Name: "greet", Options: who}}); err != nil {
		t.Fatal(err)
	}
	if c := out.responses[1].Data.Choices; len(c) != 1 || c[0].Value != "bob" {
		t.Errorf("autocomplete choices %v, want the typed bob", c)
	}
	if _, err := deliver(m, out, &discordgo.Interaction{Type: discordgo.InteractionApplicationCommandAutocomplete,
		Data: discordgo.ApplicationCommandInteractionData{Name: "quiet"}}); err != nil {
		t.Fatal(err)
	}
	if r := out.responses[2]; r.Type != discordgo.InteractionApplicationCommandAutocompleteResult || len(r.Data.Choices) != 0 {
		t.Errorf("a command without autocomplete answered %+v, want no choices", r)
	}
	_, err = deliver(m, out, &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand,
		Data: discordgo.ApplicationCommandInteractionData{Name: "gone"}})
	var ue *UserError
	if !errors.As(err, &ue) || ue.ID() != "error.unknown_command" {
		t.Errorf("an unknown command: %v, want the user's error.unknown_command", err)
	}

	defer func() {
		if recover() == nil {
			t.Error("a second declaration of greet was accepted")
		}
	}()
	m.Command(&discordgo.ApplicationCommand{Name: "greet"}, func(context.Context, *Command) error { return nil }, nil)
}

// TestAGroupWrapsItsRoutes checks that the routes of a Group run through
// its wrap, which gives them their value (the bot's game, here a
// parameter in capitals), that routes outside it do not, and that an
// unknown custom ID is the user's error.
func TestAGroupWrapsItsRoutes(t *testing.T) {
	const (
		grouped customid.Pattern = "v1/test-grouped/{game}"
		alone   customid.Pattern = "v1/test-alone/{game}"
	)
	m := New()
	var ran []string
	games := NewGroup(m, func(h func(context.Context, *Component, string) error) ComponentHandler {
		return func(ctx context.Context, ix *Component) error {
			ran = append(ran, "wrap")
			return h(ctx, ix, strings.ToUpper(ix.Params["game"]))
		}
	})
	games.Component(grouped, func(_ context.Context, _ *Component, game string) error {
		ran = append(ran, "grouped "+game)
		return nil
	})
	m.Component(alone, func(_ context.Context, ix *Component) error {
		ran = append(ran, "alone "+ix.Params["game"])
		return nil
	})
	out := &answers{}
	click := func(id string) (*Interaction, error) {
		return deliver(m, out, &discordgo.Interaction{Type: discordgo.InteractionMessageComponent,
			Data: discordgo.MessageComponentInteractionData{CustomID: id}})
	}
	if _, err := click(grouped.Build("abc")); err != nil {
		t.Fatal(err)
	}
	ix, err := click(alone.Build("abc"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"wrap", "grouped ABC", "alone abc"}; !slices.Equal(ran, want) {
		t.Errorf("ran %v, want %v", ran, want)
	}
	if ix.Kind != "component:"+string(alone) {
		t.Errorf("kind %q", ix.Kind)
	}
	ix, err = click("v0/gone")
	var ue *UserError
	if !errors.As(err, &ue) || ue.ID() != "error.old_button" || ix.Kind != "component:unknown" {
		t.Errorf("an unknown custom ID: %v, kind %q; want the user's error.old_button", err, ix.Kind)
	}
}

// TestChainRunsTheFirstMiddlewareOutermost checks Chain's order: each
// middleware runs before and after the ones given after it, and the
// handler last of all.
func TestChainRunsTheFirstMiddlewareOutermost(t *testing.T) {
	var ran []string
	mark := func(name string) Middleware {
		return func(next Handler) Handler {
			return func(ctx context.Context, ix *Interaction) error {
				ran = append(ran, name+" in")
				err := next(ctx, ix)
				ran = append(ran, name+" out")
				return err
			}
		}
	}
	h := Chain(func(context.Context, *Interaction) error {
		ran = append(ran, "handler")
		return nil
	}, mark("a"), mark("b"))
	if err := h(context.Background(), &Interaction{}); err != nil {
		t.Fatal(err)
	}
	want := []string{"a in", "b in", "handler", "b out", "a out"}
	if !slices.Equal(ran, want) {
		t.Errorf("ran %v, want %v", ran, want)
	}
}

// TestOptionErrorsNameTheOptionInTheReadersLanguage checks that an
// option's refusal names it as the reader's Discord shows it: its
// translated name in Indonesian, its own in English.
func TestOptionErrorsNameTheOptionInTheReadersLanguage(t *testing.T) {
	o := OptionsOf("settings", []*discordgo.ApplicationCommandInteractionDataOption{
		{Name: "turn-timeout", Type: discordgo.ApplicationCommandOptionInteger, Value: 1.5},
	})
	_, given, err := o.Integer("turn-timeout")
	var ue *UserError
	if !given || !errors.As(err, &ue) {
		t.Fatalf("Integer of 1.5 = given %v, %v; want the user's error", given, err)
	}
	if got := ue.Text(i18n.For(i18n.Indonesian)); !strings.Contains(got, "Opsi batas-giliran") {
		t.Errorf("Indonesian: %q", got)
	}
	if got := ue.Text(i18n.For(i18n.English)); !strings.Contains(got, "Option turn-timeout") {
		t.Errorf("English: %q", got)
	}
}

// TestEchoBoundsQuotedInput checks the helper every refusal quotes input
// through: short text passes whole, long text is cut to maxEcho
// characters, whole letters only.
func TestEchoBoundsQuotedInput(t *testing.T) {
	if got := Echo("e4"); got != "e4" {
		t.Errorf("Echo(e4) = %q", got)
	}
	long := strings.Repeat("é", 5000)
	got := Echo(long)
	if n := utf8.RuneCountInString(got); n != maxEcho || !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
		t.Errorf("Echo of 5,000 letters = %q (%d letters), want %d valid letters ending in …", got, n, maxEcho)
	}
}

// sentAt records the answers' order and the BeforeSend hook's calls.
type sentAt struct {
	answers
	log []string
}

func (s *sentAt) InteractionRespond(i *discordgo.Interaction, resp *discordgo.InteractionResponse, o ...discordgo.RequestOption) error {
	s.log = append(s.log, "respond")
	return s.answers.InteractionRespond(i, resp, o...)
}

func (s *sentAt) FollowupMessageCreate(*discordgo.Interaction, bool, *discordgo.WebhookParams, ...discordgo.RequestOption) (*discordgo.Message, error) {
	s.log = append(s.log, "follow up")
	return &discordgo.Message{ID: "followup"}, nil
}

// TestAnswersKnowWhetherTheyCameFirst checks the answers' bookkeeping that
// the error path relies on: Fail replies while nothing was answered and
// follows up after, a second response is refused, and the BeforeSend hook
// (the game seam's lock) runs before each call to Discord until it is
// cleared.
func TestAnswersKnowWhetherTheyCameFirst(t *testing.T) {
	out := &sentAt{}
	var answered int
	ix := NewInteraction(&discordgo.Interaction{ID: "ix", Type: discordgo.InteractionMessageComponent}, out, out, time.Now(), time.Now(),
		func(*Interaction) { answered++ })
	ix.BeforeSend(func() { out.log = append(out.log, "hook") })
	if err := ix.Fail("first"); err != nil {
		t.Fatal(err)
	}
	if !ix.IsAnswered() || answered != 1 {
		t.Fatalf("after Fail: answered %v, onAnswer called %d times", ix.IsAnswered(), answered)
	}
	if r := out.responses[0]; r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Errorf("Fail before any answer sent %+v, want an ephemeral reply", r)
	}
	if err := ix.Update(render.Message{Content: "again"}); err == nil {
		t.Error("a second response was sent")
	}
	ix.BeforeSend(nil)
	if err := ix.Fail("second"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"hook", "respond", "hook", "follow up"}; !slices.Equal(out.log, want) {
		t.Errorf("calls %v, want %v: the hook before each call while set (the refused second response's too), none once cleared, Fail following up once answered", out.log, want)
	}
	if answered != 1 {
		t.Errorf("onAnswer called %d times, want once", answered)
	}
}
