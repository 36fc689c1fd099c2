package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/strategies/adjsearch"
)

// tiny is a run of a second: one-ply searches, four plies of positions.
func tiny(book string) config {
	return config{book: book, depth: 1, plies: 4, replies: []int{1, 2}, tableMiB: 1}
}

// TestGeneratorEndToEnd: a tiny run writes a book that adjsearch reads,
// holding the start, every first pair's position and positions four plies
// in, each with a legal move; a second run searches nothing and leaves the
// file as it was; a run stopped by -limit and run again writes the same
// book as one run; a deeper run redoes the entries. Its searches run on
// one goroutine, at 7 s of CPU under -race: -race -short leaves it out.
func TestGeneratorEndToEnd(t *testing.T) {
	if racetest.Short(t, "no run of the generator") {
		t.SkipNow()
	}
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.txt")
	var log bytes.Buffer
	if err := run(context.Background(), tiny(whole), &log); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	bk, err := adjsearch.ParseBook(string(text))
	if err != nil {
		t.Fatal(err)
	}
	start, err := adjacency.NewBoard(adjacency.MaxRounds, engine.X)
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[uint64]bool{}
	for _, a := range start.Moves(nil) {
		after := start.After(a)
		for _, c := range after.Moves(nil) {
			b := after.After(c)
			x, o := b.Marks()
			pairs[adjsearch.Canonical(^(x | o))] = true
			if m, _, ok := bk.Lookup(b); !ok || !b.Legal(m) {
				t.Fatalf("after %s %s: move %v, in the book %v", adjacency.CellName(a), adjacency.CellName(c), m, ok)
			}
		}
	}
	bySize := map[int]int{}
	for _, en := range bk.Entries() {
		n := 0
		for e := en.Empty; e != 0; e &= e - 1 {
			n++
		}
		bySize[n]++
	}
	if bySize[56] != 1 || bySize[54] != len(pairs) || bySize[52] == 0 || len(bySize) != 3 {
		t.Fatalf("entries by empty cells %v: want the start, the %d positions after a pair, and some four plies in", bySize, len(pairs))
	}
	if searches := strings.Count(log.String(), "\n"); searches != bk.Len() {
		t.Fatalf("%d searches logged for %d entries", searches, bk.Len())
	}

	log.Reset()
	if err := run(context.Background(), tiny(whole), &log); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(whole); log.Len() != 0 || !bytes.Equal(again, text) {
		t.Fatalf("a second run searched %q and changed the book: %v", log.String(), !bytes.Equal(again, text))
	}

	parts := filepath.Join(dir, "parts.txt")
	for i := 0; ; i++ {
		cfg := tiny(parts)
		cfg.limit = 150
		log.Reset()
		if err := run(context.Background(), cfg, &log); err != nil {
			t.Fatal(err)
		}
		if log.Len() == 0 {
			break
		}
		if i > 10 {
			t.Fatal("the stopped runs never finish the book")
		}
	}
	if got, _ := os.ReadFile(parts); !bytes.Equal(got, text) {
		t.Fatal("runs stopped by -limit wrote another book than one run")
	}

	deeper := tiny(whole)
	deeper.depth, deeper.plies = 2, 0
	log.Reset()
	if err := run(context.Background(), deeper, &log); err != nil {
		t.Fatal(err)
	}
	bk, err = load(whole)
	if err != nil {
		t.Fatal(err)
	}
	if _, en, _ := bk.Lookup(start); en.Depth != 2 || strings.Count(log.String(), "\n") != 1 {
		t.Fatalf("a run to depth 2 of the start: its entry has depth %d after %q", en.Depth, log.String())
	}
}

func TestGeneratorRefusesBadSettings(t *testing.T) {
	dir := t.TempDir()
	for _, cfg := range []config{
		{book: filepath.Join(dir, "a"), depth: 0, plies: 2},
		{book: filepath.Join(dir, "b"), depth: 2, plies: 3},
		{book: filepath.Join(dir, "c"), depth: 2, plies: 56},
	} {
		if err := run(context.Background(), cfg, &bytes.Buffer{}); err == nil {
			t.Errorf("%+v: ran, want an error", cfg)
		}
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("not a book\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), tiny(bad), &bytes.Buffer{}); err == nil {
		t.Error("a damaged book was extended, want an error")
	}
}
