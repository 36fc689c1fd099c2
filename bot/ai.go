package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// AIRatings are the AI strategies' calibrated ratings (strategies.Rating)
// as the stores take them (their AIRatings option): the fixed ratings that
// games against an AI are rated at.
func AIRatings(k storage.Kind, strategy string) (float64, bool) {
	return strategies.Rating(string(k), strategy)
}

// aiJob is an AI turn to play: taken by the AI-turn seam (aiSeam), a job
// of this process's workers or handed on to the AI queue.
type aiJob struct {
	b        *Bot
	game     storage.GameID
	owner    string        // the person whose game it is, for fair queueing
	ply      int           // moves played when queued; the job is void if this changed
	deadline time.Time     // by the wall clock: the click plus the move time
	moveTime time.Duration // the game's move time
	queued   time.Time     // by the wall clock
	place    string        // where the game's shared messages' locale is kept (locales)
	shown    int           // the queue position the board showed, 0 for "thinking"
	// searches are the last searches of the two sides, by seat, in a game
	// between two AIs, which its board shows; carried from turn to turn.
	searches [2]*render.Search
	// fresh says the turn is queued, and its move time counts, from the
	// release, not from when the job was made: the turn after an AI's,
	// whose board is shown first, so that the edit's time is not the
	// search's.
	fresh bool
	// retry says an earlier attempt at the turn ran (AITurn.Retry).
	retry bool
	tok   webhookToken  // set when ready closes
	ready chan struct{} // closed by release, once the handler that queued the job returned
	once  sync.Once     // release closes ready once
}

// Owner implements scheduler.Job: the person whose game it is.
func (j *aiJob) Owner() string { return j.owner }

// Key implements scheduler.Job: a turn is queued at most once.
func (j *aiJob) Key() string { return aiClaim(j.game, j.ply) }

// Run implements scheduler.Job: it plays the turn.
func (j *aiJob) Run() { j.b.turns.runAI(j) }

// aiTurn names one AI turn: a game, and the moves played before it.
type aiTurn struct {
	game storage.GameID
	ply  int
}

// turn is the AI turn the job plays.
func (j *aiJob) turn() aiTurn { return aiTurn{j.game, j.ply} }

// task is work other than an AI turn (a solver of Compare algorithms,
// bot/flows/puzzles) that waits its owner's turn among the AI turns, so that the
// searches never use more threads than the workers.
type task struct {
	owner string
	run   func()
}

// Owner implements scheduler.Job.
func (t *task) Owner() string { return t.owner }

// Key implements scheduler.Job: a task is never a duplicate.
func (t *task) Key() string { return "" }

// Run implements scheduler.Job.
func (t *task) Run() { t.run() }

// enqueueAI queues the AI's turn if g awaits it and returns what the board
// should show, nil if the AI is not to move, and the job queued, nil if
// none was (the game was queued already). The job waits for its release:
// handlers queue through b.queueAI (seam.go), whose seam releases it once the
// handler returned. clicked is when the turn began by the wall clock:
// the move time counts from it, queueing included.
func (b aiFlow) enqueueAI(g *storage.Game, clicked time.Time) (*render.Thinking, *aiJob) {
	if !g.AwaitingAI() {
		return nil, nil
	}
	return b.enqueueTurn(g, clicked, string(g.Players[1-g.Turn].ID))
}

// enqueueTurn is enqueueAI for a game that awaits the AI, its turn queued
// for owner, whose share of the workers it takes: the person who played
// against the AI, or who started a game between two AIs (its next turns
// are queued for the same owner by nextTurn).
func (b aiFlow) enqueueTurn(g *storage.Game, clicked time.Time, owner string) (*render.Thinking, *aiJob) {
	mt := b.moveTime(g)
	j := &aiJob{
		b: b.Bot, game: g.ID, owner: owner, ply: len(g.Moves), deadline: clicked.Add(mt), moveTime: mt, queued: time.Now(),
		place: place(g.GuildID, g.ChannelID), ready: make(chan struct{}),
	}
	pos, added := b.ai.turns.take(j)
	if !added {
		return &render.Thinking{}, nil
	}
	j.shown = pos // read by the worker once the job is released
	return &render.Thinking{Queue: pos}, j
}

