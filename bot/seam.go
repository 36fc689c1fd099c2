package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// The game seam: what every handler of one game needs done around it, done
// once here instead of in each handler. The middleware chain
// (middleware.go) does what concerns every interaction — recovering
// panics, turning errors into replies, counting outcomes, releasing the AI
// — and this file adds, for a handler of one game:
//
//   - the game's lock, taken before the game is loaded and released when
//     the handler returns (onGame, withGame, holdGame), or given up to the
//     next holder as the handler first calls Discord (gamelock.go);
//   - the load, with the user's "does not exist" error;
//   - the AI's hand-off: a handler queues an AI turn with queueAI, and the
//     worker starts only once the handler has returned (releaseAI, a
//     middleware), so no handler can forget to let it go.
//
// What the seam keeps of one interaction (seamState) travels in the
// handler's context, put there by releaseAI.

// gameHandler handles a click about one game. It runs holding the game's
// lock, with the game as loaded under that lock, until its first Discord
// call (through ix or a board call given its ctx): the game's next handler
// may then decide while the call is on the network, and its own calls wait
// for this one's.
type gameHandler = func(ctx context.Context, ix *component, g *storage.Game) error

// withGame makes the route handler of a game handler, for a custom ID
// whose {game} parameter names the game: the wrap of the game routes'
// group (mux.NewGroup).
func (b *Bot) withGame(h gameHandler) mux.ComponentHandler {
	return func(ctx context.Context, ix *component) error {
		return b.onGame(ctx, ix.Interaction, ix.Params["game"], func(ctx context.Context, g *storage.Game) error { return h(ctx, ix, g) })
	}
}

// conflictRetries is how many times the seam runs a handler again after
// its change lost the version check to another process's.
const conflictRetries = 3

// onGame takes the lock of the game id for ix, loads the game and runs h
// with it (for a click through withGame, for a command directly); the lock is released when onGame returns. An unknown game is
// the user's error. A handler that goes on to another game (Rematch
// creates a new one) does that after onGame returned.
//
// The lock serialises a game's changes within this process only. When
// another process sharing the store changed the game between the load and
// the handler's write (a replica saving the message ID of the board it
// just showed, as the first click on that board reaches this one), the
// write fails with storage.ErrConflict. If the handler has not answered
// and queued no AI turn — it did nothing anyone saw — the seam loads the
// game again and runs the handler on it, up to conflictRetries times, so
// the click is judged on the game as it now is instead of being refused
// for a race the user had no part in.
func (b *Bot) onGame(ctx context.Context, ix *interaction, id string, h func(ctx context.Context, g *storage.Game) error) error {
	return b.holdGame(ctx, ix, storage.GameID(id), func() error {
		st := seamOf(ctx)
		ctx := context.WithValue(ctx, holdKey{}, st.held)
		for attempt := 0; ; attempt++ {
			g, err := b.loadGame(ctx, id)
			if err != nil {
				return err
			}
			err = h(ctx, g)
			if attempt == conflictRetries || !errors.Is(err, storage.ErrConflict) || !st.unseen(ix) || !st.held.isDeciding() {
				return err
			}
			b.log.Debug("game changed by another process under a handler; running it again", "game", id, "interaction", ix.ID)
		}
	})
}

// seamState is what the game seam keeps of one interaction: the game
// whose lock its handler holds, the AI turns it queued and the boards its
// answers showed.
type seamState struct {
	mu     sync.Mutex
	holds  storage.GameID                  // the game whose lock the handler holds, "" for none
	held   *gameHold                       // that lock, once taken
	ai     []*aiJob                        // AI turns queued, released once the handler returned
	boards map[storage.GameID]webhookToken // the boards this interaction's messages show
}

// seamKey is the context key of the interaction's seamState.
type seamKey struct{}

// seamOf returns the seam's state of the interaction whose handler ctx
// belongs to. A handler runs inside releaseAI, which puts it there; its
// absence is a programming error.
func seamOf(ctx context.Context) *seamState {
	st, ok := ctx.Value(seamKey{}).(*seamState)
	if !ok {
		panic("bot: a game seam call outside an interaction's handler")
	}
	return st
}

// unseen reports whether nothing the handler did so far shows: no answer,
// no AI turn queued.
func (st *seamState) unseen(ix *interaction) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return !ix.IsAnswered() && len(st.ai) == 0
}

// holdGame runs fn holding the lock of game id on behalf of ix, until fn
// returns or, through ix, first calls Discord (mux.Interaction.BeforeSend). An interaction
// holds one game's lock at a time: the locks are not reentrant, and two
// handlers taking two games' locks in opposite orders would wait for each
// other forever. holdGame refuses that with a panic — a programming error,
// which the chain recovers — so that a test catches it.
func (b *Bot) holdGame(ctx context.Context, ix *interaction, id storage.GameID, fn func() error) error {
	st := seamOf(ctx)
	st.mu.Lock()
	busy := st.holds
	if busy == "" {
		st.holds = id
	}
	st.mu.Unlock()
	if busy != "" {
		panic(fmt.Sprintf("bot: the lock of game %s taken while holding the lock of game %s", id, busy))
	}
	held := b.locks.acquire(id)
	st.mu.Lock()
	st.held = held
	st.mu.Unlock()
	ix.BeforeSend(held.send)
	defer func() {
		ix.BeforeSend(nil)
		st.mu.Lock()
		st.holds, st.held = "", nil
		st.mu.Unlock()
		held.release()
	}()
	return fn()
}

// queueAI queues the AI's turn if g awaits it and returns what the board
// should show ("thinking…", "queued (#k)"), nil if the AI is not to move.
// The worker waits until the handler has returned (see releaseAI), so its
// edits come after the answer that shows the board.
func (b *Bot) queueAI(ctx context.Context, ix *interaction, g *storage.Game) *render.Thinking {
	thinking, j := b.turns.enqueueAI(g, ix.Received)
	releaseAfter(ctx, j)
	return thinking
}

// releaseAfter keeps the AI turn j, if not nil, for releaseAI to release
// once the handler of ctx has returned.
func releaseAfter(ctx context.Context, j *aiJob) {
	if j == nil {
		return
	}
	st := seamOf(ctx)
	st.mu.Lock()
	st.ai = append(st.ai, j)
	st.mu.Unlock()
}

// showsBoard records that a message of this interaction — its response, or
// a follow-up — is now game id's board, reachable through tok. An AI turn
// queued for the game edits the board through it, and so does any later
// edit while tok is the latest such token and valid (reach.go).
func (b *Bot) showsBoard(ctx context.Context, ix *interaction, id storage.GameID, tok webhookToken) {
	st := seamOf(ctx)
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.boards == nil {
		st.boards = map[storage.GameID]webhookToken{}
	}
	st.boards[id] = tok
	b.places.reach.remember(id, tok, ix.At)
}

// releaseAI puts the seam's state of the interaction in its handler's
// context and, once the handler has returned, failed or panicked, lets the
// workers of the AI turns it queued start, each with the token of its
// game's board if an answer showed it (the zero token otherwise: the
// worker edits the board through the channel), so no handler has to
// remember to.
func releaseAI(next mux.Handler) mux.Handler {
	return func(ctx context.Context, ix *interaction) error {
		st := &seamState{}
		defer func() {
			st.mu.Lock()
			jobs, boards := st.ai, st.boards
			st.ai = nil
			st.mu.Unlock()
			for _, j := range jobs {
				j.release(boards[j.game])
			}
		}()
		return next(context.WithValue(ctx, seamKey{}, st), ix)
	}
}
