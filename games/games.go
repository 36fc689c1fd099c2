// Package games is Gambit's game plug-in layer. Each game is one value of
// type Game, defined in its own package under games/ and listed once in
// games/catalog; the command line, the strategies, the bot's commands,
// boards and help all read a game through that value. Adding a game means
// adding its engine package, its plug-in package and one catalog line.
//
// A Game joins the game's pure rules (an engine package) with what the
// rest of Gambit needs to know about it: its notation, its setup options
// and their defaults, how its board looks (an emoji palette and a board
// model that a renderer draws), how moves are entered, its help text and
// the evaluation its AI searches with. Nothing here does I/O or knows
// Discord: renderers turn the descriptions into messages (Board.Text is
// the plain-text one). The package's examples are the place to start
// reading.
package games

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/gambitbot/gambit/engine"
)

// StartWord is the position text that every game reads as its start.
const StartWord = "start"

// Options set up the start of a game. The zero value is every game's
// default setup.
type Options struct {
	// Rounds is the number of rounds, for a game whose Setup has rounds;
	// 0 means the game's default.
	Rounds int
	// First is the side that moves first, for a game whose Setup lets the
	// players choose; the other games always start with X.
	First engine.Side
	// Size is the board's side, for a game whose Setup has sizes (the
	// N of N-Queens); 0 means the game's default.
	Size int
}

// Range is an integer option's bounds and default.
type Range struct {
	// Min and Max bound the option, inclusive.
	Min, Max int
	// Default is the value when none is given.
	Default int
}

// Setup says which Options a game takes.
type Setup struct {
	// Rounds is the range of the rounds option; nil for a game without
	// rounds.
	Rounds *Range
	// ChooseFirst reports whether either side may move first.
	ChooseFirst bool
	// Size is the range of the board size option; nil for a game played
	// on one size.
	Size *Range
}

// Any reports whether the game takes any option.
func (s Setup) Any() bool { return s.Rounds != nil || s.ChooseFirst || s.Size != nil }

// Game is one game's plug-in: everything Gambit needs to know about it.
// Every field is required unless its comment says otherwise; the
// conformance test in games/catalog checks each registered game.
type Game struct {
	// Name is the stable lowercase name used by the command line, the bot
	// and the database; it is never changed once released.
	Name string
	// Title is the name to show people, such as "Connect Four".
	Title string
	// Summary is one line for overviews: what the game is about.
	Summary string
	// Players is 2 for a game between two sides; 1 for a solo puzzle.
	Players int
	// Setup says which Options the game takes.
	Setup Setup
	// MoveHelp says how moves are written, for help texts and errors
	// ("a column 1–7").
	MoveHelp string
	// Typing says how a move is typed at the terminal board of gambit
	// play, whose usage lists it under the game's title ("a column 1–7";
	// "a cell: files a–h across, ranks 8..1 down, such as c3", as that
	// board is drawn). Required of a duel the AI plays; empty for a game
	// gambit play does not play.
	Typing string
	// Solve is what gambit solve (and, for a puzzle, strategies/puzzles'
	// hints, solutions and comparisons) does with the game; NoSolve for a
	// game it does not solve. Every puzzle has one.
	Solve Solving
	// New returns the start position of a setup; Options are already
	// checked against Setup and defaulted.
	New func(Options) (engine.Position, error)
	// Parse reads a position text (not the start word).
	Parse func(text string) (engine.Position, error)
	// Look is how the board is drawn.
	Look Look
	// Input is how a player enters moves on the board.
	Input Input
	// Help is the game's help page.
	Help Help
	// Texts are the game's player texts in every language the bot speaks:
	// the files en.toml and id.toml at the FS root, each holding only
	// messages under game.<Name>. (its title, rules, move words, menus,
	// units of its Tally as game.<Name>.unit.<unit>), in the TOML format
	// of bot/i18n/locales. bot/i18n loads them beside its own messages and
	// refuses a file with a message outside the game's prefix. A plug-in
	// embeds them (//go:embed locales) and passes TextsIn(files, "locales").
	Texts fs.FS
	// AI is what searches know of the game; nil for a game no generic
	// strategy can play.
	AI *AI
	// Owns, if not nil, reports whether a position of the game's position
	// type is the game's: it tells apart games that share a type (the
	// 8-puzzle and the 15-puzzle). Games sharing a type must all have it.
	Owns func(pos engine.Position) bool
	// Changes, if not nil, returns the cells other than its own that the
	// legal move m changes in pos (Adjacency's captures), before it is
	// played.
	Changes func(pos engine.Position, m engine.Move) []engine.Move
	// Moved, if not nil, names the piece the legal move m moves in pos,
	// before it is played, as a player names it (a sliding tile's
	// number): Play records it in Change.Changed, so that the last move
	// reads as the piece that moved.
	Moved func(pos engine.Position, m engine.Move) string
	// Perft, if not nil, counts the leaves of the game tree faster than
	// engine.Perft, or with more detail.
	Perft func(p engine.Position, depth int) PerftCounts
}

