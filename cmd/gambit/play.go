package main

import (
	"context"
	"os"
	"os/signal"
	"time"

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
  Adjacency     a cell: files a–h across, ranks 8..1 down, such as c3
  Connect Four  a column 1–7
  Tic-Tac-Toe   a cell 1–9, row by row from the top-left (empty cells show
                their number)
  Othello       a square such as f5 (rows from the top), or pass
  Gomoku        a point such as h8 (rows from the bottom)
The puzzles have no opponent: solve them with gambit solve.
An illegal or unreadable move is explained and asked again. "moves" lists
the legal moves; "quit" or "resign", or the end of the input, resigns. The
result and the final score end the game.

Examples:
  gambit play --game tictactoe
  gambit play --game adjacency --rounds 8 --vs greedy
  gambit play --game connect4 --first ai --time 3s
`

func runPlay(args []string, sio stdio) error {
	fs := newFlagSet("play", playUsage, sio.out)
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
		return usagef("--rounds applies to adjacency only")
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
