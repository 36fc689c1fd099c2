package bot

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

	"github.com/gambitbot/gambit/bot/egress"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/daily"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// The daily puzzle: one puzzle a day per server (strategies/daily makes
// it from the server and the date under the install's secret key, read
// from the store at start, so that everyone there meets the same and no
// custom ID can name it),
// posted at DailyPostTime in the channel the server's admins chose
// (/settings daily-channel), played from the post or from /daily. A
// sliding-tile or N-Queens puzzle is played as the member's own solo game
// (Settings.Daily marks it), whose end settles the attempt (dailyRecorder);
// a "find the best move" puzzle is answered in one click on the post. The
// store keeps the attempts: hints, solves, streaks, the day's solvers.
//
// Everyone in the server meets the same puzzle, so an attempt is private:
// its board is an ephemeral message only the member sees (privateBoard in
// board.go), shown again by Play, /daily's Continue or /games' Re-post,
// and never posted in the channel. What the channel sees is the result,
// once, when the attempt ends: the member, the outcome, the moves and
// hints, the streak (postResults). Its once comes from the store: an
// ended attempt never changes (storage.DailyStore.UpdateDailyAttempt), so
// of all the processes and clicks that try, one ends it, and only that
// one posts its result. A crash between ending the attempt and posting
// loses the result's post, never the attempt: at most once, as a second
// public message is worse than none.

// DailyPostTime is when, after midnight UTC, the daily puzzle is posted:
// at the first tick of the timers from then on.
const DailyPostTime = 0 * time.Hour

// streakDays bounds the solved days read to count a streak.
const streakDays = 366

// dailyDefinition is the /daily command.
func dailyDefinition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{Name: "daily", Description: "Today's puzzle here, your streak and the solvers"}
}

// puzzleCache keeps the puzzles made today and yesterday: making one
// takes up to a few tens of milliseconds, and every click needs it. A
// puzzle depends on its kind and seed alone, so one cache serves every
// bot of the process.
var puzzleCache = struct {
	sync.Mutex
	m map[string]daily.Puzzle
}{m: map[string]daily.Puzzle{}}

// makePuzzle returns the puzzle of kind from seed, made once.
func makePuzzle(ctx context.Context, kind daily.Kind, seed uint64) (daily.Puzzle, error) {
	key := string(kind) + "/" + strconv.FormatUint(seed, 10)
	puzzleCache.Lock()
	p, ok := puzzleCache.m[key]
	puzzleCache.Unlock()
	if ok {
		return p, nil
	}
	p, err := daily.Make(ctx, kind, seed)
	if err != nil {
		return daily.Puzzle{}, fmt.Errorf("bot: make a %s puzzle: %w", kind, err)
	}
	puzzleCache.Lock()
	defer puzzleCache.Unlock()
	if len(puzzleCache.m) > 4096 { // a day's worth of servers many times over
		clear(puzzleCache.m)
	}
	puzzleCache.m[key] = p
	return p, nil
}

// loadDailyKey reads the install's key of the daily puzzles from the
// store, which makes it at the first start (storage.DailyKey): every
// process sharing the store chooses the same puzzles by it.
func (b *Bot) loadDailyKey(ctx context.Context) error {
	key, err := b.store.Secret(ctx, storage.DailyKey)
	if err != nil {
		return fmt.Errorf("bot: the daily puzzles' key: %w", err)
	}
	b.dailyKey = key
	return nil
}

// todaysPuzzle returns guild's puzzle of day.
func (b *Bot) todaysPuzzle(ctx context.Context, guild, day string) (daily.Puzzle, error) {
	kind, err := daily.KindOn(day)
	if err != nil {
		return daily.Puzzle{}, err
	}
	return makePuzzle(ctx, kind, daily.Seed(b.dailyKey, day, guild))
}

// puzzlePosition parses a puzzle's start.
func puzzlePosition(p daily.Puzzle) (*games.Game, engine.Position, error) {
	gm, err := catalog.Lookup(p.Game)
	if err != nil {
		return nil, nil, fmt.Errorf("bot: daily puzzle: %w", err)
	}
	pos, err := gm.Position(p.Position, games.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("bot: daily puzzle %s: %w", p.Position, err)
	}
	return gm, pos, nil
}

