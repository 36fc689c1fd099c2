package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// The puzzles' flow: /puzzle deals a solo puzzle, and its board's Hint,
// Solve and Compare algorithms buttons ask the solvers of
// strategies/puzzles about the position in front of the player. Moves
// and Give up go through the duel flow (bot/flows/duel).

// solverTime bounds a solver working for an interaction, which must be
// answered within 3 seconds: the optimal solvers need milliseconds on the
// starts /puzzle deals, so a timeout means an unusual position.
const solverTime = 2 * time.Second

// maxQueensN is the largest N /puzzle deals: N-Queens' largest board,
// whose 144 squares take six menus of 25 under a components-v2 board.
const maxQueensN = 12

// difficulties are /puzzle's difficulty choices; medium, the middle one,
// is the default.
var difficulties = puzzles.Levels()

// puzzles returns the registered solo puzzles: the games of /puzzle.
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

// cmdPuzzle handles /puzzle: it deals the puzzle, stores it as the
// member's solo game and shows its board.
func (b soloFlow) cmdPuzzle(ctx context.Context, ix *command) error {
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
		i := indexOf(difficulties, func(d puzzles.Level) bool { return d.Name == name })
		if i < 0 {
			return mux.Err("puzzle.difficulty_choice")
		}
		level = difficulties[i]
	}
	return b.dealPuzzle(ctx, ix.Interaction, gm, int(n), level)
}

// dealPuzzle deals a puzzle of gm (N-Queens of side n) at level and
// shows it as the member's new solo game: /puzzle, and New puzzle after
// a daily one.
func (b soloFlow) dealPuzzle(ctx context.Context, ix *interaction, gm *games.Game, n int, level puzzles.Level) error {
	if err := checkChannelPermissions(ix); err != nil {
		return err
	}
	start, err := gm.Start(games.Options{Size: n})
	if err != nil {
		return fmt.Errorf("bot: /puzzle %s: %w", gm.Name, err)
	}
	if err := solverReady(start); err != nil {
		return err
	}
	pos, err := deal(ctx, gm, n, level)
	if err != nil {
		return err
	}
	return b.startSolo(ctx, ix, gm, pos, "", nil)
}

// startSolo stores pos as the start of the member's new solo game of gm,
// the attempt at the daily puzzle of day if day is not empty, and shows
// its board once created, if not nil, accepts the game.
func (b soloFlow) startSolo(ctx context.Context, ix *interaction, gm *games.Game, pos engine.Position, day string, created func(*storage.Game) error) error {
	g := &storage.Game{
		Kind: storage.Kind(gm.Name), Status: storage.StatusActive,
		Players:  []storage.Player{play.PlayerOf(ix.Caller())},
		Settings: storage.Settings{Daily: day},
		Start:    pos.String(),
		Position: pos.String(),
		GuildID:  ix.GuildID, ChannelID: ix.ChannelID,
	}
	if err := b.games.createGame(ctx, g); err != nil {
		return err
	}
	return b.holdGame(ctx, ix, g.ID, func() error {
		if created != nil {
			if err := created(g); err != nil {
				return err
			}
		}
		return b.boards.showNewBoard(ctx, ix, g, b.boards.view(g, pos, nil, nil, ""))
	})
}

// indexOf returns the index of the first element of list for which ok
// holds, or -1.
func indexOf[T any](list []T, ok func(T) bool) int {
	for i, v := range list {
		if ok(v) {
			return i
		}
	}
	return -1
}

// soloNames lists the puzzles' names for errors.
func soloNames() string {
	var names []string
	for _, g := range soloGames() {
		names = append(names, g.Name)
	}
	return strings.Join(names, ", ")
}

// deal returns a new puzzle's start: a sliding-tile start whose optimal
// solution is as long as the difficulty asks, or the empty N×N board.
func deal(ctx context.Context, gm *games.Game, n int, level puzzles.Level) (engine.Position, error) {
	start, err := gm.Start(games.Options{Size: n})
	if err != nil {
		return nil, fmt.Errorf("bot: deal %s: %w", gm.Name, err)
	}
	ctx, cancel := context.WithTimeout(ctx, solverTime)
	defer cancel()
	q, err := puzzles.Deal(ctx, rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), start, level)
	if err != nil {
		return nil, fmt.Errorf("bot: deal %s: %w", gm.Name, err)
	}
	return q, nil
}

// optimum returns the fewest moves that solve g from its start, or 0 if
// the solvers cannot tell in time (the result then leaves it unknown).
func (b soloFlow) optimum(ctx context.Context, g *storage.Game) int {
	gm, err := gameOf(g)
	if err != nil {
		return 0
	}
	start, err := gm.Position(g.Start, games.Options{})
	if err != nil {
		return 0
	}
	ctx, cancel := context.WithTimeout(ctx, solverTime)
	defer cancel()
	moves, err := puzzles.Shortest(ctx, start)
	if err != nil {
		b.log.Warn("optimum of a puzzle unknown", "game", g.ID, "err", err)
		return 0
	}
	return len(moves)
}

// checkPuzzler refuses anyone but the player of an active solo puzzle,
// and a click on an outdated board.
func checkPuzzler(ix *interaction, g *storage.Game, p customid.Params) error {
	if !g.Solo() {
		return mux.Err("puzzle.not_puzzle")
	}
	if err := play.CheckMover(g, ix.Caller().ID); err != nil {
		return err
	}
	if p["ply"] != render.Ply(g) || !onBoard(ix, g) {
		return mux.Err("puzzle.stale")
	}
	pos, err := position(g)
	if err != nil {
		return err
	}
	return solverReady(pos)
}