// release lets the job's worker start, editing the board through tok (the
// zero token for none), or hands the job on with tok (aiSeam.released).
// Later calls change nothing.
func (j *aiJob) release(tok webhookToken) {
	j.once.Do(func() {
		j.tok = tok
		if j.fresh {
			now := time.Now()
			j.queued, j.deadline = now, now.Add(j.moveTime)
		}
		close(j.ready)
		j.b.ai.turns.released(j)
	})
}

// sweepAI queues the AI turns of this process's shards that await the AI
// with nobody playing them: at start (grace 0), the turns pending when the bot stopped; later,
// as often as the AI-turn seam says (aiSeam.sweepEvery), the turns a
// process sharing the store queued and then died or stalled on, whose
// claims ran out. A turn changed within grace is left
// to the process that queued it, whose worker may not have claimed it yet.
// Whichever worker runs a turn claims it first (runAI), so a turn swept by
// two processes at once is still played once.
func (b aiFlow) sweepAI(ctx context.Context, grace time.Duration) error {
	pending, err := b.store.AwaitingAI(ctx, b.life.myShards())
	if err = b.corrupt.listed("resume AI turns", err); err != nil {
		return fmt.Errorf("bot: list games awaiting the AI: %w", err)
	}
	if len(pending) == 0 {
		return nil
	}
	claimed, err := b.store.Claims(ctx, aiClaimPrefix)
	if err != nil {
		return fmt.Errorf("bot: list claimed AI turns: %w", err)
	}
	since, queued := b.now().Add(-grace), 0
	for _, g := range pending {
		if _, taken := claimed[aiClaim(g.ID, len(g.Moves))]; taken || g.UpdatedAt.After(since) {
			continue
		}
		if _, j := b.enqueueAI(g, time.Now()); j != nil {
			j.release(webhookToken{}) // no board shows the resumed turn
			queued++
		}
	}
	if queued > 0 {
		b.log.Info("resumed pending AI turns", "games", queued)
	}
	return nil
}

// aiClaimPrefix begins the keys of the claims on AI turns.
const aiClaimPrefix = "ai/"

// aiClaim is the key of the claim on game id's AI turn after ply moves:
// one claim per turn, so that the release of a finished turn never frees
// the next one, queued meanwhile.
func aiClaim(id storage.GameID, ply int) string {
	return fmt.Sprintf("%s%s/%d", aiClaimPrefix, id, ply)
}

// claimAI claims the AI turn t for this process and renews the claim
// until release is called (keepClaim). It reports false when another
// process holds it. The returned context is done once the claim is lost
// (a stall longer than its time to live), so that the search stops; the
// move would lose its compare-and-set anyway to whoever took the claim.
func (b aiFlow) claimAI(ctx context.Context, t aiTurn) (claimed context.Context, release func(), ok bool, err error) {
	return b.keepClaim(ctx, aiClaim(t.game, t.ply), b.cfg.Shards.Instance, "AI turn", "game", t.game)
}

// keepClaim takes the claim key for owner for ClaimTTL, and renews it
// every third of that until release is called, which gives it up. It
// reports false when another owner holds it. The returned context is done
// once the claim is lost — a stall longer than its time to live let
// another owner take it — so that the work it guards stops. what and
// attrs name the work in the logs.
func (b *Bot) keepClaim(ctx context.Context, key, owner, what string, attrs ...any) (claimed context.Context, release func(), ok bool, err error) {
	ttl := b.cfg.Shards.ClaimTTL
	if ok, err := b.store.Claim(ctx, key, owner, ttl); !ok || err != nil {
		return nil, nil, false, err
	}
	claimed, lose := context.WithCancel(ctx)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		renew := time.NewTicker(ttl / 3)
		defer renew.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done(): // the work is stopping: the claim is released or expires
				lose()
				return
			case <-renew.C:
			}
			if ok, err := b.store.Claim(ctx, key, owner, ttl); err != nil {
				b.log.Warn(what+": renew claim", append(attrs, "err", err)...)
			} else if !ok {
				b.log.Warn(what+": claim lost to another process; dropping the work", attrs...)
				lose()
				return
			}
		}
	})
	return claimed, func() {
		close(stop)
		wg.Wait()
		lose()
		if err := b.store.Release(context.WithoutCancel(ctx), key, owner); err != nil {
			b.log.Warn(what+": release claim", append(attrs, "err", err)...)
		}
	}, true, nil
}