// Solving is a way of solving a game (Game.Solve): each names the
// solvers that carry it out, which gambit solve runs for the games whose
// plug-in has it.
type Solving int

// The ways of solving.
const (
	// NoSolve is a game's that is not solved.
	NoSolve Solving = iota
	// SolveExact finds the exact scores of positions read one a line,
	// in Pascal Pons' format, with strategies/c4solver: Connect Four's
	// alone, whose solver that is.
	SolveExact
	// SolveTiles finds the solutions of sliding-tile positions
	// (strategies/puzzles' TileSolvers).
	SolveTiles
	// SolveQueens places N queens (strategies/puzzles' QueensSolvers).
	SolveQueens
)

// PerftCounts are the results of a perft.
type PerftCounts struct {
	// Leaves counts the lines of play of the asked depth, or shorter where
	// the game ends first.
	Leaves uint64
	// HasSums reports whether SumX and SumO apply.
	HasSums bool
	// SumX and SumO sum the X and O marks on the board over all leaves.
	SumX, SumO uint64
}

// ErrSetup reports options a game does not take, or out of their range.
var ErrSetup = errors.New("invalid setup")

// Resolve checks opts against the game's Setup and fills in the defaults.
func (g *Game) Resolve(opts Options) (Options, error) {
	if r := g.Setup.Rounds; r != nil {
		if opts.Rounds == 0 {
			opts.Rounds = r.Default
		}
		if opts.Rounds < r.Min || opts.Rounds > r.Max {
			return Options{}, fmt.Errorf("games: %s: %w: %d rounds: want %d to %d", g.Name, ErrSetup, opts.Rounds, r.Min, r.Max)
		}
	} else if opts.Rounds != 0 {
		return Options{}, fmt.Errorf("games: %s: %w: it has no rounds", g.Name, ErrSetup)
	}
	if r := g.Setup.Size; r != nil {
		if opts.Size == 0 {
			opts.Size = r.Default
		}
		if opts.Size < r.Min || opts.Size > r.Max {
			return Options{}, fmt.Errorf("games: %s: %w: size %d: want %d to %d", g.Name, ErrSetup, opts.Size, r.Min, r.Max)
		}
	} else if opts.Size != 0 {
		return Options{}, fmt.Errorf("games: %s: %w: it is played on one size", g.Name, ErrSetup)
	}
	if !g.Setup.ChooseFirst && opts.First != engine.X {
		return Options{}, fmt.Errorf("games: %s: %w: it always starts with x", g.Name, ErrSetup)
	}
	return opts, nil
}

// Start returns the start of the game set up by opts.
func (g *Game) Start(opts Options) (engine.Position, error) {
	opts, err := g.Resolve(opts)
	if err != nil {
		return nil, err
	}
	p, err := g.New(opts)
	if err != nil {
		return nil, fmt.Errorf("games: start %s: %w", g.Name, err)
	}
	return p, nil
}

// Position reads a position text of the game, or the word "start" (or
// nothing) for the start set up by opts; opts must be zero with any other
// text, which carries its own setup.
func (g *Game) Position(text string, opts Options) (engine.Position, error) {
	if t := strings.TrimSpace(text); t == "" || t == StartWord {
		return g.Start(opts)
	}
	if opts != (Options{}) {
		return nil, fmt.Errorf("games: a %s position text carries its own setup: options apply to %q only", g.Name, StartWord)
	}
	return g.Parse(text) // its errors name the game and the text
}

// CountLeaves counts the leaves of the game tree below p to depth, with the
// game's own perft if it has one.
func (g *Game) CountLeaves(p engine.Position, depth int) PerftCounts {
	if g.Perft != nil {
		return g.Perft(p, depth)
	}
	return PerftCounts{Leaves: engine.Perft(p, depth, nil)}
}

// Play plays the legal move m on pos and returns what it did, for the
// game's record of its last move.
func (g *Game) Play(pos engine.Position, m engine.Move) Change {
	c := Change{Move: pos.FormatMove(m)}
	if g.Changes != nil {
		for _, cell := range g.Changes(pos, m) {
			c.Changed = append(c.Changed, pos.FormatMove(cell))
		}
	}
	if g.Moved != nil {
		c.Changed = append(c.Changed, g.Moved(pos, m))
	}
	pos.Play(m)
	return c
}

// Solo reports whether the game is a one-player puzzle.
func (g *Game) Solo() bool { return g.Players == 1 }

// TextsIn returns the directory dir of fsys as the root of a Game's
// Texts. It panics on an invalid dir, a mistake in the plug-in's own
// source.
func TextsIn(fsys fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(fmt.Sprintf("games: texts in %q: %v", dir, err))
	}
	return sub
}

// OrNil returns a parsed position as an engine.Position, or a nil one
// with the error: a nil *Position in an interface would not be nil.
func OrNil[P engine.Position](p P, err error) (engine.Position, error) {
	if err != nil {
		return nil, err
	}
	return p, nil
}
