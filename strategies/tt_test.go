package strategies

import (
	"testing"

	"github.com/gambitbot/gambit/engine"
)

func TestTableStoresBoundsAsBounds(t *testing.T) {
	tt := newTable(1)
	for _, tc := range []struct {
		score, depth int
		b            bound
		solved       bool
	}{
		{-1234, 7, boundUpper, false},
		{999, 3, boundLower, true},
		{0, 0, boundExact, false},
		{-infinity, 60, boundExact, true},
	} {
		hash := uint64(0x9e3779b97f4a7c15) * uint64(tc.depth+1)
		tt.store(hash, 17, tc.score, tc.depth, tc.b, tc.solved)
		hit, ok := tt.probe(hash)
		if !ok || hit.score != tc.score || hit.depth != tc.depth || hit.bound != tc.b || hit.solved != tc.solved || hit.move != 17 {
			t.Errorf("stored %+v, probed %+v (found %v)", tc, hit, ok)
		}
	}
	if _, ok := tt.probe(12345); ok {
		t.Error("probe of a hash never stored found an entry")
	}
}

func TestTableKeepsTheMoveOfAFailLow(t *testing.T) {
	tt := newTable(1)
	tt.store(42, 9, 10, 4, boundLower, false)
	tt.store(42, engine.NoMove, -5, 6, boundUpper, false) // no best move: keep 9
	if hit, _ := tt.probe(42); hit.move != 9 || hit.bound != boundUpper || hit.depth != 6 {
		t.Errorf("probe %+v: want the new upper bound with the old move 9", hit)
	}
}

// TestTableReplacement fills one bucket: the shallowest entry goes first,
// and entries of older generations go before deeper current ones.
func TestTableReplacement(t *testing.T) {
	tt := newTable(1)
	same := func(i uint64) uint64 { return i<<32 | 5 } // all in bucket 5
	for i, depth := range []int{9, 2, 7, 8} {
		tt.store(same(uint64(i)), 1, 0, depth, boundExact, false)
	}
	tt.store(same(10), 1, 0, 5, boundExact, false)
	if _, ok := tt.probe(same(1)); ok {
		t.Error("the depth-2 entry survived a new one in a full bucket")
	}
	for _, i := range []uint64{0, 2, 3, 10} {
		if _, ok := tt.probe(same(i)); !ok {
			t.Errorf("entry %d was replaced instead of the shallowest", i)
		}
	}
	// A later search: the old deep entries give way before a new shallow one.
	tt.gen = (tt.gen + 2) & ttGenMask
	tt.store(same(20), 1, 0, 1, boundExact, false)
	tt.store(same(21), 1, 0, 1, boundExact, false)
	for _, i := range []uint64{20, 21} {
		if _, ok := tt.probe(same(i)); !ok {
			t.Errorf("new entry %d lost to older generations", i)
		}
	}
}

// TestTableDetectsTornEntries: a slot whose two words come from different
// writes reads as empty rather than as a wrong entry.
func TestTableDetectsTornEntries(t *testing.T) {
	tt := newTable(1)
	tt.store(77, 3, 100, 5, boundExact, false)
	b := &tt.buckets[77&tt.mask]
	b[0].data.Store(b[0].data.Load() ^ 1<<ttScoreShift) // half of another write
	if hit, ok := tt.probe(77); ok {
		t.Errorf("torn entry read as %+v", hit)
	}
}

func TestBorrowedTablesAge(t *testing.T) {
	a := borrowTable(1)
	gen := a.gen
	tables.put(1, a)
	b := borrowTable(1)
	defer tables.put(1, b)
	if b != a || b.gen != (gen+1)&ttGenMask {
		t.Errorf("a reused table has generation %d after %d", b.gen, gen)
	}
}