// refreshBoards redraws the boards of the open games changed within
// Config.Timers.RefreshWindow before the start: a crash between a commit and the
// reply or edit that shows it leaves such a board one move behind, and
// nobody could play on it. Open games of any age without a board message
// — a crash between showing a new board and saving its ID, or a reply that
// never went out — get their board posted, if they were created before
// started (a game created since is being shown by its handler). Games
// awaiting the AI are left to their resumed search, which posts a missing
// board with its move. A private board (privateBoard) is left alone: only
// its member's clicks reach it, and a channel must never see it. Only the
// games of the guilds of shards are
// refreshed (the store selects them): those of this process's shards at
// start, of a shard taken over from a dead process later (see
// shardKeeper).
func (b aiFlow) refreshBoards(ctx context.Context, started time.Time, shards storage.Shards) {
	since := started.Add(-b.cfg.Timers.RefreshWindow)
	games, err := b.store.OpenGames(ctx, shards, func(g *storage.Game) bool {
		lost := g.MessageID == "" && g.CreatedAt.Before(started)
		return (lost || g.MessageID != "" && g.UpdatedAt.After(since)) && !g.AwaitingAI() && !privateBoard(g)
	})
	if err = b.corrupt.listed("refresh recent boards", err); err != nil {
		b.log.Error("refresh recent boards", "err", err)
		return
	}
	for _, g := range games {
		if ctx.Err() != nil {
			break // shutting down: the next start refreshes the rest
		}
		// A board being posted is saved even if shutdown begins meanwhile
		// (shutdown waits for it): a posted board whose ID is lost would
		// stay unknown to its game.
		if err := b.refreshBoard(context.WithoutCancel(ctx), g.ID); err != nil {
			b.log.Warn("refresh a recent board", "game", g.ID, "err", err)
		}
	}
	if len(games) > 0 {
		b.log.Info("refreshed the boards of recently changed games and posted the missing ones", "games", len(games))
	}
}

// refreshBoard redraws one game's board from its record, under its lock.
func (b aiFlow) refreshBoard(ctx context.Context, id storage.GameID) error {
	ctx, unlock := b.locks.hold(ctx, id)
	defer unlock()
	g, err := b.store.Game(ctx, id)
	if err != nil {
		return fmt.Errorf("bot: reload game %s: %w", id, err)
	}
	if !g.Status.Open() || g.AwaitingAI() {
		return nil
	}
	msg, err := b.boards.gameMessage(g, "")
	if err != nil {
		return err
	}
	return b.boards.editBoard(ctx, g, msg, webhookToken{})
}

// runAI plays one AI turn of this process's workers (playAI), once the
// seam released it.
func (b aiFlow) runAI(j *aiJob) {
	<-j.ready // released by the seam once the handler that queued it returned
	switch err := b.playAI(context.Background(), j); {
	case errors.Is(err, ErrTurnBusy):
		b.log.Debug("AI turn: another process plays it", "game", j.game)
	case errors.Is(err, errClaimLost):
		// the process that took the claim plays the turn
	case err != nil:
		b.log.Error("AI turn", "game", j.game, "err", err)
	}
}

// errClaimLost says the claim on an AI turn ran out during its search.
var errClaimLost = errors.New("the claim on the turn was lost during the search")

