package engine

import (
	"fmt"
	"slices"
)

// MoveError is why a move typed for a position cannot be played: the text
// as typed and, if the game's notation refused it, the game's reason
// (which names the move and says why: a cell taken, the game over). Legal
// lists the position's legal moves in its notation, sorted, for a reader
// to choose from.
type MoveError struct {
	Text  string
	Err   error // the game's reason; nil if the move read but is not legal
	Legal []string
}

// Error returns the game's reason, or else says the move is not legal.
func (e *MoveError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("move %q is not legal here", e.Text)
}

// Unwrap returns the game's reason.
func (e *MoveError) Unwrap() error { return e.Err }

// ReadMove reads text as a legal move of pos, as a player types one (the
// bot's /move, gambit review's --moves). An error is a *MoveError.
func ReadMove(pos Position, text string) (Move, error) {
	m, err := pos.ParseMove(text)
	if err == nil && pos.Legal(m) {
		return m, nil
	}
	moves := pos.Moves(nil)
	legal := make([]string, len(moves))
	for i, lm := range moves {
		legal[i] = pos.FormatMove(lm)
	}
	slices.Sort(legal)
	return NoMove, &MoveError{Text: text, Err: err, Legal: legal}
}
