package train

import (
	"math"

	handeval "github.com/gambitbot/gambit/games/adjacency"
	"github.com/gambitbot/gambit/strategies/adjeval"
	"github.com/gambitbot/gambit/strategies/internal/ridge"
)

// minSamples is the fewest training positions a stage is fitted on: four
// per weight. A stage with fewer takes the weights of the stage before,
// stage 0 the mark difference alone.
const minSamples = 4 * adjeval.NumFeatures

// fitStage fits w's weights of stage to its training samples by ridge
// regression (strategies/internal/ridge), rounds them to weight units, and
// measures both evaluations on the held-out samples.
func fitStage(cfg Config, w *adjeval.Weights, stage int, samples []sample, sr *StageReport) {
	const n = adjeval.NumFeatures
	sys := ridge.New(n)
	var x [n]float64
	for _, s := range samples {
		if s.exact {
			sr.Exact++
		}
		if s.heldOut {
			sr.HeldOut++
			continue
		}
		sr.Train++
		for i, v := range s.f {
			x[i] = float64(v)
		}
		sys.Add(x[:], s.label)
	}
	var weights []float64
	ok := sr.Train >= minSamples
	if ok {
		weights, ok = sys.Solve(cfg.Ridge, adjeval.FBias)
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
