package tournament

import (
	"slices"
	"testing"
)

// TestArenaScoreLichessRules scores sequences of games by Lichess's
// Arena rules, each worked out by hand.
func TestArenaScoreLichessRules(t *testing.T) {
	W, D, L := Win, Draw, Loss
	games := func(rs ...Result) []ArenaGame {
		var out []ArenaGame
		for _, r := range rs {
			out = append(out, ArenaGame{Result: r, Plies: 40})
		}
		return out
	}
	cases := []struct {
		name   string
		games  []ArenaGame
		points []int
		onFire bool
	}{
		{"two wins set the player on fire; the third scores double", games(W, W, W, W), []int{2, 2, 4, 4}, true},
		{"a draw on fire scores double and ends the streak", games(W, W, D, W), []int{2, 2, 2, 2}, false},
		{"a loss ends the streak", games(W, W, W, L, W, W, W), []int{2, 2, 4, 0, 2, 2, 4}, true},
		{"a second draw in a row scores nothing", games(D, D, D), []int{1, 0, 0}, false},
		{"losses do not break a draw streak", games(D, L, D), []int{1, 0, 0}, false},
		{"a win does", games(D, W, D), []int{1, 2, 1}, false},
		{"one win is no streak", games(W, L, W, D), []int{2, 0, 2, 1}, false},
		{"a quick draw scores nothing, even on fire, and starts a draw streak",
			[]ArenaGame{{W, 40}, {W, 40}, {D, 19}, {D, 40}}, []int{2, 2, 0, 0}, false},
		{"a long draw scores after a draw", []ArenaGame{{D, 40}, {D, 60}}, []int{1, 1}, false},
	}
	for _, c := range cases {
		sheet := ArenaScore(c.games, LichessChess)
		total := 0
		for _, p := range c.points {
			total += p
		}
		if !slices.Equal(sheet.Points, c.points) || sheet.Total != total || sheet.OnFire != c.onFire {
			t.Errorf("%s: got %v (total %d, on fire %v), want %v (total %d, on fire %v)",
				c.name, sheet.Points, sheet.Total, sheet.OnFire, c.points, total, c.onFire)
		}
	}
}

// TestPairArena checks who the Arena pairs: neighbours in the standings,
// never last opponents again (unless they are all the Arena has
// left), not two players who both had one colour three games running,
// and with an odd number one waits.
func TestPairArena(t *testing.T) {
	p := func(id, points, rating, last, run int) ArenaPlayer {
		return ArenaPlayer{ID: id, Points: points, Rating: rating, LastOpponent: last, ColorRun: run}
	}
	cases := []struct {
		name    string
		waiting []ArenaPlayer
		players int
		want    []Pairing
	}{
		{"neighbours in the standings meet",
			[]ArenaPlayer{p(1, 10, 1500, 0, 0), p(2, 2, 1500, 0, 0), p(3, 9, 1500, 0, 0), p(4, 1, 1500, 0, 0)}, 20,
			[]Pairing{{White: 1, Black: 3}, {White: 2, Black: 4}}},
		{"not the last opponent",
			[]ArenaPlayer{p(1, 10, 1500, 3, 0), p(2, 2, 1500, 0, 0), p(3, 9, 1500, 1, 0), p(4, 1, 1500, 0, 0)}, 20,
			[]Pairing{{White: 1, Black: 2}, {White: 3, Black: 4}}},
		{"two who just met wait in a big Arena",
			[]ArenaPlayer{p(1, 4, 1500, 2, 0), p(2, 2, 1500, 1, 0)}, 13, nil},
		{"and in a small one, while others play",
			[]ArenaPlayer{p(1, 4, 1500, 2, 0), p(2, 2, 1500, 1, 0)}, 4, nil},
		{"and meet again when they are all the Arena has left",
			[]ArenaPlayer{p(1, 4, 1500, 2, 0), p(2, 2, 1500, 1, 0)}, 2, []Pairing{{White: 1, Black: 2}}},
		{"White to the one who had Black",
			[]ArenaPlayer{p(7, 4, 1500, 0, 2), p(8, 2, 1500, 0, -1)}, 20, []Pairing{{White: 8, Black: 7}}},
		{"two with three Whites running do not meet",
			[]ArenaPlayer{p(1, 4, 1500, 0, 3), p(2, 4, 1500, 0, 3), p(3, 0, 1500, 0, -3), p(4, 0, 1500, 0, -4)}, 20,
			[]Pairing{{White: 3, Black: 1}, {White: 4, Black: 2}}},
		// Ranks 1–2 cost 1433 (a step near the top weighs more), 2–3
		// cost 866: the leader waits, as on Lichess.
		{"odd: one waits, the top pair costing more",
			[]ArenaPlayer{p(1, 10, 1500, 0, 0), p(2, 9, 1500, 0, 0), p(3, 0, 1500, 0, 0)}, 20,
			[]Pairing{{White: 2, Black: 3}}},
		{"the rating breaks a tie of points",
			[]ArenaPlayer{p(1, 4, 1500, 0, 0), p(2, 4, 1900, 0, 0), p(3, 4, 1550, 0, 0), p(4, 4, 1950, 0, 0)}, 20,
			[]Pairing{{White: 4, Black: 2}, {White: 3, Black: 1}}},
	}
	for _, c := range cases {
		got := PairArena(c.waiting, c.players)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
