package main

import (
	"strings"
	"unicode"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// positionFlags are the options that name a game and a position in it,
// shared by the commands that take one.
type positionFlags struct {
	game, position, first, moves *string
	rounds                       *int
}

// addPositionFlags registers --game (one of names), --position, --rounds,
// --first and --moves.
func addPositionFlags(fs *flagSet, names []string) positionFlags {
	return positionFlags{
		game:     gameFlag(fs, names),
		position: fs.String("position", games.StartWord, "the position text, or start"),
		rounds:   fs.Int("rounds", 0, "Adjacency: rounds of the game from the start, 2–28 (default 28: the full board)"),
		first:    fs.String("first", "x", "Adjacency: the side that moves first from the start, x or o"),
		moves:    fs.String("moves", "", "moves to play from the position first, in the game's notation, separated by spaces or commas (a JSON list will do)"),
	}
}

// resolve returns the game and position the flags name, after fs.parse;
// any problem is a usage error.
func (pf positionFlags) resolve(fs *flagSet) (*games.Game, engine.Position, error) {
	if *pf.game == "" {
		return nil, nil, errNoGame()
	}
	game, err := catalog.Lookup(*pf.game)
	if err != nil {
		return nil, nil, usageError{err}
	}
	var opts games.Options
	if set := fs.set(); set["rounds"] || set["first"] {
		if !game.Setup.Any() {
			return nil, nil, usagef("--rounds and --first apply to adjacency only")
		}
		side, err := engine.ParseSide(*pf.first)
		if err != nil {
			return nil, nil, usagef("--first: %v", err)
		}
		opts = games.Options{Rounds: *pf.rounds, First: side}
	}
	if r := game.Setup.Rounds; r != nil && opts.Rounds == 0 && isStart(*pf.position) {
		opts.Rounds = r.Max // the tools measure the full board unless told
	}
	pos, err := game.Position(*pf.position, opts)
	if err != nil {
		return nil, nil, usageError{err}
	}
	// Spaces, commas, quotes and brackets all separate, so that a JSON
	// list of moves can be pasted as it is.
	moves := strings.FieldsFunc(*pf.moves, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(`,"[]`, r) })
	for i, text := range moves {
		m, err := pos.ParseMove(text) // checks legality too
		if err != nil {
			return nil, nil, usagef("--moves: move %d: %v", i+1, err)
		}
		pos.Play(m)
	}
	return game, pos, nil
}

// isStart reports whether a position text names the start.
func isStart(text string) bool {
	t := strings.TrimSpace(text)
	return t == "" || t == games.StartWord
}
