package storage

import "fmt"

// Outcome is how a game ended, beside who won (Result.Winner): by the
// game's rules, or by a resignation, a timeout, a puzzle given up and so
// on.
//
// A record keeps it as the text Gambit always stored in a result's
// "reason" (MarshalText), so records written before Outcome existed read
// as the same outcome and older versions of Gambit read new records.
// ByRules is stored as no reason at all.
type Outcome uint8

const (
	// ByRules is a game ended by a move under its rules: a duel won
	// (Result.Winner) or drawn (Draw), a puzzle solved (Winner 0).
	ByRules Outcome = iota
	// Resigned is a duel the loser resigned.
	Resigned
	// TimedOut is a duel the loser forfeited by running out of time.
	TimedOut
	// GaveUp is a puzzle its player gave up (Winner Nobody).
	GaveUp
	// NoWayOn is a puzzle that can no longer be solved (Winner Nobody).
	NoWayOn
	// SolvedByGambit is a puzzle whose player had Gambit play the solution
	// out: abandoned (Winner Nobody), so that it never counts as the
	// player's own solve; MovesUsed are the player's.
	SolvedByGambit
	// DrawAgreed is a duel its players agreed to draw (Winner Draw).
	DrawAgreed
	outcomes // the number of outcomes
)

// outcomeTexts are the outcomes' texts in records, as the free-text reason
// of earlier versions spelled them.
var outcomeTexts = [outcomes]string{
	ByRules:        "",
	Resigned:       "resigned",
	TimedOut:       "timeout",
	GaveUp:         "gave up",
	NoWayOn:        "no way on",
	SolvedByGambit: "solved by Gambit",
	DrawAgreed:     "draw agreed",
}

// String returns o's text in records, "by rules" for ByRules.
func (o Outcome) String() string {
	switch {
	case o == ByRules:
		return "by rules"
	case o < outcomes:
		return outcomeTexts[o]
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// MarshalText returns o's text in records: empty for ByRules.
func (o Outcome) MarshalText() ([]byte, error) {
	if o >= outcomes {
		return nil, fmt.Errorf("storage: no outcome %d", uint8(o))
	}
	return []byte(outcomeTexts[o]), nil
}

// UnmarshalText reads an outcome from its text in records. The text
// "solved", which tests of earlier versions stored for a solved puzzle,
// reads as ByRules. Any other text is an error: a record holding one does
// not decode, and the stores report it as a damaged record (ErrCorrupt)
// and leave it as it is.
func (o *Outcome) UnmarshalText(text []byte) error {
	s := string(text)
	if s == "solved" {
		*o = ByRules
		return nil
	}
	for i, t := range outcomeTexts {
		if t == s {
			*o = Outcome(i)
			return nil
		}
	}
	return fmt.Errorf("storage: unknown outcome %q", s)
}

// EndsDuel reports whether o can end a duel: by the rules, by resignation,
// on time or by a draw agreed.
func (o Outcome) EndsDuel() bool {
	return o == ByRules || o == Resigned || o == TimedOut || o == DrawAgreed
}

// EndsPuzzle reports whether o can end a solo puzzle: solved by the rules,
// or abandoned (given up, no way on, solved by Gambit).
func (o Outcome) EndsPuzzle() bool { return o == ByRules || (o >= GaveUp && o <= SolvedByGambit) }
