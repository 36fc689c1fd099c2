package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/bot/scheduler"
	"github.com/gambitbot/gambit/storage"
)

// The AI-turn seam: where the AI turns this process queues go (aiSeam),
// chosen once by New. Without Config.AI.Queue (one machine on bbolt) they
// run on this process's workers (poolTurns); with it they go to a job
// queue over the shared store (a River queue on PostgreSQL, wired by the
// binary), and whichever process works that queue plays them through
// PlayAI — a `gambit worker`, or a bot process that works it too
// (queuedTurns). The flows queue, release, sweep and forget turns
// through the seam and never ask which one it is.

// aiSeam is where the AI turns this process queues go.
type aiSeam interface {
	// take queues the turn j, not yet released (release), and returns
	// its place among the turns waiting for a worker, which the board
	// shows ("queued (#k)"): 0 when it shows "thinking…". ok is false if
	// j was not taken: its turn is queued or running here already, or
	// the workers have stopped.
	take(j *aiJob) (place int, ok bool)
	// released is told once j is released, with the token of its
	// board (j.tok), for a seam that hands the turn on then.
	released(j *aiJob)
	// sweepEvery is how often the timers sweep up the turns nobody plays
	// (sweepAI); 0 means every tick. A sweep less often than every tick
	// also runs when this process takes over a shard (tookOver).
	sweepEvery() time.Duration
	// forget erases the turns of owner (a player ID) held outside this
	// process's memory, with their interaction tokens, for /privacy
	// delete.
	forget(ctx context.Context, owner string) error
}

// poolTurns runs the AI turns on this process's workers: the fair queue
// of the scheduler (Bot.ai), whose place the board shows. A worker starts
// the job once it is released (runAI waits for j.ready). Only the sweep
// finds the turns of a process sharing the store that died, so it runs
// every tick.
type poolTurns struct{ workers scheduler.Scheduler }

func (p poolTurns) take(j *aiJob) (int, bool) { return p.workers.Submit(context.Background(), j) }

func (poolTurns) released(*aiJob) {}

func (poolTurns) sweepEvery() time.Duration { return 0 }

// forget has nothing to erase: the turns wait in this process's memory.
func (poolTurns) forget(context.Context, string) error { return nil }

// queuedTurns hands the AI turns to an AIQueue, for the workers of every
// process sharing it, once released: with the token of the board, which
// the queue holds. A turn's place among others' is not known, so the
// board shows "thinking…". The queue retries and rescues the turns' jobs,
// so the sweep only catches a turn whose job was never queued (its
// process died, or the queue failed, between the move's commit and the
// job's insert): every claimTTL, which queues it within twice that.
type queuedTurns struct {
	queue    AIQueue
	claimTTL time.Duration // Config.Shards.ClaimTTL
}

// take takes every turn: it is queued once released, and the queue drops
// a turn queued already.
func (queuedTurns) take(*aiJob) (int, bool) { return 0, true }

func (q queuedTurns) released(j *aiJob) { j.enqueue(q.queue) }

func (q queuedTurns) sweepEvery() time.Duration { return q.claimTTL }

func (q queuedTurns) forget(ctx context.Context, owner string) error {
	return q.queue.ForgetAI(ctx, owner)
}

// AITurn is an AI turn handed to an AIQueue: what a worker in any
// process needs to play it and show it. It is stored with the job, so it
// holds the interaction token of the board's message for its 15 minutes
// of validity; a worker falls back to the channel message without it.
type AITurn struct {
	Game storage.GameID `json:"game"`
	// Ply is the number of moves played when the turn was queued: the
	// turn is void once the game's moves changed.
	Ply   int    `json:"ply"`
	Owner string `json:"owner"` // the person whose game it is
	// Deadline is when the search ends (the click plus the move time);
	// a turn started after it — a retry after a worker died — searches
	// MoveTime from its start instead.
	Deadline time.Time     `json:"deadline"`
	MoveTime time.Duration `json:"move_time"`
	Queued   time.Time     `json:"queued"`
	// Place and Locale are the language of the game's shared messages
	// (locales), which the worker's process may not have learnt.
	Place  string `json:"place,omitempty"`
	Locale string `json:"locale,omitempty"`
	// The interaction that shows the board, if any (webhookToken).
	Token    string    `json:"token,omitempty"`
	TokenAt  time.Time `json:"token_at,omitzero"`
	Followup bool      `json:"followup,omitempty"`
	Message  string    `json:"message,omitempty"`
	// Searches are the last searches of the two sides of a game between
	// two AIs, which its board shows (aiJob.searches).
	Searches [2]*render.Search `json:"searches,omitzero"`
	// Retry says an earlier attempt at the turn ran, set by the queue's
	// worker and never stored: that attempt may have committed the move
	// and died before showing it, so a retry that finds the move played
	// shows it (aiFlow.showPlayed).
	Retry bool `json:"-"`
}

