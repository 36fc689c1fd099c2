package gomsearch

import (
	"context"
	"testing"

	rules "github.com/gambitbot/gambit/engine/gomoku"
	"github.com/gambitbot/gambit/internal/racetest"
	"github.com/gambitbot/gambit/strategies/internal/clock"
)

// TestLimits: a node cap stops the search within a check-in interval and
// gives the same answer twice (each search starts from empty tables); a
// depth cap bounds the iterations, each reported to Progress; an expired
// context gets a legal move at once, without a node searched. Under -race
// -short, where the search costs ten times its CPU on one goroutine, on
// the first and the last position only.
func TestLimits(t *testing.T) {
	e := New(4)
	positions := []string{midgame, "h8", "h8 i9 h9", "h8 g7 i5 g8 g9 i7 h7 h6 g5 h5 e7 f8 e9 f6 g6 f9 f7 e8 d7 d8"}
	if racetest.Short(t, "2 positions, not 4") {
		positions = []string{positions[0], positions[len(positions)-1]}
	}
	for _, moves := range positions {
		p, err := rules.Parse(moves)
		if err != nil {
			t.Fatal(err)
		}
		const cap = 30_000
		a, err := e.Search(context.Background(), p, Options{Nodes: cap})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := e.Search(context.Background(), p, Options{Nodes: cap})
		if a.Move != b.Move || a.Score != b.Score || a.Depth != b.Depth || a.Nodes != b.Nodes {
			t.Errorf("%s: two searches of %d nodes differ: %+v and %+v", moves, cap, a, b)
		}
		if a.Nodes > cap+clock.Interval+rules.Cells || !p.Legal(a.Move) {
			t.Errorf("%s: cap %d: %d nodes, move %v", moves, cap, a.Nodes, a.Move)
		}
		iterations := 0
		d, _ := e.Search(context.Background(), p, Options{Depth: 2, Progress: func(r Result) {
			iterations++
			if !p.Legal(r.Move) || r.Depth > 2 {
				t.Errorf("%s: progress %+v", moves, r)
			}
		}})
		if d.Depth > 2 || !p.Legal(d.Move) || iterations != d.Depth {
			t.Errorf("%s: depth cap 2: depth %d, move %v, %d iterations reported", moves, d.Depth, d.Move, iterations)
		}
		expired, cancel := context.WithCancel(context.Background())
		cancel()
		x, err := e.Search(expired, p, Options{})
		if err != nil || !p.Legal(x.Move) || x.Nodes != 0 {
			t.Errorf("%s, expired context: move %v, %d nodes, err %v", moves, x.Move, x.Nodes, err)
		}
	}
}

// TestSmallBoardsAndTheEnd: the engine plays legal moves on every board
// size to the end of the game, a full board included. Under -race -short
// on the smallest board only (with the positions of TestLimits cut to
// two, the package went from 7.3 s to 2.6 s of CPU under -race).
func TestSmallBoardsAndTheEnd(t *testing.T) {
	e := New(1)
	largest := rules.MaxSize
	if racetest.Short(t, "the smallest board only") {
		largest = rules.MinSize
	}
	for size := rules.MinSize; size <= largest; size += 4 {
		p, _ := rules.New(size)
		for !p.Terminal() {
			r, err := e.Search(context.Background(), p, Options{Nodes: 2000})
			if err != nil || !p.Legal(r.Move) {
				t.Fatalf("%v: move %v, err %v", p, r.Move, err)
			}
			p.Play(r.Move)
		}
		if _, err := e.Search(context.Background(), p, Options{}); err == nil {
			t.Errorf("%v: a finished game searched without an error", p)
		}
	}
}
