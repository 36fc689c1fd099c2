package tournament

import (
	"errors"
	"slices"
	"testing"
)

// TestPairDutchRoundOne: the first round splits the field in halves, the
// top half's players alternating colours from FirstColor, the last
// player of an odd field gets the bye, and a player with a bye asked for
// sits the round out.
func TestPairDutchRoundOne(t *testing.T) {
	s := &Swiss{Rounds: 5, FirstColor: Black, Players: make([]Player, 7)}
	s.Players[2].Results = []Entry{{Result: HalfBye}} // player 3 asked for a half-point bye
	got, err := PairDutch(s)
	if err != nil {
		t.Fatal(err)
	}
	// Six to pair: 1 2 4 | 5 6 7.
	want := []Pairing{{White: 5, Black: 1}, {White: 2, Black: 6}, {White: 7, Black: 4}}
	if !slices.Equal(got, want) {
		t.Errorf("round 1: %v, want %v", got, want)
	}
	s.Players[2].Results = nil
	got, _ = PairDutch(s)
	want = []Pairing{{White: 4, Black: 1}, {White: 2, Black: 5}, {White: 6, Black: 3}, {White: 7}}
	if !slices.Equal(got, want) {
		t.Errorf("round 1 of 7: %v, want %v", got, want)
	}
}

// TestPairDutchErrors: no pairing when everyone has met, and a round
// beyond the planned ones or a one-sided game is an inconsistent
// tournament.
func TestPairDutchErrors(t *testing.T) {
	s := &Swiss{Rounds: 3, Players: make([]Player, 2)}
	s.Players[0].Results = []Entry{{Opponent: 2, Color: White, Result: Win}}
	s.Players[1].Results = []Entry{{Opponent: 1, Color: Black, Result: Loss}}
	if _, err := PairDutch(s); !errors.Is(err, ErrNoPairing) {
		t.Errorf("two players who met: %v, want ErrNoPairing", err)
	}
	s.Rounds = 1
	if _, err := PairDutch(s); !errors.Is(err, ErrTournament) {
		t.Errorf("round 2 of 1: %v, want ErrTournament", err)
	}
	s.Rounds = 3
	for name, black := range map[string][]Entry{
		"a game on one side":     nil,
		"both White":             {{Opponent: 1, Color: White, Result: Loss}},
		"both won":               {{Opponent: 1, Color: Black, Result: Win}},
		"no colour":              {{Opponent: 1, Result: Loss}},
		"a bye with an opponent": {{Opponent: 1, Result: HalfBye}},
		"an unknown result":      {{Opponent: 1, Color: Black, Result: ZeroBye + 1}},
	} {
		s.Players[1].Results = black
		if _, err := PairDutch(s); !errors.Is(err, ErrTournament) {
			t.Errorf("%s: %v, want ErrTournament", name, err)
		}
	}
}
