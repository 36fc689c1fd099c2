package boardsym

import (
	"math/bits"
	"testing"
)

// TestSymmetriesAreTheSquaresSeven: each is a bijection of the 64 cells,
// they are pairwise different and none is the identity, and applying one
// twice or four times gives the identity, as for the square's symmetries.
func TestSymmetriesAreTheSquaresSeven(t *testing.T) {
	const corner, edge = uint64(1), uint64(1) << 1 // a1 and b1: their images tell the symmetry apart
	type images struct{ corner, edge uint64 }
	seen := map[images]string{{corner, edge}: "identity"}
	for name, sym := range Symmetries {
		all := uint64(0)
		for c := range 64 {
			all |= Cells(1<<c, sym)
		}
		if all != ^uint64(0) {
			t.Errorf("%s: images of the 64 cells cover %d", name, bits.OnesCount64(all))
		}
		key := images{Cells(corner, sym), Cells(edge, sym)}
		if other, ok := seen[key]; ok {
			t.Errorf("%s sends a1 and b1 where %s does", name, other)
		}
		seen[key] = name
		twice := func(c uint64) uint64 { return Cells(Cells(c, sym), sym) }
		if four := twice(twice(1 << 10)); four != 1<<10 {
			t.Errorf("%s applied four times moves c2", name)
		}
	}
}
