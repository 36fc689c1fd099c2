package tournament

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

func parseRounds(t *testing.T, rounds ...string) [][]Pairing {
	t.Helper()
	var out [][]Pairing
	for _, r := range rounds {
		var round []Pairing
		var w, b int
		rest := r
		for rest != "" {
			n, err := fmt.Sscanf(rest, "%d-%d", &w, &b)
			if err != nil || n != 2 {
				t.Fatalf("bad table %q", r)
			}
			round = append(round, Pairing{White: w, Black: b})
			i := 0
			for i < len(rest) && rest[i] != ' ' {
				i++
			}
			for i < len(rest) && rest[i] == ' ' {
				i++
			}
			rest = rest[i:]
		}
		out = append(out, round)
	}
	return out
}

// TestBergerTablesAreFIDEs compares RoundRobin with FIDE's published
// Berger tables (C.05 Annex 1) for 4, 6, 8 and 10 players, board by
// board.
func TestBergerTablesAreFIDEs(t *testing.T) {
	tables := map[int][][]Pairing{
		4: parseRounds(t, "1-4 2-3", "4-3 1-2", "2-4 3-1"),
		6: parseRounds(t, "1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"),
		8: parseRounds(t, "1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
			"3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"),
		10: parseRounds(t, "1-10 2-9 3-8 4-7 5-6", "10-6 7-5 8-4 9-3 1-2", "2-10 3-1 4-9 5-8 6-7",
			"10-7 8-6 9-5 1-4 2-3", "3-10 4-2 5-1 6-9 7-8", "10-8 9-7 1-6 2-5 3-4",
			"4-10 5-3 6-2 7-1 8-9", "10-9 1-8 2-7 3-6 4-5", "5-10 6-4 7-3 8-2 9-1"),
	}
	for n, want := range tables {
		got, err := RoundRobin(n, 1)
		if err != nil {
			t.Fatal(err)
		}
		for r := range want {
			if !slices.Equal(got[r], want[r]) {
				t.Errorf("%d players, round %d: %v, FIDE's table %v", n, r+1, got[r], want[r])
			}
		}
	}
	// An odd field plays the table of one more, the last player's
	// opponent resting.
	got, _ := RoundRobin(5, 1)
	if want := []Pairing{{White: 1}, {White: 2, Black: 5}, {White: 3, Black: 4}}; !slices.Equal(got[0], want) {
		t.Errorf("5 players, round 1: %v, want %v", got[0], want)
	}
}

// TestRoundRobinEveryoneMeetsEveryone checks every size from 3 to 12,
// single and double: each round pairs everyone once (one bye when odd),
// each pair meets once a cycle with the colours reversed in the second,
// colours balance to within one over a cycle, and in a double round
// robin of 5 or more no one has the same colour three rounds running
// (FIDE's swap of the first cycle's last two rounds; without it every
// even size fails here).
func TestRoundRobinEveryoneMeetsEveryone(t *testing.T) {
	for n := 3; n <= 12; n++ {
		for _, cycles := range []int{1, 2} {
			rounds, err := RoundRobin(n, cycles)
			if err != nil {
				t.Fatal(err)
			}
			m := n - 1 + n%2
			if len(rounds) != m*cycles {
				t.Fatalf("%d players ×%d: %d rounds", n, cycles, len(rounds))
			}
			met := map[[2]int]int{}
			colors := make([][]Color, n+1)
			whites := make([]int, n+1)
			for r, round := range rounds {
				seen := map[int]bool{}
				for _, p := range round {
					for _, x := range []int{p.White, p.Black} {
						if x == 0 {
							continue
						}
						if seen[x] {
							t.Fatalf("%d players ×%d round %d: %d twice", n, cycles, r+1, x)
						}
						seen[x] = true
					}
					if p.IsBye() {
						colors[p.White] = append(colors[p.White], NoColor)
						continue
					}
					met[[2]int{p.White, p.Black}]++
					colors[p.White] = append(colors[p.White], White)
					colors[p.Black] = append(colors[p.Black], Black)
					if r < m {
						whites[p.White]++
					}
				}
				if len(seen) != n {
					t.Fatalf("%d players ×%d round %d: %d players placed", n, cycles, r+1, len(seen))
				}
			}
			for i := 1; i <= n; i++ {
				for j := i + 1; j <= n; j++ {
					if met[[2]int{i, j}]+met[[2]int{j, i}] != cycles || (cycles == 2 && met[[2]int{i, j}] != 1) {
						t.Errorf("%d players ×%d: %d and %d meet %d/%d times", n, cycles, i, j, met[[2]int{i, j}], met[[2]int{j, i}])
					}
				}
				games := n - 1
				if d := 2*whites[i] - games; d < -1 || d > 1 {
					t.Errorf("%d players: player %d has %d whites of %d games", n, i, whites[i], games)
				}
				if cycles == 2 && n >= 5 {
					for r := 2; r < len(colors[i]); r++ {
						c := colors[i][r]
						if c != NoColor && colors[i][r-1] == c && colors[i][r-2] == c {
							t.Errorf("%d players ×2: player %d has %v in rounds %d–%d", n, i, c, r-1, r+1)
						}
					}
				}
			}
		}
	}
	for _, n := range []int{2, 13} {
		if _, err := RoundRobin(n, 1); !errors.Is(err, ErrRoundRobinSize) {
			t.Errorf("RoundRobin(%d) = %v, want ErrRoundRobinSize", n, err)
		}
	}
}
