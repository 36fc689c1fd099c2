package c4solver

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/connect4"
)

// keyOf returns the table key of p.
func keyOf(p *connect4.Position) uint64 {
	return p.Bitboard(p.SideToMove()) + (p.Bitboard(engine.X) | p.Bitboard(engine.O))
}

// randomPosition plays plies random moves from the empty board, none of
// them ending the game, or returns nil.
func randomPosition(rng *rand.Rand, plies int) *connect4.Position {
	p := connect4.New()
	var buf [connect4.Width]engine.Move
	for range plies {
		moves := p.Moves(buf[:0])
		p.Play(moves[rng.IntN(len(moves))])
		if p.Terminal() {
			return nil
		}
	}
	return p
}

// TestPlies: the number of stones read from a key is the position's.
func TestPlies(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		if p := randomPosition(rng, rng.IntN(cells)); p != nil && plies(keyOf(p)) != p.Ply() {
			t.Fatalf("%s: plies(key) = %d; want %d", p, plies(keyOf(p)), p.Ply())
		}
	}
}

// TestTwoWayTableKeepsTheEarlierPosition: in the large table an entry of
// a position after few moves survives any number of later positions
// landing on its bucket, while the second slot keeps the latest of them.
func TestTwoWayTableKeepsTheEarlierPosition(t *testing.T) {
	tt := newTable(0, true)
	rng := rand.New(rand.NewPCG(5, 6))
	early := keyOf(randomPosition(rng, 4))
	tt.put(early, 4, 2, 5, 3)
	var late uint64
	for stored := 0; stored < 20; {
		p := randomPosition(rng, 20)
		if p == nil || tt.index(keyOf(p)) != tt.index(early) {
			continue
		}
		late = keyOf(p)
		tt.put(late, 20, -1, 1, 0)
		stored++
	}
	if l, u, m := tt.get(early); l != 2 || u != 5 || m != 3 {
		t.Errorf("the position after 4 moves, after 20 later ones on its bucket: %d %d %d; want 2 5 3", l, u, m)
	}
	if l, u, m := tt.get(late); l != -1 || u != 1 || m != 0 {
		t.Errorf("the last position stored: %d %d %d; want -1 1 0", l, u, m)
	}
}

// TestMirrorImageSharesTheEntries: early positions and their mirror
// images share the table's entries, so solving the mirror image of a
// position just solved is nearly free, and gives the same score with the
// mirrored move.
func TestMirrorImageSharesTheEntries(t *testing.T) {
	const moves = "4453432" // 7 moves: the table holds a mirror image's entries until symPly
	mirrored := strings.Map(func(r rune) rune { return '8' - r + '0' }, moves)
	s := New(testTableBytes)
	s.SetBook(nil)
	ctx := context.Background()
	r, err := s.Solve(ctx, mustParse(t, moves))
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Solve(ctx, mustParse(t, mirrored))
	if err != nil {
		t.Fatal(err)
	}
	if m.Score != r.Score || int(m.BestMove) != width-1-int(r.BestMove) {
		t.Errorf("%s: score %d, move %d; its mirror image %s: score %d, move %d", moves, r.Score, r.BestMove, mirrored, m.Score, m.BestMove)
	}
	if m.Nodes*20 > r.Nodes {
		t.Errorf("%s took %d nodes, then its mirror image %s %d; want at most a twentieth", moves, r.Nodes, mirrored, m.Nodes)
	}
}

// TestMirrorKey: the search's mirror of a key is the book's.
func TestMirrorKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		if p := randomPosition(rng, rng.IntN(cells)); p != nil && mirrorKey(keyOf(p)) != mirror(keyOf(p)) {
			t.Fatalf("%s: mirrorKey %x, mirror %x", p, mirrorKey(keyOf(p)), mirror(keyOf(p)))
		}
	}
}

