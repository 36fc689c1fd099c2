// Package glicko2 implements Mark Glickman's Glicko-2 rating system as
// described in "Example of the Glicko-2 system" (Glickman, 2013).
//
// Ratings are given on the familiar Glicko scale (rating around 1500,
// deviation up to 350); the conversion to and from the internal Glicko-2
// scale happens inside Update. Gambit rates every game as its own rating
// period, the way online servers such as Lichess apply Glicko-2: callers pass
// the single outcome of a finished game.
//
// No maintained Go module for Glicko-2 was available through the module
// proxy, so this small package follows the paper step by step; the paper's
// worked example is its test.
package glicko2

import "math"

// Scale converts between the Glicko scale and the Glicko-2 scale
// (step 2 of the paper: μ = (r − 1500) / Scale, φ = RD / Scale).
const Scale = 173.7178

// DefaultTau is the system constant τ that constrains how fast volatility
// changes. Glickman suggests values between 0.3 and 1.2; 0.5 is the value of
// the paper's worked example.
const DefaultTau = 0.5

// convergence is the tolerance ε of the volatility iteration (step 5).
const convergence = 0.000001

// Rating is a player's strength estimate on the Glicko scale.
type Rating struct {
	// Rating is the strength estimate r (1500 for a new player).
	Rating float64
	// Deviation is the rating deviation RD, the uncertainty of Rating.
	Deviation float64
	// Volatility is σ, the expected fluctuation of the player's strength.
	Volatility float64
}

// Initial returns the rating of an unrated player: 1500, RD 350, σ 0.06.
func Initial() Rating {
	return Rating{Rating: 1500, Deviation: 350, Volatility: 0.06}
}

// Outcome is one game of a rating period seen from the rated player.
type Outcome struct {
	// Opponent is the opponent's rating before the period.
	Opponent Rating
	// Score is 1 for a win, 0.5 for a draw and 0 for a loss.
	Score float64
}

// Update returns the player's rating after a rating period in which they
// played the given games; tau is the system constant τ (see DefaultTau).
// With no games only the deviation grows, as step 6 of the paper says.
func Update(player Rating, outcomes []Outcome, tau float64) Rating {
	mu := (player.Rating - 1500) / Scale
	phi := player.Deviation / Scale
	sigma := player.Volatility
	if len(outcomes) == 0 {
		player.Deviation = math.Sqrt(phi*phi+sigma*sigma) * Scale
		return player
	}

	// Steps 3 and 4: the estimated variance v and the improvement Δ.
	var invV, sum float64
	for _, o := range outcomes {
		muJ := (o.Opponent.Rating - 1500) / Scale
		gJ := g(o.Opponent.Deviation / Scale)
		e := 1 / (1 + math.Exp(-gJ*(mu-muJ)))
		invV += gJ * gJ * e * (1 - e)
		sum += gJ * (o.Score - e)
	}
	v := 1 / invV
	delta := v * sum

	// Step 5: the new volatility.
	sigma = volatility(delta, phi, v, sigma, tau)

	// Steps 6 to 8: the new deviation and rating, back on the Glicko scale.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Rating{
		Rating:     muNew*Scale + 1500,
		Deviation:  phiNew * Scale,
		Volatility: sigma,
	}
}

// g is the weighting function g(φ) of step 3.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// volatility solves step 5 with the Illinois algorithm, as the paper does.
func volatility(delta, phi, v, sigma, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for math.Abs(B-A) > convergence {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
