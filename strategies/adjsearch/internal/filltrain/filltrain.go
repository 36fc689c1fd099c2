// Package filltrain trains the set-game evaluation of strategies/adjsearch
// (its adjsearch.FillWeights, the learned leaf of games that fill the board) and
// writes the weights as the Go file the package embeds. It is a tool of
// the generator (../fillgen, run by go generate), not of the bot: the
// bot runs only what adjsearch keeps.
package filltrain

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/format"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/strategies/adjsearch"
	"github.com/gambitbot/gambit/strategies/internal/ridge"
)

// Config sets up a training run of the set-game evaluation.
type Config struct {
	// Seed seeds the self-play games.
	Seed uint64
	// Games is the number of self-play games of 28 rounds.
	Games int
	// Opening is the most random moves that open a game (0 to Opening,
	// drawn per game).
	Opening int
	// Explore is the probability of a random move after the opening.
	Explore float64
	// ExactMax: sets of at most this many empty cells are labelled with
	// their exact value W by the fill solver; larger ones by a search
	// LabelDepth plies deep whose leaves use the stages fitted before.
	ExactMax int
	// ExactSample, if positive, caps the sets of every exactly labelled
	// stage of more than exactFull empty cells, whose solves take seconds
	// each: such a stage keeps only the first ExactSample sets met (held
	// out and training alike).
	ExactSample int
	// Base and From: if Base is not nil, the stages of fewer than From
	// empty cells keep Base's weights and tempo, unlabelled and unfitted,
	// and training starts at stage From. With Base the weights a run of
	// the same configuration without From wrote, the result is that run's
	// (the stages below From would be fitted to the same labels again): a
	// calibration of the larger stages costs only their labels.
	Base *adjsearch.FillWeights
	From int
	// LabelDepth is the depth of the label searches.
	LabelDepth int
	// Ridge is the ridge penalty per set on every weight but the bias, in
	// squared marks per squared feature unit.
	Ridge float64
	// HoldOut: game i is held out when i % HoldOut == HoldOut−1; 0 holds
	// nothing out.
	HoldOut int
	// TableMiB sizes the exact solver's table.
	TableMiB int
	// Progress, if not nil, is called after each stage is fitted.
	Progress func(StageReport)
}

// DefaultConfig is the configuration of the embedded weights,
// but for the seed and the number of games, which the generator gives.
var DefaultConfig = Config{Opening: 12, Explore: 0.1, ExactMax: 20, LabelDepth: 3, Ridge: 1e-3, HoldOut: 10, TableMiB: 64}

// Validate reports a configuration that cannot train.
func (c Config) Validate() error {
	switch {
	case c.Games < 1:
		return fmt.Errorf("filltrain: train of %d games: want at least 1", c.Games)
	case c.Opening < 0 || c.ExactMax < 0 || c.ExactSample < 0 || c.HoldOut < 0 || c.TableMiB < 0:
		return errors.New("filltrain: train: opening moves, exact cells, exact sample, hold-out and table size must not be negative")
	case c.LabelDepth < 1:
		return fmt.Errorf("filltrain: train: label depth %d: want at least 1", c.LabelDepth)
	case c.Explore < 0 || c.Explore > 1:
		return fmt.Errorf("filltrain: train: explore %g: want a probability, 0 to 1", c.Explore)
	case c.Ridge < 0 || math.IsNaN(c.Ridge):
		return fmt.Errorf("filltrain: train: ridge %g: want 0 or more", c.Ridge)
	}
	return nil
}

// StageReport is what training one stage measured. Errors are mean
// squared errors in squared marks against the labels of held-out sets.
type StageReport struct {
	// Empty is the stage: the number of empty cells.
	Empty int
	// Train and HeldOut count the sets fitted and held out.
	Train, HeldOut int
	// Exact reports labels from the exact solver (else from searches).
	Exact bool
	// Copied reports a stage with too few sets to fit, which took the
	// weights of the stage two cells smaller (the same player moves last).
	Copied bool
	// Learned, Neutral and Tempo are the held-out errors of the fitted
	// estimate (adjsearch.FillWeights.Estimate), of the neutral leaf (0) and of the
	// stage's tempo alone (the mean estimate).
	Learned, Neutral, Tempo float64
}

// exactFull is the most empty cells of a stage that ExactSample leaves
// whole: the exactly labelled stages of the weights before the
// calibration on larger exact solves.
const exactFull = 20

