// Package train fits the weights of strategies/adjeval, the learned
// Adjacency evaluation: `gambit train` is its command line.
//
// It plays self-play games from a seed (a random number of rounds and
// first mover, a few random opening moves, then the hand-written
// evaluation one ply deep with some random moves), keeps every distinct
// position, and labels each with its value for the side to move: exact
// for positions with at most ExactPlies plies left that minimax's exact
// solver settles within ExactNodes nodes, otherwise an alpha-beta search
// adjeval.StageWidth plies deep whose leaves are evaluated with the
// weights already fitted. Stages are fitted from the end of the game
// backwards — stage 0's searches reach the end of the game, so its labels
// are exact, and every later stage's leaves lie in the stage before —
// each by ridge regression of the labels on the features. A few games in
// every HoldOut are held out to measure the fit.
//
// Everything is deterministic: the same Config gives byte-identical
// weights.
package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	handeval "github.com/gambitbot/gambit/games/adjacency"
	"github.com/gambitbot/gambit/strategies"
	"github.com/gambitbot/gambit/strategies/adjeval"
)

// Config sets up a training run.
type Config struct {
	// Seed seeds the self-play games.
	Seed uint64
	// Games is the number of self-play games.
	Games int
	// Opening is the most random moves that open a game (0 to Opening,
	// drawn per game).
	Opening int
	// Explore is the probability of a random move after the opening.
	Explore float64
	// ExactPlies: positions with at most this many plies left are solved
	// exactly when the solver finishes within ExactNodes nodes.
	ExactPlies int
	// ExactNodes caps each exact solve.
	ExactNodes uint64
	// Ridge is the ridge penalty per position on every weight but the
	// bias, in squared marks per squared feature unit.
	Ridge float64
	// HoldOut: game i is held out when i % HoldOut == HoldOut−1; 0 holds
	// nothing out.
	HoldOut int
	// Progress, if not nil, is called after each stage is fitted.
	Progress func(StageReport)
}

// DefaultConfig is the configuration of the embedded weights, but for the
// seed and the number of games, which the command line gives.
var DefaultConfig = Config{Opening: 8, Explore: 0.15, ExactPlies: 10, ExactNodes: 200_000, Ridge: 0.01, HoldOut: 10}

// Validate reports a configuration that cannot train.
func (c Config) Validate() error {
	switch {
	case c.Games < 1:
		return fmt.Errorf("train: %d games: want at least 1", c.Games)
	case c.Opening < 0 || c.ExactPlies < 0 || c.HoldOut < 0:
		return errors.New("train: opening moves, exact plies and hold-out must not be negative")
	case c.Explore < 0 || c.Explore > 1:
		return fmt.Errorf("train: explore %g: want a probability, 0 to 1", c.Explore)
	case c.Ridge < 0 || math.IsNaN(c.Ridge):
		return fmt.Errorf("train: ridge %g: want 0 or more", c.Ridge)
	}
	return nil
}

// StageReport is what training one stage measured. Errors are mean
// squared errors in squared marks against the labels of held-out
// positions.
type StageReport struct {
	// Stage is the stage, PliesMin–PliesMax its plies left.
	Stage, PliesMin, PliesMax int
	// Train and HeldOut count the positions fitted and held out; Exact
	// counts those (of both) labelled by an exact solve or a search that
	// reached the end of the game.
	Train, HeldOut, Exact int
	// Copied reports a stage with too few positions to fit, which took
	// the weights of the stage before (stage 0: the mark difference).
	Copied bool
	// Learned and Hand are the held-out errors of the learned and the
	// hand-written evaluations.
	Learned, Hand float64
	// LearnedExact and Hand exact are the same on the held-out positions
	// labelled exactly, and HeldOutExact counts those.
	HeldOutExact            int
	LearnedExact, HandExact float64
}

// Report is the outcome of a training run.
type Report struct {
	// Positions counts the distinct positions of the self-play games.
	Positions int
	// Stages reports each stage, from the end of the game backwards.
	Stages []StageReport
}

// sample is one labelled position.
type sample struct {
	board   adjacency.Board
	f       adjeval.Features
	heldOut bool
	label   float64 // marks, for the side to move
	exact   bool
}

