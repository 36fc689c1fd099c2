package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/internal/terminal"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
	"github.com/gambitbot/gambit/strategies/review"
)

const reviewUsage = `
Usage: gambit review --game {duels} --moves 'M1 M2 …' [--position TEXT|start]
                     [--rounds N] [--first x|o] [--nodes N] [--game-nodes N] [--time DURATION] [--out DIR]
       gambit review (--db PATH | --url URL) --game ID [--nodes N] [--game-nodes N] [--time DURATION] [--out DIR]

Reviews a finished duel as the bot's Review button does: each move valued
against the best move of its position — exact where the search reaches the
end of the game (Connect Four through its solver, Tic-Tac-Toe, Adjacency's
last plies), minimax's estimate elsewhere — and labelled best, good,
inaccuracy, mistake or blunder, with the best move and the turning point.
Once a game is won or lost under perfect play, where the game's exact values
tell how far the end is (Connect Four, Tic-Tac-Toe), the moves are compared
by how long they hold out (or how soon they win): a move that lets the
opponent win at once where a defence held out longer is a blunder.
The budget is the bot's, the same review as its Review button's: the whole
game is searched for --game-nodes positions (default the game's: 200000000
for Connect Four, 15000000 for Othello, 600000 for Gomoku, 120000000 for the
others), shared out over its positions from the last to the first, so that a
long game costs no more than a short one, and each position for --nodes at
most (default the game's: 4000000, none for Connect Four). Node caps make the
review the same on every machine and in every process; --time (default none)
also stops each position's search after that long. On a terminal, the
progress is shown on standard error.

The game is a move list (--moves, in the game's notation; Connect Four's
columns may be written together, 4453) from --position, or a game stored by
the bot (--db, or --url for PostgreSQL, and --game its ID, as its board's
footer shows). A stored game's kept review is printed as it is, unless older
rules made it; the database is opened read-only and not changed.

--out DIR writes the replay (DIR/replay.gif) and the turning point
(DIR/turning-point.png: the move played on the left, the best move on the
right).

Examples:
  gambit review --game connect4 --moves 44444432 --nodes 200000
  gambit review --game tictactoe --moves '5 2 1 9 7 3 4' --out /tmp/review
  gambit review --db ./data/gambit.db --game 0001k --out /tmp/review
`

func runReview(args []string, sio stdio) error {
	fs := newFlagSet("review", reviewUsage, sio.out)
	where := addPositionFlags(fs, duelNames())
	dbPath := fs.String("db", "", "a bbolt database of the bot, to review its game --game ID")
	url := fs.String("url", "", "a PostgreSQL URL of the bot's database, to review its game --game ID")
	moveTime := fs.Duration("time", 0, "each position's search time (0: the node caps alone)")
	nodes := fs.Uint64("nodes", 0, "each position's node cap (default: the game's, as the bot's)")
	gameNodes := fs.Uint64("game-nodes", 0, "the whole game's node cap (default: the game's, as the bot's)")
	out := fs.String("out", "", "a directory to write replay.gif and turning-point.png in")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *moveTime < 0 {
		return usagef("--time must be 0 (none) or positive")
	}
	ctx := context.Background()
	var (
		gm    *games.Game
		start engine.Position
		moves []string
		rev   *review.Review
		loser engine.Side
		lost  bool
		err   error
	)
	if *dbPath != "" || *url != "" {
		var g *storage.Game
		if g, rev, err = storedGame(ctx, *url, *dbPath, storage.GameID(*where.game)); err != nil {
			return err
		}
		if gm, start, err = render.StartOf(g); err != nil {
			return err
		}
		final, err := gm.Position(g.Position, games.Options{})
		if err != nil {
			return fmt.Errorf("review: game %s: %w", g.ID, err)
		}
		moves = g.Moves
		loser, lost = render.Loser(g, final)
	} else {
		if *where.moves == "" {
			return usagef("--moves is required without --db: the game's moves, such as --moves '4 4 5 3'")
		}
		moves, *where.moves = splitMoves(*where.moves), ""
		if gm, start, err = where.resolve(fs); err != nil {
			return err
		}
		if err := needAI(gm); err != nil {
			return err
		}
		if moves, err = readMoves(start, moves); err != nil {
			return err
		}
		final := start.Clone()
		for _, m := range moves {
			mv, _ := final.ParseMove(m)
			final.Play(mv)
		}
		if final.Terminal() && final.Result(engine.X) != engine.Draw {
			lost, loser = true, engine.X
			if final.Result(engine.X) == engine.Win {
				loser = engine.O
			}
		}
	}
	if rev == nil {
		budget := review.Standard(gm.Name)
		budget.Time = *moveTime
		if *nodes > 0 {
			budget.Nodes = *nodes
		}
		if *gameNodes > 0 {
			budget.Game = *gameNodes
		}
		if rev, err = review.Analyze(ctx, strategies.Minimax{}, gm, start, moves, budget, reviewProgress(sio.err)); err != nil {
			if errors.Is(err, review.ErrNotADuel) {
				return usageError{err}
			}
			return err
		}
	}
	turning := rev.TurningPoint(loser, lost)
	if err := printReview(sio.out, gm, rev, turning); err != nil {
		return err
	}
	if *out == "" {
		return nil
	}
	return writePictures(*out, gm, start, moves, rev, turning, sio.out)
}

