package tournament

import "math/bits"

// A maximum-weight matching in a general graph: Edmonds' blossom
// algorithm in its primal-dual form, O(n³), over exact integer weights of
// any width (wide). The Dutch system asks it for the matching of the
// greatest weight, and the weights encode the rules' criteria, so the
// matching it finds is the pairing the rules prefer.
//
// The algorithm follows Galil's survey ("Efficient algorithms for finding
// maximum matching in graphs", 1986): stages that each grow alternating
// trees from the free vertices, shrink odd cycles into blossoms, and
// change the dual variables until an augmenting path appears or no
// augmentation can raise the weight. With integer weights all duals stay
// integers (vertex duals start at the greatest weight, and the slack of
// an edge between two outer vertices is even). The code is organised as
// Joris van Rantwijk's mwmatching.py is (the implementation most ports
// follow, Lichess's arena pairing among them), written anew over wide
// numbers, and checked against brute force in matching_test.go.

// matcher holds a complete graph's edge weights (0: no edge) and finds a
// maximum-weight matching of it; weights may change between searches.
// The weights must leave the top 4 bits of their words clear: the
// search's sums of duals need them.
type matcher struct {
	n      int
	words  int
	weight wideArena // n×n, symmetric
}

func newMatcher(n, words int) *matcher {
	return &matcher{n: n, words: words, weight: newWideArena(n*n, words)}
}

// setWeight sets the weight of the edge i–j.
func (m *matcher) setWeight(i, j int, w wide) {
	m.weight.at(i*m.n + j).set(w)
	m.weight.at(j*m.n + i).set(w)
}

// weightOf returns the weight of the edge i–j (not a copy).
func (m *matcher) weightOf(i, j int) wide { return m.weight.at(i*m.n + j) }

// blossomState is the state of one search.
type blossomState struct {
	n, words int
	// edges
	ends     []int     // 2 per edge: ends[2k], ends[2k+1]
	twice    wideArena // 2·weight per edge
	neighbor [][]int   // per vertex, the endpoints p (2k or 2k+1) of the far ends
	// vertices and blossoms (0..n-1 vertices, n..2n-1 blossoms)
	mate        []int // vertex → remote endpoint, or -1
	label       []int // 0 free, 1 outer (S), 2 inner (T); bit 4 marks scanBlossom's path
	labelEnd    []int
	inBlossom   []int
	parent      []int
	childs      [][]int
	base        []int
	endps       [][]int
	bestEdge    []int
	bestEdges   [][]int
	unused      []int
	dual        wideArena
	bestSlack   wideArena // the slack of bestEdge, while the duals hold
	allowed     []bool
	queue       []int
	tmpA, tmpB  wide
	delta, tmpC wide
}