// window bounds the label searches: beyond every value of a set, in
// Units.
const window = 1 << 20

// fillMinSamples is the fewest training sets a stage is fitted on: four
// per weight.
const fillMinSamples = 4 * adjsearch.NumFillFeatures

// fillSample is one labelled set of empty cells.
type fillSample struct {
	e       uint64
	heldOut bool
	label   float64 // marks
}

// Train fits the set-game evaluation: it plays cfg.Games self-play
// games of 28 rounds from cfg.Seed (a few random opening moves, then a
// two-ply search of the set game with the neutral leaf, with some random
// moves), keeps every distinct set of two or more empty cells, labels it
// and fits each stage by ridge regression of the labels on the features,
// from the fewest empty cells up. It stops with ctx's error when ctx is
// cancelled. The same cfg gives the same weights.
func Train(ctx context.Context, cfg Config) (*adjsearch.FillWeights, []StageReport, error) {
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	byStage := fillSelfPlay(cfg)
	solver := adjsearch.NewFillSolver(ctx, max(cfg.TableMiB, 1)<<20)
	w := new(adjsearch.FillWeights)
	var reports []StageReport
	for n := 2; n < adjsearch.FillStages; n++ {
		if cfg.Base != nil && n < cfg.From {
			w.Weights[n], w.Tempo[n] = cfg.Base.Weights[n], cfg.Base.Tempo[n]
			continue
		}
		sr := StageReport{Empty: n, Exact: n <= cfg.ExactMax}
		samples := byStage[n]
		if sr.Exact && n > exactFull && cfg.ExactSample > 0 && len(samples) > cfg.ExactSample {
			samples = samples[:cfg.ExactSample]
		}
		for i := range samples {
			s := &samples[i]
			if sr.Exact {
				s.label = float64(solver.Value(s.e))
			} else {
				s.label = float64(search(w, s.e, cfg.LabelDepth, -window, window)) / adjsearch.Unit
			}
			if err := ctx.Err(); err != nil {
				return nil, nil, fmt.Errorf("filltrain: train, stage %d: %w", n, err)
			}
		}
		fitFillStage(cfg, w, n, samples, &sr)
		reports = append(reports, sr)
		if cfg.Progress != nil {
			cfg.Progress(sr)
		}
	}
	return w, reports, nil
}

// fitFillStage fits w's stage n to its training samples, rounds the
// weights to weight units and measures them on the held-out samples.
func fitFillStage(cfg Config, w *adjsearch.FillWeights, n int, samples []fillSample, sr *StageReport) {
	sys := ridge.New(adjsearch.NumFillFeatures)
	var x [adjsearch.NumFillFeatures]float64
	for _, s := range samples {
		if s.heldOut {
			sr.HeldOut++
			continue
		}
		sr.Train++
		for i, v := range adjsearch.FillFeaturesOf(s.e) {
			x[i] = float64(v)
		}
		sys.Add(x[:], s.label)
	}
	var weights []float64
	ok := sr.Train >= fillMinSamples
	if ok {
		weights, ok = sys.Solve(cfg.Ridge, adjsearch.FillBias)
	}
	if ok {
		for i, v := range weights {
			w.Weights[n][i] = int32(math.Round(v * adjsearch.FillWeightScale))
		}
		sum := int64(0)
		for _, s := range samples {
			if !s.heldOut {
				sum += w.Weighted(n, adjsearch.FillFeaturesOf(s.e))
			}
		}
		w.Tempo[n] = int32(math.Round(float64(sum) / float64(sr.Train)))
	} else {
		sr.Copied = true
		w.Weights[n], w.Tempo[n] = w.Weights[n-2], w.Tempo[n-2]
	}
	var learned, neutral, tempo float64
	for _, s := range samples {
		if s.heldOut {
			d := w.Estimate(s.e) - s.label
			t := float64(w.Tempo[n])/adjsearch.FillWeightScale - s.label
			learned += d * d
			neutral += s.label * s.label
			tempo += t * t
		}
	}
	if sr.HeldOut > 0 {
		h := float64(sr.HeldOut)
		sr.Learned, sr.Neutral, sr.Tempo = learned/h, neutral/h, tempo/h
	}
}

