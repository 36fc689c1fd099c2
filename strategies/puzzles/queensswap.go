package puzzles

// swapTries is how many swaps in a row may fail to lower the attacking
// pairs before the swap repair makes one anyway, to leave a local minimum.
const swapTries = 256

// swapRepair is a swap-based repair after Sosic and Gu's QS4 (1991): the
// queens always stand on distinct rows (a permutation), so only diagonals
// can attack. It starts greedily from a random permutation: column by
// column, it takes the first of the next 64 rows not yet used whose
// diagonals are free (else the column's own), which leaves only a few
// queens attacked near the last columns; then, while some queen is
// attacked, it takes a random attacked queen and swaps its row with a
// random column's queen's when that lowers the attacking pairs. After
// swapTries swaps in a row that do not, it makes one anyway.
//
// The rows not yet used are tried in the permutation's order, not drawn
// anew for each try, so that they are read one after the other: at 10^7
// queens the start is then no longer a cache miss a try.
func swapRepair(n int, l Limits, b *budget) ([]int, int, error) {
	if b.hold(uint64(n), swapRepairBytes) {
		return nil, 0, b.err
	}
	rnd := newWyrand(l)
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	// d1 counts the queens on each diagonal r+c, d2 on each r-c+n.
	d1, d2 := make([]int32, 2*n), make([]int32, 2*n)
	if b.charge(uint64(n)) {
		return nil, 0, b.err
	}
	for i := n - 1; i > 0; i-- {
		j := rnd.intN(i + 1)
		rows[i], rows[j] = rows[j], rows[i]
	}
	// attacked lists columns whose queen may be attacked; it is checked
	// when drawn. Of two queens that attack each other the later placed
	// had no free row, so the list starts with the columns placed so.
	var attacked []int32
	for c := range n {
		if b.spend() {
			return nil, 0, b.err
		}
		j, last := c, min(c+64, n)
		for j < last && d1[int(rows[j])+c]|d2[int(rows[j])-c+n] != 0 {
			j++
		}
		if b.charge(uint64(j - c)) {
			return nil, 0, b.err
		}
		if j == last {
			j = c
			if b.hold(1, attackedEntryBytes) {
				return nil, 0, b.err
			}
			attacked = append(attacked, int32(c))
		}
		rows[c], rows[j] = rows[j], rows[c]
		d1[int(rows[c])+c]++
		d2[int(rows[c])-c+n]++
	}
	attackedAt := func(c int) bool {
		r := int(rows[c])
		return d1[r+c] > 1 || d2[r-c+n] > 1
	}
	// attacks returns the pairs the queen of column c is in.
	attacks := func(c int) int32 {
		r := int(rows[c])
		return d1[r+c] + d2[r-c+n] - 2
	}
	move := func(c int, v int32) {
		r := int(rows[c])
		d1[r+c] += v
		d2[r-c+n] += v
	}
	failed := 0
	for len(attacked) > 0 {
		i := rnd.intN(len(attacked))
		c := int(attacked[i])
		if !attackedAt(c) {
			if b.charge(1) {
				return nil, 0, b.err
			}
			attacked[i] = attacked[len(attacked)-1]
			attacked = attacked[:len(attacked)-1]
			b.release(1, attackedEntryBytes)
			continue
		}
		if b.spend() {
			return nil, 0, b.err
		}
		j := rnd.intN(n)
		if j == c {
			continue
		}
		// Lift both queens, counting the pairs they leave, then put them
		// back on each other's row, counting the pairs they make.
		before := attacks(c)
		move(c, -1)
		before += attacks(j)
		move(j, -1)
		rows[c], rows[j] = rows[j], rows[c]
		move(c, 1)
		after := attacks(c)
		move(j, 1)
		after += attacks(j)
		if after < before || failed == swapTries {
			failed = 0
			if attackedAt(j) {
				if b.hold(1, attackedEntryBytes) {
					return nil, 0, b.err
				}
				attacked = append(attacked, int32(j))
			}
			continue
		}
		failed++
		move(c, -1)
		move(j, -1)
		rows[c], rows[j] = rows[j], rows[c]
		move(c, 1)
		move(j, 1)
	}
	return widen(rows), 0, nil
}
