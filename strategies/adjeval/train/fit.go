package train

import (
	"math"

	handeval "github.com/gambitbot/gambit/games/adjacency"
	"github.com/gambitbot/gambit/strategies/adjeval"
)

// minSamples is the fewest training positions a stage is fitted on: four
// per weight. A stage with fewer takes the weights of the stage before,
// stage 0 the mark difference alone.
const minSamples = 4 * adjeval.NumFeatures

// fitStage fits w's weights of stage to its training samples by ridge
// regression, rounds them to weight units, and measures both evaluations
// on the held-out samples.
//
// The normal equations (XᵀX + λnI)·w = Xᵀy have one row and column per
// feature (16), so they are built in one pass and solved by Cholesky
// factorisation here: a linear-algebra library would add a dependency for
// forty lines.
func fitStage(cfg Config, w *adjeval.Weights, stage int, samples []sample, sr *StageReport) {
	const n = adjeval.NumFeatures
	var xtx [n][n]float64
	var xty [n]float64
	for _, s := range samples {
		if s.exact {
			sr.Exact++
		}
		if s.heldOut {
			sr.HeldOut++
			continue
		}
		sr.Train++
		for i := range n {
			fi := float64(s.f[i])
			xty[i] += fi * s.label
			for j := range n {
				xtx[i][j] += fi * float64(s.f[j])
			}
		}
	}
	weights, ok := [n]float64{}, sr.Train >= minSamples
	if ok {
		for i := range n {
			if i != adjeval.FBias {
				xtx[i][i] += cfg.Ridge * float64(sr.Train)
			}
		}
		weights, ok = solve(xtx, xty)
	}
	if ok {
		for i, v := range weights {
			w[stage][i] = int32(math.Round(v * adjeval.WeightScale))
		}
	} else {
		sr.Copied = true
		w[stage] = [n]int32{adjeval.FMaterial: adjeval.WeightScale}
		if stage > 0 {
			w[stage] = w[stage-1]
		}
	}
	measure(w, samples, sr)
}

// measure sets the held-out errors of sr.
func measure(w *adjeval.Weights, samples []sample, sr *StageReport) {
	var learned, hand, learnedExact, handExact float64
	for _, s := range samples {
		if !s.heldOut {
			continue
		}
		dl := float64(w.Evaluate(s.board))/adjeval.Unit - s.label
		dh := float64(handeval.Evaluate(s.board))/handeval.Unit - s.label
		learned += dl * dl
		hand += dh * dh
		if s.exact {
			sr.HeldOutExact++
			learnedExact += dl * dl
			handExact += dh * dh
		}
	}
	if sr.HeldOut > 0 {
		sr.Learned, sr.Hand = learned/float64(sr.HeldOut), hand/float64(sr.HeldOut)
	}
	if sr.HeldOutExact > 0 {
		sr.LearnedExact, sr.HandExact = learnedExact/float64(sr.HeldOutExact), handExact/float64(sr.HeldOutExact)
	}
}

// solve solves a·x = b for a symmetric positive-definite a by Cholesky
// factorisation a = L·Lᵀ; ok is false when a is not positive definite
// (a feature constant over the stage's positions and no ridge penalty).
func solve(a [adjeval.NumFeatures][adjeval.NumFeatures]float64, b [adjeval.NumFeatures]float64) (x [adjeval.NumFeatures]float64, ok bool) {
	const n = adjeval.NumFeatures
	var l [n][n]float64
	for j := range n {
		d := a[j][j]
		for k := range j {
			d -= l[j][k] * l[j][k]
		}
		if d <= 1e-9*math.Max(1, a[j][j]) {
			return x, false
		}
		l[j][j] = math.Sqrt(d)
		for i := j + 1; i < n; i++ {
			s := a[i][j]
			for k := range j {
				s -= l[i][k] * l[j][k]
			}
			l[i][j] = s / l[j][j]
		}
	}
	var y [n]float64
	for i := range n { // L·y = b
		s := b[i]
		for k := range i {
			s -= l[i][k] * y[k]
		}
		y[i] = s / l[i][i]
	}
	for i := n - 1; i >= 0; i-- { // Lᵀ·x = y
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= l[k][i] * x[k]
		}
		x[i] = s / l[i][i]
	}
	return x, true
}
