// Package puzzles is the flow of the one-player puzzles: /puzzle deals a
// sliding-tile or N-Queens puzzle as the member's own solo game, and its
// board's Hint, Solve and Compare algorithms buttons ask the solvers of
// strategies/puzzles about the position in front of the player (Compare
// in compare.go); New puzzle, under an ended daily puzzle's board, deals
// another of its kind. Moves and Give up go through the duel flow
// (bot/flows/duel), the daily puzzle through bot/flows/daily.
package puzzles

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
	solvers "github.com/gambitbot/gambit/strategies/puzzles"
)

// Store is what the flow reads and changes in the store: the puzzle
// played, and the ended one New puzzle is clicked under.
type Store interface {
	Game(ctx context.Context, id storage.GameID) (*storage.Game, error)
	UpdateGame(ctx context.Context, g *storage.Game) error
	FinishGame(ctx context.Context, g *storage.Game, res storage.Result) ([]storage.RatingChange, error)
}

// Solo starts the members' solo games: the bot's code that starts games,
// which the daily puzzle's flow shares.
type Solo interface {
	// Start stores pos as the start of the member's new solo game of gm —
	// the attempt at the daily puzzle of day if day is not empty — and
	// shows its board through ix once created, if not nil, accepts the
	// game; it holds the new game's lock until then.
	Start(ctx context.Context, ix *mux.Interaction, gm *games.Game, pos engine.Position, day string, created func(*storage.Game) error) error
}

// Boards is the bot's board code, as a click on a puzzle's board meets it.
type Boards interface {
	// OnBoard reports whether the click came from g's board (a forged
	// custom ID can name g from elsewhere).
	OnBoard(ix *mux.Interaction, g *storage.Game) bool
	// View renders g's board at pos with a notice.
	View(g *storage.Game, pos engine.Position, thinking *render.Thinking, changes []storage.RatingChange, notice string) render.Message
	// Show answers the click by showing msg on g's board, the message
	// clicked.
	Show(ctx context.Context, ix *mux.Interaction, g *storage.Game, msg render.Message) error
	// Lang is the language of g's board: its guild's.
	Lang(g *storage.Game) *i18n.Localizer
}

// Config is what the flow needs of the bot beside its interfaces.
type Config struct {
	// Submit queues run, one solver of Compare algorithms, among the AI
	// turns of this process's workers as work of owner's, so that the
	// searches never use more threads than the workers; false when the
	// workers are stopping.
	Submit func(owner string, run func()) bool
	// LowPriority runs f on a thread at the searches' OS priority and
	// returns when f has; nil runs f as it is.
	LowPriority func(f func())
	// Compare is each solver's budget in Compare algorithms.
	Compare Compare
	// Hinted is told of a hint counted on g, a solo game that may be a
	// member's attempt at the daily puzzle; nil for none.
	Hinted func(ctx context.Context, g *storage.Game)
	// Now is the bot's clock, which times Compare's solvers.
	Now func() time.Time
	// Log takes what goes wrong out of a player's sight.
	Log *slog.Logger
}

// Flow answers /puzzle, a solo board's Hint, Solve and Compare algorithms,
// and New puzzle.
type Flow struct {
	store    Store
	solo     Solo
	boards   Boards
	games    play.GameRoutes
	cfg      Config
	log      *slog.Logger
	compares comparisons
}

// New returns the flow over store, solo and boards, its routes of one
// game running in games, the game seam.
func New(store Store, solo Solo, boards Boards, games play.GameRoutes, cfg Config) *Flow {
	if cfg.LowPriority == nil {
		cfg.LowPriority = func(f func()) { f() }
	}
	return &Flow{store: store, solo: solo, boards: boards, games: games, cfg: cfg, log: cfg.Log}
}

// maxQueensN is the largest N /puzzle deals: N-Queens' largest board,
// whose 144 squares take six menus of 25 under a components-v2 board.
const maxQueensN = 12

// difficulties are /puzzle's difficulty choices; medium, the middle one,
// is the default.
var difficulties = solvers.Levels()

// soloGames returns the registered solo puzzles: the games of /puzzle.
func soloGames() []*games.Game {
	var out []*games.Game
	for _, g := range catalog.All() {
		if g.Solo() {
			out = append(out, g)
		}
	}
	return out
}

