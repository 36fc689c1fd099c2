package mux

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
)

// Handler handles one interaction of any kind: the Mux's own handler, and
// what a Middleware wraps.
type Handler func(ctx context.Context, ix *Interaction) error

// Middleware wraps a handler in what it does around it.
type Middleware func(next Handler) Handler

// CommandHandler handles a slash command or a user command.
type CommandHandler func(ctx context.Context, ix *Command) error

// AutocompleteHandler answers a command's autocomplete request.
type AutocompleteHandler func(ctx context.Context, ix *Autocomplete) error

// ComponentHandler handles a component interaction whose custom ID
// matched a route.
type ComponentHandler func(ctx context.Context, ix *Component) error

// Chain returns h wrapped in mws, the first the outermost.
func Chain(h Handler, mws ...Middleware) Handler {
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}

// command is one command's entry: its definition with its handlers.
type command struct {
	def      *discordgo.ApplicationCommand
	handle   CommandHandler
	complete AutocompleteHandler
}

// route is one component route.
type route struct {
	pattern customid.Pattern
	handle  ComponentHandler
}

// Mux routes interactions to the handlers declared on it: each command
// once, with its definition, and each component by its custom ID's
// pattern, in the order declared (the first pattern that matches wins).
type Mux struct {
	commands []command
	byName   map[string]int
	routes   []route
	mws      []Middleware
}

// New returns an empty Mux.
func New() *Mux { return &Mux{byName: map[string]int{}} }

// Command declares a command: its definition, its handler and, if its
// options autocomplete, the handler of their requests (nil otherwise).
// Declaring a name twice is a programming error: it panics.
func (m *Mux) Command(def *discordgo.ApplicationCommand, handle CommandHandler, complete AutocompleteHandler) {
	if _, dup := m.byName[def.Name]; dup {
		panic(fmt.Sprintf("mux: command %q declared twice", def.Name))
	}
	m.byName[def.Name] = len(m.commands)
	m.commands = append(m.commands, command{def: def, handle: handle, complete: complete})
}

// Component declares the handler of the components whose custom IDs
// match pattern.
func (m *Mux) Component(pattern customid.Pattern, h ComponentHandler) {
	m.routes = append(m.routes, route{pattern, h})
}

// Use adds middlewares around every interaction the Mux handles, the
// first given the outermost.
func (m *Mux) Use(mws ...Middleware) { m.mws = append(m.mws, mws...) }

// Definitions returns the commands' definitions in the order declared.
func (m *Mux) Definitions() []*discordgo.ApplicationCommand {
	out := make([]*discordgo.ApplicationCommand, len(m.commands))
	for i, c := range m.commands {
		out[i] = c.def
	}
	return out
}

// Patterns returns the component routes' patterns in the order declared.
func (m *Mux) Patterns() []customid.Pattern {
	out := make([]customid.Pattern, len(m.routes))
	for i, r := range m.routes {
		out[i] = r.pattern
	}
	return out
}

// Match returns the handler of a custom ID, its parameters and the
// pattern that matched.
func (m *Mux) Match(id string) (ComponentHandler, customid.Params, customid.Pattern, bool) {
	for _, rt := range m.routes {
		if p, ok := rt.pattern.Match(id); ok {
			return rt.handle, p, rt.pattern, true
		}
	}
	return nil, nil, "", false
}

// Handler returns the Mux's handler: dispatch inside the middlewares
// given to Use. Declare every route and middleware before calling it.
func (m *Mux) Handler() Handler { return Chain(m.dispatch, m.mws...) }

// dispatch names the interaction's kind (Interaction.Kind) and runs its
// handler. What has no handler is the user's error: an unknown command,
// a button of an older version; an autocomplete request without one gets
// no choices.
func (m *Mux) dispatch(ctx context.Context, ix *Interaction) error {
	if ix.Caller() == nil {
		ix.Kind = "unknown"
		return Err("error.who")
	}
	switch i := ix.raw; i.Type {
	case discordgo.InteractionApplicationCommand:
		data := i.ApplicationCommandData()
		ix.Kind = "command:/" + data.Name
		if data.CommandType == discordgo.UserApplicationCommand {
			ix.Kind = "user:" + data.Name
		}
		n, ok := m.byName[data.Name]
		if !ok {
			return Err("error.unknown_command", "Name", Echo(data.Name))
		}
		return m.commands[n].handle(ctx, &Command{Interaction: ix, Name: data.Name, Opts: OptionsOf(data.Name, data.Options), Target: data.TargetID, Resolved: data.Resolved})
	case discordgo.InteractionApplicationCommandAutocomplete:
		data := i.ApplicationCommandData()
		ix.Kind = "autocomplete:/" + data.Name
		ac := &Autocomplete{Interaction: ix, Name: data.Name, Opts: OptionsOf(data.Name, data.Options)}
		n, ok := m.byName[data.Name]
		if !ok || m.commands[n].complete == nil {
			return ac.Choices(nil)
		}
		return m.commands[n].complete(ctx, ac)
	case discordgo.InteractionMessageComponent:
		data := i.MessageComponentData()
		h, params, pattern, ok := m.Match(data.CustomID)
		if !ok {
			ix.Kind = "component:unknown"
			return Err("error.old_button")
		}
		ix.Kind = "component:" + string(pattern)
		return h(ctx, &Component{Interaction: ix, Params: params, Values: data.Values})
	}
	ix.Kind = "unsupported"
	return Err("error.unsupported")
}

// Group is component routes whose handlers take a value of type T that
// the group's wrap provides around each of them: the bot's game routes
// take the game, loaded under its lock (disgo's Group, with what its
// middleware provides typed).
type Group[T any] struct {
	m    *Mux
	wrap func(func(ctx context.Context, ix *Component, v T) error) ComponentHandler
}

// NewGroup returns a group of m's routes whose handlers wrap turns into
// component handlers.
func NewGroup[T any](m *Mux, wrap func(func(ctx context.Context, ix *Component, v T) error) ComponentHandler) Group[T] {
	return Group[T]{m: m, wrap: wrap}
}

// Component declares the handler, wrapped by the group, of the components
// whose custom IDs match pattern.
func (g Group[T]) Component(pattern customid.Pattern, h func(ctx context.Context, ix *Component, v T) error) {
	g.m.Component(pattern, g.wrap(h))
}
