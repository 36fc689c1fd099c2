package tournament

import (
	"fmt"
	"sort"
)

// Standing is one line of a Swiss tournament's table. Scores are in
// half-points, Sonneborn-Berger in quarter-points (an opponent's score in
// half-points times the game's result in half-points).
type Standing struct {
	Player          int // pairing number
	Rank            int // 1 for the leader; players tied on every criterion share a rank
	HalfPoints      int
	BuchholzCut1    int // half-points
	SonnebornBerger int // quarter-points
	// Direct is the half-points scored in the games among the players
	// tied with this one on score, Buchholz Cut 1 and Sonneborn-Berger,
	// when all of them have met each other; 0 otherwise.
	Direct int
}

// String is the standing as a line of a table: rank, pairing number,
// score and tie-breaks in points.
func (s Standing) String() string {
	return fmt.Sprintf("%d. #%d %s (BH-C1 %s, SB %s, DE %s)", s.Rank, s.Player, half(s.HalfPoints), half(s.BuchholzCut1),
		quarter(s.SonnebornBerger), half(s.Direct))
}

func half(h int) string {
	if h%2 == 0 {
		return fmt.Sprint(h / 2)
	}
	return fmt.Sprintf("%d.5", h/2)
}

func quarter(q int) string {
	return fmt.Sprintf("%.2f", float64(q)/4)
}

// Standings ranks the players after the rounds played (Played) by
// score, then Buchholz Cut 1, Sonneborn-Berger and direct encounter.
//
// Unplayed games follow FIDE C.02 (13.15, the tie-break rules before
// 2023): an opponent's unplayed rounds (byes, forfeits, absences) count
// as draws in the opponent's score; a player's own unplayed round R
// counts as a game against a virtual opponent who scores, after n
// rounds, the player's score before R, plus the round's result reversed
// (1 − the player's points in R), plus a draw for each round after R:
// Svon = S(before R) + (1 − S(R)) + ½(n − R). Cut 1 drops the lowest
// opponent's score, virtual opponents included. Direct encounter ranks
// players still tied by their points in the games among them, and
// applies only when all of them have met; otherwise they stay tied.
//
// In a round robin (s.RoundRobin) a round without a game given by the
// table — the free round each player of an odd field has, or an absence
// — counts for nothing in the tie-breaks: no virtual opponent, no draw
// in the player's score as an opponent. Every player has one such round
// a cycle, and when it falls, which the table decides, is no merit: as
// a virtual opponent it would rank players level on everything else by
// it, above their direct encounter.
func Standings(s *Swiss) []Standing {
	n := s.Played()
	free := func(e Entry) bool { return s.RoundRobin && e.Result == ZeroBye }
	scores := make([]int, len(s.Players))
	adjusted := make([]int, len(s.Players)) // unplayed rounds as draws
	for i, p := range s.Players {
		for r := 0; r < n && r < len(p.Results); r++ {
			e := p.Results[r]
			scores[i] += e.Result.HalfPoints()
			switch {
			case e.Result.played():
				adjusted[i] += e.Result.HalfPoints()
			case !free(e):
				adjusted[i]++
			}
		}
		for r := len(p.Results); r < n; r++ {
			adjusted[i]++
		}
	}
	out := make([]Standing, len(s.Players))
	for i, p := range s.Players {
		var values []int // each round's opponent score
		sb := 0
		before := 0
		for r := 0; r < n; r++ {
			var e Entry
			if r < len(p.Results) {
				e = p.Results[r]
			}
			pts := e.Result.HalfPoints()
			if free(e) {
				continue
			}
			var opp int
			if e.Result.played() {
				opp = adjusted[e.Opponent-1]
			} else {
				opp = before + (2 - pts) + (n - (r + 1))
			}
			values = append(values, opp)
			sb += opp * pts
			before += pts
		}
		bh := 0
		low := -1
		for _, v := range values {
			bh += v
			if low == -1 || v < low {
				low = v
			}
		}
		if len(values) > 0 {
			bh -= low
		}
		out[i] = Standing{Player: i + 1, HalfPoints: scores[i], BuchholzCut1: bh, SonnebornBerger: sb}
	}
	key := func(a Standing) [3]int { return [3]int{a.HalfPoints, a.BuchholzCut1, a.SonnebornBerger} }
	sort.SliceStable(out, func(i, j int) bool {
		a, b := key(out[i]), key(out[j])
		for k := range a {
			if a[k] != b[k] {
				return a[k] > b[k]
			}
		}
		return false
	})
	// Direct encounter within each group tied on the three criteria.
	for lo := 0; lo < len(out); {
		hi := lo + 1
		for hi < len(out) && key(out[hi]) == key(out[lo]) {
			hi++
		}
		if hi-lo > 1 {
			directEncounter(s, n, out[lo:hi])
		}
		lo = hi
	}
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && key(out[i]) == key(out[i-1]) && out[i].Direct == out[i-1].Direct {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// directEncounter scores each tied player's games against the others of
// the group and orders the group by it, if all of them have met.
func directEncounter(s *Swiss, n int, group []Standing) {
	in := map[int]bool{}
	for _, g := range group {
		in[g.Player] = true
	}
	met := map[[2]int]bool{}
	points := map[int]int{}
	for _, g := range group {
		p := s.Players[g.Player-1]
		for r := 0; r < n && r < len(p.Results); r++ {
			e := p.Results[r]
			if e.Opponent != 0 && in[e.Opponent] {
				met[[2]int{g.Player, e.Opponent}] = true
				points[g.Player] += e.Result.HalfPoints()
			}
		}
	}
	for _, a := range group {
		for _, b := range group {
			if a.Player != b.Player && !met[[2]int{a.Player, b.Player}] {
				return
			}
		}
	}
	for i := range group {
		group[i].Direct = points[group[i].Player]
	}
	sort.SliceStable(group, func(i, j int) bool { return group[i].Direct > group[j].Direct })
}
