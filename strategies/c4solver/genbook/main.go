// Command genbook generates the Connect Four opening book that
// strategies/c4solver embeds: it solves every position of -plies moves
// with the solver itself and writes the book to -out. Run it through
// go generate in strategies/c4solver (see book.go for the depth used):
//
//	go generate ./strategies/c4solver
//
// or directly, say with fewer workers:
//
//	go run ./strategies/c4solver/genbook -plies 3 -workers 1 -out strategies/c4solver/book.bin
//
// Progress goes to stderr; the output file is replaced only once the book
// is complete.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/gambitbot/gambit/strategies/c4solver"
)

func main() {
	plies := flag.Int("plies", 3, "solve every position of this many moves")
	out := flag.String("out", "book.bin", "the book file to write")
	workers := flag.Int("workers", 0, "solves at once (0: one per processor)")
	mib := flag.Int("hash", 256, "each solver's transposition table in MiB")
	flag.Parse()
	if err := run(*plies, *out, *workers, *mib); err != nil {
		fmt.Fprintln(os.Stderr, "genbook:", err)
		os.Exit(1)
	}
}

func run(plies int, out string, workers, mib int) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	book, err := c4solver.GenerateBook(ctx, plies, mib<<20, workers, func(done, total int) {
		if done*100/total != (done-1)*100/total {
			fmt.Fprintf(os.Stderr, "genbook: %d/%d positions of %d moves solved, %v\n", done, total, plies, time.Since(start).Round(time.Second))
		}
	})
	if err != nil {
		return err
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
	fmt.Fprintf(os.Stderr, "genbook: %d positions up to %d moves, %d bytes, in %v\n", book.Len(), plies, len(data), time.Since(start).Round(time.Second))
	return nil
}
