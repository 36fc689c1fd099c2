package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/egress"
	puzzleflow "github.com/gambitbot/gambit/bot/flows/puzzles"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/ops"
	"github.com/gambitbot/gambit/bot/scheduler"
	"github.com/gambitbot/gambit/storage"
)

// The state Bot keeps, grouped by what it is for: each group a field of
// Bot that New fills (lifecycle, which knows the transports, is in
// bot.go, the wiring).

// discordLink is the bot's side of Discord: every request goes out
// through egress, the interactions' answers through answers, and appID
// is who the bot is.
type discordLink struct {
	egress  *egress.Client // every Discord request goes out through it
	answers mux.Responder  // egress's session; a recorder in a handler's unit test
	appID   string         // the application's ID, learnt by whoAmI before the bot serves
}

// whoAmI learns the application ID, which is the bot user's.
func (d *discordLink) whoAmI() error {
	me, err := d.egress.Session.User("@me")
	d.egress.Observe(err)
	if err != nil {
		return fmt.Errorf("bot: who am I (is the token right?): %w", err)
	}
	d.appID = me.ID
	return nil
}

// intake is how an interaction gets to its handler: the interactions
// seen lately (a second delivery is dropped), the Mux of the flows'
// routes with its middleware chain, and the commands they declare.
type intake struct {
	seen   seenInteractions
	mux    *mux.Mux                        // the flows' routes (commands.go); tests add some
	handle mux.Handler                     // the mux's dispatch in the middleware chain (middleware.go)
	defs   []*discordgo.ApplicationCommand // the commands registered, localised (commandDefinitions)
}

// aiWorkers is where this process's AI searches run: the scheduler its
// jobs wait in (this process's workers, unless a test says otherwise),
// where AI turns go (the AI-turn seam, queue.go, chosen by New), and how
// a search gets its context.
type aiWorkers struct {
	scheduler.Scheduler                 // the fair queue of this process's workers (poolTurns, comparisons)
	pool                *scheduler.Pool // the AI workers of this process
	turns               aiSeam          // where AI turns go
	// searchContext gives an AI search its context: ctx until the job's
	// deadline. Tests replace it (export_test.go) to end searches when
	// they choose rather than when the wall clock says.
	searchContext func(ctx context.Context, deadline time.Time) (context.Context, context.CancelFunc)
	// compare is each solver's budget in Compare algorithms (bot/flows/puzzles),
	// whose solvers run on these workers; a test's (SetCompare).
	compare puzzleflow.Compare
}

// places is what the bot learnt of the places its boards are shown in:
// how a board reaches there, their language and their board forms.
type places struct {
	reach   reach      // tokens of boards and channels reachable only through interactions (reach.go)
	locales locales    // each guild's locale, for the boards shown there
	forms   boardForms // the board forms of guilds and users (boardform.go)
	left    sync.Map   // guild ID → true: the guilds the bot was removed from since it started (guilds.go)
}

// corruptGames are the games a store listing found corrupt and left out,
// each reported once (listed).
type corruptGames struct {
	log     *slog.Logger
	metrics *ops.Metrics // nil for none
	mu      sync.Mutex
	seen    map[storage.GameID]bool
}

// listed reports the games a store listing left out because their records
// are corrupt (err a *storage.SkippedError): it logs each, with what it
// was listing, and counts it in the metrics — once per game, as the
// timers list every tick. It returns err unless err was only that: the
// listing is then complete for every other game, and they go on, so one
// bad record holds up no one else.
func (c *corruptGames) listed(what string, err error) error {
	var skipped *storage.SkippedError
	if !errors.As(err, &skipped) {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, g := range skipped.Games {
		if c.seen[g.ID] {
			continue
		}
		if c.seen == nil {
			c.seen = map[storage.GameID]bool{}
		}
		c.seen[g.ID] = true
		c.log.Error(what+": left out a game whose record is corrupt; 'gambit db check' lists the damage", "game", g.ID, "err", g.Err)
		if c.metrics != nil {
			c.metrics.Games.CorruptSkipped.Inc()
		}
	}
	return nil
}

// workInFlight counts the work a stop waits for: interactions, the passes
// at start and after a shard is taken over, a guild's removal, the
// tournaments' advances. Work begins and the stop closes it under one
// lock, so no work is counted once the stop began to wait (a WaitGroup's
// Add racing its Wait from zero is a misuse the race detector reports).
type workInFlight struct {
	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup
}

// begin counts one more piece of work, or reports false once the stop
// began: the work is not to be done.
func (w *workInFlight) begin() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	w.wg.Add(1)
	return true
}

// end ends a piece of work begin counted.
func (w *workInFlight) end() { w.wg.Done() }

// close takes no more work.
func (w *workInFlight) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
}

// wait waits for the work counted to end.
func (w *workInFlight) wait() { w.wg.Wait() }
