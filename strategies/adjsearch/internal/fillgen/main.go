// Command fillgen trains the set-game evaluation of strategies/adjsearch
// (filltrain.Train) and writes its weights as a Go file; `go generate
// ./strategies/adjsearch` runs it. It prints what each stage measured to
// standard error.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/gambitbot/gambit/strategies/adjsearch"
	"github.com/gambitbot/gambit/strategies/adjsearch/internal/filltrain"
)

func main() {
	cfg := filltrain.DefaultConfig
	flag.Uint64Var(&cfg.Seed, "seed", 1, "seed of the self-play games")
	flag.IntVar(&cfg.Games, "games", 600, "self-play games")
	flag.IntVar(&cfg.ExactMax, "exact", cfg.ExactMax, "sets of at most this many empty cells get exact labels")
	flag.IntVar(&cfg.ExactSample, "exactsample", cfg.ExactSample, "if positive, the most sets an exactly labelled stage of more than 20 empty cells keeps")
	from := flag.Int("from", 0, "if above 2, the stages of fewer empty cells keep the embedded weights and are not trained again")
	out := flag.String("out", "fillweights.go", "the Go file to write")
	flag.Parse()
	if *from > 2 {
		base := adjsearch.EmbeddedFillWeights()
		cfg.Base, cfg.From = &base, *from
	}
	cfg.Progress = func(s filltrain.StageReport) {
		label := "search"
		if s.Exact {
			label = "exact"
		}
		copied := ""
		if s.Copied {
			copied = " (copied)"
		}
		fmt.Fprintf(os.Stderr, "%2d empty: %5d train %4d held out, %s labels: MSE learned %6.2f, tempo alone %6.2f, neutral %6.2f%s\n",
			s.Empty, s.Train, s.HeldOut, label, s.Learned, s.Tempo, s.Neutral, copied)
	}
	if err := run(cfg, *out); err != nil {
		fmt.Fprintln(os.Stderr, "fillgen:", err)
		os.Exit(1)
	}
}

func run(cfg filltrain.Config, out string) error {
	w, _, err := filltrain.Train(context.Background(), cfg)
	if err != nil {
		return err
	}
	src, err := filltrain.GoSource(w, "go run ./internal/fillgen "+strings.Join(os.Args[1:], " "))
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		return fmt.Errorf("write the weights: %w", err)
	}
	return nil
}