// playAI plays one AI turn: it searches until the job's deadline, then
// commits and shows the move. Boards are edited under the game's lock
// after checking the game still awaits this move, so a late progress edit
// never hides a resignation or the move itself. It returns nil once the
// turn is played or void (the game moved on), and an error when it is
// neither: ctx ended, the turn is another process's (ErrTurnBusy), the
// store or the search failed.
func (b aiFlow) playAI(ctx context.Context, j *aiJob) error {
	if m := b.cfg.Metrics; m != nil {
		m.AI.Wait.Observe(time.Since(j.queued).Seconds())
	}
	claimed, release, ok, err := b.claimAI(ctx, j.turn())
	if err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	if !ok {
		return ErrTurnBusy
	}
	defer release()
	g, err := b.store.Game(claimed, j.game)
	if err != nil {
		return fmt.Errorf("load game: %w", err)
	}
	if !g.AwaitingAI() || len(g.Moves) != j.ply {
		if j.retry && len(g.Moves) == j.ply+1 {
			return b.showPlayed(claimed, j)
		}
		return nil
	}
	name, _ := g.Players[g.Turn].ID.Strategy()
	info, err := strategies.Lookup(name)
	if err != nil {
		return fmt.Errorf("strategy %q: %w", name, err)
	}
	pos, err := position(g)
	if err != nil {
		return fmt.Errorf("read position: %w", err)
	}

	progress := &progressEditor{b: b.Bot, job: j, every: b.cfg.Timers.ProgressInterval, start: b.now()}
	progress.ctx, progress.cancel = context.WithCancel(abandonable(context.Background()))
	if j.shown > 0 {
		progress.show(render.Thinking{})
	}
	progress.watch(b.cfg.Timers.TickInterval)
	searchCtx, cancel := b.ai.searchContext(claimed, j.deadline)
	started := time.Now()
	var res strategies.Result
	lowPriority(func() {
		res, err = info.Strategy.Search(searchCtx, pos.Clone(), strategies.Limits{Threads: 1, HashMiB: b.cfg.AI.HashMiB, Progress: progress.report})
	})
	cancel()
	progress.stop()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("search stopped: %w", err) // the worker is stopping: the turn is tried again
	}
	if claimed.Err() != nil {
		return errClaimLost // the process that took the claim plays the turn
	}
	if err != nil {
		return fmt.Errorf("search (%s): %w", name, err)
	}
	if m := b.cfg.Metrics; m != nil {
		m.AI.SearchSeconds.WithLabelValues(string(g.Kind)).Observe(time.Since(started).Seconds())
		m.AI.SearchDepth.WithLabelValues(string(g.Kind)).Observe(float64(res.Depth))
		m.AI.Overshoot.WithLabelValues(string(g.Kind)).Observe(max(time.Since(j.deadline), 0).Seconds())
	}
	found := &render.Search{Depth: res.Depth, Nodes: res.Nodes, Elapsed: time.Since(started), Score: res.Score, Exact: res.Exact}
	if err := b.commitAI(claimed, j, res, found); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// commitAI commits the AI's move found by a search, if the game still
// awaits it, and shows the board. Once the move is committed it returns
// nil whatever the board's edit did: the turn is played, and a retry
// would find it so. found is what the search found, which the board of a
// game between two AIs shows.
func (b aiFlow) commitAI(ctx context.Context, j *aiJob, res strategies.Result, found *render.Search) error {
	ctx, unlock := b.locks.hold(ctx, j.game)
	defer unlock()
	g, err := b.store.Game(ctx, j.game)
	if err != nil {
		return fmt.Errorf("bot: reload game %s: %w", j.game, err)
	}
	if !g.AwaitingAI() || len(g.Moves) != j.ply {
		b.log.Info("AI move dropped: the game changed during the search", "game", g.ID, "status", g.Status, "moves", len(g.Moves))
		return nil // resigned, timed out or cancelled meanwhile
	}
	pos, err := position(g)
	if err != nil {
		return err
	}
	mover := g.Turn
	changes, err := b.commitMove(ctx, g, pos, res.Move)
	if errors.Is(err, storage.ErrGameOver) {
		return nil
	}
	if err != nil {
		return err
	}
	searches := j.searches
	if render.BetweenAIs(g) {
		searches[mover] = found
	}
	b.showAIMove(ctx, j, g, pos, changes, searches)
	return nil
}

