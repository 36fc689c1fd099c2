package bot

import (
	"context"
	"errors"
	"fmt"

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
//     the handler returns (onGame, withGame, hold), or given up to the next
//     holder as the handler first calls Discord (gamelock.go);
//   - the load, with the user's "does not exist" error;
//   - the AI's hand-off: a handler queues an AI turn with ix.queueAI, and
//     the worker starts only once the handler has returned (releaseAI,
//     a middleware), so no handler can forget to let it go.

// gameHandler handles a click about one game. It runs holding the game's
// lock, with the game as loaded under that lock, until its first Discord
// call (through ix or a board call given its ctx): the game's next handler
// may then decide while the call is on the network, and its own calls wait
// for this one's.
type gameHandler func(ctx context.Context, ix *component, g *storage.Game) error

// withGame makes the route handler of a game handler, for a custom ID
// whose {game} parameter names the game.
func (b *Bot) withGame(h gameHandler) componentHandler {
	return func(ctx context.Context, ix *component) error {
		return b.onGame(ctx, ix.interaction, ix.params["game"], func(ctx context.Context, g *storage.Game) error { return h(ctx, ix, g) })
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
	return ix.hold(storage.GameID(id), func() error {
		ctx := context.WithValue(ctx, holdKey{}, ix.held)
		for attempt := 0; ; attempt++ {
			g, err := b.loadGame(ctx, id)
			if err != nil {
				return err
			}
			err = h(ctx, g)
			if attempt == conflictRetries || !errors.Is(err, storage.ErrConflict) || !ix.unseen() || !ix.held.isDeciding() {
				return err
			}
			b.log.Debug("game changed by another process under a handler; running it again", "game", id, "interaction", ix.ID)
		}
	})
}

// unseen reports whether nothing the handler did so far shows: no answer,
// no AI turn queued.
func (ix *interaction) unseen() bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return !ix.answered && len(ix.ai) == 0
}

// hold runs fn holding the lock of game id on behalf of ix, until fn
// returns or, through ix, first calls Discord (ix.send). An interaction
// holds one game's lock at a time: the locks are not reentrant, and two
// handlers taking two games' locks in opposite orders would wait for each
// other forever. hold refuses that with a panic — a programming error,
// which the chain recovers — so that a test catches it.
func (ix *interaction) hold(id storage.GameID, fn func() error) error {
	ix.mu.Lock()
	busy := ix.holds
	if busy == "" {
		ix.holds = id
	}
	ix.mu.Unlock()
	if busy != "" {
		panic(fmt.Sprintf("bot: the lock of game %s taken while holding the lock of game %s", id, busy))
	}
	held := ix.b.locks.acquire(id)
	ix.mu.Lock()
	ix.held = held
	ix.mu.Unlock()
	defer func() {
		ix.mu.Lock()
		ix.holds, ix.held = "", nil
		ix.mu.Unlock()
		held.release()
	}()
	return fn()
}

// send turns the game lock ix holds, if any, to sending (gameHold.send):
// it is called before each Discord call made through ix.
func (ix *interaction) send() {
	ix.mu.Lock()
	held := ix.held
	ix.mu.Unlock()
	if held != nil {
		held.send()
	}
}

// queueAI queues the AI's turn if g awaits it and returns what the board
// should show ("thinking…", "queued (#k)"), nil if the AI is not to move.
// The worker waits until the handler has returned (see releaseAI), so its
// edits come after the answer that shows the board.
func (ix *interaction) queueAI(g *storage.Game) *render.Thinking {
	thinking, j := ix.b.turns.enqueueAI(g, ix.received)
	if j != nil {
		ix.mu.Lock()
		ix.ai = append(ix.ai, j)
		ix.mu.Unlock()
	}
	return thinking
}

// showsBoard records that a message of this interaction — its response, or
// a follow-up — is now game id's board, reachable through tok. An AI turn
// queued for the game edits the board through it, and so does any later
// edit while tok is the latest such token and valid (reach.go).
func (ix *interaction) showsBoard(id storage.GameID, tok webhookToken) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.boards == nil {
		ix.boards = map[storage.GameID]webhookToken{}
	}
	ix.boards[id] = tok
	ix.b.reach.remember(id, tok, ix.at)
}

// releaseAI lets the workers of the AI turns ix queued start, each with
// the token of its game's board if an answer showed it (the zero token
// otherwise: the worker edits the board through the channel). The chain
// calls it once the handler has returned, failed or panicked.
func (ix *interaction) releaseAI() {
	ix.mu.Lock()
	jobs, boards := ix.ai, ix.boards
	ix.ai = nil
	ix.mu.Unlock()
	for _, j := range jobs {
		j.release(boards[j.game])
	}
}
