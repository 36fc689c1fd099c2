package bot

import (
	"sync"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// Where the bot can reach a board. Installed to a server, Gambit posts and
// edits messages in the server's channels; in its own DM with a user it
// can too. Installed to a user's account, it is also usable where it is no
// member — a group DM, or a server that did not add it — and there it can
// only answer through interactions: the initial response, follow-ups and
// edits of them, each through an interaction token that lives 15 minutes.
// Every click brings a fresh token, so a board in such a channel stays
// current as long as people play on it: the click's answer updates it, and
// the AI's move edits it through that click's token.
//
// The bot keeps, in memory only, the latest token that shows each game's
// board (boardTokens): a typed /move or a cell picker, which answer with a
// message of their own, edit the board through it. When no token is left
// (after 15 minutes without a click, or after a restart) a background
// change — an expiry, a forfeit — cannot reach the board: the bot notes
// that the board is behind (leftBehind) and shows the change at the next
// click on it (catchUp), and a move made outside the board
// posts the board again as the interaction's follow-up. Tokens are never
// logged (redact.go).
//
// A member's attempt at the daily puzzle is reached the same way in any
// channel: its board is an ephemeral message only they see (privateBoard
// in board.go), which no channel endpoint can post or edit.

// reach remembers what the bot learnt about reaching boards: the latest
// token showing each game's board, and the channels it can reach only
// through interactions.
type reach struct {
	mu       sync.Mutex
	tokens   map[storage.GameID]webhookToken
	private  map[string]bool         // channel IDs reachable only through interactions
	behind   map[storage.GameID]bool // games whose board a change could not reach
	lastTidy time.Time
}

// remember records tok as the latest way to game id's board, dropping the
// tokens that have expired.
func (r *reach) remember(id storage.GameID, tok webhookToken, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tokens == nil {
		r.tokens = map[storage.GameID]webhookToken{}
	}
	if now.Sub(r.lastTidy) > time.Minute {
		for k, t := range r.tokens {
			if now.Sub(t.at) >= tokenLifetime {
				delete(r.tokens, k)
			}
		}
		r.lastTidy = now
	}
	if old, ok := r.tokens[id]; !ok || !tok.at.Before(old.at) {
		r.tokens[id] = tok
	}
	delete(r.behind, id) // an answer shows the board as it is now
}

// leftBehind records that a change of game id could not reach its board,
// so that the next click on it shows the change (catchUp).
func (r *reach) leftBehind(id storage.GameID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.behind == nil {
		r.behind = map[storage.GameID]bool{}
	}
	r.behind[id] = true
}

// isBehind reports whether a change of game id could not reach its board
// since an answer last showed it.
func (r *reach) isBehind(id storage.GameID) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.behind[id]
}

// token returns the latest token showing game id's board, the zero token
// if none is known.
func (r *reach) token(id storage.GameID) webhookToken {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tokens[id]
}

// markPrivate records that the bot can reach a channel only through
// interactions.
func (r *reach) markPrivate(channelID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.private == nil {
		r.private = map[string]bool{}
	}
	r.private[channelID] = true
}

// isPrivate reports whether the bot knows it can reach a channel only
// through interactions.
func (r *reach) isPrivate(channelID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.private[channelID]
}