// solve returns a maximum-weight matching: for each vertex its partner,
// or itself when it is unmatched. A vertex without edges stays
// unmatched, and two vertices whose only edge is the one between them
// (the Dutch system's frozen pairs) are matched, in every maximum
// matching: the search runs over the other vertices only.
func (m *matcher) solve() []int {
	out := make([]int, m.n)
	degree := make([]int, m.n)
	sole := make([]int, m.n)
	for i := range m.n {
		out[i] = i
		for j := range m.n {
			if i != j && !m.weightOf(i, j).isZero() {
				degree[i]++
				sole[i] = j
			}
		}
	}
	var core []int
	local := fill(m.n, -1)
	for i := range m.n {
		switch {
		case degree[i] == 0:
		case degree[i] == 1 && degree[sole[i]] == 1:
			out[i] = sole[i]
		default:
			local[i] = len(core)
			core = append(core, i)
		}
	}
	n := len(core)
	s := &blossomState{n: n, words: m.words}
	W := s.words
	var maxw wide = make(wide, W)
	for a, i := range core {
		for _, j := range core[a+1:] {
			if !m.weightOf(i, j).isZero() {
				s.ends = append(s.ends, local[i], local[j])
			}
		}
	}
	nedge := len(s.ends) / 2
	s.twice = newWideArena(nedge, W)
	s.neighbor = make([][]int, n)
	for k := 0; k < nedge; k++ {
		i, j := s.ends[2*k], s.ends[2*k+1]
		t := s.twice.at(k)
		copy(t, m.weightOf(core[i], core[j]))
		if t.cmp(maxw) > 0 {
			maxw.set(t)
		}
		t.add(t)
		s.neighbor[i] = append(s.neighbor[i], 2*k+1)
		s.neighbor[j] = append(s.neighbor[j], 2*k)
	}
	s.mate = fill(n, -1)
	s.label = make([]int, 2*n)
	s.labelEnd = fill(2*n, -1)
	s.inBlossom = make([]int, n)
	for v := range s.inBlossom {
		s.inBlossom[v] = v
	}
	s.parent = fill(2*n, -1)
	s.childs = make([][]int, 2*n)
	s.base = fill(2*n, -1)
	for v := 0; v < n; v++ {
		s.base[v] = v
	}
	s.endps = make([][]int, 2*n)
	s.bestEdge = fill(2*n, -1)
	s.bestEdges = make([][]int, 2*n)
	for b := 2*n - 1; b >= n; b-- {
		s.unused = append(s.unused, b)
	}
	s.dual = newWideArena(2*n, W)
	s.bestSlack = newWideArena(2*n, W)
	for v := 0; v < n; v++ {
		s.dual.at(v).set(maxw)
	}
	s.allowed = make([]bool, nedge)
	s.tmpA, s.tmpB, s.delta, s.tmpC = make(wide, W), make(wide, W), make(wide, W), make(wide, W)
	s.run()
	for v, i := range core {
		if s.mate[v] >= 0 {
			out[i] = core[s.ends[s.mate[v]]]
		}
	}
	return out
}

