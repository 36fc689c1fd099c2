package storage

import "fmt"

// Limits cap what one member may have open at once. CreateGame applies
// them to the member who asks for the new game (Game.CappedMember): its
// challenger (Players[0]), or the member who started a showcase,
// counting that member's games and showcases in the same transaction
// that stores the new one, so concurrent requests cannot overshoot a cap. The
// other side is not counted: an AI has no caps, and a challenged member
// is not refused a challenge for their own games. A zero field is no cap.
type Limits struct {
	// MaxOpen caps the member's open games: active ones in either seat and
	// the challenges the member sent (pending, seat 0). A challenge to the
	// member does not count until they accept it, so that others cannot
	// use up a member's cap by challenging them.
	MaxOpen int
	// MaxChallenges caps the member's own challenges waiting for an answer
	// (pending games with the member in seat 0). It applies only when the
	// new game is a challenge.
	MaxChallenges int
}

// Limit names one of the caps in Limits.
type Limit string

// The caps a LimitError can name.
const (
	// LimitOpen is Limits.MaxOpen.
	LimitOpen Limit = "open games"
	// LimitChallenges is Limits.MaxChallenges.
	LimitChallenges Limit = "waiting challenges"
)

// LimitError reports a new game refused because the member asking for it
// is at one of their caps. It matches ErrLimit with errors.Is.
type LimitError struct {
	// Player is the member at the cap.
	Player PlayerID
	// Limit says which cap.
	Limit Limit
	// Count is how many games of that sort the member has: at least Max.
	Count int
	// Max is the cap.
	Max int
}

// Error implements error.
func (e *LimitError) Error() string {
	return fmt.Sprintf("%s has %d %s, the most allowed is %d", e.Player, e.Count, e.Limit, e.Max)
}

// Unwrap lets errors.Is match ErrLimit.
func (e *LimitError) Unwrap() error { return ErrLimit }

// Check reports, as a *LimitError, whether member p may not start another
// game; open are p's open games and showcases (as ActiveGames lists them
// for p and for ShowcasesOf(p)) and challenge
// says whether the new game is a challenge. The cap on open games is
// checked first.
func (l Limits) Check(p PlayerID, open []*Game, challenge bool) error {
	counted, waiting := 0, 0
	for _, g := range open {
		switch {
		case g.Status != StatusPending:
			counted++
		case g.Players[0].ID == p:
			counted++
			waiting++
		}
	}
	if l.MaxOpen > 0 && counted >= l.MaxOpen {
		return &LimitError{Player: p, Limit: LimitOpen, Count: counted, Max: l.MaxOpen}
	}
	if challenge && l.MaxChallenges > 0 && waiting >= l.MaxChallenges {
		return &LimitError{Player: p, Limit: LimitChallenges, Count: waiting, Max: l.MaxChallenges}
	}
	return nil
}
