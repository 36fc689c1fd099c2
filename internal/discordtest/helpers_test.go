package discordtest_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/internal/racetest"
)

// waitTimeout bounds every wait of the tests: until shortly before the
// test binary's deadline (discordtest.UntilTestDeadline), so that a
// loaded machine makes a test slower, never failing. It is never reached
// when the code works.
func waitTimeout(t testing.TB) time.Duration {
	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	if d, ok := ctx.Deadline(); ok {
		return time.Until(d)
	}
	return time.Hour
}

// TestMain runs the tests eight at a time (discordtest.WaitingTests):
// most wait on discordgo, whose Close alone sleeps a second.
func TestMain(m *testing.M) {
	discordtest.WaitingTests(8)
	racetest.Exit(m.Run())
}

// newServer starts a stand-in that is closed, and checked for violations,
// when the test ends.
func newServer(t *testing.T, opts ...discordtest.ServerOption) *discordtest.Server {
	t.Helper()
	srv := discordtest.New(opts...)
	t.Cleanup(srv.Close)
	return srv
}

// bot is a real discordgo session connected to the stand-in, with the
// events the tests look at delivered on channels.
type bot struct {
	*discordgo.Session
	interactions chan *discordgo.InteractionCreate
	ready        chan *discordgo.Ready
	resumed      chan *discordgo.Resumed
	rateLimits   chan *discordgo.RateLimit
	messages     chan *discordgo.MessageCreate
}

// openBot opens a discordgo session against srv; it is closed when the test
// ends.
func openBot(t *testing.T, srv *discordtest.Server) *bot {
	t.Helper()
	s, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatalf("discordgo.New: %v", err)
	}
	s.Client = &http.Client{Transport: srv.Transport(), Timeout: waitTimeout(t)}
	b := &bot{
		Session:      s,
		interactions: make(chan *discordgo.InteractionCreate, 16),
		ready:        make(chan *discordgo.Ready, 4),
		resumed:      make(chan *discordgo.Resumed, 4),
		rateLimits:   make(chan *discordgo.RateLimit, 4),
		messages:     make(chan *discordgo.MessageCreate, 16),
	}
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.InteractionCreate) { b.interactions <- e })
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.Ready) { b.ready <- e })
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.Resumed) { b.resumed <- e })
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.RateLimit) { b.rateLimits <- e })
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.MessageCreate) { b.messages <- e })
	if err := s.Open(); err != nil {
		t.Fatalf("open session: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return b
}

// receive waits for a value on ch.
func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitTimeout(t)):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// ctx returns a context bounded by waitTimeout.
func ctx(t *testing.T) context.Context {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), waitTimeout(t))
	t.Cleanup(cancel)
	return c
}

// gameCommands is a command set in the style of the bot's.
var gameCommands = []*discordgo.ApplicationCommand{{
	Name:        "chess",
	Description: "Play chess",
	Options: []*discordgo.ApplicationCommandOption{
		{
			Type: discordgo.ApplicationCommandOptionSubCommand, Name: "challenge", Description: "Challenge someone",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who to play", Required: true},
				{Type: discordgo.ApplicationCommandOptionString, Name: "opening", Description: "Opening", Autocomplete: true},
			},
		},
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "resign", Description: "Resign the game"},
	},
}}

// registerCommands registers gameCommands globally through the REST API.
func registerCommands(t *testing.T, b *bot, srv *discordtest.Server) {
	t.Helper()
	if _, err := b.ApplicationCommandBulkOverwrite(srv.ApplicationID(), "", gameCommands); err != nil {
		t.Fatalf("register commands: %v", err)
	}
}

// challenge sends "/chess challenge opponent:<opponent>" as user and
// returns the stand-in's and the bot's view of the interaction.
func challenge(t *testing.T, srv *discordtest.Server, b *bot, user, opponent string) (*discordtest.Interaction, *discordgo.Interaction) {
	t.Helper()
	ix, err := srv.SendCommand(discordtest.SlashCommand{
		UserID: user, Name: "chess",
		Options: []discordtest.Option{{Name: "challenge", Options: []discordtest.Option{{Name: "opponent", Value: opponent}}}},
	})
	if err != nil {
		t.Fatalf("send command: %v", err)
	}
	got := receive(t, b.interactions, "INTERACTION_CREATE")
	if got.ID != ix.ID {
		t.Fatalf("bot got interaction %s, want %s", got.ID, ix.ID)
	}
	return ix, got.Interaction
}

// restError asserts that err is Discord's JSON error with the given status
// and code.
func restError(t *testing.T, err error, status, code int) {
	t.Helper()
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		t.Fatalf("error = %v, want a *discordgo.RESTError", err)
	}
	if re.Response.StatusCode != status || re.Message == nil || re.Message.Code != code {
		t.Fatalf("error = %v, want HTTP %d with code %d", err, status, code)
	}
}

// reply answers an interaction with a plain message.
func reply(t *testing.T, b *bot, in *discordgo.Interaction, content string) {
	t.Helper()
	err := b.InteractionRespond(in, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: content},
	})
	if err != nil {
		t.Fatalf("respond: %v", err)
	}
}

// twoPlayers starts a stand-in (with opts), connects a bot with the test
// commands registered, and adds the users alice and bob.
func twoPlayers(t *testing.T, opts ...discordtest.ServerOption) (*discordtest.Server, *bot, discordtest.User, discordtest.User) {
	t.Helper()
	srv := newServer(t, opts...)
	b := openBot(t, srv)
	registerCommands(t, b, srv)
	return srv, b, srv.AddUser("alice"), srv.AddUser("bob")
}

// UntilTestDeadline ends shortly before go test's -timeout, never after
// it, and leaves at most DeadlineMargin for the diagnostics.
func TestUntilTestDeadline(t *testing.T) {
	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	got, bounded := ctx.Deadline()
	want, ok := t.Deadline()
	switch {
	case bounded != ok:
		t.Fatalf("the context has a deadline: %v; the test has one: %v", bounded, ok)
	case ok && (!got.Before(want) || want.Sub(got) > discordtest.DeadlineMargin):
		t.Errorf("the context ends at %v, %v before the test's deadline; want within (0, %v]", got, want.Sub(got), discordtest.DeadlineMargin)
	}
}
