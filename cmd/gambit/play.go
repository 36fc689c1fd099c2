package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/engine/tictactoe"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/strategies"
)

const playUsage = `
Usage: gambit play --game {games} [--vs STRATEGY] [--rounds N]
                   [--first me|ai] [--time DURATION]

Plays a game against a strategy (default minimax, searching --time a move,
default 1s) in the terminal. Whoever moves first plays x: you with --first
me (the default), the strategy with --first ai. The board is drawn with the
coordinates the bot uses, and moves are typed the same way:
  Adjacency     a cell: files a–h across, ranks 8..1 down, such as c3
  Connect Four  a column 1–7
  Tic-Tac-Toe   a cell 1–9, row by row from the top-left (empty cells show
                their number)
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
	gameName := gameFlag(fs)
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
	ai, err := strategies.LookupFor(*vs, game.Name)
	if err != nil {
		return usageError{err}
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

	out := sio.out
	fmt.Fprintf(out, "%s against %s (%s, %v a move). You play %s. Type %s; \"moves\" lists the legal moves, \"quit\" resigns.\n",
		game.Title, ai.Name, ai.Difficulty, *moveTime, human, game.MoveHelp)
	input := bufio.NewScanner(sio.in)
	resigned := false
	for !pos.Terminal() && !resigned {
		drawBoard(out, pos)
		if pos.SideToMove() == human {
			var m engine.Move
			if m, resigned, err = readMove(input, out, game, pos); err != nil {
				return err
			}
			if !resigned {
				pos.Play(m)
			}
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), *moveTime)
		res, err := ai.Strategy.Search(ctx, pos, strategies.Limits{})
		cancel()
		if err != nil {
			return fmt.Errorf("play: %s in %v: %w", ai.Name, pos, err)
		}
		if !pos.Legal(res.Move) {
			return fmt.Errorf("play: %s chose the illegal move %d in %v", ai.Name, res.Move, pos)
		}
		fmt.Fprintf(out, "%s plays %s\n", ai.Name, pos.FormatMove(res.Move))
		pos.Play(res.Move)
	}
	if !resigned {
		drawBoard(out, pos)
	}
	outcome := map[engine.Result]string{engine.Win: "you win", engine.Loss: ai.Name + " wins", engine.Draw: "a draw"}[pos.Result(human)]
	if resigned {
		outcome = "you resign: " + ai.Name + " wins"
	}
	_, err = fmt.Fprintf(out, "\nGame over: %s. Final score: you %d, %s %d%s.\n",
		outcome, pos.Score(human), ai.Name, pos.Score(human.Other()), markCounts(pos))
	return err
}

// readMove asks for the player's move until a legal one is typed; resign
// reports "quit", "resign" or the end of the input.
func readMove(input *bufio.Scanner, out io.Writer, game *games.Game, pos engine.Position) (m engine.Move, resign bool, err error) {
	for {
		fmt.Fprintf(out, "Your move (%s): ", pos.SideToMove())
		if !input.Scan() {
			if err := input.Err(); err != nil {
				return engine.NoMove, false, fmt.Errorf("play: reading your move: %w", err)
			}
			fmt.Fprintln(out, "\nEnd of input.")
			return engine.NoMove, true, nil
		}
		text := strings.ToLower(strings.TrimSpace(input.Text()))
		switch text {
		case "":
			continue
		case "quit", "resign":
			return engine.NoMove, true, nil
		case "moves":
			fmt.Fprintf(out, "Legal moves: %s\n", strings.Join(moveNames(pos, pos.Moves(nil)), " "))
			continue
		}
		m, err := pos.ParseMove(text)
		if err != nil {
			fmt.Fprintf(out, "Not a legal move: %s. Type %s, \"moves\" for the list or \"quit\".\n",
				strings.TrimPrefix(err.Error(), game.Name+": "), game.MoveHelp)
			continue
		}
		return m, false, nil
	}
}

// markCounts returns ", x N marks, o M" for Adjacency, whose score is the
// difference of the marks, and nothing for the other games.
func markCounts(pos engine.Position) string {
	if a, ok := pos.(*adjacency.Position); ok {
		return fmt.Sprintf(" (x %d marks, o %d)", a.Count(engine.X), a.Count(engine.O))
	}
	return ""
}

// drawBoard draws pos with the coordinates moves are typed in.
func drawBoard(w io.Writer, pos engine.Position) {
	b := strings.Builder{}
	b.WriteString("\n")
	mark := func(s engine.Side, ok bool, empty string) string {
		if !ok {
			return empty
		}
		return s.String()
	}
	switch p := pos.(type) {
	case *adjacency.Position:
		const files = "   a b c d e f g h\n"
		b.WriteString(files)
		for rank := 7; rank >= 0; rank-- {
			fmt.Fprintf(&b, "%d ", rank+1)
			for file := range 8 {
				s, ok := p.Mark(engine.Move(8*rank + file))
				b.WriteString(" " + mark(s, ok, "."))
			}
			fmt.Fprintf(&b, "  %d\n", rank+1)
		}
		b.WriteString(files)
	case *connect4.Position:
		for row := connect4.Height - 1; row >= 0; row-- {
			b.WriteString("|")
			for col := range connect4.Width {
				s, ok := p.At(col, row)
				b.WriteString(mark(s, ok, " ") + "|")
			}
			b.WriteString("\n")
		}
		b.WriteString(" 1 2 3 4 5 6 7\n")
	case *tictactoe.Position:
		for row := range 3 {
			if row > 0 {
				b.WriteString("---+---+---\n")
			}
			var cells [3]string
			for col := range cells {
				c := engine.Move(3*row + col)
				s, ok := p.Mark(c)
				cells[col] = mark(s, ok, p.FormatMove(c))
			}
			fmt.Fprintf(&b, " %s | %s | %s\n", cells[0], cells[1], cells[2])
		}
	default:
		b.WriteString(pos.String() + "\n")
	}
	fmt.Fprint(w, b.String())
}