func fill(n, v int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// slack sets into the slack of edge k: dual(i)+dual(j)-2w.
func (s *blossomState) slack(k int, into wide) {
	a, b, c := s.dual.at(s.ends[2*k]), s.dual.at(s.ends[2*k+1]), s.twice.at(k)
	var carry, borrow uint64
	for i := range into {
		var x uint64
		x, carry = bits.Add64(a[i], b[i], carry)
		into[i], borrow = bits.Sub64(x, c[i], borrow)
	}
}

// setBest makes k the best edge of b, with its slack cached (the cache
// holds until the duals change: refreshBest).
func (s *blossomState) setBest(b, k int, slack wide) {
	s.bestEdge[b] = k
	s.bestSlack.at(b).set(slack)
}

// refreshBest recomputes the cached slacks of the best edges after a
// change of the duals.
func (s *blossomState) refreshBest() {
	for b, k := range s.bestEdge {
		if k != -1 {
			s.slack(k, s.bestSlack.at(b))
		}
	}
}

// slackLess reports whether edge k's slack is below edge l's.
func (s *blossomState) slackLess(k, l int) bool {
	s.slack(k, s.tmpA)
	s.slack(l, s.tmpB)
	return s.tmpA.cmp(s.tmpB) < 0
}

// leaves calls f for each vertex inside blossom b.
func (s *blossomState) leaves(b int, f func(v int)) {
	if b < s.n {
		f(b)
		return
	}
	for _, c := range s.childs[b] {
		s.leaves(c, f)
	}
}

func (s *blossomState) assignLabel(w, t, p int) {
	b := s.inBlossom[w]
	s.label[w], s.label[b] = t, t
	s.labelEnd[w], s.labelEnd[b] = p, p
	s.bestEdge[w], s.bestEdge[b] = -1, -1
	if t == 1 {
		s.leaves(b, func(v int) { s.queue = append(s.queue, v) })
		return
	}
	base := s.base[b]
	s.assignLabel(s.ends[s.mate[base]], 1, s.mate[base]^1)
}

// scanBlossom traces back from v and w to find a new blossom's base, or
// -1 for an augmenting path.
func (s *blossomState) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := s.inBlossom[v]
		if s.label[b]&4 != 0 {
			base = s.base[b]
			break
		}
		path = append(path, b)
		s.label[b] = 5
		if s.labelEnd[b] == -1 {
			v = -1
		} else {
			v = s.ends[s.labelEnd[b]]
			b = s.inBlossom[v]
			v = s.ends[s.labelEnd[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		s.label[b] = 1
	}
	return base
}

func (s *blossomState) addBlossom(base, k int) {
	v, w := s.ends[2*k], s.ends[2*k+1]
	bb, bv, bw := s.inBlossom[base], s.inBlossom[v], s.inBlossom[w]
	b := s.unused[len(s.unused)-1]
	s.unused = s.unused[:len(s.unused)-1]
	s.base[b] = base
	s.parent[b] = -1
	s.parent[bb] = b
	var path, endps []int
	for bv != bb {
		s.parent[bv] = b
		path = append(path, bv)
		endps = append(endps, s.labelEnd[bv])
		v = s.ends[s.labelEnd[bv]]
		bv = s.inBlossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		s.parent[bw] = b
		path = append(path, bw)
		endps = append(endps, s.labelEnd[bw]^1)
		w = s.ends[s.labelEnd[bw]]
		bw = s.inBlossom[w]
	}
	s.childs[b], s.endps[b] = path, endps
	s.label[b] = 1
	s.labelEnd[b] = s.labelEnd[bb]
	s.dual.at(b).zero()
	s.leaves(b, func(v int) {
		if s.label[s.inBlossom[v]] == 2 {
			s.queue = append(s.queue, v)
		}
		s.inBlossom[v] = b
	})
	bestTo := fill(2*s.n, -1)
	consider := func(k int) {
		i, j := s.ends[2*k], s.ends[2*k+1]
		if s.inBlossom[j] == b {
			i, j = j, i
		}
		_ = i
		bj := s.inBlossom[j]
		if bj != b && s.label[bj] == 1 && (bestTo[bj] == -1 || s.slackLess(k, bestTo[bj])) {
			bestTo[bj] = k
		}
	}
	for _, c := range path {
		if s.bestEdges[c] == nil {
			s.leaves(c, func(v int) {
				for _, p := range s.neighbor[v] {
					consider(p / 2)
				}
			})
		} else {
			for _, k := range s.bestEdges[c] {
				consider(k)
			}
		}
		s.bestEdges[c] = nil
		s.bestEdge[c] = -1
	}
	best := []int{}
	for _, k := range bestTo {
		if k != -1 {
			best = append(best, k)
		}
	}
	s.bestEdges[b] = best
	s.bestEdge[b] = -1
	for _, k := range best {
		if s.bestEdge[b] == -1 || s.slackLess(k, s.bestEdge[b]) {
			s.bestEdge[b] = k
		}
	}
	if s.bestEdge[b] != -1 {
		s.slack(s.bestEdge[b], s.bestSlack.at(b))
	}
}

func reverse(a []int) {
	for i, j := 0, len(a)-1; i < j; i, j = i+1, j-1 {
		a[i], a[j] = a[j], a[i]
	}
}

// at indexes a cyclic list, Python-style (negative from the end).
func at(a []int, j int) int {
	if j < 0 {
		j += len(a)
	}
	return a[j]
}

func (s *blossomState) expandBlossom(b int, endStage bool) {
	for _, c := range s.childs[b] {
		s.parent[c] = -1
		switch {
		case c < s.n:
			s.inBlossom[c] = c
		case endStage && s.dual.at(c).isZero():
			s.expandBlossom(c, endStage)
		default:
			s.leaves(c, func(v int) { s.inBlossom[v] = c })
		}
	}
	if !endStage && s.label[b] == 2 {
		childs, endps := s.childs[b], s.endps[b]
		entry := s.inBlossom[s.ends[s.labelEnd[b]^1]]
		j := index(childs, entry)
		var step, trick int
		if j&1 != 0 {
			j -= len(childs)
			step, trick = 1, 0
		} else {
			step, trick = -1, 1
		}
		p := s.labelEnd[b]
		for j != 0 {
			s.label[s.ends[p^1]] = 0
			s.label[s.ends[at(endps, j-trick)^trick^1]] = 0
			s.assignLabel(s.ends[p^1], 2, p)
			s.allowed[at(endps, j-trick)/2] = true
			j += step
			p = at(endps, j-trick) ^ trick
			s.allowed[p/2] = true
			j += step
		}
		bv := at(childs, j)
		s.label[s.ends[p^1]], s.label[bv] = 2, 2
		s.labelEnd[s.ends[p^1]], s.labelEnd[bv] = p, p
		s.bestEdge[bv] = -1
		j += step
		for at(childs, j) != entry {
			bv := at(childs, j)
			if s.label[bv] == 1 {
				j += step
				continue
			}
			found := -1
			s.leaves(bv, func(v int) {
				if found == -1 && s.label[v] != 0 {
					found = v
				}
			})
			if found != -1 {
				s.label[found] = 0
				s.label[s.ends[s.mate[s.base[bv]]]] = 0
				s.assignLabel(found, 2, s.labelEnd[found])
			}
			j += step
		}
	}
	s.label[b], s.labelEnd[b] = -1, -1
	s.childs[b], s.endps[b] = nil, nil
	s.base[b] = -1
	s.bestEdges[b] = nil
	s.bestEdge[b] = -1
	s.unused = append(s.unused, b)
}

func index(a []int, x int) int {
	for i, y := range a {
		if y == x {
			return i
		}
	}
	panic("tournament: matching: child not in its blossom")
}

func (s *blossomState) augmentBlossom(b, v int) {
	t := v
	for s.parent[t] != b {
		t = s.parent[t]
	}
	if t >= s.n {
		s.augmentBlossom(t, v)
	}
	childs, endps := s.childs[b], s.endps[b]
	i := index(childs, t)
	j := i
	var step, trick int
	if i&1 != 0 {
		j -= len(childs)
		step, trick = 1, 0
	} else {
		step, trick = -1, 1
	}
	for j != 0 {
		j += step
		t = at(childs, j)
		p := at(endps, j-trick) ^ trick
		if t >= s.n {
			s.augmentBlossom(t, s.ends[p])
		}
		j += step
		t = at(childs, j)
		if t >= s.n {
			s.augmentBlossom(t, s.ends[p^1])
		}
		s.mate[s.ends[p]] = p ^ 1
		s.mate[s.ends[p^1]] = p
	}
	s.childs[b] = append(append([]int{}, childs[i:]...), childs[:i]...)
	s.endps[b] = append(append([]int{}, endps[i:]...), endps[:i]...)
	s.base[b] = s.base[s.childs[b][0]]
}

func (s *blossomState) augmentMatching(k int) {
	for _, sp := range [2][2]int{{s.ends[2*k], 2*k + 1}, {s.ends[2*k+1], 2 * k}} {
		v, p := sp[0], sp[1]
		for {
			bs := s.inBlossom[v]
			if bs >= s.n {
				s.augmentBlossom(bs, v)
			}
			s.mate[v] = p
			if s.labelEnd[bs] == -1 {
				break
			}
			t := s.ends[s.labelEnd[bs]]
			bt := s.inBlossom[t]
			v = s.ends[s.labelEnd[bt]]
			j := s.ends[s.labelEnd[bt]^1]
			if bt >= s.n {
				s.augmentBlossom(bt, j)
			}
			s.mate[j] = s.labelEnd[bt]
			p = s.labelEnd[bt] ^ 1
		}
	}
}

func (s *blossomState) run() {
	n := s.n
	for range n {
		clear(s.label)
		for i := range s.bestEdge {
			s.bestEdge[i] = -1
		}
		for b := n; b < 2*n; b++ {
			s.bestEdges[b] = nil
		}
		clear(s.allowed)
		s.queue = s.queue[:0]
		for v := 0; v < n; v++ {
			if s.mate[v] == -1 && s.label[s.inBlossom[v]] == 0 {
				s.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(s.queue) > 0 && !augmented {
				v := s.queue[len(s.queue)-1]
				s.queue = s.queue[:len(s.queue)-1]
				for _, p := range s.neighbor[v] {
					k := p / 2
					w := s.ends[p]
					if s.inBlossom[v] == s.inBlossom[w] {
						continue
					}
					kslack := s.tmpC
					if !s.allowed[k] {
						s.slack(k, kslack)
						if kslack.isZero() {
							s.allowed[k] = true
						}
					}
					switch {
					case s.allowed[k]:
						switch {
						case s.label[s.inBlossom[w]] == 0:
							s.assignLabel(w, 2, p^1)
						case s.label[s.inBlossom[w]] == 1:
							if base := s.scanBlossom(v, w); base >= 0 {
								s.addBlossom(base, k)
							} else {
								s.augmentMatching(k)
								augmented = true
							}
						case s.label[w] == 0:
							s.label[w] = 2
							s.labelEnd[w] = p ^ 1
						}
					case s.label[s.inBlossom[w]] == 1:
						b := s.inBlossom[v]
						if s.bestEdge[b] == -1 || kslack.cmp(s.bestSlack.at(b)) < 0 {
							s.setBest(b, k, kslack)
						}
					case s.label[w] == 0:
						if s.bestEdge[w] == -1 || kslack.cmp(s.bestSlack.at(w)) < 0 {
							s.setBest(w, k, kslack)
						}
					}
					if augmented {
						break
					}
				}
			}
			if augmented {
				break
			}
			// The dual change: the least of the four kinds of delta.
			deltaType, deltaEdge, deltaBlossom := 1, -1, -1
			delta := s.delta
			delta.set(s.dual.at(0))
			for v := 1; v < n; v++ {
				if s.dual.at(v).cmp(delta) < 0 {
					delta.set(s.dual.at(v))
				}
			}
			for v := 0; v < n; v++ {
				if s.label[s.inBlossom[v]] == 0 && s.bestEdge[v] != -1 {
					if d := s.bestSlack.at(v); d.cmp(delta) < 0 {
						delta.set(d)
						deltaType, deltaEdge = 2, s.bestEdge[v]
					}
				}
			}
			for b := 0; b < 2*n; b++ {
				if s.parent[b] == -1 && s.label[b] == 1 && s.bestEdge[b] != -1 {
					s.tmpA.set(s.bestSlack.at(b))
					s.tmpA.shr1()
					if s.tmpA.cmp(delta) < 0 {
						delta.set(s.tmpA)
						deltaType, deltaEdge = 3, s.bestEdge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if s.base[b] >= 0 && s.parent[b] == -1 && s.label[b] == 2 && s.dual.at(b).cmp(delta) < 0 {
					delta.set(s.dual.at(b))
					deltaType, deltaBlossom = 4, b
				}
			}
			for v := 0; v < n; v++ {
				switch s.label[s.inBlossom[v]] {
				case 1:
					s.dual.at(v).sub(delta)
				case 2:
					s.dual.at(v).add(delta)
				}
			}
			for b := n; b < 2*n; b++ {
				if s.base[b] >= 0 && s.parent[b] == -1 {
					switch s.label[b] {
					case 1:
						s.dual.at(b).add(delta)
					case 2:
						s.dual.at(b).sub(delta)
					}
				}
			}
			s.refreshBest()
			switch deltaType {
			case 1:
				// Optimum reached.
			case 2:
				s.allowed[deltaEdge] = true
				i, j := s.ends[2*deltaEdge], s.ends[2*deltaEdge+1]
				if s.label[s.inBlossom[i]] == 0 {
					i, j = j, i
				}
				_ = j
				s.queue = append(s.queue, i)
			case 3:
				s.allowed[deltaEdge] = true
				s.queue = append(s.queue, s.ends[2*deltaEdge])
			case 4:
				s.expandBlossom(deltaBlossom, false)
			}
			if deltaType == 1 {
				break
			}
		}
		if !augmented {
			break
		}
		for b := n; b < 2*n; b++ {
			if s.parent[b] == -1 && s.base[b] >= 0 && s.label[b] == 1 && s.dual.at(b).isZero() {
				s.expandBlossom(b, true)
			}
		}
	}
}
