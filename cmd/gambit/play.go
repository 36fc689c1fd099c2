package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/terminal"
)

const playUsage = `
Usage: gambit play --game {duels} [--vs STRATEGY] [--rounds N]
                   [--first me|ai] [--time DURATION]

Plays a game against a strategy (default minimax, searching --time a move,
default 1s) in the terminal. Whoever moves first plays x: you with --first
me (the default), the strategy with --first ai. The board is drawn with the
coordinates the bot uses, and moves are typed the same way:
{typing}
The puzzles have no opponent: solve them with gambit solve.
An illegal or unreadable move is explained and asked again. "moves" lists
the legal moves; "quit" or "resign", or the end of the input, resigns. The
result and the final score end the game.

Examples:
  gambit play --game tictactoe
  gambit play --game adjacency --rounds 8 --vs greedy
  gambit play --game connect4 --first ai --time 3s
`

// usageWidth is the width the usage texts wrap at.
const usageWidth = 76

// playUsageText is play's usage with how a move is typed in each duel
// (games.Game.Typing) beside the duel's title.
func playUsageText() string {
	var duels []*games.Game
	width := 0
	for _, g := range catalog.All() {
		if slices.Contains(duelNames(), g.Name) {
			duels = append(duels, g)
			width = max(width, utf8.RuneCountInString(g.Title))
		}
	}
	var lines []string
	for _, g := range duels {
		line := fmt.Sprintf("  %-*s  ", width, g.Title) // fmt pads by characters
		indent := strings.Repeat(" ", utf8.RuneCountInString(line))
		for i, word := range strings.Fields(g.Typing) {
			switch {
			case i == 0:
				line += word
			case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > usageWidth:
				lines, line = append(lines, line), indent+word
			default:
				line += " " + word
			}
		}
		lines = append(lines, line)
	}
	return strings.Replace(playUsage, "{typing}", strings.Join(lines, "\n"), 1)
}

func runPlay(args []string, sio stdio) error {
	fs := newFlagSet("play", playUsageText(), sio.out)
	gameName := gameFlag(fs, duelNames())
	vs := fs.String("vs", "minimax", "the strategy to play against (see gambit strategies)")
	rounds := fs.Int("rounds", 0, "Adjacency: the rounds of the game, 2–28 (default: the game's default, 8, as in /play)")
	first := fs.String("first", "me", "who moves first and plays x: me or ai")
	moveTime := fs.Duration("time", time.Second, "the strategy's time a move")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *gameName == "" {
		return errNoGame()
	}
	game, err := catalog.Lookup(*gameName)
	if err != nil {
		return usageError{err}
	}
	ai, err := lookupAI(*vs, game)
	if err != nil {
		return err
	}
	human := engine.X
	switch {
	case fs.set()["rounds"] && game.Setup.Rounds == nil:
		return roundsOnly()
	case *moveTime <= 0:
		return usagef("--time must be positive, such as 500ms or 5s")
	case *first == "ai":
		human = engine.O
	case *first != "me":
		return usagef("--first %q: want me or ai", *first)
	}
	pos, err := game.Start(games.Options{Rounds: *rounds})
	if err != nil {
		return usageError{err}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return terminal.Play(ctx, sio.in, sio.out, terminal.Game{Game: game, Start: pos, AI: ai, MoveTime: *moveTime, Human: human})
}

// roundsOnly is the usage error of --rounds for a game without rounds: it
// names the games that have them (games.Setup.Rounds).
func roundsOnly() error {
	var names []string
	for _, g := range catalog.All() {
		if g.Setup.Rounds != nil {
			names = append(names, g.Name)
		}
	}
	return usagef("--rounds applies to %s only", joinWords(names, "and"))
}

// joinWords joins words for a sentence: "a", "a or b", "a, b or c" with
// last "or".
func joinWords(words []string, last string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + last + " " + words[len(words)-1]
}
