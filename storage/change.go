package storage

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The rules below are the part of every Store method that does not depend
// on how records are kept: each implementation loads the stored records in
// its transaction, asks these functions what the new records are, and
// writes them. Keeping them here makes the two stores agree by
// construction; the conformance suite (storage/storetest) checks that they
// do.

// gameIDWidth is the width of game ids: a sequence number in base 36,
// zero-padded so that ids sort in creation order (36^8 ≈ 2.8·10¹²).
const gameIDWidth = 8

// SequenceID returns the id of the game numbered seq (1, 2, …) in creation
// order.
func SequenceID(seq uint64) GameID {
	s := strconv.FormatUint(seq, 36)
	return GameID(strings.Repeat("0", max(gameIDWidth-len(s), 0)) + s)
}

// Sequence is the inverse of SequenceID: the creation number of a game id,
// false for an id that SequenceID did not make.
func (id GameID) Sequence() (uint64, bool) {
	n, err := strconv.ParseUint(string(id), 36, 64)
	if err != nil || SequenceID(n) != id {
		return 0, false
	}
	return n, true
}

// CheckNew checks a game given to CreateGame: it has no id, is pending or
// active, has no anonymous player and obeys Game.Validate.
func CheckNew(g *Game) error {
	if g.ID != "" || !g.Status.Open() || g.Seat(Anonymous) >= 0 {
		return fmt.Errorf("%w: a new game has no id, is pending or active and has no anonymous player (id %q, status %s)", ErrInvalid, g.ID, g.Status)
	}
	return g.Validate()
}

// NewRecord returns the record CreateGame stores for g under id at time now.
func NewRecord(g *Game, id GameID, now time.Time) Game {
	rec := *g
	rec.ID = id
	rec.Version = 1
	rec.CreatedAt = now
	rec.UpdatedAt = now
	return rec
}

// Commit returns the record that UpdateGame (res nil) or FinishGame (res
// the result) stores when the caller's g replaces the stored old at time
// now, or the error the change fails with: ErrConflict for a stale
// version, ErrGameOver for an ended game, ErrInvalid for a change the data
// model forbids.
func Commit(old, g *Game, res *Result, now time.Time) (Game, error) {
	if old.Version != g.Version {
		return Game{}, fmt.Errorf("%w: caller has version %d, stored version is %d", ErrConflict, g.Version, old.Version)
	}
	if !old.Status.Open() {
		return Game{}, fmt.Errorf("%w: it is %s", ErrGameOver, old.Status)
	}
	if !old.Status.CanBecome(g.Status, res != nil) {
		return Game{}, fmt.Errorf("%w: status %s cannot become %s here", ErrInvalid, old.Status, g.Status)
	}
	if g.Kind != old.Kind || !slices.Equal(g.Players, old.Players) {
		return Game{}, fmt.Errorf("%w: kind and players cannot change", ErrInvalid)
	}
	rec := *g
	rec.Result = res
	rec.Version = old.Version + 1
	rec.CreatedAt = old.CreatedAt
	rec.UpdatedAt = now
	if !rec.Status.Open() {
		rec.Deadline, rec.DrawOffer, rec.Paused, rec.TurnLeft = time.Time{}, nil, false, 0
		rec.Settings.StartedBy = ""
	}
	if err := rec.Validate(); err != nil {
		return Game{}, err
	}
	return rec, nil
}

// PauseGame returns the record that stops (pause) or restarts the clock
// of old, the game of a tournament's board, at time now, and whether
// anything changes: a pause keeps the time the player to move has left
// and clears the deadline, so that nothing ends the game and nobody
// moves (Game.Paused); a resume sets the deadline that much time after
// now. Only an active game pauses, and not one whose turn has run out
// already (its deadline ends it); a game not paused is not resumed. The
// change is a committed one: the version grows, so that a deadline's job
// of the old version finds nothing to do.
func PauseGame(old *Game, pause bool, now time.Time) (Game, bool) {
	if old.Status != StatusActive || old.Paused == pause || pause && !old.Deadline.IsZero() && !old.Deadline.After(now) {
		return Game{}, false
	}
	rec := *old
	rec.Paused = pause
	if pause {
		rec.TurnLeft, rec.Deadline = 0, time.Time{}
		if !old.Deadline.IsZero() {
			rec.TurnLeft = old.Deadline.Sub(now)
		}
	} else {
		rec.Deadline, rec.TurnLeft = time.Time{}, 0
		if old.TurnLeft > 0 {
			rec.Deadline = now.Add(old.TurnLeft)
		}
	}
	rec.Version++
	rec.UpdatedAt = now
	return rec, true
}

