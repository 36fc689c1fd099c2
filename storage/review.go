package storage

import (
	"encoding/json"
	"fmt"
	"time"
)

// Review is an ended duel's review, kept with the game so that it is made
// once: its moves valued against the best ones, in the bot's format, which
// the store keeps without reading (it knows no game).
//
// A review is made from one version of the game, and is the review of
// every later version too: an ended game's moves never change, only its
// rematch claim and its players' erasure, which change its version.
type Review struct {
	// Game is the game reviewed.
	Game GameID `json:"game"`
	// Version is the game's version the review was made from.
	Version uint64 `json:"version"`
	// Data is the review, a JSON value of the bot's.
	Data json.RawMessage `json:"data"`
	// CreatedAt is set by the store.
	CreatedAt time.Time `json:"created_at"`
}

// maxReviewBytes bounds a review's data: a game of 225 moves (Gomoku's
// board filled) takes about 40 KB.
const maxReviewBytes = 1 << 20

// Validate checks a review before it is stored.
func (r *Review) Validate() error {
	switch {
	case r.Game == "":
		return fmt.Errorf("%w: review of no game", ErrInvalid)
	case r.Version == 0:
		return fmt.Errorf("%w: review of game %s at version 0", ErrInvalid, r.Game)
	case len(r.Data) > maxReviewBytes:
		return fmt.Errorf("%w: review of game %s is %d bytes, over %d", ErrInvalid, r.Game, len(r.Data), maxReviewBytes)
	case !json.Valid(r.Data):
		return fmt.Errorf("%w: review of game %s is not JSON", ErrInvalid, r.Game)
	}
	return nil
}

// CheckReviewOf checks that g, as stored, may have review r: an ended
// duel at r's version or later.
func CheckReviewOf(g *Game, r *Review) error {
	if !g.Status.Ended() || g.Solo() {
		return fmt.Errorf("%w: review of game %s, %s with %d players: only ended duels have one", ErrInvalid, g.ID, g.Status, len(g.Players))
	}
	if r.Version > g.Version {
		return fmt.Errorf("%w: review of game %s at version %d, past its version %d", ErrInvalid, g.ID, r.Version, g.Version)
	}
	return nil
}
