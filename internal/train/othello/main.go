// Command othello trains the Othello evaluation that games/othello
// embeds (weights.bin) and builds its opening book (book.bin). It lives
// outside the product packages: the gambit binary links none of it.
//
// Training (-out): self-play games with randomness give the positions;
// positions with few empty squares are labelled by exact solves, the
// others, stage by stage from the last, by the mean of searches of -depth
// and -depth−1 plies whose leaves the stages already fitted evaluate; each stage's pattern
// weights are fitted to the labels by ridge regression (conjugate
// gradients on the normal equations). With -generations above 1 the next
// generation's self-play uses the weights just fitted.
//
// The book (-book) is made with the embedded weights, so it is built
// after them, in a second run: from the start, every position that
// reasonable play reaches within -book-plies plies (each side's moves
// within -book-margin discs of its best, at most -book-width of them) is
// searched -book-depth plies deep by minimax, and its moves within the
// margin are kept with their scores.
//
//	go run ./internal/train/othello -out games/othello/weights.bin
//	go run ./internal/train/othello -book games/othello/book.bin
//
// docs/ai.md ("Othello's evaluation") has the parameters of the embedded
// files and how long they took. Progress goes to stderr.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "train/othello:", err)
		os.Exit(1)
	}
}

// run parses the command line and trains or builds the book, reporting
// progress to log.
func run(args []string, log io.Writer) error {
	fs := flag.NewFlagSet("othello", flag.ContinueOnError)
	fs.SetOutput(log)
	var t trainer
	out := fs.String("out", "", "train and write the weights to this file")
	book := fs.String("book", "", "build the opening book with the embedded weights and write it to this file")
	fs.IntVar(&t.games, "games", 8000, "self-play games a generation (the first of several: a quarter)")
	fs.IntVar(&t.generations, "generations", 2, "generations of self-play and fitting")
	fs.IntVar(&t.depth, "depth", 4, "plies of the labelling search (and one less, averaged)")
	fs.IntVar(&t.exact, "exact", 12, "label positions of this many empty squares or fewer by exact solves")
	fs.Float64Var(&t.lambda, "lambda", 30, "ridge penalty, in observations of a weight")
	fs.IntVar(&t.iterations, "iterations", 80, "conjugate-gradient iterations a stage")
	fs.IntVar(&t.workers, "workers", 2, "positions labelled at once")
	fs.Uint64Var(&t.seed, "seed", 1, "seed of the self-play")
	var b booker
	fs.IntVar(&b.plies, "book-plies", 10, "plies from the start the book covers")
	fs.IntVar(&b.depth, "book-depth", 14, "plies each book position is searched")
	fs.IntVar(&b.width, "book-width", 2, "moves of a position kept and followed")
	fs.IntVar(&b.margin, "book-margin", 2, "discs from the best within which a move is kept")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if (*out == "") == (*book == "") {
		return fmt.Errorf("give one of -out and -book")
	}
	if t.depth < 1 || b.depth < 2 || t.games < 1 || t.generations < 1 {
		return fmt.Errorf("-depth must be 1 or more, -book-depth 2 or more, -games and -generations 1 or more")
	}
	t.log, b.log = log, log
	var data []byte
	var err error
	if *out != "" {
		data, err = t.train()
	} else {
		data, err = b.build()
	}
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out+*book, data, 0o644); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}
