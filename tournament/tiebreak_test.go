package tournament

import (
	"slices"
	"testing"
)

// game records a game of round r between white w and black b with
// White's result.
func game(s *Swiss, r, w, b int, white Result) {
	black := map[Result]Result{Win: Loss, Loss: Win, Draw: Draw, ForfeitWin: ForfeitLoss, ForfeitLoss: ForfeitWin}[white]
	set(s, r, w, Entry{Opponent: b, Color: White, Result: white})
	set(s, r, b, Entry{Opponent: w, Color: Black, Result: black})
}

func set(s *Swiss, r, p int, e Entry) {
	pl := &s.Players[p-1]
	for len(pl.Results) < r {
		pl.Results = append(pl.Results, Entry{})
	}
	pl.Results[r-1] = e
}

// TestStandingsByHand checks the tie-breaks of a 5-player, 3-round
// tournament with a pairing-allocated bye, a forfeit and a half-point
// bye against figures worked out by hand (in the comments, in points).
func TestStandingsByHand(t *testing.T) {
	s := &Swiss{Rounds: 3, Players: make([]Player, 5)}
	// Round 1: A–B 1-0, C–D ½, E the bye.
	game(s, 1, 1, 2, Win)
	game(s, 1, 3, 4, Draw)
	set(s, 1, 5, Entry{Result: PairingBye})
	// Round 2: C–A ½, B–E 1-0, D the bye.
	game(s, 2, 3, 1, Draw)
	game(s, 2, 2, 5, Win)
	set(s, 2, 4, Entry{Result: PairingBye})
	// Round 3: A–D won by forfeit, C–B 1-0 (C wins), E a half-point bye.
	game(s, 3, 1, 4, ForfeitWin)
	game(s, 3, 3, 2, Win)
	set(s, 3, 5, Entry{Result: HalfBye})

	// Scores: A 2½, B 1, C 2, D 1½, E 1½. With unplayed rounds as
	// draws (for opponents): A 2, B 1, C 2, D 1½, E 1.
	// A: B 1, C 2, virtual (R3: 1½ before, forfeit won → 1½+0+0) 1½;
	//    BH 4½ − 1 = 3½; SB 1·1 + 2·½ + 1½·1 = 3½.
	// B: A 2, E 1, C 2; BH 5 − 1 = 4; SB 1·1 = 1.
	// C: D 1½, A 2, B 1; BH 4½ − 1 = 3½; SB 1½·½ + 2·½ + 1·1 = 2¾.
	// D: C 2, virtual R2 (½ + 0 + ½) 1, virtual R3 (1½ + 1 + 0) 2½;
	//    BH 5½ − 1 = 4½; SB 2·½ + 1·1 = 2.
	// E: virtual R1 (0 + 0 + 1) 1, B 1, virtual R3 (1 + ½ + 0) 1½;
	//    BH 3½ − 1 = 2½; SB 1·1 + 1½·½ = 1¾.
	want := []Standing{
		{Player: 1, Rank: 1, HalfPoints: 5, BuchholzCut1: 7, SonnebornBerger: 14},
		{Player: 3, Rank: 2, HalfPoints: 4, BuchholzCut1: 7, SonnebornBerger: 11},
		{Player: 4, Rank: 3, HalfPoints: 3, BuchholzCut1: 9, SonnebornBerger: 8},
		{Player: 5, Rank: 4, HalfPoints: 3, BuchholzCut1: 5, SonnebornBerger: 7},
		{Player: 2, Rank: 5, HalfPoints: 2, BuchholzCut1: 8, SonnebornBerger: 4},
	}
	if got := Standings(s); !slices.Equal(got, want) {
		t.Errorf("standings\n got %v\nwant %v", got, want)
	}
}

// TestDirectEncounter: players tied on score, Buchholz and
// Sonneborn-Berger are ordered by their games against each other when
// all have met, and stay tied (sharing a rank) when one pair has not.
func TestDirectEncounter(t *testing.T) {
	// A, B, C, D: A beats B, C beats D, then A–C and B–D are drawn:
	// A and C 1½, B and D ½, each pair tied on every criterion.
	s := &Swiss{Rounds: 2, Players: make([]Player, 4)}
	game(s, 1, 1, 2, Win)
	game(s, 1, 3, 4, Win)
	game(s, 2, 1, 3, Draw)
	game(s, 2, 2, 4, Draw)
	got := Standings(s)
	// A and C met (drawn): 1 half-point each, still tied: rank 1 both.
	// B and D met (drawn): tied too.
	for _, g := range got {
		wantRank := 1
		if g.Player == 2 || g.Player == 4 {
			wantRank = 3
		}
		if g.Rank != wantRank || g.Direct != 1 {
			t.Errorf("%v: want rank %d, direct ½", g, wantRank)
		}
	}
	// Three tied players who all met, one beating both others.
	group := []Standing{{Player: 1}, {Player: 2}, {Player: 3}}
	r := &Swiss{Rounds: 3, Players: make([]Player, 3)}
	game(r, 1, 1, 2, Draw)
	game(r, 2, 3, 1, Draw)
	game(r, 3, 2, 3, Win)
	directEncounter(r, 3, group)
	if want := []Standing{{Player: 2, Direct: 3}, {Player: 1, Direct: 2}, {Player: 3, Direct: 1}}; !slices.Equal(group, want) {
		t.Errorf("direct encounter %v, want %v", group, want)
	}
	// The same three, but 2 and 3 never met: no direct encounter.
	group = []Standing{{Player: 1}, {Player: 2}, {Player: 3}}
	r.Players[1].Results[2], r.Players[2].Results[2] = Entry{}, Entry{}
	directEncounter(r, 3, group)
	if want := []Standing{{Player: 1}, {Player: 2}, {Player: 3}}; !slices.Equal(group, want) {
		t.Errorf("direct encounter without all games %v, want unchanged", group)
	}
}
