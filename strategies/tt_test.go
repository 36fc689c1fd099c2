package strategies

import "testing"

func TestBorrowedTablesAge(t *testing.T) {
	a := borrowTable(1)
	gen := a.Generation()
	tables.put(1, a)
	b := borrowTable(1)
	defer tables.put(1, b)
	if b != a || b.Generation() != (gen+1)%64 {
		t.Errorf("a reused table has generation %d after %d", b.Generation(), gen)
	}
}
