package tournament

import "sort"

// The Arena of Lichess: for a fixed time, a player whose game ends is
// paired again at once with another waiting player close in the
// standings; the player with the most points when the time is up wins.
// Scoring and pairing follow Lichess's (lila's modules/tournament arena:
// ArenaSheet and AntmaPairing), without berserk.

// ArenaRules are the game-dependent thresholds of Arena scoring, in
// plies (half-moves). Lichess's for chess are LichessChess.
type ArenaRules struct {
	// QuickDraw: a draw of fewer plies scores nothing.
	QuickDraw int
	// LongGame: a draw of this many plies or more scores even right
	// after another draw.
	LongGame int
}

// LichessChess are Lichess's thresholds for standard chess: a draw in
// under 20 plies scores nothing, and a draw of 60 plies or more is
// never the second of a draw streak.
var LichessChess = ArenaRules{QuickDraw: 20, LongGame: 60}

// ArenaGame is one finished game of a player: the player's result (Win,
// Draw or Loss) and the game's length in plies.
type ArenaGame struct {
	Result Result
	Plies  int
}

// ArenaSheet is a player's Arena score: the points of each game, their
// total, and whether the player is on fire (won the last two games: the
// next win counts double).
type ArenaSheet struct {
	Points []int
	Total  int
	OnFire bool
}

// ArenaScore scores a player's games in the order played, by Lichess's
// rules: a win 2 points, a draw 1, a loss 0; after two wins in a row the
// player is on fire, and while the streak lasts a win scores 4 and a draw
// 2 (the draw ends it, as a loss does). A draw shorter than
// rules.QuickDraw scores nothing; a draw following another draw (losses
// between them aside, no win) scores nothing unless it lasted
// rules.LongGame plies.
func ArenaScore(games []ArenaGame, rules ArenaRules) ArenaSheet {
	var sheet ArenaSheet
	var history []ArenaGame // scored games: quick draws as draws
	onFire := func() bool {
		n := len(history)
		return n >= 2 && history[n-1].Result == Win && history[n-2].Result == Win
	}
	drawStreak := func() bool {
		for i := len(history) - 1; i >= 0; i-- {
			switch history[i].Result {
			case Win:
				return false
			case Draw:
				return true
			}
		}
		return false
	}
	for _, g := range games {
		pts := 0
		switch g.Result {
		case Win:
			pts = 2
			if onFire() {
				pts = 4
			}
		case Draw:
			switch {
			case g.Plies < rules.QuickDraw:
			case onFire():
				pts = 2
			case g.Plies < rules.LongGame && drawStreak():
			default:
				pts = 1
			}
		}
		history = append(history, ArenaGame{Result: g.Result, Plies: g.Plies})
		sheet.Points = append(sheet.Points, pts)
		sheet.Total += pts
	}
	sheet.OnFire = onFire()
	return sheet
}

// ArenaPlayer is a player waiting for a game in an Arena.
type ArenaPlayer struct {
	ID     int
	Points int // Arena points so far
	Rating int
	// LastOpponent is the ID of the player's last opponent (0: none).
	LastOpponent int
	// ColorRun is the player's run of one colour in their last games:
	// +k for White k times running, −k for Black.
	ColorRun int
}

// arenaMaxRun: two players who have both had the same colour this many
// games running do not meet (one would have it once more).
const arenaMaxRun = 3

// PairArena pairs the waiting players as Lichess's Arena does: as many
// pairs as possible, then the least total cost, a pair's cost being its
// distance in the standings (the waiting players ranked by points, then
// rating) weighted more near the top (from 2000 at the top to 300 at the
// bottom), plus the difference of ratings. Two players do not meet
// again right after their game, nor when both have had the same colour
// three games running; but two who are all the Arena has left (players,
// the players still in it, is 2) meet again and again, as on Lichess,
// where two players who just met wait for someone else unless they are
// the only two left. With an odd number waiting one waits on. The
// pairings are by ID, White the one with the shorter run of White (the
// lower ColorRun), the higher-ranked on a tie.
func PairArena(waiting []ArenaPlayer, players int) []Pairing {
	n := len(waiting)
	if n < 2 {
		return nil
	}
	ranked := make([]ArenaPlayer, n)
	copy(ranked, waiting)
	sort.SliceStable(ranked, func(i, j int) bool {
		if ranked[i].Points != ranked[j].Points {
			return ranked[i].Points > ranked[j].Points
		}
		if ranked[i].Rating != ranked[j].Rating {
			return ranked[i].Rating > ranked[j].Rating
		}
		return ranked[i].ID < ranked[j].ID
	})
	duel := players == 2
	cost := func(i, j int) (int, bool) {
		a, b := ranked[i], ranked[j]
		if !duel && (a.LastOpponent == b.ID || b.LastOpponent == a.ID) {
			return 0, false
		}
		if (a.ColorRun >= arenaMaxRun && b.ColorRun >= arenaMaxRun) || (a.ColorRun <= -arenaMaxRun && b.ColorRun <= -arenaMaxRun) {
			return 0, false
		}
		maxRank := n // ranks 1..n; i and j are ranks-1
		factor := 300 + 1700*(maxRank-(i+1))/maxRank
		return (j-i)*factor + abs(a.Rating-b.Rating), true
	}
	// Weights: big − cost, big above any matching's total cost, so the
	// heaviest matching has the most pairs, then the least cost.
	big := 1
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if c, ok := cost(i, j); ok {
				big += c
			}
		}
	}
	m := newMatcher(n, 2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if c, ok := cost(i, j); ok {
				w := make(wide, 2)
				w.addUint(uint64(big - c))
				m.setWeight(i, j, w)
			}
		}
	}
	mate := m.solve()
	var out []Pairing
	for i, j := range mate {
		if j <= i {
			continue
		}
		a, b := ranked[i], ranked[j]
		if b.ColorRun < a.ColorRun {
			a, b = b, a
		}
		out = append(out, Pairing{White: a.ID, Black: b.ID})
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