// puzzleDefinition is the /puzzle command.
func puzzleDefinition() *discordgo.ApplicationCommand {
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, g := range soloGames() {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: g.Title, Value: g.Name})
	}
	var levels []*discordgo.ApplicationCommandOptionChoice
	for _, d := range difficulties {
		levels = append(levels, &discordgo.ApplicationCommandOptionChoice{Name: d.Name, Value: d.Name})
	}
	return &discordgo.ApplicationCommand{
		Name: "puzzle", Description: "Solve a puzzle on your own: sliding tiles or N-Queens",
		Options: []*discordgo.ApplicationCommandOption{
			mux.ChoiceOption("game", "The puzzle", true, choices),
			mux.ChoiceOption("difficulty", "Sliding tiles: how many moves the best solution takes (default: medium)", false, levels),
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "n", Description: "N-Queens: the board's side (default: 8)",
				MinValue: mux.Ptr(4.0), MaxValue: maxQueensN},
		},
	}
}

// Routes declares /puzzle, the components of a solo board — Hint, Solve
// and Compare, routes of one game — and New puzzle.
func (f *Flow) Routes(m *mux.Mux) {
	m.Command(puzzleDefinition(), f.cmdPuzzle, nil)
	games := mux.NewGroup(m, f.games)
	games.Component(customid.Hint, f.clickHint)
	games.Component(customid.Solve, f.clickSolve)
	games.Component(customid.Compare, f.clickCompare)
	m.Component(customid.NewPuzzle, f.clickNewPuzzle)
}

// cmdPuzzle handles /puzzle: it deals the puzzle, stores it as the
// member's solo game and shows its board.
func (f *Flow) cmdPuzzle(ctx context.Context, ix *mux.Command) error {
	opts := ix.Opts
	gm, err := catalog.Lookup(opts.Str("game"))
	if err != nil || !gm.Solo() {
		return mux.Err("puzzle.unknown", "Name", mux.Quote(opts.Str("game")), "Choices", soloNames())
	}
	n, given, err := opts.Integer("n")
	switch {
	case err != nil:
		return err
	case given && gm.Setup.Size == nil:
		return mux.Err("puzzle.n_only")
	case given && (n < 4 || n > maxQueensN):
		return mux.Err("puzzle.n_range", "Max", maxQueensN)
	case opts.Has("difficulty") && gm.Setup.Size != nil:
		return mux.Err("puzzle.difficulty_tiles")
	}
	level := difficulties[1]
	if name := opts.Str("difficulty"); name != "" {
		i := slices.IndexFunc(difficulties, func(d solvers.Level) bool { return d.Name == name })
		if i < 0 {
			return mux.Err("puzzle.difficulty_choice")
		}
		level = difficulties[i]
	}
	return f.dealPuzzle(ctx, ix.Interaction, gm, int(n), level)
}

// dealPuzzle deals a puzzle of gm (N-Queens of side n) at level and
// shows it as the member's new solo game: /puzzle, and New puzzle after
// a daily one.
func (f *Flow) dealPuzzle(ctx context.Context, ix *mux.Interaction, gm *games.Game, n int, level solvers.Level) error {
	if err := play.CheckChannelPermissions(ix); err != nil {
		return err
	}
	start, err := gm.Start(games.Options{Size: n})
	if err != nil {
		return fmt.Errorf("puzzles: /puzzle %s: %w", gm.Name, err)
	}
	if err := solverReady(start); err != nil {
		return err
	}
	pos, err := deal(ctx, start, level)
	if err != nil {
		return fmt.Errorf("puzzles: deal %s: %w", gm.Name, err)
	}
	return f.solo.Start(ctx, ix, gm, pos, "", nil)
}

// deal returns a new puzzle from start, the puzzle's goal: a sliding-tile
// start whose optimal solution is as long as level asks, or the empty
// N×N board, within play.SolverTime.
func deal(ctx context.Context, start engine.Position, level solvers.Level) (engine.Position, error) {
	ctx, cancel := context.WithTimeout(ctx, play.SolverTime)
	defer cancel()
	return solvers.Deal(ctx, rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), start, level)
}

// soloNames lists the puzzles' names for errors.
func soloNames() string {
	var names []string
	for _, g := range soloGames() {
		names = append(names, g.Name)
	}
	return strings.Join(names, ", ")
}

// checkPuzzler refuses anyone but the player of an active solo puzzle,
// and a click on an outdated board.
func (f *Flow) checkPuzzler(ix *mux.Component, g *storage.Game) error {
	if !g.Solo() {
		return mux.Err("puzzle.not_puzzle")
	}
	if err := play.CheckMover(g, ix.Caller().ID); err != nil {
		return err
	}
	if ix.Params["ply"] != render.Ply(g) || !f.boards.OnBoard(ix.Interaction, g) {
		return mux.Err("puzzle.stale")
	}
	pos, err := play.Position(g)
	if err != nil {
		return err
	}
	return solverReady(pos)
}