// puzzleTask says what a puzzle asks of the player.
func puzzleTask(l *i18n.Localizer, gm *games.Game, pos engine.Position, p daily.Puzzle) string {
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
func dailyMessage(l *i18n.Localizer, guild, day string, p daily.Puzzle, status storage.DailyStatus, lines []string) (render.Message, error) {
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

// postDailies posts today's puzzle in every server that chose a channel
// for it and whose timers this process runs, once per server and day (the
// store's claim), from DailyPostTime on. A server whose post fails is
// logged and not tried again that day: its members still have /daily.
func (b timerFlow) postDailies(ctx context.Context) {
	now := b.now().UTC()
	day := daily.Day(now)
	if now.Sub(now.Truncate(24*time.Hour)) < DailyPostTime {
		return
	}
	channels, err := b.store.DailyChannels(ctx)
	if err != nil {
		b.log.Error("list the daily puzzle's channels", "err", err)
		return
	}
	for guild, channel := range channels {
		if !b.life.myShards().Has(guild) {
			continue
		}
		if err := b.postDaily(ctx, guild, channel, day); err != nil {
			b.log.Error("post the daily puzzle", "guild", guild, "channel", channel, "err", err)
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
func (b timerFlow) postDaily(ctx context.Context, guild, channel, day string) error {
	if b.posted.has(guild, day) {
		return nil
	}
	first, err := b.store.ClaimDailyPost(ctx, guild, day)
	if err != nil {
		return err
	}
	b.posted.add(guild, day)
	if !first {
		return nil
	}
	p, err := b.todaysPuzzle(ctx, guild, day)
	if err != nil {
		return err
	}
	msg, err := dailyMessage(b.places.locales.of(guild, channel), guild, day, p, "", nil)
	if err != nil {
		return err
	}
	if _, err := b.discord.egress.SendChannelMessage(channel, msg); err != nil {
		return fmt.Errorf("bot: post the daily puzzle of guild %s in channel %s: %w", guild, channel, err)
	}
	b.log.Info("daily puzzle posted", "guild", guild, "channel", channel, "day", day, "kind", p.Kind)
	return nil
}

// cmdDaily handles /daily: today's puzzle with the controls left to the
// member (Continue while their board of it is open), their streak and
// today's solvers, privately.
func (b soloFlow) cmdDaily(ctx context.Context, ix *command) error {
	if ix.GuildID == "" {
		return mux.Err("daily.server_only")
	}
	day := daily.Day(b.now())
	p, err := b.todaysPuzzle(ctx, ix.GuildID, day)
	if err != nil {
		return err
	}
	me := play.PlayerOf(ix.Caller())
	a, err := b.store.DailyAttempt(ctx, ix.GuildID, day, me.ID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("bot: /daily: %w", err)
	}
	if a, err = b.settleLeftOver(ctx, a); err != nil {
		return err
	}
	l := ix.Lang()
	streak, err := b.streak(ctx, ix.GuildID, me.ID, day)
	if err != nil {
		return err
	}
	lines := []string{"", l.T("daily.your_streak", "Days", render.Plural(l, streak, "day"))}
	if a.Status.Ended() {
		lines = append(lines, l.T("daily.you_"+string(a.Status)))
	}
	board, err := b.solvers(ctx, l, ix.GuildID, day)
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
func (b *Bot) streak(ctx context.Context, guild string, p storage.PlayerID, day string) (int, error) {
	days, err := b.store.DailySolvedDays(ctx, guild, p, streakDays)
	if err != nil {
		return 0, fmt.Errorf("bot: streak of %s: %w", p, err)
	}
	return storage.Streak(days, day), nil
}

// solvers returns the lines of guild's board of day: who solved the
// puzzle, in the order they did, with the hints they used, and how many
// played.
func (b *Bot) solvers(ctx context.Context, l *i18n.Localizer, guild, day string) ([]string, error) {
	list, err := b.store.DailyAttempts(ctx, guild, day)
	if err != nil {
		return nil, fmt.Errorf("bot: the daily board of guild %s: %w", guild, err)
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
func (b soloFlow) checkToday(ix *component) (guild, day string, err error) {
	guild, day = ix.Params["guild"], ix.Params["day"]
	if ix.GuildID == "" || guild != ix.GuildID {
		return "", "", mux.Err("daily.server_only")
	}
	if day != daily.Day(b.now()) {
		return "", "", mux.Err("daily.not_today")
	}
	return guild, day, nil
}

// todaysClick checks a click on today's puzzle of its server
// (checkToday) and returns the puzzle and its start.
func (b soloFlow) todaysClick(ctx context.Context, ix *component) (guild, day string, p daily.Puzzle, gm *games.Game, pos engine.Position, err error) {
	if guild, day, err = b.checkToday(ix); err != nil {
		return
	}
	if p, err = b.todaysPuzzle(ctx, guild, day); err != nil {
		return
	}
	gm, pos, err = puzzlePosition(p)
	return
}

// clickDailyPlay starts the member's attempt at a sliding-tile or
// N-Queens daily puzzle: their own solo game from the puzzle's start,
// whose board only they see. Once begun, Play (and /daily's Continue)
// shows that board again (continueDaily).
func (b soloFlow) clickDailyPlay(ctx context.Context, ix *component) error {
	guild, day, err := b.checkToday(ix)
	if err != nil {
		return err
	}
	me := play.PlayerOf(ix.Caller())
	switch a, err := b.store.DailyAttempt(ctx, guild, day, me.ID); {
	case err == nil && a.Status.Ended():
		return mux.Err("daily.you_" + string(a.Status))
	case err == nil && a.GameID != "":
		return b.continueDaily(ctx, ix, a)
	case err != nil && !errors.Is(err, storage.ErrNotFound):
		return fmt.Errorf("bot: start the daily puzzle: %w", err)
	}
	p, err := b.todaysPuzzle(ctx, guild, day)
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
	return b.startSolo(ctx, ix.Interaction, gm, pos, day, func(g *storage.Game) error {
		a, err := b.store.UpdateDailyAttempt(ctx, guild, day, me, func(a *storage.DailyAttempt) error {
			if a.GameID == "" {
				a.GameID = g.ID
			}
			return nil
		})
		if err == nil && a.GameID == g.ID {
			return nil
		}
		g.Status = storage.StatusCancelled
		if cerr := b.store.UpdateGame(ctx, g); cerr != nil {
			b.log.Warn("a second daily game not cancelled", "game", g.ID, "err", cerr)
		}
		switch {
		case errors.Is(err, storage.ErrGameOver):
			return b.alreadyPlayed(ctx, guild, day, me.ID)
		case err != nil:
			return fmt.Errorf("bot: record the daily puzzle's game %s: %w", g.ID, err)
		}
		return mux.Err("daily.playing")
	})
}

// continueDaily shows the member the board of their attempt a again, as
// a new ephemeral message that becomes the board: the old one may be
// gone (dismissed, its token expired, the bot restarted). An attempt whose
// game ended without settling it (a crash between the two) is settled
// now, and the member told how it ended.
func (b soloFlow) continueDaily(ctx context.Context, ix *component, a storage.DailyAttempt) error {
	return b.onGame(ctx, ix.Interaction, string(a.GameID), func(ctx context.Context, g *storage.Game) error {
		if g.Status == storage.StatusActive {
			msg, err := b.boards.gameMessage(g, "")
			if err != nil {
				return err
			}
			return b.boards.showNewBoard(ctx, ix.Interaction, g, msg)
		}
		settled, err := b.settle(ctx, g)
		if errors.Is(err, storage.ErrGameOver) {
			return b.alreadyPlayed(ctx, a.GuildID, a.Day, a.Player.ID)
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
func (b soloFlow) settleLeftOver(ctx context.Context, a storage.DailyAttempt) (storage.DailyAttempt, error) {
	if a.Status != storage.DailyPlaying || a.GameID == "" {
		return a, nil
	}
	g, err := b.store.Game(ctx, a.GameID)
	if errors.Is(err, storage.ErrNotFound) {
		return a, nil // nothing to settle it by; Play says so
	}
	if err != nil {
		return a, fmt.Errorf("bot: the daily game %s: %w", a.GameID, err)
	}
	if g.Status.Open() {
		return a, nil
	}
	settled, err := b.settle(ctx, g)
	switch {
	case errors.Is(err, storage.ErrGameOver):
		return b.store.DailyAttempt(ctx, a.GuildID, a.Day, a.Player.ID)
	case err != nil:
		return a, err
	}
	return settled, nil
}

// settle ends the attempt whose game g ended, as its record says.
func (b soloFlow) settle(ctx context.Context, g *storage.Game) (storage.DailyAttempt, error) {
	res := storage.Result{Winner: storage.Nobody, Outcome: storage.GaveUp, MovesUsed: len(g.Moves)}
	if g.Result != nil {
		res = *g.Result
	}
	return settleDaily(ctx, b.store, g, res)
}

// clickDailyMove takes the member's one answer to a daily best-move
// puzzle: right, the attempt is solved; wrong, it failed, and the answer
// is shown.
func (b soloFlow) clickDailyMove(ctx context.Context, ix *component) error {
	guild, day, p, gm, pos, err := b.todaysClick(ctx, ix)
	if err != nil {
		return err
	}
	cell := ix.Params["cell"]
	if !slices.Contains(moveNames(pos), cell) {
		return mux.Err("daily.stale")
	}
	me := play.PlayerOf(ix.Caller())
	a, err := b.store.UpdateDailyAttempt(ctx, guild, day, me, func(a *storage.DailyAttempt) error {
		a.Moves = 1
		a.Status = storage.DailyFailed
		if cell == p.Answer {
			a.Status = storage.DailySolved
		}
		return nil
	})
	if errors.Is(err, storage.ErrGameOver) {
		return b.alreadyPlayed(ctx, guild, day, me.ID)
	}
	if err != nil {
		return fmt.Errorf("bot: answer the daily puzzle: %w", err)
	}
	queueResult(ctx, dailyResult{attempt: a, game: storage.Kind(gm.Name), bestMove: true})
	return b.answered(ctx, ix.Interaction, gm, pos, p, cell, &a)
}

// alreadyPlayed tells a member who ended their attempt how it ended.
func (b soloFlow) alreadyPlayed(ctx context.Context, guild, day string, p storage.PlayerID) error {
	a, err := b.store.DailyAttempt(ctx, guild, day, p)
	if err != nil {
		return fmt.Errorf("bot: the daily attempt of %s: %w", p, err)
	}
	return mux.Err("daily.you_" + string(a.Status))
}

// answered shows, privately, how a best-move puzzle was answered with
// cell ("" when given up) — right or not, the answer, and for the daily
// puzzle (a not nil)
// the streak — with a New puzzle button for practice.
func (b soloFlow) answered(ctx context.Context, ix *interaction, gm *games.Game, pos engine.Position, p daily.Puzzle, cell string, a *storage.DailyAttempt) error {
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
		streak, err := b.streak(ctx, a.GuildID, a.Player.ID, a.Day)
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
func (b soloFlow) clickDailyHint(ctx context.Context, ix *component) error {
	guild, day, p, gm, pos, err := b.todaysClick(ctx, ix)
	if err != nil {
		return err
	}
	me := play.PlayerOf(ix.Caller())
	a, err := b.store.UpdateDailyAttempt(ctx, guild, day, me, func(a *storage.DailyAttempt) error {
		a.Hints++
		return nil
	})
	if errors.Is(err, storage.ErrGameOver) {
		return b.alreadyPlayed(ctx, guild, day, me.ID)
	}
	if err != nil {
		return fmt.Errorf("bot: hint on the daily puzzle: %w", err)
	}
	var names []string
	for _, n := range daily.Hints(moveNames(pos), p.Answer, a.Hints) {
		m, err := pos.ParseMove(n)
		if err != nil {
			return fmt.Errorf("bot: hint on the daily puzzle: %w", err)
		}
		names = append(names, "**"+render.MoveName(gm, pos, m)+"**")
	}
	return ix.Say("daily.hint_moves", "Moves", strings.Join(names, ", "), "Hints", render.Plural(ix.Lang(), a.Hints, "hint"))
}

// clickDailyGiveUp ends the member's attempt at a daily best-move puzzle
// given up, and shows them the answer.
func (b soloFlow) clickDailyGiveUp(ctx context.Context, ix *component) error {
	guild, day, p, gm, pos, err := b.todaysClick(ctx, ix)
	if err != nil {
		return err
	}
	me := play.PlayerOf(ix.Caller())
	a, err := b.store.UpdateDailyAttempt(ctx, guild, day, me, func(a *storage.DailyAttempt) error {
		a.Status = storage.DailyGaveUp
		return nil
	})
	if errors.Is(err, storage.ErrGameOver) {
		return b.alreadyPlayed(ctx, guild, day, me.ID)
	}
	if err != nil {
		return fmt.Errorf("bot: give up the daily puzzle: %w", err)
	}
	queueResult(ctx, dailyResult{attempt: a, game: storage.Kind(gm.Name), bestMove: true})
	return b.answered(ctx, ix.Interaction, gm, pos, p, "", &a)
}

// clickNewPuzzle deals the clicker a practice puzzle of the kind of an
// ended daily puzzle's game: the same puzzle and size, medium. A game
// that is no puzzle (a forged custom ID) has no such button.
func (b soloFlow) clickNewPuzzle(ctx context.Context, ix *component) error {
	g, err := b.loadGame(ctx, ix.Params["game"])
	if err != nil {
		return err
	}
	if !g.Solo() {
		return mux.Err("daily.stale")
	}
	gm, err := gameOf(g)
	if err != nil {
		return err
	}
	n := 0
	if gm.Setup.Size != nil {
		pos, err := position(g)
		if err != nil {
			return err
		}
		n = len(gm.Look.Board(pos, nil).Rows)
	}
	return b.dealPuzzle(ctx, ix.Interaction, gm, n, puzzles.Levels()[1])
}

// clickPracticeNew shows the clicker, privately, a practice best-move
// puzzle of a kind, made from a fresh seed.
func (b soloFlow) clickPracticeNew(ctx context.Context, ix *component) error {
	kind := daily.Kind(ix.Params["kind"])
	if kind != daily.Connect4 && kind != daily.Adjacency {
		return mux.Err("daily.stale")
	}
	seed := daily.PracticeSeed()
	p, err := makePuzzle(ctx, kind, seed)
	if err != nil {
		return err
	}
	msg, err := practiceMessage(ix.Lang(), p, seed, 0)
	if err != nil {
		return err
	}
	return ix.Reply(msg, true)
}

// practiceMessage renders the practice best-move puzzle p, made from
// seed, after hints hints: the moves' buttons, then Hint (while a hint
// still narrows the moves down) and Give up.
func practiceMessage(l *i18n.Localizer, p daily.Puzzle, seed uint64, hints int) (render.Message, error) {
	gm, pos, err := puzzlePosition(p)
	if err != nil {
		return render.Message{}, err
	}
	lines := []string{puzzleTask(l, gm, pos, p), l.T("daily.not_counted")}
	left := daily.Hints(moveNames(pos), p.Answer, hints)
	if hints > 0 {
		names := make([]string, len(left))
		for i, n := range left {
			m, err := pos.ParseMove(n)
			if err != nil {
				return render.Message{}, fmt.Errorf("bot: hint on a practice puzzle: %w", err)
			}
			names[i] = "**" + render.MoveName(gm, pos, m) + "**"
		}
		lines = append(lines, l.T("daily.hint_moves", "Moves", strings.Join(names, ", "), "Hints", render.Plural(l, hints, "hint")))
	}
	rows := render.PracticeControls(l, gm, pos, string(p.Kind), seed, hints, len(daily.Hints(left, p.Answer, 1)) < len(left))
	title := l.T("daily.practice_title", "Game", render.Title(l, storage.Kind(gm.Name)))
	return render.Puzzle(l, storage.Kind(gm.Name), pos, "practice", title, lines, rows), nil
}

// practicePuzzle remakes the practice best-move puzzle a click names by
// its kind and seed. A seed that is not a practice puzzle's is refused:
// it could name a day's puzzle.
func practicePuzzle(ctx context.Context, ix *component) (p daily.Puzzle, seed uint64, err error) {
	kind := daily.Kind(ix.Params["kind"])
	seed, err = strconv.ParseUint(ix.Params["seed"], 10, 64)
	if err != nil || !daily.IsPractice(seed) || kind != daily.Connect4 && kind != daily.Adjacency {
		return daily.Puzzle{}, 0, mux.Err("daily.stale")
	}
	p, err = makePuzzle(ctx, kind, seed)
	return p, seed, err
}

// clickPracticeMove answers a practice best-move puzzle; nothing is
// recorded.
func (b soloFlow) clickPracticeMove(ctx context.Context, ix *component) error {
	return b.answerPractice(ctx, ix, ix.Params["cell"])
}

// answerPractice shows how the practice best-move puzzle a click names
// was answered with cell, "" when given up.
func (b soloFlow) answerPractice(ctx context.Context, ix *component, cell string) error {
	p, _, err := practicePuzzle(ctx, ix)
	if err != nil {
		return err
	}
	gm, pos, err := puzzlePosition(p)
	if err != nil {
		return err
	}
	if cell != "" && !slices.Contains(moveNames(pos), cell) {
		return mux.Err("daily.stale")
	}
	return b.answered(ctx, ix.Interaction, gm, pos, p, cell, nil)
}

// clickPracticeHint shows a practice best-move puzzle again, in place,
// with its moves narrowed down by one more hint.
func (b soloFlow) clickPracticeHint(ctx context.Context, ix *component) error {
	p, seed, err := practicePuzzle(ctx, ix)
	if err != nil {
		return err
	}
	hints, err := strconv.Atoi(ix.Params["n"])
	if err != nil || hints < 1 || hints > 8 {
		return mux.Err("daily.stale")
	}
	msg, err := practiceMessage(ix.Lang(), p, seed, hints)
	if err != nil {
		return err
	}
	return ix.Update(msg)
}

// clickPracticeGiveUp shows the answer of a practice best-move puzzle.
func (b soloFlow) clickPracticeGiveUp(ctx context.Context, ix *component) error {
	return b.answerPractice(ctx, ix, "")
}

// countDailyHint records a hint on the solo game of a member's attempt
// at the daily puzzle. A failure is logged: the hint is shown anyway.
func (b soloFlow) countDailyHint(ctx context.Context, g *storage.Game) {
	if g.Settings.Daily == "" {
		return
	}
	_, err := b.store.UpdateDailyAttempt(ctx, g.GuildID, g.Settings.Daily, g.Players[0], func(a *storage.DailyAttempt) error {
		a.Hints++
		return nil
	})
	if err != nil && !errors.Is(err, storage.ErrGameOver) {
		b.log.Warn("hint on the daily puzzle not recorded", "game", g.ID, "err", err)
	}
}

// dailyRecorder is the store as the flows see it: the end of a daily
// puzzle's solo game — solved by a move, given up, or solved by Gambit —
// settles the member's attempt, whichever flow ended it, and queues its
// result for the channel (settleDaily).
type dailyRecorder struct {
	storage.Store
	log *slog.Logger
}

// FinishGame implements storage.Store: the game's end, then its daily
// attempt's. A failure of the second is logged: the game is over either
// way, and the next /daily or Play settles the attempt (settleLeftOver).
func (s dailyRecorder) FinishGame(ctx context.Context, g *storage.Game, res storage.Result) ([]storage.RatingChange, error) {
	changes, err := s.Store.FinishGame(ctx, g, res)
	if err != nil || g.Settings.Daily == "" || !g.Solo() {
		return changes, err
	}
	if _, derr := settleDaily(ctx, s.Store, g, res); derr != nil && !errors.Is(derr, storage.ErrGameOver) && !errors.Is(derr, errNotTheAttempt) {
		s.log.Warn("daily puzzle's end not recorded", "game", g.ID, "err", derr)
	}
	return changes, nil
}

// errNotTheAttempt says a daily puzzle's game is not the one its
// member's attempt took: a second Play's, left by a crash before it was
// cancelled. Its end settles nothing.
var errNotTheAttempt = errors.New("the game is not the attempt's")

// settleDaily ends the attempt whose game g, a daily puzzle's, ended with
// res: solved, or given up (Give up, Gambit's Solve). The one call that
// ends it queues its result for the channel (queueResult); any other
// gets storage.ErrGameOver.
func settleDaily(ctx context.Context, store storage.Store, g *storage.Game, res storage.Result) (storage.DailyAttempt, error) {
	a, err := store.UpdateDailyAttempt(ctx, g.GuildID, g.Settings.Daily, g.Players[0], func(a *storage.DailyAttempt) error {
		if a.GameID != "" && a.GameID != g.ID {
			return errNotTheAttempt
		}
		a.GameID, a.Moves, a.Status = g.ID, res.MovesUsed, storage.DailyGaveUp
		if g.Solved() {
			a.Status = storage.DailySolved
		}
		return nil
	})
	if err != nil {
		return a, fmt.Errorf("bot: settle the daily attempt of game %s: %w", g.ID, err)
	}
	queueResult(ctx, dailyResult{attempt: a, game: g.Kind, byGambit: res.Outcome == storage.SolvedByGambit})
	return a, nil
}

// dailyResult is an ended attempt whose result the channel is to see.
type dailyResult struct {
	attempt  storage.DailyAttempt
	game     storage.Kind // the puzzle's game
	byGambit bool         // given up to Gambit's Solve
	bestMove bool         // answered in one click: its move is not counted
}

// dailyResults are the results the handler of one interaction queued.
type dailyResults struct {
	mu   sync.Mutex
	list []dailyResult
}

// resultsKey is the context key of an interaction's dailyResults.
type resultsKey struct{}

// queueResult queues r for the channel of the interaction whose handler
// ctx belongs to (postResults). Outside an interaction nothing is posted:
// a daily game ends only by its member's clicks, or with the server or
// the member gone, where there is nobody to tell.
func queueResult(ctx context.Context, r dailyResult) {
	if q, ok := ctx.Value(resultsKey{}).(*dailyResults); ok {
		q.mu.Lock()
		defer q.mu.Unlock()
		q.list = append(q.list, r)
	}
}

// resultFlow posts the results of the daily puzzle's attempts in their
// channels.
type resultFlow struct{ *Bot }

// postResults posts in the channel, once the handler has returned (and its
// answer, or the error's, is out), the results of the daily attempts the
// handler ended: a middleware (middleware.go).
func (b resultFlow) postResults(next mux.Handler) mux.Handler {
	return func(ctx context.Context, ix *interaction) error {
		q := &dailyResults{}
		err := next(context.WithValue(ctx, resultsKey{}, q), ix)
		q.mu.Lock()
		list := q.list
		q.mu.Unlock()
		for _, r := range list {
			if perr := b.postResult(context.WithoutCancel(ctx), ix, r); perr != nil {
				b.log.Warn("daily puzzle's result not posted", "guild", r.attempt.GuildID, "day", r.attempt.Day, "err", perr)
			}
		}
		return err
	}
}

// postResult posts r in the channel of ix, the interaction that ended the
// attempt, in the channel's language: as a channel message, or where the
// bot may not post there, as a public follow-up of ix.
func (b resultFlow) postResult(ctx context.Context, ix *interaction, r dailyResult) error {
	a := r.attempt
	streak := 0
	if a.Status == storage.DailySolved {
		var err error
		if streak, err = b.streak(ctx, a.GuildID, a.Player.ID, a.Day); err != nil {
			return err
		}
	}
	msg := render.DailyResultMessage(b.places.locales.of(a.GuildID, ix.ChannelID), render.DailyResult{
		Player: a.Player, Game: r.game, Status: a.Status, ByGambit: r.byGambit, BestMove: r.bestMove,
		Moves: a.Moves, Hints: a.Hints, Streak: streak,
	})
	if !ix.InteractionOnly() {
		_, err := b.discord.egress.SendChannelMessage(ix.ChannelID, msg)
		if code := egress.Code(err); err == nil || code != discordgo.ErrCodeMissingAccess && code != discordgo.ErrCodeMissingPermissions {
			return err
		}
	}
	_, err := ix.Followup(msg, false)
	return err
}
