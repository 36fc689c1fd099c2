// Package daily is the flow of the daily puzzle: one puzzle a day per
// server (strategies/daily makes it from the server and the date under
// the install's secret key, read from the store at start, LoadKey, so
// that everyone there meets the same and no custom ID can name it),
// posted at PostTime in the channel the server's admins chose (/settings
// daily-channel, PostDailies), played from the post or from /daily. A
// sliding-tile or N-Queens puzzle is played as the member's own solo game
// (Settings.Daily marks it), whose end settles the attempt (Recorder); a
// "find the best move" puzzle is answered in one click on the post, and
// practice ones of its kinds from a fresh seed (practice.go). The store
// keeps the attempts: hints, solves, streaks, the day's solvers.
//
// Everyone in the server meets the same puzzle, so an attempt is private:
// its board is an ephemeral message only the member sees (the bot's board
// code shows it so), shown again by Play, /daily's Continue or /games'
// Re-post, and never posted in the channel. What the channel sees is the
// result, once, when the attempt ends: the member, the outcome, the moves
// and hints, the streak (PostResults, results.go). Its once comes from the
// store: an ended attempt never changes (storage.DailyStore.
// UpdateDailyAttempt), so of all the processes and clicks that try, one
// ends it, and only that one posts its result. A crash between ending the
// attempt and posting loses the result's post, never the attempt: at most
// once, as a second public message is worse than none.
package daily

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
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
	dailies "github.com/gambitbot/gambit/strategies/daily"
)

// Store is what the flow reads and changes in the store: the attempts,
// the posts and the channels of the daily puzzles, the install's key, and
// an attempt's solo game.
type Store interface {
	storage.DailyStore
	Secret(ctx context.Context, name string) ([]byte, error)
	Game(ctx context.Context, id storage.GameID) (*storage.Game, error)
	UpdateGame(ctx context.Context, g *storage.Game) error
}

// Solo starts the members' solo games: the bot's code that starts games,
// which the puzzles' flow shares.
type Solo interface {
	// Start stores pos as the start of the member's new solo game of gm,
	// the attempt at the daily puzzle of day, and shows its board through
	// ix once created, if not nil, accepts the game; it holds the new
	// game's lock until then.
	Start(ctx context.Context, ix *mux.Interaction, gm *games.Game, pos engine.Position, day string, created func(*storage.Game) error) error
}

// Boards is the bot's board code, as an attempt's board shown again meets
// it.
type Boards interface {
	// Message renders g's board as it stands.
	Message(g *storage.Game) (render.Message, error)
	// ShowNew shows msg as g's new board through ix (an attempt's,
	// ephemeral) and saves its message ID.
	ShowNew(ctx context.Context, ix *mux.Interaction, g *storage.Game, msg render.Message) error
}

// Turns is the game seam below the flows, as an attempt's game meets it.
type Turns interface {
	// OnGame runs h on game id, loaded under its lock for ix.
	OnGame(ctx context.Context, ix *mux.Interaction, id string, h func(context.Context, *storage.Game) error) error
}

// Outgoing posts messages in channels: the bot's outgoing client.
type Outgoing interface {
	SendChannelMessage(channelID string, msg render.Message) (*discordgo.Message, error)
}

// Config is what the flow needs of the bot beside its interfaces.
type Config struct {
	// Outgoing posts the daily puzzles and the attempts' results.
	Outgoing Outgoing
	// Lang is the language of a channel of a guild, for what is posted
	// there.
	Lang func(guildID, channelID string) *i18n.Localizer
	// Shards are the shards whose guilds this process looks after: it
	// posts their daily puzzles.
	Shards func() storage.Shards
	// Now is the bot's clock.
	Now func() time.Time
	// Log takes what goes wrong out of a player's sight.
	Log *slog.Logger
}