// solverReady refuses, for now, work on a puzzle whose optimal solver is
// still being prepared (the 15-puzzle's tables, a few seconds after a
// start): waiting for it would miss Discord's 3-second deadline.
func solverReady(pos engine.Position) error {
	if !solvers.Ready(pos) {
		return mux.Err("puzzle.preparing")
	}
	return nil
}

// shortestHere returns g's position and a shortest way from it to a
// solution, within play.SolverTime.
func shortestHere(ctx context.Context, g *storage.Game) (engine.Position, []engine.Move, error) {
	pos, err := play.Position(g)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, play.SolverTime)
	defer cancel()
	moves, err := solvers.Shortest(ctx, pos)
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, nil, mux.Err("puzzle.solver_timeout")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("puzzles: solve game %s: %w", g.ID, err)
	}
	return pos, moves, nil
}

// clickHint shows the player, privately, the next move of a shortest
// solution. A hint changes nothing on the board; the game counts it (and
// so does the member's attempt at the daily puzzle, if it is one:
// Config.Hinted), and its result says how many were used.
func (f *Flow) clickHint(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	if err := f.checkPuzzler(ix, g); err != nil {
		return err
	}
	pos, moves, err := shortestHere(ctx, g)
	if err != nil {
		return err
	}
	if len(moves) == 0 {
		return mux.Err("puzzle.solved_already")
	}
	gm, err := play.Game(g)
	if err != nil {
		return err
	}
	name := render.MoveName(gm, pos, moves[0]) // a sliding tile's number, which /move takes too
	g.Hints++
	if err := f.store.UpdateGame(ctx, g); err != nil {
		return fmt.Errorf("puzzles: count a hint in puzzle %s: %w", g.ID, err)
	}
	if f.cfg.Hinted != nil {
		f.cfg.Hinted(ctx, g)
	}
	return ix.Say("puzzle.hint", "Move", name, "Cell", name,
		"Moves", render.Plural(ix.Lang(), len(moves), "move"))
}

// clickSolve plays a shortest solution out on the board. The puzzle then
// ends abandoned, solved by Gambit (render.SolvedByGambit), so that it
// never counts as the player's own solve; its moves used are the
// player's own.
func (f *Flow) clickSolve(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	if err := f.checkPuzzler(ix, g); err != nil {
		return err
	}
	pos, moves, err := shortestHere(ctx, g)
	if err != nil {
		return err
	}
	gm, err := play.Game(g)
	if err != nil {
		return err
	}
	own := len(g.Moves)
	names := make([]string, len(moves)) // as the board names them: the tiles that slide
	for i, m := range moves {
		names[i] = render.MoveName(gm, pos, m)
		c := gm.Play(pos, m)
		g.Moves = append(g.Moves, c.Move)
		g.Last = &storage.LastMove{Move: c.Move, Changed: c.Changed}
	}
	g.Position = pos.String()
	g.Status = storage.StatusAbandoned
	res := storage.Result{Winner: storage.Nobody, Outcome: storage.SolvedByGambit, MovesUsed: own}
	_, err = f.store.FinishGame(ctx, g, res)
	if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrGameOver) {
		return mux.RaceErr(err, "puzzle.conflict")
	}
	if err != nil {
		return fmt.Errorf("puzzles: solve game %s: %w", g.ID, err)
	}
	l := f.boards.Lang(g)
	notice := l.T("puzzle.solved_by_gambit", "Moves", render.Plural(l, len(moves), "move"), "Line", strings.Join(names, " "))
	return f.boards.Show(ctx, ix.Interaction, g, f.boards.View(g, pos, nil, nil, notice))
}

// clickNewPuzzle deals the clicker a practice puzzle of the kind of an
// ended daily puzzle's game: the same puzzle and size, medium. A game
// that is no puzzle (a forged custom ID) has no such button.
func (f *Flow) clickNewPuzzle(ctx context.Context, ix *mux.Component) error {
	id := ix.Params["game"]
	g, err := f.store.Game(ctx, storage.GameID(id))
	if errors.Is(err, storage.ErrNotFound) {
		return mux.Err("error.no_game", "ID", mux.Echo(id))
	}
	if err != nil {
		return fmt.Errorf("puzzles: load game %s: %w", id, err)
	}
	if !g.Solo() {
		return mux.Err("daily.stale")
	}
	gm, err := play.Game(g)
	if err != nil {
		return err
	}
	n := 0
	if gm.Setup.Size != nil {
		pos, err := play.Position(g)
		if err != nil {
			return err
		}
		n = len(gm.Look.Board(pos, nil).Rows)
	}
	return f.dealPuzzle(ctx, ix.Interaction, gm, n, solvers.Levels()[1])
}
