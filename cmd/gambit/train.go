package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/gambitbot/gambit/strategies/adjeval/train"
)

const trainUsage = `
Usage: gambit train --out FILE [--seed S] [--games N] [--exact-plies P]
                    [--exact-nodes N] [--ridge R] [--holdout K]
                    [--opening M] [--explore E] [--json]

Fits the weights of minimax's learned Adjacency evaluation
(strategies/adjeval) and writes them to FILE, the weights file that
strategies/adjeval/weights.bin embeds in the binary.

It plays --games self-play games from --seed (random rounds and first mover,
0 to --opening random moves, then the hand-written evaluation one ply deep
with a random move at probability --explore), labels every distinct
position with its value for the side to move — exact for positions with at
most --exact-plies plies left that the exact solver settles within
--exact-nodes nodes, otherwise a 4-ply alpha-beta search on the weights
already fitted — and fits each stage of 4 plies left, from the end of the
game backwards, by ridge regression (penalty --ridge per position). Every
--holdout-th game is held out: the table reports, per stage, the mean
squared error in squared marks of the learned and the hand-written
evaluations on the held-out positions, and on those labelled exactly.

The same options give byte-identical weights. One thread; run it under
nice on a shared machine. Progress goes to standard error.

Examples:
  gambit train --out /tmp/weights.bin --games 50
  nice -n 19 gambit train --out strategies/adjeval/weights.bin --seed 1 --games 1500
`

func runTrain(args []string, sio stdio) error {
	fs := newFlagSet("train", trainUsage, sio.out)
	cfg := train.DefaultConfig
	out := fs.String("out", "", "the weights file to write (required)")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "the seed of the self-play games")
	fs.IntVar(&cfg.Games, "games", 1500, "self-play games")
	fs.IntVar(&cfg.ExactPlies, "exact-plies", cfg.ExactPlies, "solve positions with at most this many plies left exactly")
	fs.Uint64Var(&cfg.ExactNodes, "exact-nodes", cfg.ExactNodes, "the node cap of each exact solve")
	fs.Float64Var(&cfg.Ridge, "ridge", cfg.Ridge, "ridge penalty per position")
	fs.IntVar(&cfg.HoldOut, "holdout", cfg.HoldOut, "hold out every K-th game (0: none)")
	fs.IntVar(&cfg.Opening, "opening", cfg.Opening, "the most random moves opening a game")
	fs.Float64Var(&cfg.Explore, "explore", cfg.Explore, "the probability of a random move after the opening")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out is required: the weights file to write")
	}
	if err := checkBounds(bound{"games", cfg.Games, 1, maxGames, ""}, bound{"exact-plies", cfg.ExactPlies, 0, maxPlies, ""},
		bound{"opening", cfg.Opening, 0, maxPlies, ""}); err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return usageError{err}
	}
	start := time.Now()
	cfg.Progress = func(sr train.StageReport) {
		fmt.Fprintf(sio.err, "train: stage %d (%d–%d plies left): %d positions, %v\n",
			sr.Stage, sr.PliesMin, sr.PliesMax, sr.Train+sr.HeldOut, time.Since(start).Round(time.Second))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	w, report, err := train.Train(ctx, cfg)
	if err != nil {
		return err
	}
	data, err := w.MarshalBinary()
	if err != nil {
		return err
	}
	if err := writeAtomically(*out, data); err != nil {
		return err
	}
	fmt.Fprintf(sio.err, "train: %d positions, %d bytes written to %s in %v\n", report.Positions, len(data), *out, time.Since(start).Round(time.Second))
	if *asJSON {
		return json.NewEncoder(sio.out).Encode(report)
	}
	return writeTrainReport(sio.out, report)
}

// writeTrainReport prints the per-stage table of a training run.
func writeTrainReport(w io.Writer, r train.Report) error {
	fmt.Fprintf(w, "%d distinct positions.\n\n", r.Positions)
	fmt.Fprintln(w, "| plies left | trained | held out | exact | MSE learned | MSE hand | held out exact | MSE learned (exact) | MSE hand (exact) |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, s := range r.Stages {
		copied := ""
		if s.Copied {
			copied = " (copied)"
		}
		_, err := fmt.Fprintf(w, "| %d–%d%s | %d | %d | %d | %.2f | %.2f | %d | %.2f | %.2f |\n", s.PliesMin, s.PliesMax, copied,
			s.Train, s.HeldOut, s.Exact, s.Learned, s.Hand, s.HeldOutExact, s.LearnedExact, s.HandExact)
		if err != nil {
			return err
		}
	}
	return nil
}

// writeAtomically writes data to path through a temporary file renamed
// over it, so that a failure leaves the old file whole.
func writeAtomically(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".weights-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // after the rename there is nothing to remove
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