// solverReady refuses, for now, work on a puzzle whose optimal solver is
// still being prepared (the 15-puzzle's tables, a few seconds after a
// start): waiting for it would miss Discord's 3-second deadline.
func solverReady(pos engine.Position) error {
	if !puzzles.Ready(pos) {
		return mux.Err("puzzle.preparing")
	}
	return nil
}

// shortestHere returns g's position and a shortest way from it to a
// solution, within solverTime.
func shortestHere(ctx context.Context, g *storage.Game) (engine.Position, []engine.Move, error) {
	pos, err := position(g)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, solverTime)
	defer cancel()
	moves, err := puzzles.Shortest(ctx, pos)
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, nil, mux.Err("puzzle.solver_timeout")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("bot: solve game %s: %w", g.ID, err)
	}
	return pos, moves, nil
}

// clickHint shows the player, privately, the next move of a shortest
// solution. A hint changes nothing on the board; the game counts it, and
// its result says how many were used.
func (b soloFlow) clickHint(ctx context.Context, ix *component, g *storage.Game) error {
	p := ix.Params
	if err := checkPuzzler(ix.Interaction, g, p); err != nil {
		return err
	}
	pos, moves, err := shortestHere(ctx, g)
	if err != nil {
		return err
	}
	if len(moves) == 0 {
		return mux.Err("puzzle.solved_already")
	}
	gm, err := gameOf(g)
	if err != nil {
		return err
	}
	name := render.MoveName(gm, pos, moves[0]) // a sliding tile's number, which /move takes too
	g.Hints++
	if err := b.store.UpdateGame(ctx, g); err != nil {
		return fmt.Errorf("bot: count a hint in puzzle %s: %w", g.ID, err)
	}
	b.countDailyHint(ctx, g)
	return ix.Say("puzzle.hint", "Move", name, "Cell", name,
		"Moves", render.Plural(ix.Lang(), len(moves), "move"))
}

// clickSolve plays a shortest solution out on the board. The puzzle then
// ends abandoned, solved by Gambit (render.SolvedByGambit), so that it
// never counts as the player's own solve; its moves used are the
// player's own.
func (b soloFlow) clickSolve(ctx context.Context, ix *component, g *storage.Game) error {
	p := ix.Params
	if err := checkPuzzler(ix.Interaction, g, p); err != nil {
		return err
	}
	pos, moves, err := shortestHere(ctx, g)
	if err != nil {
		return err
	}
	gm, err := gameOf(g)
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
	_, err = b.store.FinishGame(ctx, g, res)
	if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrGameOver) {
		return mux.RaceErr(err, "puzzle.conflict")
	}
	if err != nil {
		return fmt.Errorf("bot: solve game %s: %w", g.ID, err)
	}
	l := b.boards.boardLang(g)
	notice := l.T("puzzle.solved_by_gambit", "Moves", render.Plural(l, len(moves), "move"), "Line", strings.Join(names, " "))
	return b.boards.updateBoard(ctx, ix.Interaction, g, b.boards.view(g, pos, nil, nil, notice))
}

// clickCompare shows, privately, the solvers side by side on the board's
// position: it answers at once and the workers fill the answer in
// (compare.go). A click while the puzzle's comparison runs is told so.
func (b soloFlow) clickCompare(ctx context.Context, ix *component, g *storage.Game) error {
	p := ix.Params
	if err := checkPuzzler(ix.Interaction, g, p); err != nil {
		return err
	}
	pos, err := position(g)
	if err != nil {
		return err
	}
	entrants, err := puzzles.Entrants(pos)
	if err != nil {
		return fmt.Errorf("bot: compare on game %s: %w", g.ID, err)
	}
	if !b.compares.claim(g.ID) {
		return mux.Err("compare.running")
	}
	return b.startComparison(ix.Interaction, g, pos, entrants)
}

// routes declares /puzzle and /daily and the components of puzzles:
// Hint, Solve and Compare on a solo board, and the daily and practice
// puzzles' buttons.
func (b soloFlow) routes(m *mux.Mux) {
	m.Command(puzzleDefinition(), b.cmdPuzzle, nil)
	m.Command(dailyDefinition(), b.cmdDaily, nil)
	games := mux.NewGroup(m, b.withGame)
	games.Component(customid.Hint, b.clickHint)
	games.Component(customid.Solve, b.clickSolve)
	games.Component(customid.Compare, b.clickCompare)
	m.Component(customid.DailyPlay, b.clickDailyPlay)
	m.Component(customid.DailyMove, b.clickDailyMove)
	m.Component(customid.DailyHint, b.clickDailyHint)
	m.Component(customid.DailyGiveUp, b.clickDailyGiveUp)
	m.Component(customid.NewPuzzle, b.clickNewPuzzle)
	m.Component(customid.PracticeNew, b.clickPracticeNew)
	m.Component(customid.PracticeMove, b.clickPracticeMove)
	m.Component(customid.PracticeHint, b.clickPracticeHint)
	m.Component(customid.PracticeGiveUp, b.clickPracticeGiveUp)
}
