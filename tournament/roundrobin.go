package tournament

import (
	"errors"
	"fmt"
)

// ErrRoundRobinSize: a round robin here has 3 to 12 players.
var ErrRoundRobinSize = errors.New("a round robin needs 3 to 12 players")

// RoundRobin returns the rounds of a round robin of n players (3 to 12)
// by FIDE's Berger tables (C.05, Annex 1), once (cycles 1) or twice
// (cycles 2). Players are numbered 1 to n by their draw. With an odd n
// the player a round pairs with the missing n+1 has the bye
// (Pairing{White: p}). In a double round robin the second cycle repeats
// the first with colours reversed, and, as FIDE recommends, the first
// cycle's last two rounds are swapped: from 5 players up no one then
// has one colour three rounds running across the cycles' seam (with 4
// players, 3 rounds a cycle, two players still do, swap or not).
func RoundRobin(n, cycles int) ([][]Pairing, error) {
	if n < 3 || n > 12 {
		return nil, fmt.Errorf("tournament: round robin of %d players: %w", n, ErrRoundRobinSize)
	}
	if cycles != 1 && cycles != 2 {
		return nil, fmt.Errorf("tournament: round robin of %d cycles: only single (1) or double (2)", cycles)
	}
	even := n + n%2
	m := even - 1
	var first [][]Pairing
	for r := 1; r <= m; r++ {
		var round []Pairing
		// The player k with 2k ≡ r+1 (mod m) meets the last player:
		// with White in odd rounds.
		for k := 1; k <= m; k++ {
			if (2*k)%m != (r+1)%m {
				continue
			}
			switch {
			case even != n:
				round = append(round, Pairing{White: k})
			case r%2 == 1:
				round = append(round, Pairing{White: k, Black: even})
			default:
				round = append(round, Pairing{White: even, Black: k})
			}
		}
		// Players i < j with i+j ≡ r+1 (mod m) meet: the lower has
		// White when j-i is odd.
		for i := 1; i <= m; i++ {
			for j := i + 1; j <= m; j++ {
				if (i+j)%m != (r+1)%m {
					continue
				}
				if (j-i)%2 == 1 {
					round = append(round, Pairing{White: i, Black: j})
				} else {
					round = append(round, Pairing{White: j, Black: i})
				}
			}
		}
		first = append(first, boardOrder(round, r, m))
	}
	if cycles == 1 {
		return first, nil
	}
	first[m-2], first[m-1] = first[m-1], first[m-2]
	out := first
	for _, round := range first {
		var back []Pairing
		for _, p := range round {
			if p.IsBye() {
				back = append(back, p)
			} else {
				back = append(back, Pairing{White: p.Black, Black: p.White})
			}
		}
		out = append(out, back)
	}
	return out, nil
}

// boardOrder orders a round's boards as the Berger tables print them:
// the board of the player who meets the last player first, then round
// from them (r+1-k for board k in table order).
func boardOrder(round []Pairing, r, m int) []Pairing {
	// In the tables, board b (from 0) of round r holds the players
	// whose numbers are s+b and s-b (mod m, in 1..m) around the player
	// s who meets the last one (2s ≡ r+1).
	s := 0
	for k := 1; k <= m; k++ {
		if (2*k)%m == (r+1)%m {
			s = k
		}
	}
	norm := func(x int) int { return ((x-1)%m+m)%m + 1 }
	var out []Pairing
	for b := 0; b <= m/2; b++ {
		for _, p := range round {
			a, c := p.White, p.Black
			if b == 0 && (a == s || c == s) {
				out = append(out, p)
			}
			if b > 0 && ((a == norm(s+b) && c == norm(s-b)) || (a == norm(s-b) && c == norm(s+b))) {
				out = append(out, p)
			}
		}
	}
	return out
}
