// Command genbook generates the Connect Four opening book that
// strategies/c4solver embeds: it solves every position of -plies moves
// with the solver itself, then, with -play, adds the best move of every
// position up to -play moves that a player following the book meets on
// its turn (bookgen.ExtendForPlay), and writes the book to -out. Run it
// through go generate in strategies/c4solver (see book.go for the depths
// used):
//
//	go generate ./strategies/c4solver
//
// or directly; -from reuses the full levels of an existing book instead
// of solving them again (the 4-ply levels take an hour of CPU), so that
// only the positions of play are solved:
//
//	go run ./strategies/c4solver/genbook -plies 4 -play 8 -from strategies/c4solver/book.bin -out strategies/c4solver/book.bin
//
// Progress goes to stderr, and for each level the median and longest
// solve; the output file is replaced only once the book is complete.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"time"

	"github.com/gambitbot/gambit/strategies/c4solver"
	"github.com/gambitbot/gambit/strategies/c4solver/internal/bookgen"
)

func main() {
	plies := flag.Int("plies", 4, "solve every position of this many moves")
	play := flag.Int("play", 0, "add the positions of play up to this many moves (0: none)")
	from := flag.String("from", "", "take the positions of -plies moves from this book instead of solving them")
	out := flag.String("out", "book.bin", "the book file to write")
	workers := flag.Int("workers", 0, "solves at once (0: one per processor)")
	mib := flag.Int("hash", 256, "each solver's transposition table in MiB")
	flag.Parse()
	if err := run(*plies, *play, *from, *out, *workers, *mib); err != nil {
		fmt.Fprintln(os.Stderr, "genbook:", err)
		os.Exit(1)
	}
}

func run(plies, play int, from, out string, workers, mib int) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	var took []time.Duration
	progress := func(ply, done, total int, d time.Duration) {
		took = append(took, d)
		if done*100/total != (done-1)*100/total {
			fmt.Fprintf(os.Stderr, "genbook: %d/%d positions of %d moves solved, %v\n", done, total, ply, time.Since(start).Round(time.Second))
		}
		if done == total {
			slices.Sort(took)
			fmt.Fprintf(os.Stderr, "genbook: %d moves: %d solves, median %v, max %v\n", ply, total, took[len(took)/2].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond))
			took = took[:0]
		}
	}
	var book *c4solver.Book
	if from != "" {
		data, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		if book, err = c4solver.ParseBook(data); err != nil {
			return fmt.Errorf("%s: %w", from, err)
		}
		if book.Plies() != plies {
			return fmt.Errorf("%s holds %d plies, not -plies %d", from, book.Plies(), plies)
		}
	} else {
		var err error
		if book, err = bookgen.Generate(ctx, plies, mib<<20, workers, progress); err != nil {
			return err
		}
	}
	if play > 0 {
		var err error
		if book, err = bookgen.ExtendForPlay(ctx, book, play, mib<<20, workers, progress); err != nil {
			return err
		}
	}
	data, err := book.MarshalBinary()
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".book-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	// Removes the file after a failure; after the rename there is none.
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil { // CreateTemp makes files private
		tmp.Close()
		return fmt.Errorf("write %s: %w", out, err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", out, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	fmt.Fprintf(os.Stderr, "genbook: %d positions, every one up to %d moves and those of play up to %d, %d bytes, in %v\n", book.Len(), plies, book.Deepest(), len(data), time.Since(start).Round(time.Second))
	return nil
}