// Flow answers /daily and the daily and practice puzzles' buttons, posts
// the daily puzzles and the attempts' results.
type Flow struct {
	store  Store
	solo   Solo
	boards Boards
	turns  Turns
	cfg    Config
	log    *slog.Logger
	key    []byte      // the key the daily puzzles are chosen by (LoadKey)
	posted postedToday // the guilds whose daily puzzle was posted today
}

// New returns the flow over store, solo, boards and turns. Call LoadKey
// before it serves.
func New(store Store, solo Solo, boards Boards, turns Turns, cfg Config) *Flow {
	return &Flow{store: store, solo: solo, boards: boards, turns: turns, cfg: cfg, log: cfg.Log}
}

// PostTime is when, after midnight UTC, the daily puzzle is posted: at
// the first tick of the timers from then on.
const PostTime = 0 * time.Hour

// streakDays bounds the solved days read to count a streak.
const streakDays = 366

// dailyDefinition is the /daily command.
func dailyDefinition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{Name: "daily", Description: "Today's puzzle here, your streak and the solvers"}
}

// Routes declares /daily and the daily and practice puzzles' buttons.
func (f *Flow) Routes(m *mux.Mux) {
	m.Command(dailyDefinition(), f.cmdDaily, nil)
	m.Component(customid.DailyPlay, f.clickDailyPlay)
	m.Component(customid.DailyMove, f.clickDailyMove)
	m.Component(customid.DailyHint, f.clickDailyHint)
	m.Component(customid.DailyGiveUp, f.clickDailyGiveUp)
	m.Component(customid.PracticeNew, f.clickPracticeNew)
	m.Component(customid.PracticeMove, f.clickPracticeMove)
	m.Component(customid.PracticeHint, f.clickPracticeHint)
	m.Component(customid.PracticeGiveUp, f.clickPracticeGiveUp)
}

// puzzleCache keeps the puzzles made today and yesterday: making one
// takes up to a few tens of milliseconds, and every click needs it. A
// puzzle depends on its kind and seed alone, so one cache serves every
// flow of the process.
var puzzleCache = struct {
	sync.Mutex
	m map[string]dailies.Puzzle
}{m: map[string]dailies.Puzzle{}}

// makePuzzle returns the puzzle of kind from seed, made once.
func makePuzzle(ctx context.Context, kind dailies.Kind, seed uint64) (dailies.Puzzle, error) {
	key := string(kind) + "/" + strconv.FormatUint(seed, 10)
	puzzleCache.Lock()
	p, ok := puzzleCache.m[key]
	puzzleCache.Unlock()
	if ok {
		return p, nil
	}
	p, err := dailies.Make(ctx, kind, seed)
	if err != nil {
		return dailies.Puzzle{}, fmt.Errorf("daily: make a %s puzzle: %w", kind, err)
	}
	puzzleCache.Lock()
	defer puzzleCache.Unlock()
	if len(puzzleCache.m) > 4096 { // a day's worth of servers many times over
		clear(puzzleCache.m)
	}
	puzzleCache.m[key] = p
	return p, nil
}

// LoadKey reads the install's key of the daily puzzles from the store,
// which makes it at the first start (storage.DailyKey): every process
// sharing the store chooses the same puzzles by it. The bot calls it
// before it serves.
func (f *Flow) LoadKey(ctx context.Context) error {
	key, err := f.store.Secret(ctx, storage.DailyKey)
	if err != nil {
		return fmt.Errorf("daily: the daily puzzles' key: %w", err)
	}
	f.key = key
	return nil
}

// todaysPuzzle returns guild's puzzle of day.
func (f *Flow) todaysPuzzle(ctx context.Context, guild, day string) (dailies.Puzzle, error) {
	kind, err := dailies.KindOn(day)
	if err != nil {
		return dailies.Puzzle{}, err
	}
	return makePuzzle(ctx, kind, dailies.Seed(f.key, day, guild))
}

// puzzlePosition parses a puzzle's start.
func puzzlePosition(p dailies.Puzzle) (*games.Game, engine.Position, error) {
	gm, err := catalog.Lookup(p.Game)
	if err != nil {
		return nil, nil, fmt.Errorf("daily: daily puzzle: %w", err)
	}
	pos, err := gm.Position(p.Position, games.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("daily: daily puzzle %s: %w", p.Position, err)
	}
	return gm, pos, nil
}

