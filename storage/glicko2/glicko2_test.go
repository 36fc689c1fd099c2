package glicko2

import (
	"math"
	"testing"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestGlickmanExample is the worked example of Glickman's paper: a 1500/200
// player with σ 0.06 beats a 1400/30 player and loses to 1550/100 and
// 1700/300 players; τ is 0.5.
func TestGlickmanExample(t *testing.T) {
	got := Update(Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}, []Outcome{
		{Opponent: Rating{Rating: 1400, Deviation: 30, Volatility: 0.06}, Score: 1},
		{Opponent: Rating{Rating: 1550, Deviation: 100, Volatility: 0.06}, Score: 0},
		{Opponent: Rating{Rating: 1700, Deviation: 300, Volatility: 0.06}, Score: 0},
	}, DefaultTau)
	if !near(got.Rating, 1464.06, 0.01) || !near(got.Deviation, 151.52, 0.01) || !near(got.Volatility, 0.05999, 0.00001) {
		t.Fatalf("Update = %.4f / %.4f / %.6f, want 1464.06 / 151.52 / 0.05999", got.Rating, got.Deviation, got.Volatility)
	}
}

func TestNoGamesOnlyWidensDeviation(t *testing.T) {
	p := Rating{Rating: 1600, Deviation: 50, Volatility: 0.06}
	got := Update(p, nil, DefaultTau)
	want := math.Sqrt(50*50/Scale/Scale+0.06*0.06) * Scale
	if got.Rating != 1600 || got.Volatility != 0.06 || !near(got.Deviation, want, 1e-9) {
		t.Fatalf("Update(no games) = %+v, want rating 1600, σ 0.06, RD %.4f", got, want)
	}
}

func TestOneGameBetweenNewcomers(t *testing.T) {
	a, b := Initial(), Initial()
	winner := Update(a, []Outcome{{Opponent: b, Score: 1}}, DefaultTau)
	loser := Update(b, []Outcome{{Opponent: a, Score: 0}}, DefaultTau)
	if !(winner.Rating > 1500 && loser.Rating < 1500) {
		t.Fatalf("winner %.2f, loser %.2f: want winner above and loser below 1500", winner.Rating, loser.Rating)
	}
	if !near(winner.Rating-1500, 1500-loser.Rating, 1e-6) {
		t.Fatalf("symmetric game moved ratings unevenly: +%.4f / -%.4f", winner.Rating-1500, 1500-loser.Rating)
	}
	if !(winner.Deviation < 350 && loser.Deviation < 350) {
		t.Fatalf("deviations %.2f and %.2f did not shrink after a game", winner.Deviation, loser.Deviation)
	}
	draw := Update(a, []Outcome{{Opponent: b, Score: 0.5}}, DefaultTau)
	if !near(draw.Rating, 1500, 1e-9) {
		t.Fatalf("draw between equals moved the rating to %.4f", draw.Rating)
	}
}

// TestBeatingWeakOpponentIsWorthLittle pins the property the ladder relies on
// for AI strategies: a win over a much weaker, well-known opponent gains less
// than a win over an equal one.
func TestBeatingWeakOpponentIsWorthLittle(t *testing.T) {
	p := Rating{Rating: 1500, Deviation: 80, Volatility: 0.06}
	weak := Update(p, []Outcome{{Opponent: Rating{Rating: 1000, Deviation: 40, Volatility: 0.06}, Score: 1}}, DefaultTau)
	equal := Update(p, []Outcome{{Opponent: Rating{Rating: 1500, Deviation: 40, Volatility: 0.06}, Score: 1}}, DefaultTau)
	if gw, ge := weak.Rating-1500, equal.Rating-1500; !(gw > 0 && gw < ge/4) {
		t.Fatalf("gain against weak %.3f, against equal %.3f: want a small positive gain against the weak one", gw, ge)
	}
}
