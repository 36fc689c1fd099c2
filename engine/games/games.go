// Package games lists Gambit's games by their stable names and sets up
// their positions, so that the command line, the strategies and the bot
// can pick a game from a word.
package games

import (
	"fmt"
	"strings"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/engine/tictactoe"
)

// StartWord is the position text that every game reads as its start.
const StartWord = "start"

// Options set up the start of a game. The zero value is every game's
// default.
type Options struct {
	// Rounds is the number of rounds of an Adjacency game (2–28); 0 means
	// DefaultRounds. Other games have no rounds.
	Rounds int
	// First is the side that moves first in Adjacency; the other games
	// always start with X.
	First engine.Side
}

// DefaultRounds is the length of an Adjacency game when Options do not
// say: 28 rounds fill the board.
const DefaultRounds = adjacency.MaxRounds

// Game describes one game.
type Game struct {
	// Name is the stable lowercase name used by the command line and the
	// bot; it is never changed once released.
	Name string
	// Title is the name to show people.
	Title string
	// MoveHelp says how moves are written, for help texts and errors.
	MoveHelp string
	// HasSetup reports whether Options apply (Adjacency only).
	HasSetup bool

	start func(Options) (engine.Position, error)
	parse func(string) (engine.Position, error)
}

var all = []Game{
	{
		Name:     "adjacency",
		Title:    "Adjacency",
		MoveHelp: "a cell a1–h8",
		HasSetup: true,
		start: func(o Options) (engine.Position, error) {
			if o.Rounds == 0 {
				o.Rounds = DefaultRounds
			}
			return adjacency.New(o.Rounds, o.First)
		},
		parse: func(text string) (engine.Position, error) { return orNil(adjacency.Parse(text)) },
	},
	{
		Name:     "connect4",
		Title:    "Connect Four",
		MoveHelp: "a column 1–7",
		start:    func(Options) (engine.Position, error) { return connect4.New(), nil },
		parse:    func(text string) (engine.Position, error) { return orNil(connect4.Parse(text)) },
	},
	{
		Name:     "tictactoe",
		Title:    "Tic-Tac-Toe",
		MoveHelp: "a cell 1–9, row by row from the top-left",
		start:    func(Options) (engine.Position, error) { return tictactoe.New(), nil },
		parse:    func(text string) (engine.Position, error) { return orNil(tictactoe.Parse(text)) },
	},
}

// orNil returns a parsed position as an engine.Position, or a nil one
// with the error: a nil *Position in an interface would not be nil.
func orNil[P engine.Position](p P, err error) (engine.Position, error) {
	if err != nil {
		return nil, err
	}
	return p, nil
}

// All returns every game, in a fixed order.
func All() []Game { return append([]Game(nil), all...) }

// Names returns the names of all games.
func Names() []string {
	names := make([]string, len(all))
	for i, g := range all {
		names[i] = g.Name
	}
	return names
}

// Lookup finds a game by name (either case).
func Lookup(name string) (Game, error) {
	for _, g := range all {
		if strings.EqualFold(g.Name, strings.TrimSpace(name)) {
			return g, nil
		}
	}
	return Game{}, fmt.Errorf("games: unknown game %q: want one of %s", name, strings.Join(Names(), ", "))
}

// Start returns the start of a game set up by opts. Options are refused
// for games that have none.
func (g Game) Start(opts Options) (engine.Position, error) {
	if !g.HasSetup && opts != (Options{}) {
		return nil, fmt.Errorf("games: %s has no rounds and always starts with x", g.Name)
	}
	p, err := g.start(opts)
	if err != nil {
		return nil, fmt.Errorf("games: start %s: %w", g.Name, err)
	}
	return p, nil
}

// Position reads a position text of the game, or the word "start" (or
// nothing) for the start set up by opts; opts must be zero with any other
// text, which carries its own setup.
func (g Game) Position(text string, opts Options) (engine.Position, error) {
	if t := strings.TrimSpace(text); t == "" || t == StartWord {
		return g.Start(opts)
	}
	if opts != (Options{}) {
		return nil, fmt.Errorf("games: a %s position text carries its own setup: rounds and first side apply to %q only", g.Name, StartWord)
	}
	return g.parse(text) // its errors name the game and the text
}

// PerftCounts are the results of Perft.
type PerftCounts struct {
	// Leaves counts the lines of play of the asked depth, or shorter where
	// the game ends first.
	Leaves uint64
	// HasSums reports whether SumX and SumO apply: Adjacency only.
	HasSums bool
	// SumX and SumO sum the X and O marks on the board over all leaves.
	SumX, SumO uint64
}

// Perft counts the leaves of the game tree below p to depth, with the
// fastest counter each game has: Adjacency's Board.Perft (which also sums
// the marks), engine.Perft for the others.
func Perft(p engine.Position, depth int) PerftCounts {
	if a, ok := p.(*adjacency.Position); ok {
		c := a.Board.Perft(depth)
		return PerftCounts{Leaves: c.Leaves, HasSums: true, SumX: c.SumX, SumO: c.SumO}
	}
	return PerftCounts{Leaves: engine.Perft(p, depth, nil)}
}
