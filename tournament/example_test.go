package tournament_test

import (
	"fmt"

	"github.com/gambitbot/gambit/tournament"
)

// record writes a board's game on both players: White's result and the
// mirror for Black, or the bye.
func record(s *tournament.Swiss, p tournament.Pairing, white tournament.Result) {
	if p.IsBye() {
		pl := &s.Players[p.White-1]
		pl.Results = append(pl.Results, tournament.Entry{Result: tournament.PairingBye})
		return
	}
	black := map[tournament.Result]tournament.Result{
		tournament.Win: tournament.Loss, tournament.Draw: tournament.Draw, tournament.Loss: tournament.Win,
	}[white]
	w, b := &s.Players[p.White-1], &s.Players[p.Black-1]
	w.Results = append(w.Results, tournament.Entry{Opponent: p.Black, Color: tournament.White, Result: white})
	b.Results = append(b.Results, tournament.Entry{Opponent: p.White, Color: tournament.Black, Result: black})
}

// A five-player Swiss of three rounds: each round is paired by the Dutch
// system, the higher-ranked player of each board wins, and the table
// ranks by score and tie-breaks.
func ExamplePairDutch() {
	s := &tournament.Swiss{Rounds: 3, FirstColor: tournament.White}
	for _, name := range []string{"Ann", "Bob", "Cid", "Dee", "Eve"} {
		s.Players = append(s.Players, tournament.Player{Name: name})
	}
	for round := 1; round <= 3; round++ {
		boards, err := tournament.PairDutch(s)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("round %d: %v\n", round, boards)
		for _, b := range boards {
			result := tournament.Win
			if b.Black != 0 && b.Black < b.White {
				result = tournament.Loss
			}
			record(s, b, result)
		}
	}
	for _, st := range tournament.Standings(s) {
		fmt.Println(st, s.Players[st.Player-1].Name)
	}
	// Output:
	// round 1: [{1 3} {4 2} {5 0}]
	// round 2: [{5 1} {2 3} {4 0}]
	// round 3: [{1 2} {5 4} {3 0}]
	// 1. #1 3 (BH-C1 2.5, SB 3.00, DE 0) Ann
	// 2. #2 2 (BH-C1 4.5, SB 2.00, DE 0) Bob
	// 3. #4 2 (BH-C1 2.5, SB 1.00, DE 0) Dee
	// 4. #3 1 (BH-C1 5, SB 0.00, DE 0) Cid
	// 5. #5 1 (BH-C1 4.5, SB 1.00, DE 0) Eve
}
