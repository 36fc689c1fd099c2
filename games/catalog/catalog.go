// Package catalog lists Gambit's games: the one place where a game's
// plug-in is registered. Every list of games in Gambit — the command
// line's, the strategies', the bot's commands, help and errors — comes
// from here.
package catalog

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/adjacency"
	"github.com/gambitbot/gambit/games/connect4"
	"github.com/gambitbot/gambit/games/tictactoe"
)

// all are the registered games, in the order listings show them.
var all = []*games.Game{
	adjacency.Game,
	connect4.Game,
	tictactoe.Game,
}

// byType finds a game by the type of its positions.
var byType = func() map[reflect.Type]*games.Game {
	m := make(map[reflect.Type]*games.Game, len(all))
	for _, g := range all {
		p, err := g.Start(games.Options{})
		if err != nil {
			panic(fmt.Sprintf("catalog: %s does not start with its default options: %v", g.Name, err))
		}
		if other, dup := m[reflect.TypeOf(p)]; dup {
			panic(fmt.Sprintf("catalog: %s and %s share a position type", g.Name, other.Name))
		}
		m[reflect.TypeOf(p)] = g
	}
	return m
}()

// Of returns the game of a position, or nil for a position of no
// registered game.
func Of(pos engine.Position) *games.Game { return byType[reflect.TypeOf(pos)] }

// All returns every game, in a fixed order.
func All() []*games.Game { return append([]*games.Game(nil), all...) }

// Names returns the names of all games.
func Names() []string {
	names := make([]string, len(all))
	for i, g := range all {
		names[i] = g.Name
	}
	return names
}

// Lookup finds a game by name (either case).
func Lookup(name string) (*games.Game, error) {
	for _, g := range all {
		if strings.EqualFold(g.Name, strings.TrimSpace(name)) {
			return g, nil
		}
	}
	return nil, fmt.Errorf("games: unknown game %q: want one of %s", name, strings.Join(Names(), ", "))
}

// Known reports whether name is a registered game's name, exactly.
func Known(name string) bool {
	for _, g := range all {
		if g.Name == name {
			return true
		}
	}
	return false
}