// puzzleTask says what a puzzle asks of the player.
func puzzleTask(l *i18n.Localizer, gm *games.Game, pos engine.Position, p dailies.Puzzle) string {
	switch {
	case p.BestMove() && p.Wins:
		return l.T("daily.task_win", "Mark", gm.Look.Mark[pos.SideToMove()])
	case p.BestMove():
		return l.T("daily.task_save", "Mark", gm.Look.Mark[pos.SideToMove()])
	case p.Moves > 0:
		return l.T("daily.task_tiles", "Moves", render.Plural(l, p.Moves, "move"))
	}
	return l.T("daily.task_queens", "N", len(gm.Look.Board(pos, nil).Rows))
}

// moveNames lists a position's legal moves in the game's notation.
func moveNames(pos engine.Position) []string {
	var out []string
	for _, m := range pos.Moves(make([]engine.Move, 0, engine.MaxMoves)) {
		out = append(out, pos.FormatMove(m))
	}
	return out
}

// dailyMessage renders guild's puzzle of day with its controls, and
// under it lines (a member's streak, the solvers). The controls follow
// the member's attempt, in status ("" before they began it): none once
// it ended, Continue while their own board of it is open.
func dailyMessage(l *i18n.Localizer, guild, day string, p dailies.Puzzle, status storage.DailyStatus, lines []string) (render.Message, error) {
	gm, pos, err := puzzlePosition(p)
	if err != nil {
		return render.Message{}, err
	}
	title := l.T("daily.title", "Day", day, "Game", render.Title(l, storage.Kind(gm.Name)))
	text := append([]string{puzzleTask(l, gm, pos, p)}, lines...)
	var rows []discordgo.MessageComponent
	switch {
	case status.Ended():
	case status == storage.DailyPlaying && !p.BestMove():
		rows = render.DailyContinue(l, guild, day)
	default:
		rows = render.DailyControls(l, gm, pos, guild, day, p.BestMove())
	}
	return render.Puzzle(l, storage.Kind(gm.Name), pos, "daily-"+day, title, text, rows), nil
}

// PostDailies posts today's puzzle in every server that chose a channel
// for it and whose timers this process runs (Config.Shards), once per
// server and day (the store's claim), from PostTime on: the bot's timers
// call it every tick. A server whose post fails is logged and not tried
// again that day: its members still have /daily.
func (f *Flow) PostDailies(ctx context.Context) {
	now := f.cfg.Now().UTC()
	day := dailies.Day(now)
	if now.Sub(now.Truncate(24*time.Hour)) < PostTime {
		return
	}
	channels, err := f.store.DailyChannels(ctx)
	if err != nil {
		f.log.Error("list the daily puzzle's channels", "err", err)
		return
	}
	for guild, channel := range channels {
		if !f.cfg.Shards().Has(guild) {
			continue
		}
		if err := f.postDaily(ctx, guild, channel, day); err != nil {
			f.log.Error("post the daily puzzle", "guild", guild, "channel", channel, "err", err)
		}
	}
}

// postedToday remembers the guilds whose daily post was claimed today,
// by this process or another sharing the store, so that each tick does
// not write the claim to the store again: a fact of the store's, kept
// for the day.
type postedToday struct {
	mu     sync.Mutex
	day    string
	guilds map[string]bool
}

// has reports whether guild's post of day is known to be claimed.
func (p *postedToday) has(guild, day string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.day == day && p.guilds[guild]
}

// add records that guild's post of day is claimed.
func (p *postedToday) add(guild, day string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.day != day {
		p.day, p.guilds = day, map[string]bool{}
	}
	p.guilds[guild] = true
}