// TestProbeStepsFromZeroEarly: before stepPly moves a strong solve asks
// about the sign first, then steps one score at a time away from 0; later
// it probes halfway to the far end.
func TestProbeStepsFromZeroEarly(t *testing.T) {
	for _, tc := range []struct {
		lo, hi, ply int
		want        int
	}{
		{-21, 21, 0, 0}, // the empty board: the sign first
		{1, 21, 0, 1},   // a win: is it more than 1?
		{2, 21, 0, 2},
		{-20, 0, 1, -1}, // a draw or a loss: is it a draw?
		{-20, -1, 1, -2},
		{-21, 21, stepPly, -10}, // later: the quick losses first
		{-9, 21, stepPly, 10},
	} {
		if got := probe(tc.lo, tc.hi, tc.ply, false, true); got != tc.want {
			t.Errorf("probe(%d, %d) after %d moves = %d; want %d", tc.lo, tc.hi, tc.ply, got, tc.want)
		}
	}
}

// TestSmallSolveStaysInTheFirstEntries: after Reset the large table uses
// only its first entries until it has stored many positions, so a small
// solve touches memory that fits in the processor's cache, and the entries
// it stored are still found after the table has grown to all of its
// memory.
func TestSmallSolveStaysInTheFirstEntries(t *testing.T) {
	s := New(testTableBytes)
	s.SetBook(nil)
	for range 2 { // a fresh Solver, then after Reset
		p := mustParse(t, "32164625") // Pons' L1_R1, some 16,000 nodes
		r, err := s.Solve(context.Background(), p)
		if err != nil || r.Score != 11 {
			t.Fatalf("%s: score %d, error %v; want 11", p, r.Score, err)
		}
		stored := 0
		for i, e := range s.tt.entries {
			if e != 0 && i >= startEntries {
				t.Fatalf("%s (%d nodes) stored an entry at %d of %d; want all below %d", p, r.Nodes, i, len(s.tt.entries), startEntries)
			}
			if e != 0 {
				stored++
			}
		}
		if stored == 0 {
			t.Fatalf("%s stored no entries in the large table", p)
		}
		before := slices.Clone(s.tt.entries[:startEntries])
		for s.tt.n < len(s.tt.entries) {
			s.tt.grow()
		}
		for _, e := range before {
			if e == 0 {
				continue
			}
			key := e & keyMask
			wl, wu, wm := decode(e)
			if l, u, m := s.tt.get(key); l != wl || u != wu || m != wm {
				t.Fatalf("key %x after growing: %d %d %d; want %d %d %d", key, l, u, m, wl, wu, wm)
			}
		}
		s.Reset()
		if s.tt.n > startEntries || slices.ContainsFunc(s.tt.entries, func(e uint64) bool { return e != 0 }) {
			t.Fatalf("Reset left %d entries in use, or entries not empty", s.tt.n)
		}
	}
}

// TestTableGrowsWhenHalfFull: a table, one-way or two-way, doubles the
// entries it uses once it has stored half as many new keys, until it uses
// all of them, and finds after each doubling every entry it held before.
func TestTableGrowsWhenHalfFull(t *testing.T) {
	for _, twoWay := range []bool{false, true} {
		tt := newTable(4*startEntries*8, twoWay)
		if tt.n != startEntries || len(tt.entries) != 4*startEntries {
			t.Fatalf("two-way %v: a new table of %d entries uses %d; want %d", twoWay, len(tt.entries), tt.n, startEntries)
		}
		rng := rand.New(rand.NewPCG(9, 10))
		for tt.n < len(tt.entries) {
			from, puts := tt.n, 0
			for tt.n == from {
				if puts == from/4 { // a copy grown now finds every entry
					grown := tt
					grown.entries = slices.Clone(tt.entries)
					grown.grow()
					for _, e := range tt.entries[:from] {
						wl, wu, wm := decode(e)
						if l, u, m := grown.get(e & keyMask); e != 0 && (l != wl || u != wu || m != wm) {
							t.Fatalf("two-way %v: key %x after growing to %d: %d %d %d; want %d %d %d", twoWay, e&keyMask, grown.n, l, u, m, wl, wu, wm)
						}
					}
				}
				tt.put(rng.Uint64()&keyMask|1, 10, rng.IntN(5), 5+rng.IntN(5), rng.IntN(width))
				puts++
			}
			if tt.n != 2*from || puts != from/2 {
				t.Fatalf("two-way %v: went from %d entries to %d after %d new keys; want %d after %d", twoWay, from, tt.n, puts, 2*from, from/2)
			}
		}
	}
}