// reviewProgress is the progress of a review shown on w, a bar that
// clears once every position is searched, if w is a terminal; else nil:
// nothing is shown.
func reviewProgress(w io.Writer) func(done, total int) {
	if !terminal.IsTerminal(w) {
		return nil
	}
	return terminal.Progress(w, "reviewing", "positions")
}

// storedGame loads game id of the bot's database, read-only, with the
// review kept with it if any.
func storedGame(ctx context.Context, url, path string, id storage.GameID) (*storage.Game, *review.Review, error) {
	if id == "" {
		return nil, nil, usagef("--game is required: the ID of the game to review, as its board's footer shows")
	}
	s, err := openStore(ctx, url, path, inspecting, storeRole{})
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	g, err := s.Game(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if !render.Reviewable(g) {
		return nil, nil, fmt.Errorf("review: game %s is %s with %d moves: only a finished duel with a move can be reviewed", id, g.Status, len(g.Moves))
	}
	kept, err := s.Review(ctx, g.ID, g.Version)
	if errors.Is(err, storage.ErrNotFound) {
		return g, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var rev review.Review
	if err := json.Unmarshal(kept.Data, &rev); err != nil || len(rev.Moves) != len(g.Moves) || rev.Version != review.Version {
		return g, nil, nil // unreadable, or made by older rules: made again
	}
	return g, &rev, nil
}

// splitMoves splits a move list as --moves does everywhere.
func splitMoves(list string) []string {
	return strings.FieldsFunc(list, func(r rune) bool { return strings.ContainsRune(" \t\n,\"[]", r) })
}

// readMoves checks moves from start as /move reads a typed move
// (engine.ReadMove), each named whole in an error with the game's reason.
// A word that is no move but begins with one is a run of one-character
// moves (Connect Four's columns written together, 4453).
func readMoves(start engine.Position, words []string) ([]string, error) {
	pos := start.Clone()
	var out []string
	for _, w := range words {
		parts := []string{w}
		if _, err := engine.ReadMove(pos, w); err != nil && len(w) > 1 {
			if _, err := engine.ReadMove(pos, w[:1]); err == nil {
				parts = strings.Split(w, "")
			}
		}
		for _, text := range parts {
			m, err := engine.ReadMove(pos, text)
			if err != nil {
				return nil, usagef("--moves: move %d: %v", len(out)+1, err)
			}
			out = append(out, pos.FormatMove(m))
			pos.Play(m)
		}
	}
	return out, nil
}

// printReview prints the labelled moves, each side's counts and the
// turning point.
func printReview(w io.Writer, gm *games.Game, rev *review.Review, turning int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s review, %d moves\n", gm.Title, len(rev.Moves))
	for i, m := range rev.Moves {
		best := ""
		if m.Label != review.Best {
			best = "best " + m.Best
		}
		fmt.Fprintf(&b, "%3d. %s %-5s %-10s %-10s %s → %s\n", i+1, m.Side, m.Move, m.Label, best, value(m.Before), value(m.After))
	}
	for _, s := range []engine.Side{engine.X, engine.O} {
		counts := rev.Counts(s)
		var parts []string
		for _, l := range review.Labels() {
			parts = append(parts, fmt.Sprintf("%s %d", l, counts[l]))
		}
		fmt.Fprintf(&b, "%s: %s\n", s, strings.Join(parts, " · "))
	}
	if turning >= 0 {
		m := rev.Moves[turning]
		fmt.Fprintf(&b, "Turning point: move %d, %s played %s, a %s; the best was %s\n", turning+1, m.Side, m.Move, m.Label, m.Best)
	} else {
		b.WriteString("No turning point: no move was worse than good\n")
	}
	switch exact := rev.Judged(); {
	case exact == len(rev.Moves):
		fmt.Fprintf(&b, "Every move judged exactly, to the end of the game (%d positions searched)\n", rev.Nodes)
	case rev.Budget == 0:
		fmt.Fprintf(&b, "%d of %d moves judged exactly, to the end of the game; the others by a deep search (%d positions searched)\n", exact, len(rev.Moves), rev.Nodes)
	default:
		fmt.Fprintf(&b, "%d of %d moves judged exactly, to the end of the game; the others by a search of up to %d positions for the whole game (%d searched)\n",
			exact, len(rev.Moves), rev.Budget, rev.Nodes)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// value writes a value for the table: exact ones marked.
func value(v review.Value) string {
	if v.Exact {
		return fmt.Sprintf("%+g (exact)", v.Score+0) // +0: no "-0"
	}
	return fmt.Sprintf("%+.2f", v.Score+0)
}

// writePictures writes the replay and the turning point in dir.
func writePictures(dir string, gm *games.Game, start engine.Position, moves []string, rev *review.Review, turning int, w io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("review: --out: %w", err)
	}
	replay, err := render.Replay(gm, start, moves)
	if err != nil {
		return err
	}
	files := map[string][]byte{render.ReplayName: replay}
	if turning >= 0 {
		if files[render.TurningName], err = render.TurningPoint(gm, start, moves, turning, rev.Moves[turning].Best); err != nil {
			return err
		}
	}
	for _, name := range []string{render.ReplayName, render.TurningName} {
		data, ok := files[name]
		if !ok {
			continue
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return fmt.Errorf("review: --out: %w", err)
		}
		fmt.Fprintf(w, "wrote %s (%d bytes)\n", path, len(data))
	}
	return nil
}
