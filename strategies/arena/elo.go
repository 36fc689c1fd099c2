package arena

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gambitbot/gambit/engine"
)

// The rating scale.
const (
	// EloMean is the mean of the ratings of a table: the anchor.
	EloMean = 1500
	// VirtualDraws is the number of draws Run adds to every pairing that
	// met before rating, so that a player who won or lost every game gets
	// a finite rating (see Ratings).
	VirtualDraws = 1
	// eloPerNat converts a logistic strength in natural units to Elo.
	eloPerNat = 400 / math.Ln10
	// z95 is the standard normal quantile of a two-sided 95% interval.
	z95 = 1.959963984540054
)

// Record is one player's wins, losses and draws.
type Record struct {
	// Wins are the player's wins.
	Wins int `json:"wins"`
	// Losses are the player's losses: the opponent's wins.
	Losses int `json:"losses"`
	// Draws are the drawn games.
	Draws int `json:"draws"`
}

// Games returns the number of games the record counts.
func (r Record) Games() int { return r.Wins + r.Losses + r.Draws }

// Points returns the player's score, a draw counting half.
func (r Record) Points() float64 { return float64(r.Wins) + float64(r.Draws)/2 }

// add counts one finished game's result, from the player's side.
func (r *Record) add(res engine.Result) {
	switch res {
	case engine.Win:
		r.Wins++
	case engine.Loss:
		r.Losses++
	case engine.Draw:
		r.Draws++
	default: // Run plays every game to its end
		panic(fmt.Sprintf("arena: counting an unfinished game (%v)", res))
	}
}

// Tally counts the games of one pairing in one rounds setting, from the
// side of player A.
type Tally struct {
	// Rounds is the Adjacency rounds setting; 0 for other games.
	Rounds int `json:"rounds,omitempty"`
	// A and B name the players.
	A string `json:"a"`
	// B is A's opponent.
	B string `json:"b"`
	// Record is A's wins, losses and draws over all the pairing's games.
	Record
	// First is A's record in the games A moved first, Second in those B
	// moved first: in a game where moving first or last matters, the
	// split shows how much of A's score is the setups'.
	First Record `json:"a_first"`
	// Second is A's record in the games B moved first.
	Second Record `json:"a_second"`
	// MarginFirst is the sum of A's final margins (A's score at the end
	// minus B's, in the game's unit: marks in Adjacency) over the games A
	// moved first; where one side wins with best play, how much each
	// player wins or loses by tells players apart that every game's
	// result does not.
	MarginFirst int `json:"a_first_margin"`
	// MarginSecond is the same over the games B moved first.
	MarginSecond int `json:"a_second_margin"`
	// Forfeits counts the games, among the above, lost by forfeit.
	Forfeits int `json:"forfeits"`
	// Pairs is A's record over pairs (see the package documentation): a
	// pair won when A scored more in its two games than B or, the games
	// level, ended them with a larger margin.
	Pairs Record `json:"pairs"`
	// Level is the part of Pairs the games left level (each player won
	// one, or both were drawn): A's record over them on the margins. A
	// count of games alone would have drawn all of them.
	Level Record `json:"pairs_level"`
}

// Rating is a player's Elo rating with its 95% confidence interval.
type Rating struct {
	// Name is the player's.
	Name string `json:"name"`
	// Elo is the rating.
	Elo float64 `json:"elo"`
	// Low and High bound the 95% confidence interval.
	Low float64 `json:"ci_low"`
	// High is the upper bound of the interval.
	High float64 `json:"ci_high"`
	// Games counts the games the player played (virtual draws excluded).
	Games int `json:"games"`
	// Points are the player's wins plus half its draws.
	Points float64 `json:"points"`
}

// Ratings rates players from the tallies of their games: the maximum
// likelihood Bradley–Terry model on the Elo scale, P(i beats j) =
// 1/(1+10^((Rj−Ri)/400)), with a draw counted as half a win and half a
// loss. virtualDraws draws are added to every pairing that met (Run uses
// VirtualDraws; with 0 this is the plain maximum likelihood estimate,
// which exists only when no group of players won every game against the
// rest, and Ratings fails otherwise).
//
// The estimate is found by Hunter's MM iteration (Zermelo's): each
// strength γi = 10^(Ri/400) becomes Wi / Σj nij/(γi+γj), Wi being i's
// points and nij the games of i against j, until no rating moves by
// 1e-9 Elo (or for at most 100,000 iterations). Ratings are anchored by their mean, EloMean. The intervals
// are Ri ± 1.96·σi, σi² being the i-th diagonal entry of the inverse of
// the observed Fisher information (the negated Hessian of the log
// likelihood) under the mean constraint — the Moore–Penrose inverse of
// that singular matrix. They measure a rating against the field's mean;
// the interval of a difference between two ratings is wider.
//
// The result is sorted from the highest rating down. Tallies may repeat a
// pairing (say, one per rounds setting): their games add up.
func Ratings(players []string, tallies []Tally, virtualDraws float64) ([]Rating, error) {
	k := len(players)
	if k < 2 {
		return nil, fmt.Errorf("arena: rating %d player(s): need at least two", k)
	}
	if virtualDraws < 0 {
		return nil, fmt.Errorf("arena: %v virtual draws: want 0 or more", virtualDraws)
	}
	index := make(map[string]int, k)
	out := make([]Rating, k)
	for i, name := range players {
		index[name] = i
		out[i].Name = name
	}
	n := square(k)     // games, virtual draws included
	score := square(k) // score[i][j]: i's points against j
	for _, t := range tallies {
		a, okA := index[t.A]
		b, okB := index[t.B]
		if !okA || !okB || a == b {
			return nil, fmt.Errorf("arena: rating a tally of %s against %s: not two of the players", t.A, t.B)
		}
		games := t.Games()
		n[a][b] += float64(games)
		n[b][a] += float64(games)
		score[a][b] += t.Points()
		score[b][a] += float64(games) - t.Points()
		out[a].Games += games
		out[b].Games += games
	}
	for i := range k {
		for j := range k {
			out[i].Points += score[i][j]
			if n[i][j] > 0 {
				n[i][j] += virtualDraws
				score[i][j] += virtualDraws / 2
			}
		}
	}
	if err := checkConnected(players, score); err != nil {
		return nil, err
	}
	theta := maximumLikelihood(n, score)
	sigma, err := standardErrors(n, theta)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Elo = EloMean + eloPerNat*theta[i]
		half := z95 * eloPerNat * sigma[i]
		out[i].Low, out[i].High = out[i].Elo-half, out[i].Elo+half
	}
	slices.SortStableFunc(out, func(a, b Rating) int { return cmp.Compare(b.Elo, a.Elo) })
	return out, nil
}