// Train runs cfg and returns the fitted weights and what it measured. It
// stops with ctx's error when ctx is cancelled.
func Train(ctx context.Context, cfg Config) (*adjeval.Weights, Report, error) {
	if err := cfg.Validate(); err != nil {
		return nil, Report{}, err
	}
	byStage := selfPlay(cfg)
	var rep Report
	for _, s := range byStage {
		rep.Positions += len(s)
	}
	w := new(adjeval.Weights)
	for stage, samples := range byStage {
		sr := StageReport{Stage: stage, PliesMin: stage*adjeval.StageWidth + 1, PliesMax: (stage + 1) * adjeval.StageWidth}
		if stage == adjeval.NumStages-1 {
			sr.PliesMax = 2 * adjacency.MaxRounds
		}
		for i := range samples {
			if err := ctx.Err(); err != nil {
				return nil, rep, fmt.Errorf("train: stage %d: %w", stage, err)
			}
			if err := label(ctx, cfg, w, &samples[i]); err != nil {
				return nil, rep, err
			}
		}
		fitStage(cfg, w, stage, samples, &sr)
		rep.Stages = append(rep.Stages, sr)
		if cfg.Progress != nil {
			cfg.Progress(sr)
		}
	}
	return w, rep, nil
}

// selfPlay plays cfg.Games games and returns their distinct unfinished
// positions by stage, in the order first met.
func selfPlay(cfg Config) [adjeval.NumStages][]sample {
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5e1f91a7))
	var out [adjeval.NumStages][]sample
	seen := make(map[uint64]bool)
	buf := make([]engine.Move, 0, engine.MaxMoves)
	for g := range cfg.Games {
		heldOut := cfg.HoldOut > 0 && g%cfg.HoldOut == cfg.HoldOut-1
		rounds := adjacency.MinRounds + rng.IntN(adjacency.MaxRounds-adjacency.MinRounds+1)
		first := engine.Side(rng.IntN(2))
		b, err := adjacency.NewBoard(rounds, first)
		if err != nil {
			panic(err) // rounds and side are in range by construction
		}
		opening := rng.IntN(cfg.Opening + 1)
		for ply := 0; !b.Terminal(); ply++ {
			if h := b.Hash(); !seen[h] {
				seen[h] = true
				st := adjeval.Stage(b.PliesLeft())
				out[st] = append(out[st], sample{board: b, f: adjeval.Extract(b), heldOut: heldOut})
			}
			moves := b.Moves(buf)
			if ply < opening || rng.Float64() < cfg.Explore {
				b = b.After(moves[rng.IntN(len(moves))])
				continue
			}
			b = b.After(greedyMove(b, moves, rng))
		}
	}
	return out
}

// greedyMove is the move whose result the hand-written evaluation likes
// best for the side to move (one ply), ties broken at random.
func greedyMove(b adjacency.Board, moves []engine.Move, rng *rand.Rand) engine.Move {
	best, bestScore, ties := engine.NoMove, math.MinInt, 0
	for _, m := range moves {
		c := b.After(m)
		score := -handeval.Evaluate(c)
		if c.Terminal() {
			score = -handeval.Unit * c.Score(c.SideToMove())
		}
		switch {
		case score > bestScore:
			best, bestScore, ties = m, score, 1
		case score == bestScore:
			if ties++; rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}

// label sets s's label: an exact solve when it is short enough and
// finishes within the node cap, otherwise a search StageWidth plies deep
// on w.
func label(ctx context.Context, cfg Config, w *adjeval.Weights, s *sample) error {
	if left := s.board.PliesLeft(); left <= cfg.ExactPlies && left > adjeval.StageWidth {
		pos, err := adjacency.Parse(s.board.String())
		if err != nil {
			return fmt.Errorf("train: position %v: %w", s.board, err)
		}
		res, err := strategies.Minimax{Eval: strategies.HandEval}.Search(ctx, pos, strategies.Limits{Nodes: cfg.ExactNodes, Threads: 1, HashMiB: 4})
		if err != nil {
			return fmt.Errorf("train: solve %v: %w", s.board, err)
		}
		if res.Exact {
			s.label, s.exact = float64(res.Score), true
			return nil
		}
	}
	depth := min(adjeval.StageWidth, s.board.PliesLeft())
	s.label = float64(alphaBeta(w, s.board, depth, -math.MaxInt32, math.MaxInt32)) / adjeval.Unit
	s.exact = depth == s.board.PliesLeft()
	return nil
}

// alphaBeta is the fail-hard negamax value of b searched depth plies, in
// Units, w evaluating the leaves; moves capturing more go first.
func alphaBeta(w *adjeval.Weights, b adjacency.Board, depth, alpha, beta int) int {
	if depth == 0 || b.Terminal() {
		return w.Evaluate(b)
	}
	var buf [adjacency.Cells]engine.Move
	moves := b.Moves(buf[:0])
	for k := 4; k >= 0; k-- { // captures 4, 3, …, 0
		for _, m := range moves {
			if b.Captures(m) != k {
				continue
			}
			if score := -alphaBeta(w, b.After(m), depth-1, -beta, -alpha); score > alpha {
				if alpha = score; alpha >= beta {
					return beta
				}
			}
		}
	}
	return alpha
}