// postDaily posts guild's puzzle of day in channel unless it was posted.
func (f *Flow) postDaily(ctx context.Context, guild, channel, day string) error {
	if f.posted.has(guild, day) {
		return nil
	}
	first, err := f.store.ClaimDailyPost(ctx, guild, day)
	if err != nil {
		return err
	}
	f.posted.add(guild, day)
	if !first {
		return nil
	}
	p, err := f.todaysPuzzle(ctx, guild, day)
	if err != nil {
		return err
	}
	msg, err := dailyMessage(f.cfg.Lang(guild, channel), guild, day, p, "", nil)
	if err != nil {
		return err
	}
	if _, err := f.cfg.Outgoing.SendChannelMessage(channel, msg); err != nil {
		return fmt.Errorf("daily: post the daily puzzle of guild %s in channel %s: %w", guild, channel, err)
	}
	f.log.Info("daily puzzle posted", "guild", guild, "channel", channel, "day", day, "kind", p.Kind)
	return nil
}

// cmdDaily handles /daily: today's puzzle with the controls left to the
// member (Continue while their board of it is open), their streak and
// today's solvers, privately.
func (f *Flow) cmdDaily(ctx context.Context, ix *mux.Command) error {
	if ix.GuildID == "" {
		return mux.Err("daily.server_only")
	}
	day := dailies.Day(f.cfg.Now())
	p, err := f.todaysPuzzle(ctx, ix.GuildID, day)
	if err != nil {
		return err
	}
	me := play.PlayerOf(ix.Caller())
	a, err := f.store.DailyAttempt(ctx, ix.GuildID, day, me.ID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("daily: /daily: %w", err)
	}
	if a, err = f.settleLeftOver(ctx, a); err != nil {
		return err
	}
	l := ix.Lang()
	streak, err := f.streak(ctx, ix.GuildID, me.ID, day)
	if err != nil {
		return err
	}
	lines := []string{"", l.T("daily.your_streak", "Days", render.Plural(l, streak, "day"))}
	if a.Status.Ended() {
		lines = append(lines, l.T("daily.you_"+string(a.Status)))
	}
	board, err := f.solvers(ctx, l, ix.GuildID, day)
	if err != nil {
		return err
	}
	msg, err := dailyMessage(l, ix.GuildID, day, p, a.Status, append(lines, board...))
	if err != nil {
		return err
	}
	return ix.Reply(msg, true)
}

// streak returns p's streak of daily solves in guild, as of day.
func (f *Flow) streak(ctx context.Context, guild string, p storage.PlayerID, day string) (int, error) {
	days, err := f.store.DailySolvedDays(ctx, guild, p, streakDays)
	if err != nil {
		return 0, fmt.Errorf("daily: streak of %s: %w", p, err)
	}
	return storage.Streak(days, day), nil
}

// solvers returns the lines of guild's board of day: who solved the
// puzzle, in the order they did, with the hints they used, and how many
// played.
func (f *Flow) solvers(ctx context.Context, l *i18n.Localizer, guild, day string) ([]string, error) {
	list, err := f.store.DailyAttempts(ctx, guild, day)
	if err != nil {
		return nil, fmt.Errorf("daily: the daily board of guild %s: %w", guild, err)
	}
	out := []string{"", "**" + l.T("daily.solvers") + "**"}
	n := 0
	for _, a := range list {
		if a.Status != storage.DailySolved {
			continue
		}
		n++
		hints := l.T("daily.no_hints")
		if a.Hints > 0 {
			hints = render.Plural(l, a.Hints, "hint")
		}
		out = append(out, fmt.Sprintf("%d. %s · %s", n, render.PlayerName(l, "", a.Player), hints))
	}
	if n == 0 {
		out = append(out, l.T("daily.no_solvers"))
	}
	return append(out, "-# "+l.T("daily.played", "Count", len(list))), nil
}

// checkToday refuses a click on the post of another day than today.
func (f *Flow) checkToday(ix *mux.Component) (guild, day string, err error) {
	guild, day = ix.Params["guild"], ix.Params["day"]
	if ix.GuildID == "" || guild != ix.GuildID {
		return "", "", mux.Err("daily.server_only")
	}
	if day != dailies.Day(f.cfg.Now()) {
		return "", "", mux.Err("daily.not_today")
	}
	return guild, day, nil
}

