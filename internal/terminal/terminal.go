// Package terminal plays a game against a strategy in a terminal, for
// gambit play: the board drawn as text (games.Board.Text, with the
// coordinates the bot uses), moves typed in the game's notation, an
// illegal or unreadable one explained and asked again.
package terminal

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/strategies"
)

// Game is a game to play in the terminal.
type Game struct {
	// Game is the game's plug-in.
	Game *games.Game
	// Start is the position it starts from.
	Start engine.Position
	// AI is the opponent, searching MoveTime a move.
	AI       strategies.Info
	MoveTime time.Duration
	// Human is the side the person plays.
	Human engine.Side
}

// Play plays g: the person's moves are read from in, the board and the
// opponent's moves written to out, until the game ends or the person
// resigns ("quit", "resign" or the end of in). It fails only when reading
// or writing fails or the opponent cannot move.
func Play(ctx context.Context, in io.Reader, out io.Writer, g Game) error {
	game, ai, human, pos := g.Game, g.AI, g.Human, g.Start
	fmt.Fprintf(out, "%s against %s (%s, %v a move). You play %s. Type %s; \"moves\" lists the legal moves, \"quit\" resigns.\n",
		game.Title, ai.DisplayName, ai.DifficultyIn(game.Name), g.MoveTime, human, game.MoveHelp)
	input := bufio.NewScanner(in)
	resigned := false
	for !pos.Terminal() && !resigned {
		drawBoard(out, game, pos)
		if pos.SideToMove() == human {
			m, resign, err := readMove(input, out, game, pos)
			if err != nil {
				return err
			}
			if resigned = resign; !resigned {
				pos.Play(m)
			}
			continue
		}
		moveCtx, cancel := context.WithTimeout(ctx, g.MoveTime)
		res, err := ai.Strategy.Search(moveCtx, pos, strategies.Limits{})
		cancel()
		if err != nil {
			return fmt.Errorf("play: %s in %v: %w", ai.Name, pos, err)
		}
		if !pos.Legal(res.Move) {
			return fmt.Errorf("play: %s chose the illegal move %d in %v", ai.Name, res.Move, pos)
		}
		fmt.Fprintf(out, "%s plays %s\n", ai.DisplayName, pos.FormatMove(res.Move))
		pos.Play(res.Move)
	}
	if !resigned {
		drawBoard(out, game, pos)
	}
	outcome := "you resign: " + ai.DisplayName + " wins"
	if !resigned {
		outcome = map[engine.Result]string{engine.Win: "you win", engine.Loss: ai.DisplayName + " wins", engine.Draw: "a draw"}[pos.Result(human)]
	}
	if marks := tally(game, pos); marks != "" { // the count on the board, where the game counts
		outcome += ". On the board: " + marks
	}
	_, err := fmt.Fprintf(out, "\nGame over: %s.\n", outcome)
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
			var names []string
			for _, m := range pos.Moves(nil) {
				names = append(names, pos.FormatMove(m))
			}
			fmt.Fprintf(out, "Legal moves: %s\n", strings.Join(names, " "))
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

// tally returns "x N marks, o M" for a game whose plug-in counts a side's
// marks next to its score (Adjacency, Othello), and "" for the others.
func tally(game *games.Game, pos engine.Position) string {
	if game.Look.Tally == nil {
		return ""
	}
	x, unit := game.Look.Tally(pos, engine.X)
	o, _ := game.Look.Tally(pos, engine.O)
	return fmt.Sprintf("x %d %ss, o %d", x, unit, o)
}

// drawBoard draws pos with the coordinates moves are typed in.
func drawBoard(w io.Writer, game *games.Game, pos engine.Position) {
	fmt.Fprint(w, "\n"+game.Look.Board(pos, nil).Text())
}
