package tournament

import "sort"

// pair computes the round's matching: for each paired player's index
// their opponent's, or -1 for the bye.
func (d *dutch) pair() (map[int]int, error) {
	forbidden := make([]map[int]bool, len(d.players))
	for i := range forbidden {
		forbidden[i] = map[int]bool{}
	}
	var sorted []*dPlayer
	for _, p := range d.players {
		if !p.valid {
			continue
		}
		if len(p.matches) <= d.played {
			sorted = append(sorted, p)
		}
		for _, m := range p.matches {
			if m.played {
				forbidden[p.id][m.opponent] = true
			}
		}
	}
	sort.SliceStable(sorted, func(i, j int) bool { return d.before(sorted[j], sorted[i]) })
	if len(sorted) == 0 {
		return map[int]int{}, nil
	}
	n := len(sorted)
	l := d.layout(sorted)
	m := newMatcher(n, l.words)
	top := sorted[0].score

	// Completability: can all be paired but one eligible for the bye?
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			p, o := sorted[i], sorted[j]
			if n&1 != 0 {
				w := make(wide, l.words)
				if d.compatible(p, o, forbidden) {
					w.addUint(1 + b2u(!eligibleForBye(p)) + b2u(!eligibleForBye(o)))
					w.shl(l.groupBits)
					w.addUint(uint64(l.shift[p.score] + l.shift[o.score]))
					w.shl(l.sizeBits)
					w.addUint(b2u(p.score >= top))
				}
				m.setWeight(i, j, w)
			} else {
				m.setWeight(i, j, d.edgeWeight(l, o, p, false, false, 0, false, forbidden))
			}
		}
	}
	byeScore := 0
	singleDownfloaterBye := false
	{
		mate := m.solve()
		unmatched := false
		for v, u := range mate {
			if u == v {
				if unmatched || !eligibleForBye(sorted[v]) {
					return nil, ErrNoPairing
				}
				unmatched = true
			}
		}
		if n&1 != 0 {
			for v, u := range mate {
				if u == v {
					byeScore = sorted[v].score
					break
				}
			}
			if byeScore >= top {
				singleDownfloaterBye = true
				for v, p := range sorted {
					if p.score < top {
						break
					}
					if sorted[mate[v]].score < top {
						singleDownfloaterBye = false
						break
					}
				}
			}
			var counts []int
			for _, p := range sorted {
				if p.score == byeScore {
					counts = append(counts, p.playedGames)
				}
			}
			sort.Sort(sort.Reverse(sort.IntSlice(counts)))
			for rank, c := range counts {
				l.ranks[c] = rank
			}
			for i := 0; i < n; i++ {
				for j := 0; j < i; j++ {
					m.setWeight(i, j, d.edgeWeight(l, sorted[j], sorted[i], false, false, byeScore, singleDownfloaterBye, forbidden))
				}
			}
		}
	}

	result := map[int]int{}
	// byIndex: the players of the bracket being paired and the next, as
	// vertices (indices into sorted).
	var byIndex []int
	next := 0 // next player of sorted to take into a bracket
	for next < n && sorted[next].score >= top {
		byIndex = append(byIndex, next)
		next++
	}
	matched := make([]bool, n)
	groupBegin := 0       // moved-down players in the bracket
	groupBeginVertex := 0 // first vertex of the bracket's own score group
	for len(byIndex) > 1 || next < n {
		nextGroupBegin := len(byIndex)
		nextGroupBeginVertex := groupBeginVertex + (nextGroupBegin - groupBegin)
		groupIter := next
		for next < n && sorted[next].score >= sorted[groupIter].score {
			byIndex = append(byIndex, next)
			next++
		}
		// base[larger][smaller]: the weights within this bracket and the
		// next.
		base := make([][]wide, len(byIndex))
		for li := groupBegin; li < len(byIndex); li++ {
			base[li] = make([]wide, li)
			for si := 0; si < li; si++ {
				base[li][si] = d.edgeWeight(l, sorted[byIndex[si]], sorted[byIndex[li]], li < nextGroupBegin, li >= nextGroupBegin, byeScore, singleDownfloaterBye, forbidden)
			}
		}
		for li := groupBegin; li < len(byIndex); li++ {
			for si := 0; si < li; si++ {
				m.setWeight(byIndex[li], byIndex[si], base[li][si])
			}
		}
		// reweighted: a base weight adjusted for the bracket's remainder:
		// fewest exchanges, then the smallest differences of the
		// exchanged players' numbers.
		reweighted := func(si, li, sRemainder, remainderPairs int) wide {
			r := append(wide{}, base[li][si]...)
			if !r.isZero() {
				add := make(wide, l.words)
				add.addUint(b2u(sRemainder < remainderPairs))
				add.shl(2 * l.sizeBits)
				add.shl(1)
				r.add(add)
				r.subUint(uint64(2 * sRemainder))
			}
			return r
		}
		stable := m.solve()

		// Choose the moved-down players to pair in this bracket.
		inBracket := func(v int) bool { return stable[v] >= groupBeginVertex && stable[v] < nextGroupBeginVertex }
		var mdScore, remaining, remainingMatched int
		for pi := 0; pi < groupBegin; pi++ {
			if pi == 0 || sorted[byIndex[pi]].score < mdScore {
				mdScore = sorted[byIndex[pi]].score
				remaining, remainingMatched = 0, 0
				for k := pi; k < len(byIndex) && sorted[byIndex[k]].score >= mdScore; k++ {
					remaining++
					if inBracket(byIndex[k]) {
						remainingMatched++
					}
				}
			}
			if remainingMatched == 0 {
				continue
			}
			pv := byIndex[pi]
			if remaining <= remainingMatched {
				matched[pv] = true
				continue
			}
			remaining--
			if !inBracket(pv) {
				for oi := groupBegin; oi < nextGroupBegin; oi++ {
					ew := base[oi][pi]
					if !ew.isZero() {
						e := append(wide{}, ew...)
						e.addUint(1)
						m.setWeight(pv, byIndex[oi], e)
					}
				}
				stable = m.solve()
			}
			if inBracket(pv) {
				matched[pv] = true
				remainingMatched--
				for oi := groupBegin; oi < nextGroupBegin; oi++ {
					ew := base[oi][pi]
					if !ew.isZero() {
						e := append(wide{}, ew...)
						e.addUint(uint64(nextGroupBegin-groupBegin) + 1)
						m.setWeight(pv, byIndex[oi], e)
					}
				}
			}
		}

		// Choose the moved-down players' opponents.
		for pi := 0; pi < groupBegin; pi++ {
			pv := byIndex[pi]
			if !matched[pv] {
				continue
			}
			add := uint64(len(byIndex))
			for oi := nextGroupBegin - 1; oi >= groupBegin; oi-- {
				ov := byIndex[oi]
				if matched[ov] {
					continue
				}
				if ew := base[oi][pi]; !ew.isZero() {
					e := append(wide{}, ew...)
					e.addUint(add)
					m.setWeight(pv, ov, e)
					add++
				}
			}
			stable = m.solve()
			mv := stable[pv]
			matched[mv] = true
			d.freeze(m, l, pv, mv)
		}

		// The remainder: the bracket's residents paired within it.
		var remainder []int // indices into byIndex
		remainderPairs := 0
		for pi := groupBegin; pi < nextGroupBegin; pi++ {
			pv := byIndex[pi]
			if stable[pv] < groupBeginVertex {
				continue
			}
			remainder = append(remainder, pi)
			if stable[pv] < pv {
				remainderPairs++
			}
		}
		for a, oi := range remainder {
			ov := byIndex[oi]
			for b, pi := range remainder[:a] {
				if oi <= pi {
					break
				}
				m.setWeight(byIndex[pi], ov, reweighted(pi, oi, b, remainderPairs))
			}
		}
		stable = m.solve()

		exchanged := func(v int) bool { return stable[v] <= v || stable[v] >= nextGroupBeginVertex }
		exchanges := 0
		if remainderPairs < len(remainder) {
			firstGroupEnd := remainder[remainderPairs]
			for _, pi := range remainder {
				if pi >= firstGroupEnd {
					break
				}
				if exchanged(byIndex[pi]) {
					exchanges++
				}
			}
		}

		// Exchange the lowest players of S1 that can be.
		left := exchanges
		for k := remainderPairs - 1; k >= 0 && left > 0; k-- {
			pi := remainder[k]
			pv := byIndex[pi]
			if stable[pv] > pv && stable[pv] < nextGroupBeginVertex {
				for _, oi := range remainder[k+1:] {
					e := reweighted(pi, oi, k, remainderPairs)
					if !e.isZero() {
						e.subUint(1)
						m.setWeight(pv, byIndex[oi], e)
					}
				}
				stable = m.solve()
			}
			ex := exchanged(pv)
			if ex {
				left--
			}
			for _, oi := range remainder[k+1:] {
				if ex {
					base[oi][pi].zero()
				}
				m.setWeight(pv, byIndex[oi], reweighted(pi, oi, k, remainderPairs))
			}
		}

		// Exchange the highest players of S2 that can be.
		left = exchanges
		for k := remainderPairs; k < len(remainder) && left > 1; k++ {
			pi := remainder[k]
			pv := byIndex[pi]
			already := stable[pv] > pv && stable[pv] < nextGroupBeginVertex
			if !already {
				for _, oi := range remainder[k+1:] {
					e := reweighted(pi, oi, k, remainderPairs)
					if !e.isZero() {
						e.addUint(1)
						m.setWeight(pv, byIndex[oi], e)
					}
				}
				stable = m.solve()
			}
			if stable[pv] > pv && stable[pv] < nextGroupBeginVertex {
				left--
				for _, oi := range remainder[:k] {
					base[pi][oi].zero()
					m.setWeight(pv, byIndex[oi], base[pi][oi])
				}
				for oi := nextGroupBegin; oi < len(byIndex); oi++ {
					base[oi][pi].zero()
					m.setWeight(pv, byIndex[oi], base[oi][pi])
				}
			}
			if !already {
				for _, oi := range remainder[k+1:] {
					m.setWeight(pv, byIndex[oi], reweighted(pi, oi, k, remainderPairs))
				}
			}
		}

		// Freeze who is exchanged, and drop the exchange weights.
		for a, pi := range remainder {
			pv := byIndex[pi]
			for _, oi := range remainder[a+1:] {
				ov := byIndex[oi]
				if stable[pv] <= pv || stable[pv] >= nextGroupBeginVertex || (stable[ov] > ov && stable[ov] < nextGroupBeginVertex) {
					base[oi][pi].zero()
				}
				m.setWeight(pv, ov, base[oi][pi])
			}
		}

		// Pair each player of S1, in order, with the best opponent left.
		for _, pi := range remainder {
			pv := byIndex[pi]
			if !(stable[pv] > pv && stable[pv] < nextGroupBeginVertex) {
				continue
			}
			add := uint64(0)
			for k := len(remainder) - 1; k >= 0; k-- {
				oi := remainder[k]
				ov := byIndex[oi]
				if oi <= pi || matched[ov] {
					continue
				}
				if ew := base[oi][pi]; !ew.isZero() {
					e := append(wide{}, ew...)
					e.addUint(add)
					m.setWeight(pv, ov, e)
				}
				add++
			}
			stable = m.solve()
			mv := stable[pv]
			matched[pv], matched[mv] = true, true
			d.freeze(m, l, pv, mv)
		}

		// The next bracket: this one's unpaired players move down.
		var nextByIndex []int
		groupBegin = 0
		singleDownfloaterBye = n&1 != 0 && groupIter < n && byeScore >= sorted[groupIter].score
		for pi, pv := range byIndex {
			if pi < nextGroupBegin && matched[pv] {
				result[sorted[pv].id] = sorted[stable[pv]].id
				result[sorted[stable[pv]].id] = sorted[pv].id
				continue
			}
			nextByIndex = append(nextByIndex, pv)
			if pi < nextGroupBegin {
				groupBegin++
			}
			if singleDownfloaterBye && sorted[stable[pv]].score < sorted[groupIter].score {
				singleDownfloaterBye = false
			}
		}
		byIndex = nextByIndex
		groupBeginVertex = nextGroupBeginVertex
	}
	for _, p := range sorted {
		if _, ok := result[p.id]; !ok {
			result[p.id] = -1
		}
	}
	return result, nil
}

// freeze fixes the pair a–b: their edge gets the greatest weight, and
// every other edge at either of them none.
func (d *dutch) freeze(m *matcher, l *weightLayout, a, b int) {
	zero := make(wide, l.words)
	for v := 0; v < m.n; v++ {
		if v != a {
			if v == b {
				m.setWeight(a, v, l.max)
			} else {
				m.setWeight(a, v, zero)
			}
		}
		if v != b {
			if v == a {
				m.setWeight(b, v, l.max)
			} else {
				m.setWeight(b, v, zero)
			}
		}
	}
}