// checkConnected fails unless every player scored, directly or through
// others, against every other: the condition (Zermelo's, Ford's) for the
// maximum likelihood ratings to be finite.
func checkConnected(players []string, score [][]float64) error {
	for _, forward := range []bool{true, false} {
		reached := make([]bool, len(players))
		reached[0] = true
		stack := []int{0}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for j := range players {
				s := score[i][j]
				if !forward {
					s = score[j][i]
				}
				if s > 0 && !reached[j] {
					reached[j] = true
					stack = append(stack, j)
				}
			}
		}
		if j := slices.Index(reached, false); j >= 0 {
			return fmt.Errorf("arena: no finite ratings: %s and %s are not linked by games in which each side scored (a player or group won or lost every game against the rest, or never played)", players[0], players[j])
		}
	}
	return nil
}

// maximumLikelihood returns the strengths θi = ln γi, of mean 0, that
// maximise the likelihood, by the MM iteration. The players must be
// connected (checkConnected).
func maximumLikelihood(n, score [][]float64) []float64 {
	k := len(n)
	theta := make([]float64, k)
	next := make([]float64, k)
	const tolerance, maxIterations = 1e-9 / eloPerNat, 100_000
	for moved, iter := math.Inf(1), 0; moved > tolerance && iter < maxIterations; iter++ {
		for i := range k {
			var points, denom float64
			for j := range k {
				if n[i][j] > 0 {
					points += score[i][j]
					denom += n[i][j] / (1 + math.Exp(theta[j]-theta[i]))
				}
			}
			// γi' = Wi / Σ nij/(γi+γj), written in θ = ln γ with the sum
			// scaled by γi to stay in floating-point range.
			next[i] = theta[i] + math.Log(points/denom)
		}
		mean := 0.0
		for _, t := range next {
			mean += t / float64(k)
		}
		moved = 0
		for i := range k {
			moved = max(moved, math.Abs(next[i]-mean-theta[i]))
			theta[i] = next[i] - mean
		}
	}
	return theta
}

// standardErrors returns each strength's standard error under the mean
// constraint: the square roots of the diagonal of the Moore–Penrose
// inverse of the Fisher information F, computed as (F + J/k)⁻¹ − J/k
// (J all ones), which holds for the Laplacian-shaped F of a connected
// comparison graph.
func standardErrors(n [][]float64, theta []float64) ([]float64, error) {
	k := len(n)
	f := square(k)
	for i := range k {
		for j := range k {
			if i == j || n[i][j] == 0 {
				continue
			}
			p := 1 / (1 + math.Exp(theta[j]-theta[i]))
			w := n[i][j] * p * (1 - p)
			f[i][j] -= w
			f[i][i] += w
		}
	}
	for i := range k {
		for j := range k {
			f[i][j] += 1 / float64(k)
		}
	}
	inv, err := invert(f)
	if err != nil {
		return nil, fmt.Errorf("arena: the Fisher information: %w", err)
	}
	sigma := make([]float64, k)
	for i := range k {
		sigma[i] = math.Sqrt(max(inv[i][i]-1/float64(k), 0))
	}
	return sigma, nil
}

// invert returns the inverse of the square matrix a, leaving a
// destroyed, by Gauss–Jordan elimination with partial pivoting.
func invert(a [][]float64) ([][]float64, error) {
	k := len(a)
	inv := square(k)
	for i := range k {
		inv[i][i] = 1
	}
	for col := range k {
		pivot := col
		for r := col + 1; r < k; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[pivot][col]) {
				pivot = r
			}
		}
		if math.Abs(a[pivot][col]) < 1e-300 {
			return nil, errors.New("singular matrix")
		}
		a[col], a[pivot] = a[pivot], a[col]
		inv[col], inv[pivot] = inv[pivot], inv[col]
		d := a[col][col]
		for c := range k {
			a[col][c] /= d
			inv[col][c] /= d
		}
		for r := range k {
			if r == col || a[r][col] == 0 {
				continue
			}
			m := a[r][col]
			for c := range k {
				a[r][c] -= m * a[col][c]
				inv[r][c] -= m * inv[col][c]
			}
		}
	}
	return inv, nil
}

// square returns a k×k matrix of zeros.
func square(k int) [][]float64 {
	m := make([][]float64, k)
	for i := range m {
		m[i] = make([]float64, k)
	}
	return m
}
