package main

import (
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	rules "github.com/gambitbot/gambit/engine/othello"
	"github.com/gambitbot/gambit/games/othello"
)

// trainer holds the training's parameters.
type trainer struct {
	games, generations, depth, exact, iterations, workers int
	lambda                                                float64
	seed                                                  uint64
	log                                                   io.Writer
}

// sample is a position (the side to move's discs, the opponent's) and
// its label in Units.
type sample struct {
	own, opp uint64
	label    float64
}

// The start: Black (to move) on e4 d5, White on d4 e5.
const startOwn, startOpp = 1<<28 | 1<<35, 1<<27 | 1<<36

// train runs the generations and returns the weights file.
func (t *trainer) train() ([]byte, error) {
	var stages [othello.Stages][]int16
	for s := range stages {
		stages[s] = make([]int16, othello.StageWeights)
	}
	rng := rand.New(rand.NewPCG(t.seed, 0x07e110))
	for gen := range t.generations {
		start := time.Now()
		w, err := othello.NewWeights(stages)
		if err != nil {
			return nil, err
		}
		// The first generation's weights are all zero and its play
		// random: a quarter of the games give its weights a start.
		games := t.games
		if gen == 0 && t.generations > 1 {
			games = max(1, games/4)
		}
		byStage := t.selfPlay(w, rng, games)
		fmt.Fprintf(t.log, "generation %d: %d games, %d positions, %v\n", gen+1, games, count(byStage), time.Since(start).Round(time.Millisecond))
		for s := othello.Stages - 1; s >= 0; s-- {
			begin := time.Now()
			t.label(byStage[s], w)
			// The stage is fitted on its positions and the next stage's,
			// labelled already, for twice the data; every tenth position
			// of its own is held out to measure the fit.
			var fitted, held []sample
			for i, x := range byStage[s] {
				if i%10 == 9 {
					held = append(held, x)
				} else {
					fitted = append(fitted, x)
				}
			}
			if s+1 < othello.Stages {
				fitted = append(fitted, byStage[s+1]...)
			}
			stages[s] = t.fit(fitted)
			if err := w.SetStage(s, stages[s]); err != nil {
				return nil, err
			}
			fmt.Fprintf(t.log, "generation %d stage %d: %d positions, labels %.2f discs RMS, error %.2f fitted, %.2f held out, %v\n",
				gen+1, s, len(byStage[s]), rms(nil, held)/othello.Unit, rms(stages[s], fitted)/othello.Unit, rms(stages[s], held)/othello.Unit, time.Since(begin).Round(time.Millisecond))
		}
	}
	return othello.EncodeWeights(stages)
}

func count(byStage [othello.Stages][]sample) int {
	n := 0
	for _, s := range byStage {
		n += len(s)
	}
	return n
}

// selfPlay plays games games with w and returns their distinct
// positions (side to move with a move) by stage. Each game opens with up
// to 12 random moves; then each side plays the best move by w after one
// ply, with noise of up to two discs, or one time in ten a random move.
func (t *trainer) selfPlay(w *othello.Weights, rng *rand.Rand, games int) [othello.Stages][]sample {
	var byStage [othello.Stages][]sample
	seen := map[[2]uint64]bool{}
	for range games {
		own, opp := uint64(startOwn), uint64(startOpp)
		random := rng.IntN(13)
		for ply := 0; ; ply++ {
			moves := rules.LegalMoves(own, opp)
			if moves == 0 {
				if rules.LegalMoves(opp, own) == 0 {
					break
				}
				own, opp = opp, own
				continue
			}
			if k := [2]uint64{own, opp}; !seen[k] {
				seen[k] = true
				s := othello.Stage(bits.OnesCount64(^(own | opp)))
				byStage[s] = append(byStage[s], sample{own: own, opp: opp})
			}
			var bit uint64
			if ply < random || rng.IntN(10) == 0 {
				bit = nth(moves, rng.IntN(bits.OnesCount64(moves)))
			} else {
				best := math.MinInt
				for m := moves; m != 0; m &= m - 1 {
					b := m & -m
					no, np := play(own, opp, b)
					if v := -w.Evaluate(np, no) + rng.IntN(2*othello.Unit); v > best {
						best, bit = v, b
					}
				}
			}
			own, opp = play(own, opp, bit)
			own, opp = opp, own
		}
	}
	return byStage
}

// nth returns the n-th lowest bit of b.
func nth(b uint64, n int) uint64 {
	for range n {
		b &= b - 1
	}
	return b & -b
}

// play returns the discs after own plays the square bit.
func play(own, opp, bit uint64) (uint64, uint64) {
	f := rules.Flips(own, opp, bit)
	return own | f | bit, opp &^ f
}

// label labels the samples of one stage, t.workers at once: exactly with
// few empty squares, otherwise by searches of t.depth and t.depth−1 plies
// with w.
func (t *trainer) label(samples []sample, w *othello.Weights) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(1, t.workers) {
		wg.Go(func() {
			for i := range next {
				s := &samples[i]
				if bits.OnesCount64(^(s.own | s.opp)) <= t.exact {
					s.label = float64(othello.Unit * solve(s.own, s.opp, -64, 64, false))
				} else {
					// The mean of searches of depth and depth−1 plies: a
					// search's value leans towards the side to move at its
					// leaves, which alternates with the depth, and labels
					// from one depth would teach each stage a lean that the
					// next stage's searches compound (±10 discs by the
					// opening with depth 4 alone).
					s.label = float64(search(w, s.own, s.opp, t.depth, -infinity, infinity, false)+
						search(w, s.own, s.opp, t.depth-1, -infinity, infinity, false)) / 2
				}
			}
		})
	}
	for i := range samples {
		next <- i
	}
	close(next)
	wg.Wait()
}