// Take returns the record that TakeChallenge stores when the caller's g,
// the open challenge old started for its acceptor in seat 1, replaces old
// at time now, or the error the take fails with: ErrTaken when another
// member took old first, ErrGameOver when it ended unanswered, ErrInvalid
// when g is not old started for a member other than its challenger, and
// Commit's errors otherwise.
func Take(old, g *Game, now time.Time) (Game, error) {
	switch {
	case old.OpenChallenge() && old.Status == StatusPending:
	case old.Status == StatusActive || old.Status.Ended():
		return Game{}, fmt.Errorf("%w: it is %s", ErrTaken, old.Status)
	case !old.Status.Open():
		return Game{}, fmt.Errorf("%w: it is %s", ErrGameOver, old.Status)
	default:
		return Game{}, fmt.Errorf("%w: game %s is not an open challenge", ErrInvalid, old.ID)
	}
	if len(g.Players) != 2 || g.Players[0] != old.Players[0] || g.Status != StatusActive {
		return Game{}, fmt.Errorf("%w: a taken challenge keeps its challenger and starts", ErrInvalid)
	}
	if _, ok := g.Players[1].ID.UserID(); !ok || g.Players[1].ID == old.Players[0].ID {
		return Game{}, fmt.Errorf("%w: %q cannot take %s's open challenge", ErrInvalid, g.Players[1].ID, old.Players[0].ID)
	}
	filled := *old
	filled.Players = g.Players
	return Commit(&filled, g, nil, now)
}

// MarkRematch returns the record that sets old's Rematched mark to claim
// at time now, and whether anything changes: claiming a claimed game fails
// with ErrRematchTaken, releasing an unclaimed one changes nothing, and a
// game that has not ended fails with ErrInvalid.
func MarkRematch(old *Game, claim bool, now time.Time) (Game, bool, error) {
	if !old.Status.Ended() {
		return Game{}, false, fmt.Errorf("%w: the game is %s, not ended", ErrInvalid, old.Status)
	}
	if old.Rematched == claim {
		if claim {
			return Game{}, false, ErrRematchTaken
		}
		return Game{}, false, nil
	}
	rec := *old
	rec.Rematched = claim
	rec.Version++
	rec.UpdatedAt = now
	return rec, true, nil
}

// Anonymise returns the ended game old with player p replaced by
// Anonymous, as DeleteUser keeps it: a committed change, so its version
// grows by one.
func Anonymise(old *Game, p PlayerID, now time.Time) Game {
	rec := *old
	rec.Players = slices.Clone(old.Players)
	rec.Players[old.Seat(p)] = Player{ID: Anonymous}
	rec.Version++
	rec.UpdatedAt = now
	return rec
}

// Ladders returns the ladders an ended duel g is rated in: its kind's
// global ladder and, for a game in a guild, the guild's. A solo puzzle is
// rated in none: ratings measure players against each other; nor is a
// casual game (Settings.Casual).
func (g *Game) Ladders() []Ladder {
	if g.Solo() || g.Settings.Casual {
		return nil
	}
	ladders := []Ladder{Global(g.Kind)}
	if g.GuildID != "" {
		ladders = append(ladders, Ladder{Kind: g.Kind, Guild: g.GuildID})
	}
	return ladders
}

// Rate rates the ended game g in each of its ladders (Game.Ladders): get
// loads a player's rating (ok false when they have none) and put replaces
// stored rating old with new. Each side is rated against the other's rating
// from before the game. An AI plays at its fixed rating (AIRatings.Fixed):
// only its record changes. It returns the changes, for display.
func Rate(g *Game, ai AIRatings, get func(Ladder, PlayerID) (r Rating, ok bool, err error), put func(l Ladder, old, new Rating) error) ([]RatingChange, error) {
	var changes []RatingChange
	for _, l := range g.Ladders() {
		var stored, before [2]Rating
		for i, p := range g.Players {
			r, ok, err := get(l, p.ID)
			if err != nil {
				return nil, err
			}
			if !ok {
				r = NewRating(p.ID)
			}
			stored[i], before[i] = r, ai.Fixed(g.Kind, r)
		}
		for i := range before {
			after := ai.Fixed(g.Kind, before[i].Apply(before[1-i], g.Result.Score(i), g.UpdatedAt))
			if err := put(l, stored[i], after); err != nil {
				return nil, err
			}
			changes = append(changes, RatingChange{Ladder: l, Before: before[i], After: after})
		}
	}
	return changes, nil
}