// fillSelfPlay plays cfg.Games games of 28 rounds and returns their
// distinct sets of two or more empty cells by size, in the order first
// met.
func fillSelfPlay(cfg Config) [adjsearch.FillStages][]fillSample {
	rng := rand.New(rand.NewPCG(cfg.Seed, 0xf111ea1))
	var out [adjsearch.FillStages][]fillSample
	seen := make(map[uint64]bool)
	var neutral adjsearch.FillWeights
	start, err := adjacency.NewBoard(adjacency.MaxRounds, engine.X)
	if err != nil {
		panic(err) // in range by construction
	}
	for g := range cfg.Games {
		heldOut := cfg.HoldOut > 0 && g%cfg.HoldOut == cfg.HoldOut-1
		opening := rng.IntN(cfg.Opening + 1)
		x, o := start.Marks()
		for e, ply := ^(x | o), 0; e&(e-1) != 0; ply++ {
			if !seen[e] {
				seen[e] = true
				n := bits.OnesCount64(e)
				out[n] = append(out[n], fillSample{e: e, heldOut: heldOut})
			}
			var c int
			if ply < opening || rng.Float64() < cfg.Explore {
				c = nthCell(e, rng.IntN(bits.OnesCount64(e)))
			} else {
				c = bestMove(&neutral, e, 2, rng)
			}
			e &^= 1 << c
		}
	}
	return out
}

// nthCell is the i-th cell (from 0) of the set e.
func nthCell(e uint64, i int) int {
	for ; i > 0; i-- {
		e &= e - 1
	}
	return bits.TrailingZeros64(e)
}

// bestMove is a move of the set e whose search depth plies deep (leaves
// valued by w) is best, ties broken at random.
func bestMove(w *adjsearch.FillWeights, e uint64, depth int, rng *rand.Rand) int {
	var keys [adjacency.Cells]uint16
	k := adjsearch.FillMoves(e, -1, &keys)
	best, bestScore, ties := -1, -window, 0
	for _, key := range keys[:k] {
		c, gain := int(uint8(key)), int(key>>8)*adjsearch.Unit
		score := gain - search(w, e&^(1<<c), depth-1, -window, window)
		switch {
		case score > bestScore:
			best, bestScore, ties = c, score, 1
		case score == bestScore:
			if ties++; rng.IntN(ties) == 0 {
				best = c
			}
		}
	}
	return best
}

// search is the fail-hard value W of the non-empty set e searched depth
// plies deep by plain alpha-beta, in Units, w's Estimate valuing the
// leaves: the training's label search, which needs no table.
func search(w *adjsearch.FillWeights, e uint64, depth, alpha, beta int) int {
	if depth <= 0 || e&(e-1) == 0 {
		return int(math.Round(w.Estimate(e) * adjsearch.Unit))
	}
	var keys [adjacency.Cells]uint16
	k := adjsearch.FillMoves(e, -1, &keys)
	for _, key := range keys[:k] {
		c, gain := int(uint8(key)), int(key>>8)*adjsearch.Unit
		if score := gain - search(w, e&^(1<<c), depth-1, gain-beta, gain-alpha); score > alpha {
			if alpha = score; alpha >= beta {
				return beta
			}
		}
	}
	return alpha
}

// GoSource returns the Go file that embeds w as the package's fillWeights,
// formatted, with command (the one that wrote it) in its header.
func GoSource(w *adjsearch.FillWeights, command string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by %s; DO NOT EDIT.\n\npackage adjsearch\n\n", command)
	fmt.Fprintf(&b, "// fillWeightsSet is the feature set the weights were fitted on\n// (FillFeatureSet).\nconst fillWeightsSet = 0x%08x\n\n", adjsearch.FillFeatureSet())
	b.WriteString("// fillWeights are the weights of the set-game evaluation (filleval.go),\n// stage by stage.\nvar fillWeights = FillWeights{\n\tWeights: [FillStages][NumFillFeatures]int32{\n")
	for n, stage := range w.Weights {
		fmt.Fprintf(&b, "\t\t%d: {", n)
		for i, v := range stage {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprint(&b, v)
		}
		b.WriteString("},\n")
	}
	b.WriteString("\t},\n\tTempo: [FillStages]int32{")
	for n, v := range w.Tempo {
		if n > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, v)
	}
	b.WriteString("},\n}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("filltrain: format the weights: %w", err)
	}
	return src, nil
}