// todaysClick checks a click on today's puzzle of its server
// (checkToday) and returns the puzzle and its start.
func (f *Flow) todaysClick(ctx context.Context, ix *mux.Component) (guild, day string, p dailies.Puzzle, gm *games.Game, pos engine.Position, err error) {
	if guild, day, err = f.checkToday(ix); err != nil {
		return
	}
	if p, err = f.todaysPuzzle(ctx, guild, day); err != nil {
		return
	}
	gm, pos, err = puzzlePosition(p)
	return
}

// clickDailyPlay starts the member's attempt at a sliding-tile or
// N-Queens daily puzzle: their own solo game from the puzzle's start,
// whose board only they see. Once begun, Play (and /daily's Continue)
// shows that board again (continueDaily).
func (f *Flow) clickDailyPlay(ctx context.Context, ix *mux.Component) error {
	guild, day, err := f.checkToday(ix)
	if err != nil {
		return err
	}
	me := play.PlayerOf(ix.Caller())
	switch a, err := f.store.DailyAttempt(ctx, guild, day, me.ID); {
	case err == nil && a.Status.Ended():
		return mux.Err("daily.you_" + string(a.Status))
	case err == nil && a.GameID != "":
		return f.continueDaily(ctx, ix, a)
	case err != nil && !errors.Is(err, storage.ErrNotFound):
		return fmt.Errorf("daily: start the daily puzzle: %w", err)
	}
	p, err := f.todaysPuzzle(ctx, guild, day)
	if err != nil {
		return err
	}
	gm, pos, err := puzzlePosition(p)
	if err != nil {
		return err
	}
	if p.BestMove() {
		return mux.Err("daily.stale")
	}
	// The attempt takes the game before its board is shown: of two Play
	// clicks at once, the second's game is cancelled unseen. The board
	// is ephemeral, so the bot needs no permission in the channel.
	return f.solo.Start(ctx, ix.Interaction, gm, pos, day, func(g *storage.Game) error {
		a, err := f.store.UpdateDailyAttempt(ctx, guild, day, me, func(a *storage.DailyAttempt) error {
			if a.GameID == "" {
				a.GameID = g.ID
			}
			return nil
		})
		if err == nil && a.GameID == g.ID {
			return nil
		}
		g.Status = storage.StatusCancelled
		if cerr := f.store.UpdateGame(ctx, g); cerr != nil {
			f.log.Warn("a second daily game not cancelled", "game", g.ID, "err", cerr)
		}
		switch {
		case errors.Is(err, storage.ErrGameOver):
			return f.alreadyPlayed(ctx, guild, day, me.ID)
		case err != nil:
			return fmt.Errorf("daily: record the daily puzzle's game %s: %w", g.ID, err)
		}
		return mux.Err("daily.playing")
	})
}

// continueDaily shows the member the board of their attempt a again, as
// a new ephemeral message that becomes the board: the old one may be
// gone (dismissed, its token expired, the bot restarted). An attempt whose
// game ended without settling it (a crash between the two) is settled
// now, and the member told how it ended.
func (f *Flow) continueDaily(ctx context.Context, ix *mux.Component, a storage.DailyAttempt) error {
	return f.turns.OnGame(ctx, ix.Interaction, string(a.GameID), func(ctx context.Context, g *storage.Game) error {
		if g.Status == storage.StatusActive {
			msg, err := f.boards.Message(g)
			if err != nil {
				return err
			}
			return f.boards.ShowNew(ctx, ix.Interaction, g, msg)
		}
		settled, err := f.settle(ctx, g)
		if errors.Is(err, storage.ErrGameOver) {
			return f.alreadyPlayed(ctx, a.GuildID, a.Day, a.Player.ID)
		}
		if err != nil {
			return err
		}
		return mux.Err("daily.you_" + string(settled.Status))
	})
}