// Key names the turn: one job per game and ply, whoever queues it.
func (t AITurn) Key() string { return aiClaim(t.Game, t.Ply) }

// AIQueue takes AI turns for the workers of every process sharing it
// (Config.AI.Queue, behind queuedTurns). Queueing a turn already queued,
// running or played is no error and adds nothing.
type AIQueue interface {
	EnqueueAI(ctx context.Context, turns ...AITurn) error
	// ForgetAI erases the turns of owner (AITurn.Owner) the queue holds,
	// and the reviews of that user (ReviewJob.Member) where it holds
	// those too, with their interaction tokens, in whatever state —
	// waiting, retried, given up or done — for /privacy delete, once the
	// store erased owner's data: a job being worked now is kept, with
	// owner and token scrubbed, and finds its game gone.
	ForgetAI(ctx context.Context, owner string) error
}

// ErrTurnBusy says another process holds the claim on an AI turn: the
// job should be tried again later, when that process has played it (and
// the retry finds nothing to do) or died.
var ErrTurnBusy = errors.New("bot: the AI turn is claimed by another process")

// aiTurn is the queue's form of the job j, once released through tok.
func (j *aiJob) aiTurn() AITurn {
	t := AITurn{Game: j.game, Ply: j.ply, Owner: j.owner, Deadline: j.deadline, MoveTime: j.moveTime, Queued: j.queued, Searches: j.searches}
	if j.tok.board {
		t.Token, t.TokenAt, t.Followup, t.Message = j.tok.token, j.tok.at, j.tok.followup, j.tok.message
	}
	t.Place = j.place
	if v, ok := j.b.places.locales.m.Load(j.place); ok {
		t.Locale = v.(string)
	}
	return t
}

// enqueueTimeout bounds the hand-over of a turn to the AI queue, which
// runs in the handler's goroutine once it answered.
const enqueueTimeout = 10 * time.Second

// enqueue hands the released job to the AI queue; a failure is logged,
// and the turn is queued again by a later sweep (sweepAI, within twice
// ClaimTTL).
func (j *aiJob) enqueue(q AIQueue) {
	ctx, cancel := context.WithTimeout(context.Background(), enqueueTimeout)
	defer cancel()
	if err := q.EnqueueAI(ctx, j.aiTurn()); err != nil {
		j.b.log.Error("AI turn: queue", "game", j.game, "err", err)
	}
}

// PrepareWorker readies a bot that only plays queued AI turns (PlayAI),
// without Run or Serve: it learns the application ID, which editing a
// board through an interaction needs, over REST.
func (b *Bot) PrepareWorker() error { return b.discord.whoAmI() }

// PlayAI plays an AI turn taken from the queue: it searches, commits the
// move against the game's version and shows it. It returns nil when the
// turn is done — played, or void because the game moved on (so a second
// job for one turn plays nothing) — and an error when it should be tried
// again: ctx ended (the worker is stopping), another process holds the
// turn (ErrTurnBusy), the store failed.
func (b *Bot) PlayAI(ctx context.Context, t AITurn) error {
	if t.Locale != "" && t.Place != "" {
		b.places.locales.m.Store(t.Place, t.Locale)
	}
	deadline := t.Deadline
	if now := time.Now(); !now.Before(deadline) {
		deadline = now.Add(t.MoveTime)
	}
	j := &aiJob{
		b: b, game: t.Game, owner: t.Owner, ply: t.Ply, deadline: deadline, moveTime: t.MoveTime, queued: t.Queued, place: t.Place, searches: t.Searches,
		tok:   webhookToken{token: t.Token, at: t.TokenAt, board: t.Token != "", followup: t.Followup, message: t.Message},
		retry: t.Retry,
	}
	if err := b.turns.playAI(ctx, j); err != nil {
		return fmt.Errorf("bot: AI turn of game %s after %d moves: %w", t.Game, t.Ply, err)
	}
	return nil
}
