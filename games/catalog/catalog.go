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
	"github.com/gambitbot/gambit/games/gomoku"
	"github.com/gambitbot/gambit/games/othello"
	"github.com/gambitbot/gambit/games/queens"
	"github.com/gambitbot/gambit/games/tictactoe"
	"github.com/gambitbot/gambit/games/tiles"
)

// all are the registered games, in the order listings show them: the
// duels, then the solo puzzles.
var all = []*games.Game{
	adjacency.Game,
	connect4.Game,
	tictactoe.Game,
	othello.Game,
	gomoku.Game,
	tiles.Eight,
	tiles.Fifteen,
	queens.Game,
}

// byType finds the games of a position type: one, or several that tell
// their positions apart with Owns.
var byType = func() map[reflect.Type][]*games.Game {
	m := make(map[reflect.Type][]*games.Game, len(all))
	for _, g := range all {
		p, err := g.Start(games.Options{})
		if err != nil {
			panic(fmt.Sprintf("catalog: %s does not start with its default options: %v", g.Name, err))
		}
		t := reflect.TypeOf(p)
		for _, other := range m[t] {
			if g.Owns == nil || other.Owns == nil {
				panic(fmt.Sprintf("catalog: %s and %s share a position type, and one cannot tell its positions (Owns)", g.Name, other.Name))
			}
		}
		m[t] = append(m[t], g)
	}
	return m
}()

// Of returns the game of a position, or nil for a position of no
// registered game.
func Of(pos engine.Position) *games.Game {
	list := byType[reflect.TypeOf(pos)]
	if len(list) == 1 {
		return list[0]
	}
	for _, g := range list {
		if g.Owns(pos) {
			return g
		}
	}
	return nil
}

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