// fit fits a stage's weights to its samples by ridge regression and
// returns them, rounded to Units within ±othello.MaxWeight. The normal
// equations (AᵀA + λI)x = Aᵀy are solved by conjugate gradients (CGLS),
// A having a row per sample: the count of each pattern weight's reads
// and the scalar features.
func (t *trainer) fit(samples []sample) []int16 {
	n := othello.StageWeights
	rows := make([]othello.Features, len(samples))
	for i, s := range samples {
		rows[i] = othello.Read(s.own, s.opp)
	}
	scalars := n - len(rows[0].Scalars)
	mul := func(x []float64, i int) float64 { // row i of A times x
		f := &rows[i]
		v := 0.0
		for _, j := range f.Patterns {
			v += x[j]
		}
		for j, s := range f.Scalars {
			v += x[scalars+j] * float64(s)
		}
		return v
	}
	mulT := func(r []float64, out []float64) { // Aᵀr
		clear(out)
		for i := range rows {
			f := &rows[i]
			for _, j := range f.Patterns {
				out[j] += r[i]
			}
			for j, s := range f.Scalars {
				out[scalars+j] += r[i] * float64(s)
			}
		}
	}
	x := make([]float64, n)
	r := make([]float64, len(samples))
	for i, s := range samples {
		r[i] = s.label
	}
	g := make([]float64, n) // Aᵀr − λx
	mulT(r, g)
	p := slices.Clone(g)
	q := make([]float64, len(samples))
	gamma := dot(g, g)
	for range t.iterations {
		if gamma == 0 {
			break
		}
		for i := range q {
			q[i] = mul(p, i)
		}
		alpha := gamma / (dot(q, q) + t.lambda*dot(p, p))
		for j := range x {
			x[j] += alpha * p[j]
		}
		for i := range r {
			r[i] -= alpha * q[i]
		}
		mulT(r, g)
		for j := range g {
			g[j] -= t.lambda * x[j]
		}
		next := dot(g, g)
		beta := next / gamma
		gamma = next
		for j := range p {
			p[j] = g[j] + beta*p[j]
		}
	}
	out := make([]int16, n)
	for j, v := range x {
		out[j] = int16(max(-othello.MaxWeight, min(othello.MaxWeight, math.Round(v))))
	}
	return out
}

// rms returns the root-mean-square error in Units of one stage's weights
// v on samples (their sum over every read, unclamped); with v nil, of
// the labels themselves.
func rms(v []int16, samples []sample) float64 {
	if len(samples) == 0 {
		return 0
	}
	sum := 0.0
	for _, s := range samples {
		d := -s.label
		if v != nil {
			f := othello.Read(s.own, s.opp)
			for _, i := range f.Patterns {
				d += float64(v[i])
			}
			for i, x := range f.Scalars {
				d += float64(v[len(v)-len(f.Scalars)+i]) * float64(x)
			}
		}
		sum += d * d
	}
	return math.Sqrt(sum / float64(len(samples)))
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// child is a position after a move, with its rank in the search order
// (lowest first).
type child struct {
	own, opp uint64
	order    int
}

func byOrder(a, b child) int { return a.order - b.order }

// infinity bounds the scores of search.
const infinity = 1 << 20

// search returns the negamax score in Units of the position, depth plies
// deep with window (alpha, beta), its leaves evaluated by w and finished
// games scored exactly; passed says the opponent just passed.
func search(w *othello.Weights, own, opp uint64, depth, alpha, beta int, passed bool) int {
	moves := rules.LegalMoves(own, opp)
	if moves == 0 {
		if passed {
			return othello.Unit * (bits.OnesCount64(own) - bits.OnesCount64(opp))
		}
		return -search(w, opp, own, depth, -beta, -alpha, true)
	}
	if depth == 0 {
		return w.Evaluate(own, opp)
	}
	var children [32]child
	n := 0
	for m := moves; m != 0; m &= m - 1 {
		no, np := play(own, opp, m&-m)
		c := &children[n]
		c.own, c.opp = np, no
		if depth > 1 {
			c.order = w.Evaluate(np, no) // the opponent's view: lowest first
		}
		n++
	}
	list := children[:n]
	if depth > 1 {
		slices.SortFunc(list, byOrder)
	}
	best := -infinity
	for _, c := range list {
		v := -search(w, c.own, c.opp, depth-1, -beta, -max(alpha, best), false)
		if v > best {
			best = v
			if v >= beta {
				break
			}
		}
	}
	return best
}

// solve returns the exact final disc difference for the side to move
// (empty squares counting for nobody), with window (alpha, beta);
// passed says the opponent just passed. Moves leaving the opponent
// fewest replies go first.
func solve(own, opp uint64, alpha, beta int, passed bool) int {
	moves := rules.LegalMoves(own, opp)
	if moves == 0 {
		if passed {
			return bits.OnesCount64(own) - bits.OnesCount64(opp)
		}
		return -solve(opp, own, -beta, -alpha, true)
	}
	var children [32]child
	n := 0
	sorted := bits.OnesCount64(^(own | opp)) > 6
	for m := moves; m != 0; m &= m - 1 {
		no, np := play(own, opp, m&-m)
		c := &children[n]
		c.own, c.opp = np, no
		if sorted {
			c.order = bits.OnesCount64(rules.LegalMoves(np, no))
		}
		n++
	}
	list := children[:n]
	if sorted {
		slices.SortFunc(list, byOrder)
	}
	best := -65
	for _, c := range list {
		v := -solve(c.own, c.opp, -beta, -max(alpha, best), false)
		if v > best {
			best = v
			if v >= beta {
				break
			}
		}
	}
	return best
}