// showPlayed shows the move an earlier attempt at j's turn committed, as
// that attempt would have once committed (showAIMove): it may have died
// between the commit and the board's edit, leaving the board "thinking"
// over a game that awaits its next player — who has nothing to click —
// or has ended. It does so while the AI's move is the game's last change
// (lastChangeIsMove): a later change's flow — a move, a resignation, a
// pause, a draw offer, a rematch — showed the game itself. The rating
// changes and the search's figures of the dead attempt are gone; the
// board shows the game without them (a game between two AIs without
// either side's figures, until each moves again).
func (b aiFlow) showPlayed(ctx context.Context, j *aiJob) error {
	ctx, unlock := b.locks.hold(ctx, j.game)
	defer unlock()
	g, err := b.store.Game(ctx, j.game)
	if err != nil {
		return fmt.Errorf("bot: reload game %s: %w", j.game, err)
	}
	if len(g.Moves) != j.ply+1 || !lastChangeIsMove(g) {
		return nil
	}
	pos, err := position(g)
	if err != nil {
		return err
	}
	b.log.Info("AI turn: showing the move an earlier attempt played", "game", g.ID, "moves", len(g.Moves))
	b.showAIMove(ctx, j, g, pos, nil, [2]*render.Search{})
	return nil
}

// lastChangeIsMove reports whether g, one move on from an AI's turn, is
// as that move left it: under way, or ended by it under the game's rules,
// with nothing done since that its board shows — no pause, draw offer or
// rematch.
func lastChangeIsMove(g *storage.Game) bool {
	if g.Paused || g.DrawOffer != nil || g.Rematched {
		return false
	}
	return g.Status == storage.StatusActive ||
		g.Status == storage.StatusFinished && g.Result != nil && g.Result.Outcome == storage.ByRules
}

// showAIMove shows the AI's move of j's turn, stored in g, on its board,
// with the rating changes of a game it ended and the searches of a game
// between two AIs. In such a game the other AI moves next: its turn is
// queued now, and released once the board shows this move, so that its
// edits come after this one (a turn queued already is not queued again).
// A failed edit is logged: the move is played all the same.
func (b aiFlow) showAIMove(ctx context.Context, j *aiJob, g *storage.Game, pos engine.Position, changes []storage.RatingChange, searches [2]*render.Search) {
	thinking, next := b.nextTurn(g, j)
	if next != nil {
		next.searches, next.fresh = searches, true
		defer next.release(j.tok)
	}
	if err := b.boards.editBoard(ctx, g, b.boards.viewSearches(g, pos, thinking, changes, searches), j.tok); err != nil {
		b.log.Error("AI turn: the move is played but its board not updated", "game", g.ID, "err", err)
	}
}

// nextTurn queues the turn that follows j's committed move in g when an
// AI plays it too — a game between two AIs (/versus, a tournament's
// pairing of two AI entrants) plays itself, turn after turn, through the
// seam each turn goes through — for the same owner as j, and returns
// what the board shows and the turn queued, not yet released (nil if
// none was: a person moves next, the game ended, or the workers are
// stopping, when the next start's sweep resumes it).
func (b aiFlow) nextTurn(g *storage.Game, j *aiJob) (*render.Thinking, *aiJob) {
	if !g.AwaitingAI() {
		return nil, nil
	}
	return b.enqueueTurn(g, time.Now(), j.owner)
}

