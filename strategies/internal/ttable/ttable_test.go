package ttable

import "testing"

const noMove = 0xffff

var plain = Policy{NoMove: noMove, AgePenalty: 8}

func TestTableStoresBoundsAsBounds(t *testing.T) {
	tt := New(1<<20, plain)
	for _, tc := range []struct {
		score, depth int
		b            Bound
		solved       bool
	}{
		{-1234, 7, Upper, false},
		{999, 3, Lower, true},
		{0, 0, Exact, false},
		{-30000, 60, Exact, true},
	} {
		key := uint64(0x9e3779b97f4a7c15) * uint64(tc.depth+1)
		tt.Store(key, 17, tc.score, tc.depth, tc.b, tc.solved)
		hit, ok := tt.Probe(key)
		if !ok || hit.Score != tc.score || hit.Depth != tc.depth || hit.Bound != tc.b || hit.Solved != tc.solved || hit.Move != 17 {
			t.Errorf("stored %+v, probed %+v (found %v)", tc, hit, ok)
		}
	}
	if _, ok := tt.Probe(12345); ok {
		t.Error("probe of a key never stored found an entry")
	}
}

func TestTableKeepsTheMoveOfAFailLow(t *testing.T) {
	for _, none := range []uint16{0xffff, 0xff} { // the generic search's and adjsearch's
		tt := New(1<<20, Policy{NoMove: none, AgePenalty: 4})
		tt.Store(42, 9, 10, 4, Lower, false)
		tt.Store(42, none, -5, 6, Upper, false) // no best move: keep 9
		if hit, _ := tt.Probe(42); hit.Move != 9 || hit.Bound != Upper || hit.Depth != 6 {
			t.Errorf("no move %#x: probe %+v: want the new upper bound with the old move 9", none, hit)
		}
	}
}

// TestKeepSolved: with KeepSolved, an estimate does not replace a solved
// entry of the same position; without, it does.
func TestKeepSolved(t *testing.T) {
	for _, keep := range []bool{false, true} {
		tt := New(1<<20, Policy{NoMove: noMove, AgePenalty: 4, KeepSolved: keep})
		tt.Store(42, 3, 16, 10, Exact, true)
		tt.Store(42, 5, 40, 12, Lower, false)
		hit, _ := tt.Probe(42)
		if kept := hit.Solved && hit.Score == 16; kept != keep {
			t.Errorf("KeepSolved %v: probe %+v after an estimate", keep, hit)
		}
	}
}

// TestTableReplacement fills one bucket: the shallowest entry goes first,
// and entries of older generations go before deeper current ones.
func TestTableReplacement(t *testing.T) {
	tt := New(1<<20, plain)
	same := func(i uint64) uint64 { return i<<32 | 5 } // all in bucket 5
	for i, depth := range []int{9, 2, 7, 8} {
		tt.Store(same(uint64(i)), 1, 0, depth, Exact, false)
	}
	tt.Store(same(10), 1, 0, 5, Exact, false)
	if _, ok := tt.Probe(same(1)); ok {
		t.Error("the depth-2 entry survived a new one in a full bucket")
	}
	for _, i := range []uint64{0, 2, 3, 10} {
		if _, ok := tt.Probe(same(i)); !ok {
			t.Errorf("entry %d was replaced instead of the shallowest", i)
		}
	}
	// A later search: the old deep entries give way before a new shallow one.
	tt.Age()
	tt.Age()
	tt.Store(same(20), 1, 0, 1, Exact, false)
	tt.Store(same(21), 1, 0, 1, Exact, false)
	for _, i := range []uint64{20, 21} {
		if _, ok := tt.Probe(same(i)); !ok {
			t.Errorf("new entry %d lost to older generations", i)
		}
	}
}

// TestTableDetectsTornEntries: a slot whose two words come from different
// writes reads as empty rather than as a wrong entry.
func TestTableDetectsTornEntries(t *testing.T) {
	tt := New(1<<20, plain)
	tt.Store(77, 3, 100, 5, Exact, false)
	b := &tt.buckets[77&tt.mask]
	b[0].data.Store(b[0].data.Load() ^ 1<<scoreShift) // half of another write
	if hit, ok := tt.Probe(77); ok {
		t.Errorf("torn entry read as %+v", hit)
	}
}

// TestSize: a table is the largest power of two of buckets within its
// size, at least one.
func TestSize(t *testing.T) {
	for _, c := range []struct{ size, want int }{{0, 64}, {100, 64}, {1 << 20, 1 << 20}, {3 << 20, 2 << 20}} {
		if got := New(c.size, plain).Bytes(); got != c.want {
			t.Errorf("New(%d): %d bytes, want %d", c.size, got, c.want)
		}
	}
}

func TestSettles(t *testing.T) {
	for _, c := range []struct {
		b                  Bound
		score, alpha, beta int
		want               bool
	}{
		{Exact, 5, 0, 1, true}, {Lower, 5, 0, 5, true}, {Lower, 4, 0, 5, false},
		{Upper, 0, 0, 5, true}, {Upper, 1, 0, 5, false},
	} {
		if got := c.b.Settles(c.score, c.alpha, c.beta); got != c.want {
			t.Errorf("%v.Settles(%d, %d, %d) = %v", c.b, c.score, c.alpha, c.beta, got)
		}
	}
}
