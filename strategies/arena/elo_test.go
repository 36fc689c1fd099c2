package arena_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gambitbot/gambit/strategies/arena"
)

// eloPerNat is the Elo of one natural unit of logistic strength.
const eloPerNat = 400 / math.Ln10

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func ratingsByName(t *testing.T, players []string, tallies []arena.Tally, virtualDraws float64) map[string]arena.Rating {
	t.Helper()
	rs, err := arena.Ratings(players, tallies, virtualDraws)
	if err != nil {
		t.Fatalf("Ratings(%v): %v", tallies, err)
	}
	for i := 1; i < len(rs); i++ {
		if rs[i].Elo > rs[i-1].Elo {
			t.Errorf("ratings not sorted from the top: %v", rs)
		}
	}
	out := make(map[string]arena.Rating)
	for _, r := range rs {
		out[r.Name] = r
	}
	return out
}

// TestRatingsTwoPlayers checks the closed form: with W wins out of N the
// maximum likelihood difference is 400·log10(W/(N−W)), each rating half of
// it from the mean, and the standard error of each rating
// 1/(2·sqrt(N·p·(1−p))) natural units with p = W/N.
func TestRatingsTwoPlayers(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		wins, losses, draws  int
		virtualDraws         float64
		wantDiff, games, pts float64
	}{
		{"3-1", 3, 1, 0, 0, 400 * math.Log10(3), 4, 3},
		{"draws count half: 2-0-2 is 3 of 4", 2, 0, 2, 0, 400 * math.Log10(3), 4, 3},
		{"one virtual draw makes 10-0 finite", 10, 0, 0, 1, 400 * math.Log10(10.5/0.5), 11, 10.5},
		{"even", 5, 5, 4, 0, 0, 14, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ratingsByName(t, []string{"a", "b"}, []arena.Tally{{A: "a", B: "b", Record: arena.Record{Wins: tc.wins, Losses: tc.losses, Draws: tc.draws}}}, tc.virtualDraws)
			a, b := r["a"], r["b"]
			if !near(a.Elo-b.Elo, tc.wantDiff) || !near(a.Elo+b.Elo, 2*arena.EloMean) {
				t.Errorf("a %.6f, b %.6f: want a difference of %.6f around %d", a.Elo, b.Elo, tc.wantDiff, arena.EloMean)
			}
			p := tc.pts / tc.games
			half := 1.959963984540054 * eloPerNat / (2 * math.Sqrt(tc.games*p*(1-p)))
			for _, x := range []arena.Rating{a, b} {
				if !near(x.High-x.Elo, half) || !near(x.Elo-x.Low, half) {
					t.Errorf("%s: interval %.6f – %.6f around %.6f, want ± %.6f", x.Name, x.Low, x.High, x.Elo, half)
				}
			}
			if a.Games != tc.wins+tc.losses+tc.draws || a.Points != float64(tc.wins)+float64(tc.draws)/2 {
				t.Errorf("a: %d games, %v points; virtual draws must not count", a.Games, a.Points)
			}
		})
	}
}

// TestRatingsChain checks a three-player case by hand: a beat b 3–1 and
// b drew c 1–1 (one win each), a and c never met. The likelihood splits
// into the two pairings: Ra − Rb = 400·log10 3, Rb = Rc, mean 1500.
func TestRatingsChain(t *testing.T) {
	r := ratingsByName(t, []string{"a", "b", "c"}, []arena.Tally{
		{A: "a", B: "b", Record: arena.Record{Wins: 3, Losses: 1}},
		{A: "c", B: "b", Record: arena.Record{Wins: 1, Losses: 1}},
	}, 0)
	d := 400 * math.Log10(3)
	if !near(r["a"].Elo, 1500+2*d/3) || !near(r["b"].Elo, 1500-d/3) || !near(r["c"].Elo, 1500-d/3) {
		t.Errorf("got a %.6f b %.6f c %.6f, want %.6f and twice %.6f", r["a"].Elo, r["b"].Elo, r["c"].Elo, 1500+2*d/3, 1500-d/3)
	}
	// c met only b: its rating is the least certain.
	if !(r["c"].High-r["c"].Low > r["b"].High-r["b"].Low) {
		t.Errorf("interval of c %v not wider than b's %v", r["c"], r["b"])
	}
}

