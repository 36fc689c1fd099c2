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
//     the handler returns (onGame, withGame, hold);
//   - the load, with the user's "does not exist" error;
//   - the AI's hand-off: a handler queues an AI turn with ix.queueAI, and
//     the worker starts only once the handler has returned (releaseAI,
//     a middleware), so no handler can forget to let it go.

// gameHandler handles a click about one game. It runs holding the game's
// lock, with the game as loaded under that lock.
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
		for attempt := 0; ; attempt++ {
			g, err := b.loadGame(ctx, id)
			if err != nil {
				return err
			}
			err = h(ctx, g)
			if attempt == conflictRetries || !errors.Is(err, storage.ErrConflict) || !ix.unseen() {
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

// hold runs fn holding the lock of game id on behalf of ix. An interaction
// holds one game's lock at a time: the locks are stripes of mutexes that
// are not reentrant, so taking a second game's lock while holding one
// waits forever when both games share a stripe. hold refuses that with a
// panic — a programming error, which the chain recovers — whatever the
// stripes, so that a test catches it.
func (ix *interaction) hold(id storage.GameID, fn func() error) error {
	ix.mu.Lock()
	held := ix.holds
	if held == "" {
		ix.holds = id
	}
	ix.mu.Unlock()
	if held != "" {
		panic(fmt.Sprintf("bot: the lock of game %s taken while holding the lock of game %s", id, held))
	}
	defer func() {
		ix.mu.Lock()
		ix.holds = ""
		ix.mu.Unlock()
	}()
	defer ix.b.locks.lock(id)()
	return fn()
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