// progressEditor edits a board with a search's progress, at most once per
// interval and never concurrently with itself: when the search reports a
// new depth, and otherwise as time passes (watch), so that a search that
// reports seldom or never — a local search, a deep iteration — still
// shows it is alive.
type progressEditor struct {
	b     *Bot
	job   *aiJob
	every time.Duration
	start time.Time
	// ctx is the edits' context, abandonable; stop cancels it, ending
	// the watch and an edit in flight with it.
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	last    time.Time
	depth   int    // the deepest depth reported so far
	nodes   uint64 // the positions searched, as last reported
	busy    bool
	stopped bool
	wg      sync.WaitGroup
}

// report is the search's progress callback: it must return at once, so
// the edit runs in its own goroutine.
func (p *progressEditor) report(pr strategies.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.depth = max(p.depth, pr.Depth)
	p.nodes = max(p.nodes, pr.Nodes)
	p.due()
}

// watch checks every tick of the wall clock whether an edit is due by the
// bot's clock, until stop.
func (p *progressEditor) watch(tick time.Duration) {
	p.wg.Go(func() {
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-p.ctx.Done():
				return
			case <-t.C:
				p.mu.Lock()
				p.due()
				p.mu.Unlock()
			}
		}
	})
}

// due starts an edit with the progress so far if one is due: an interval
// after the start and after the last edit, none in flight. The caller
// holds p.mu.
func (p *progressEditor) due() {
	now := p.b.now()
	if p.stopped || p.busy || now.Sub(p.last) < p.every || now.Sub(p.start) < p.every {
		return
	}
	p.busy, p.last = true, now
	t := render.Thinking{Depth: p.depth, Nodes: p.nodes, Elapsed: now.Sub(p.start)}
	p.wg.Go(func() {
		p.edit(t)
		p.mu.Lock()
		p.busy = false
		p.mu.Unlock()
	})
}

// show edits the board at once (the search is starting after a wait).
func (p *progressEditor) show(t render.Thinking) {
	p.mu.Lock()
	p.last = p.b.now()
	p.mu.Unlock()
	p.edit(t)
}

// stop refuses later edits and abandons one in flight — one waiting out
// Discord's Retry-After would otherwise hold the move back, and its
// "thinking…" is stale once the search ended — and waits until it has
// returned, so that the move's own edit goes next.
func (p *progressEditor) stop() {
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
	p.cancel()
	p.wg.Wait()
}

func (p *progressEditor) edit(t render.Thinking) {
	b, j := p.b, p.job
	ctx, unlock := b.locks.hold(p.ctx, j.game)
	defer unlock()
	g, err := b.store.Game(ctx, j.game)
	if err != nil || !g.AwaitingAI() || len(g.Moves) != j.ply {
		return
	}
	pos, err := position(g)
	if err != nil {
		return
	}
	err = b.boards.editBoard(ctx, g, b.boards.viewSearches(g, pos, &t, nil, j.searches), j.tok)
	switch {
	case err != nil && p.ctx.Err() != nil:
		b.log.Debug("AI progress edit abandoned: the search ended", "game", g.ID, "err", err)
	case err != nil:
		b.log.Warn("show AI progress", "game", g.ID, "err", err)
	}
}

// abandonKey is the context key of abandonable.
type abandonKey struct{}

// abandonable marks ctx's board edits as ones to abandon when ctx ends:
// their Discord calls carry ctx (discordOptions), so that one waiting on a
// rate limit ends with it, and a failed one tries no other way. Other
// edits are sent whatever their caller's context does.
func abandonable(ctx context.Context) context.Context {
	return context.WithValue(ctx, abandonKey{}, true)
}

// abandoned reports whether ctx is abandonable and has ended.
func abandoned(ctx context.Context) bool {
	return ctx.Value(abandonKey{}) != nil && ctx.Err() != nil
}

// discordOptions are the options of a Discord call made under ctx: its
// context if abandonable.
func discordOptions(ctx context.Context) []discordgo.RequestOption {
	if ctx.Value(abandonKey{}) == nil {
		return nil
	}
	return []discordgo.RequestOption{discordgo.WithContext(ctx)}
}
