package puzzles

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
	solvers "github.com/gambitbot/gambit/strategies/puzzles"
)

// Compare algorithms, the button under a solo puzzle's board: the click is
// answered first, with a private message listing the solvers, none done.
// The solvers then run outside the game's lock as work of the AI workers
// (Config.Submit): one job per solver, queued in the fair queue under the
// player's name, searching at low priority, each within its own budget —
// Compare.Nodes nodes and CompareTime on the bot's clock —, so that a slow
// solver leaves the next its whole budget and another member's clicks and
// AI turns wait for at most one solver. The message is edited as they
// finish. One comparison runs per puzzle at a time in a process: a click
// meanwhile is told that it runs, and none stacks up work.

// CompareNodes caps each solver of Compare algorithms: enough for the
// informed searches, while the blind ones show where they give up.
const CompareNodes = 200_000

// CompareTime is each solver's time: node caps decide on an idle machine.
const CompareTime = 500 * time.Millisecond

// Compare is each solver's budget in Compare algorithms.
type Compare struct {
	// Nodes is each solver's node cap; 0 means CompareNodes.
	Nodes uint64
	// Before, if not nil, is called on the worker before each solver
	// runs, with the context the solver runs in: a test holds the solvers
	// there.
	Before func(ctx context.Context, algorithm string)
}

// comparisons are the comparisons running, one per puzzle at most.
type comparisons struct {
	mu      sync.Mutex
	running map[storage.GameID]bool
}

// claim reports whether a comparison on game id may start, and if so
// counts it as running until end.
func (cs *comparisons) claim(id storage.GameID) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.running[id] {
		return false
	}
	if cs.running == nil {
		cs.running = map[storage.GameID]bool{}
	}
	cs.running[id] = true
	return true
}

// end forgets the comparison on game id.
func (cs *comparisons) end(id storage.GameID) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.running, id)
}

// clickCompare shows, privately, the solvers side by side on the board's
// position: it answers at once and the workers fill the answer in. A
// click while the puzzle's comparison runs is told so.
func (f *Flow) clickCompare(_ context.Context, ix *mux.Component, g *storage.Game) error {
	if err := f.checkPuzzler(ix, g); err != nil {
		return err
	}
	pos, err := play.Position(g)
	if err != nil {
		return err
	}
	entrants, err := solvers.Entrants(pos)
	if err != nil {
		return fmt.Errorf("puzzles: compare on game %s: %w", g.ID, err)
	}
	if !f.compares.claim(g.ID) {
		return mux.Err("compare.running")
	}
	return f.startComparison(ix.Interaction, g, pos, entrants)
}

// comparison is one Compare algorithms click's solvers and their message.
type comparison struct {
	f        *Flow
	ix       *mux.Interaction // answered: the message is its response
	game     storage.GameID
	pos      engine.Position
	entrants []solvers.Entrant
	lang     *i18n.Localizer
	nodes    uint64
	each     time.Duration

	mu      sync.Mutex
	runs    []solvers.Run
	done    []bool
	left    int  // solvers not done
	dirty   bool // a result the message does not show yet
	editing bool // a worker is editing the message
}

// startComparison answers ix with the comparison of the solvers of g's
// position, none done yet, and queues them for the workers; the caller
// has claimed the comparison (comparisons.claim), and it ends once the
// message shows every result.
func (f *Flow) startComparison(ix *mux.Interaction, g *storage.Game, pos engine.Position, entrants []solvers.Entrant) error {
	nodes := f.cfg.Compare.Nodes
	if nodes == 0 {
		nodes = CompareNodes
	}
	c := &comparison{
		f: f, ix: ix, game: g.ID, pos: pos, entrants: entrants, lang: ix.Lang(), nodes: nodes, each: CompareTime,
		runs: make([]solvers.Run, len(entrants)), done: make([]bool, len(entrants)), left: len(entrants),
	}
	for i, e := range entrants {
		c.runs[i].Algorithm = e.Algorithm
	}
	c.mu.Lock()
	msg := c.message()
	c.mu.Unlock()
	if err := ix.Reply(msg, true); err != nil {
		f.compares.end(g.ID)
		return err
	}
	owner := string(g.Players[0].ID)
	for i := range entrants {
		if !f.cfg.Submit(owner, func() { c.solve(i) }) {
			f.log.Info("comparison cut short: the bot is stopping", "game", g.ID)
			return nil
		}
	}
	return nil
}

// message renders the comparison as it stands. The caller holds c.mu.
func (c *comparison) message() render.Message {
	return render.Compare(c.lang, c.runs, c.done, c.nodes, c.each)
}

// solve runs the i-th solver, on a worker, and shows its result.
func (c *comparison) solve(i int) {
	e := c.entrants[i]
	ctx, cancel := c.f.solverContext(c.each)
	if before := c.f.cfg.Compare.Before; before != nil {
		before(ctx, e.Algorithm)
	}
	var run solvers.Run
	c.f.cfg.LowPriority(func() { run = e.Run(ctx, solvers.Budget{Limits: solvers.Limits{Nodes: c.nodes}}) })
	cancel()

	c.mu.Lock()
	c.runs[i] = run
	if c.left == 1 {
		// Every other solver is done: label the solutions optimal or not
		// (on N-Queens, a search for the nearest solution) with a budget
		// of its own too. The last result is shown with its labels, so
		// that no message shows every result while the comparison runs.
		runs := slices.Clone(c.runs)
		c.mu.Unlock()
		ctx, cancel := c.f.solverContext(c.each)
		var err error
		c.f.cfg.LowPriority(func() { err = solvers.Label(ctx, c.pos, runs) })
		cancel()
		if err != nil {
			c.f.log.Warn("comparison: optimal length unknown", "game", c.game, "err", err)
		}
		c.mu.Lock()
		c.runs = runs
	}
	c.done[i] = true
	c.left--
	c.dirty = true
	c.mu.Unlock()
	c.show()
}

// show edits the message until it shows every result done so far. One
// worker edits at a time: a result that comes meanwhile is shown by the
// edit after, so that edits never overtake one another and a worker never
// waits on another's. The comparison ends as the edit that shows the last
// result is sent, so that a click that sees it may compare again.
func (c *comparison) show() {
	c.mu.Lock()
	if c.editing {
		c.mu.Unlock()
		return
	}
	c.editing = true
	for c.dirty {
		c.dirty = false
		msg, over := c.message(), c.left == 0
		c.mu.Unlock()
		if over {
			c.f.compares.end(c.game)
		}
		if err := c.ix.EditResponse(msg); err != nil {
			c.f.log.Warn("comparison: show the results", "game", c.game, "err", err)
		}
		c.mu.Lock()
	}
	c.editing = false
	c.mu.Unlock()
}

// solverContext returns the context of one solver's run: it ends once its
// time has passed on the bot's clock, read every twentieth of that time,
// so that a test's manual clock decides when a solver's time is up (the
// solvers never see a time that a slow machine ran out).
func (f *Flow) solverContext(each time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	deadline := f.cfg.Now().Add(each)
	go func() {
		t := time.NewTicker(max(each/20, time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if !f.cfg.Now().Before(deadline) {
					cancel()
					return
				}
			}
		}
	}()
	return ctx, cancel
}