// settleLeftOver settles a, read from the store, if its game ended
// without settling it (a crash between the two), and returns the
// attempt as it now stands.
func (f *Flow) settleLeftOver(ctx context.Context, a storage.DailyAttempt) (storage.DailyAttempt, error) {
	if a.Status != storage.DailyPlaying || a.GameID == "" {
		return a, nil
	}
	g, err := f.store.Game(ctx, a.GameID)
	if errors.Is(err, storage.ErrNotFound) {
		return a, nil // nothing to settle it by; Play says so
	}
	if err != nil {
		return a, fmt.Errorf("daily: the daily game %s: %w", a.GameID, err)
	}
	if g.Status.Open() {
		return a, nil
	}
	settled, err := f.settle(ctx, g)
	switch {
	case errors.Is(err, storage.ErrGameOver):
		return f.store.DailyAttempt(ctx, a.GuildID, a.Day, a.Player.ID)
	case err != nil:
		return a, err
	}
	return settled, nil
}

// settle ends the attempt whose game g ended, as its record says.
func (f *Flow) settle(ctx context.Context, g *storage.Game) (storage.DailyAttempt, error) {
	res := storage.Result{Winner: storage.Nobody, Outcome: storage.GaveUp, MovesUsed: len(g.Moves)}
	if g.Result != nil {
		res = *g.Result
	}
	return settleDaily(ctx, f.store, g, res)
}

// clickDailyMove takes the member's one answer to a daily best-move
// puzzle: right, the attempt is solved; wrong, it failed, and the answer
// is shown.
func (f *Flow) clickDailyMove(ctx context.Context, ix *mux.Component) error {
	guild, day, p, gm, pos, err := f.todaysClick(ctx, ix)
	if err != nil {
		return err
	}
	cell := ix.Params["cell"]
	if !slices.Contains(moveNames(pos), cell) {
		return mux.Err("daily.stale")
	}
	me := play.PlayerOf(ix.Caller())
	a, err := f.store.UpdateDailyAttempt(ctx, guild, day, me, func(a *storage.DailyAttempt) error {
		a.Moves = 1
		a.Status = storage.DailyFailed
		if cell == p.Answer {
			a.Status = storage.DailySolved
		}
		return nil
	})
	if errors.Is(err, storage.ErrGameOver) {
		return f.alreadyPlayed(ctx, guild, day, me.ID)
	}
	if err != nil {
		return fmt.Errorf("daily: answer the daily puzzle: %w", err)
	}
	queueResult(ctx, dailyResult{attempt: a, game: storage.Kind(gm.Name), bestMove: true})
	return f.answered(ctx, ix.Interaction, gm, pos, p, cell, &a)
}

// alreadyPlayed tells a member who ended their attempt how it ended.
func (f *Flow) alreadyPlayed(ctx context.Context, guild, day string, p storage.PlayerID) error {
	a, err := f.store.DailyAttempt(ctx, guild, day, p)
	if err != nil {
		return fmt.Errorf("daily: the daily attempt of %s: %w", p, err)
	}
	return mux.Err("daily.you_" + string(a.Status))
}

