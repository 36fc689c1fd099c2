package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gambitbot/gambit/storage"
)

// gameLocks serialises, within the process, what is done about one game,
// in two stages. A holder first decides: it loads the game, judges what
// to do and commits the change, holding the game's decision lock, which
// no other holder of that game has meanwhile. Before its first Discord
// call it turns to sending (gameHold.send): the decision lock passes to
// the next holder, who may decide on the committed game while the call
// is on the network, and the call waits until every holder that decided
// earlier has finished its own calls. A game's messages therefore change
// in the order its changes were decided — a later edit is never
// overwritten by an earlier one — and no network call is made under the
// decision lock. Games never wait on one another: each has its own lock,
// made when first wanted and dropped when its last holder is done. The
// store's versions guard against the other processes.
type gameLocks struct {
	mu    sync.Mutex
	games map[storage.GameID]*gameLock
}

// gameLock is one game's lock; gameLocks.mu guards its fields but decide.
type gameLock struct {
	refs    int             // holders, deciding, sending or waiting
	decide  chan struct{}   // holds a token while a holder decides
	issued  uint64          // tickets given, in the order of the decisions
	serving uint64          // the ticket whose holder may send now
	done    map[uint64]bool // tickets finished before their turn came
	turn    chan struct{}   // closed, and replaced, when serving moves on
}

// gameHold is one holder's hold on a game's lock.
type gameHold struct {
	locks  *gameLocks
	id     storage.GameID
	lock   *gameLock
	ticket uint64

	mu       sync.Mutex
	deciding bool // holds the decision lock
	sending  bool // its turn to send has come
}

// acquire waits for game id's decision lock and returns the hold, which
// the caller releases.
func (l *gameLocks) acquire(id storage.GameID) *gameHold {
	l.mu.Lock()
	if l.games == nil {
		l.games = map[storage.GameID]*gameLock{}
	}
	g := l.games[id]
	if g == nil {
		g = &gameLock{decide: make(chan struct{}, 1), turn: make(chan struct{})}
		l.games[id] = g
	}
	g.refs++
	l.mu.Unlock()
	g.decide <- struct{}{}
	l.mu.Lock()
	h := &gameHold{locks: l, id: id, lock: g, ticket: g.issued, deciding: true}
	g.issued++
	l.mu.Unlock()
	return h
}

// holdKey is the context key of the hold a context's work runs under.
type holdKey struct{}

// hold takes game id's lock and returns a context carrying it, whose
// Discord calls turn the hold to sending (sending), and the release.
func (l *gameLocks) hold(ctx context.Context, id storage.GameID) (context.Context, func()) {
	h := l.acquire(id)
	return context.WithValue(ctx, holdKey{}, h), h.release
}

// sending turns the hold ctx carries, if any, to sending: it is called
// before a Discord call made on behalf of a game.
func sending(ctx context.Context) {
	if h, ok := ctx.Value(holdKey{}).(*gameHold); ok {
		h.send()
	}
}

// send gives the decision lock up, if held, and waits until the holders
// that decided earlier have finished: the holder may then call Discord.
func (h *gameHold) send() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sending {
		return
	}
	if h.deciding {
		<-h.lock.decide
		h.deciding = false
	}
	l, g := h.locks, h.lock
	for {
		l.mu.Lock()
		if g.serving == h.ticket {
			l.mu.Unlock()
			break
		}
		turn := g.turn
		l.mu.Unlock()
		<-turn
	}
	h.sending = true
}

// isDeciding reports whether the hold still has the decision lock: nothing
// it did went to Discord.
func (h *gameHold) isDeciding() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.deciding
}

// release gives up the hold: the decision lock if still held, and its
// turn to send, so that the next holder's calls may go.
func (h *gameHold) release() {
	h.mu.Lock()
	if h.deciding {
		<-h.lock.decide
		h.deciding = false
	}
	h.mu.Unlock()
	l, g := h.locks, h.lock
	l.mu.Lock()
	defer l.mu.Unlock()
	if g.serving != h.ticket {
		if g.done == nil {
			g.done = map[uint64]bool{}
		}
		g.done[h.ticket] = true
	} else {
		for g.serving++; g.done[g.serving]; g.serving++ {
			delete(g.done, g.serving)
		}
		close(g.turn)
		g.turn = make(chan struct{})
	}
	if g.refs--; g.refs == 0 {
		delete(l.games, h.id)
	}
}

// settleGame changes game id, whose lock the caller holds: it loads the
// game afresh and has change decide and write, up to three times while
// the write meets another writer's change (storage.ErrConflict) — the
// lock keeps this process's changes out, so a conflict comes from another
// process and a few reloads settle it. change returns false when there is
// nothing to change; a game that ended meanwhile (storage.ErrGameOver) is
// none either. It returns the game as changed and whether change wrote it;
// what is the action, for errors.
func settleGame(ctx context.Context, store storage.Store, id storage.GameID, what string, change func(*storage.Game) (bool, error)) (*storage.Game, bool, error) {
	for range 3 {
		g, err := store.Game(ctx, id)
		if err != nil {
			return nil, false, fmt.Errorf("bot: load game %s: %w", id, err)
		}
		wrote, err := change(g)
		switch {
		case errors.Is(err, storage.ErrGameOver):
			return g, false, nil
		case errors.Is(err, storage.ErrConflict):
			continue
		case err != nil:
			return g, false, fmt.Errorf("bot: %s game %s: %w", what, id, err)
		}
		return g, wrote, nil
	}
	return nil, false, fmt.Errorf("bot: %s game %s: %w three times", what, id, storage.ErrConflict)
}
