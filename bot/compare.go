package bot

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// Compare algorithms, the button under a solo puzzle's board: the click is
// answered first, with a private message listing the solvers, none done.
// The solvers then run outside the game's lock as jobs of the AI workers
// (ai.go): one job per solver, queued in the fair queue under the
// player's name, searching at low priority, each within its own budget —
// compareNodes nodes and compareTime on the bot's clock —, so that a slow
// solver leaves the next its whole budget and another member's clicks and
// AI turns wait for at most one solver. The message is edited as they
// finish. One comparison runs per puzzle at a time: a click meanwhile is
// told that it runs, and none stacks up work.

// compareNodes caps each solver of Compare algorithms: enough for the
// informed searches, while the blind ones show where they give up.
const compareNodes = 200_000

// compareTime is each solver's time: node caps decide on an idle machine.
const compareTime = 500 * time.Millisecond

// comparisons are the comparisons running, one per puzzle at most.
type comparisons struct {
	mu      sync.Mutex
	running map[storage.GameID]bool

	// Tests change these before the bot runs.
	nodes  uint64                                      // each solver's node cap; 0 means compareNodes
	before func(ctx context.Context, algorithm string) // if not nil, called before each solver runs
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

// nodeCap returns each solver's node cap.
func (cs *comparisons) nodeCap() uint64 {
	if cs.nodes == 0 {
		return compareNodes
	}
	return cs.nodes
}

// comparison is one Compare algorithms click's solvers and their message.
type comparison struct {
	b        *Bot
	ix       *interaction // answered: the message is its response
	game     storage.GameID
	pos      engine.Position
	entrants []puzzles.Entrant
	lang     *i18n.Localizer
	nodes    uint64
	each     time.Duration

	mu      sync.Mutex
	runs    []puzzles.Run
	done    []bool
	left    int  // solvers not done
	dirty   bool // a result the message does not show yet
	editing bool // a worker is editing the message
}

// startComparison answers ix with the comparison of the solvers of g's
// position, none done yet, and queues them for the workers; the caller
// has claimed the comparison (comparisons.claim), and it ends once the
// message shows every result.
func (b soloFlow) startComparison(ix *interaction, g *storage.Game, pos engine.Position, entrants []puzzles.Entrant) error {
	c := &comparison{
		b: b.Bot, ix: ix, game: g.ID, pos: pos, entrants: entrants, lang: ix.Lang(), nodes: b.compares.nodeCap(), each: compareTime,
		runs: make([]puzzles.Run, len(entrants)), done: make([]bool, len(entrants)), left: len(entrants),
	}
	for i, e := range entrants {
		c.runs[i].Algorithm = e.Algorithm
	}
	c.mu.Lock()
	msg := c.message()
	c.mu.Unlock()
	if err := ix.Reply(msg, true); err != nil {
		b.compares.end(g.ID)
		return err
	}
	owner := string(g.Players[0].ID)
	for i := range entrants {
		if _, ok := b.ai.Submit(context.Background(), &task{owner: owner, run: func() { c.solve(i) }}); !ok {
			b.log.Info("comparison cut short: the bot is stopping", "game", g.ID)
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
	ctx, cancel := c.b.solo.solverContext(c.each)
	if c.b.compares.before != nil {
		c.b.compares.before(ctx, e.Algorithm)
	}
	var run puzzles.Run
	lowPriority(func() { run = e.Run(ctx, puzzles.Budget{Limits: puzzles.Limits{Nodes: c.nodes}}) })
	cancel()

	c.mu.Lock()
	c.runs[i], c.done[i] = run, true
	last := c.left == 1
	runs := slices.Clone(c.runs)
	c.mu.Unlock()
	if last {
		// Every solver is done: label the solutions optimal or not (on
		// N-Queens, a search for the nearest solution) with a budget of
		// its own too.
		ctx, cancel := c.b.solo.solverContext(c.each)
		var err error
		lowPriority(func() { err = puzzles.Label(ctx, c.pos, runs) })
		cancel()
		if err != nil {
			c.b.log.Warn("comparison: optimal length unknown", "game", c.game, "err", err)
		}
	}
	c.mu.Lock()
	if last {
		c.runs = runs
	}
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
			c.b.compares.end(c.game)
		}
		if err := c.ix.EditResponse(msg); err != nil {
			c.b.log.Warn("comparison: show the results", "game", c.game, "err", err)
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
func (b soloFlow) solverContext(each time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	deadline := b.now().Add(each)
	go func() {
		t := time.NewTicker(max(each/20, time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if !b.now().Before(deadline) {
					cancel()
					return
				}
			}
		}
	}()
	return ctx, cancel
}