// answered shows, privately, how a best-move puzzle was answered with
// cell ("" when given up) — right or not, the answer, and for the daily
// puzzle (a not nil)
// the streak — with a New puzzle button for practice.
func (f *Flow) answered(ctx context.Context, ix *mux.Interaction, gm *games.Game, pos engine.Position, p dailies.Puzzle, cell string, a *storage.DailyAttempt) error {
	l := ix.Lang()
	move := func(name string) string {
		m, err := pos.ParseMove(name)
		if err != nil {
			return name
		}
		return render.MoveName(gm, pos, m)
	}
	outcome := "daily.answer_saves"
	if p.Wins {
		outcome = "daily.answer_wins"
	}
	var lines []string
	switch cell {
	case "":
		lines = append(lines, l.T("daily.gave_up"))
	case p.Answer:
		lines = append(lines, l.T("daily.right", "Move", move(cell)))
	default:
		lines = append(lines, l.T("daily.wrong", "Move", move(cell)))
	}
	lines = append(lines, l.T(outcome, "Move", move(p.Answer)))
	if a != nil {
		streak, err := f.streak(ctx, a.GuildID, a.Player.ID, a.Day)
		if err != nil {
			return err
		}
		lines = append(lines, l.T("daily.your_streak", "Days", render.Plural(l, streak, "day")))
	}
	title := l.T("daily.practice_title", "Game", render.Title(l, storage.Kind(gm.Name)))
	if a != nil {
		title = l.T("daily.title", "Day", a.Day, "Game", render.Title(l, storage.Kind(gm.Name)))
	}
	return ix.Reply(render.Puzzle(l, storage.Kind(gm.Name), pos, "answer", title, lines, render.PracticeNewRow(l, storage.Kind(p.Kind))), true)
}

// clickDailyHint narrows a daily best-move puzzle's moves down by half,
// privately, and records the hint.
func (f *Flow) clickDailyHint(ctx context.Context, ix *mux.Component) error {
	guild, day, p, gm, pos, err := f.todaysClick(ctx, ix)
	if err != nil {
		return err
	}
	me := play.PlayerOf(ix.Caller())
	a, err := f.store.UpdateDailyAttempt(ctx, guild, day, me, func(a *storage.DailyAttempt) error {
		a.Hints++
		return nil
	})
	if errors.Is(err, storage.ErrGameOver) {
		return f.alreadyPlayed(ctx, guild, day, me.ID)
	}
	if err != nil {
		return fmt.Errorf("daily: hint on the daily puzzle: %w", err)
	}
	var names []string
	for _, n := range dailies.Hints(moveNames(pos), p.Answer, a.Hints) {
		m, err := pos.ParseMove(n)
		if err != nil {
			return fmt.Errorf("daily: hint on the daily puzzle: %w", err)
		}
		names = append(names, "**"+render.MoveName(gm, pos, m)+"**")
	}
	return ix.Say("daily.hint_moves", "Moves", strings.Join(names, ", "), "Hints", render.Plural(ix.Lang(), a.Hints, "hint"))
}

// clickDailyGiveUp ends the member's attempt at a daily best-move puzzle
// given up, and shows them the answer.
func (f *Flow) clickDailyGiveUp(ctx context.Context, ix *mux.Component) error {
	guild, day, p, gm, pos, err := f.todaysClick(ctx, ix)
	if err != nil {
		return err
	}
	me := play.PlayerOf(ix.Caller())
	a, err := f.store.UpdateDailyAttempt(ctx, guild, day, me, func(a *storage.DailyAttempt) error {
		a.Status = storage.DailyGaveUp
		return nil
	})
	if errors.Is(err, storage.ErrGameOver) {
		return f.alreadyPlayed(ctx, guild, day, me.ID)
	}
	if err != nil {
		return fmt.Errorf("daily: give up the daily puzzle: %w", err)
	}
	queueResult(ctx, dailyResult{attempt: a, game: storage.Kind(gm.Name), bestMove: true})
	return f.answered(ctx, ix.Interaction, gm, pos, p, "", &a)
}

// CountHint records a hint on g, a solo game, in the member's attempt at
// the daily puzzle if g is one: the puzzles' flow's Hint. A failure is
// logged: the hint is shown anyway.
func (f *Flow) CountHint(ctx context.Context, g *storage.Game) {
	if g.Settings.Daily == "" {
		return
	}
	_, err := f.store.UpdateDailyAttempt(ctx, g.GuildID, g.Settings.Daily, g.Players[0], func(a *storage.DailyAttempt) error {
		a.Hints++
		return nil
	})
	if err != nil && !errors.Is(err, storage.ErrGameOver) {
		f.log.Warn("hint on the daily puzzle not recorded", "game", g.ID, "err", err)
	}
}