func TestRatingsSymmetricResultsRateEqually(t *testing.T) {
	// A cycle: each beats the next 3–1.
	r := ratingsByName(t, []string{"a", "b", "c"}, []arena.Tally{
		{A: "a", B: "b", Record: arena.Record{Wins: 3, Losses: 1}},
		{A: "b", B: "c", Record: arena.Record{Wins: 3, Losses: 1}},
		{A: "c", B: "a", Record: arena.Record{Wins: 3, Losses: 1}},
	}, 0)
	for _, name := range []string{"a", "b", "c"} {
		if !near(r[name].Elo, arena.EloMean) || !near(r[name].High-r[name].Low, r["a"].High-r["a"].Low) {
			t.Errorf("%s: %+v, want %d and the same interval as a %+v", name, r[name], arena.EloMean, r["a"])
		}
	}
}

func TestRatingsIntervalsShrinkWithMoreGames(t *testing.T) {
	width := func(n int) float64 {
		r := ratingsByName(t, []string{"a", "b", "c"}, []arena.Tally{
			{A: "a", B: "b", Record: arena.Record{Wins: 3 * n, Losses: n}},
			{A: "b", B: "c", Record: arena.Record{Wins: 2 * n, Losses: n, Draws: n}},
			{A: "a", B: "c", Record: arena.Record{Wins: 3 * n, Draws: n}},
		}, 0)
		return r["b"].High - r["b"].Low
	}
	// Same proportions, a hundred times the games: a tenth of the width.
	if w1, w100 := width(1), width(100); !near(w1/w100, 10) {
		t.Errorf("interval widths %v (n=1) and %v (n=100): want a ratio of 10", w1, w100)
	}
}

// TestRatingsSolveLikelihoodEquations checks the defining property of the
// maximum likelihood estimate on random results: each player's expected
// points equal its points.
func TestRatingsSolveLikelihoodEquations(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	players := []string{"a", "b", "c", "d", "e"}
	for range 20 {
		var tallies []arena.Tally
		for i := range players {
			for j := i + 1; j < len(players); j++ {
				tallies = append(tallies, arena.Tally{A: players[i], B: players[j], Record: arena.Record{Wins: rng.IntN(9), Losses: rng.IntN(3), Draws: 1 + rng.IntN(3)}})
			}
		}
		r := ratingsByName(t, players, tallies, 0)
		expected := make(map[string]float64)
		for _, tl := range tallies {
			p := 1 / (1 + math.Pow(10, (r[tl.B].Elo-r[tl.A].Elo)/400))
			n := float64(tl.Wins + tl.Losses + tl.Draws)
			expected[tl.A] += n * p
			expected[tl.B] += n * (1 - p)
		}
		for _, name := range players {
			if math.Abs(expected[name]-r[name].Points) > 1e-6 {
				t.Fatalf("%s: expected points %.9f, scored %.9f (tallies %v)", name, expected[name], r[name].Points, tallies)
			}
		}
	}
}

func TestRatingsRefuseUnrateableResults(t *testing.T) {
	for _, tc := range []struct {
		name    string
		players []string
		tallies []arena.Tally
	}{
		{"a perfect score", []string{"a", "b"}, []arena.Tally{{A: "a", B: "b", Record: arena.Record{Wins: 4}}}},
		{"a player who never played", []string{"a", "b", "c"}, []arena.Tally{{A: "a", B: "b", Record: arena.Record{Wins: 2, Losses: 2}}}},
		{"one player", []string{"a"}, nil},
		{"a stranger", []string{"a", "b"}, []arena.Tally{{A: "a", B: "z", Record: arena.Record{Wins: 1, Losses: 1}}}},
	} {
		if _, err := arena.Ratings(tc.players, tc.tallies, 0); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
