package gomsearch

// Threat-space search: wins that leave the defender no choice but to
// answer each threat. VCF (victory by continuous fours) plays only fours,
// each answered by the one point that stops the five; VCT (victory by
// continuous threats) also plays open threes, each answered by every
// defence: the points of the attacker's open four and fours (which block
// or break the three) and the defender's own fours. Both are proofs: a
// win they find is a win against any defence (the defender's counter-
// fours are played out), though they miss the wins that need a quiet
// move.

// threatCache remembers threat searches of this search: a win, or no
// win within the attacker moves left, by position and kind.
type threatCache struct {
	key  []uint64 // hash ^ kind; 0 empty
	data []uint64 // gen<<32 | move<<16 | plies<<8 | left
}

const (
	kindVCF = 0x5bd1e9955bd1e995
	kindVCT = 0x2545f4914f6cdd1d
	// cacheBits sizes the threat cache: 64 Ki entries, 1 MiB.
	cacheBits = 16
)

func newThreatCache() threatCache {
	return threatCache{key: make([]uint64, 1<<cacheBits), data: make([]uint64, 1<<cacheBits)}
}

// probe returns a cached win (its plies to five and first move) or a
// cached failure with at least left attacker moves (known true).
func (t *threatCache) probe(hash, kind uint64, gen uint8, left int) (plies, move int, known bool) {
	k := hash ^ kind
	i := k & (1<<cacheBits - 1)
	d := t.data[i]
	if t.key[i] != k || uint8(d>>32) != gen {
		return 0, 0, false
	}
	if plies := int(d >> 8 & 255); plies > 0 {
		return plies, int(d >> 16 & 0xffff), true
	}
	return 0, 0, int(d&255) >= left
}

// store records a win in plies with its first move (plies 0: no win
// with left attacker moves).
func (t *threatCache) store(hash, kind uint64, gen uint8, left, plies, move int) {
	k := hash ^ kind
	i := k & (1<<cacheBits - 1)
	t.key[i] = k
	t.data[i] = uint64(gen)<<32 | uint64(max(move, 0))<<16 | uint64(min(plies, 255))<<8 | uint64(min(left, 255))
}

// onlyPoint returns the first empty point of class cl or above for
// colour c (the point that stops a four), -1 if there are none.
func (e *Engine) onlyPoint(ply, c int, cl uint8) int {
	if l := e.only(ply, c, cl); len(l) > 0 {
		return l[0]
	}
	return -1
}

// only returns, in e.list[ply], the first empty point of class cl or
// above for colour c, or no point if there is none.
func (e *Engine) only(ply, c int, cl uint8) []int {
	l := e.b.find(e.list[ply][:0], c, cl)
	e.list[ply] = l
	return l[:min(len(l), 1)]
}

// vcf looks for a win of the side to move by continuous fours with at
// most left fours of its own. It returns the plies to the five (0: none
// found) and records its first move in e.threat[ply].
func (e *Engine) vcf(ply, left int) int {
	b := e.b
	me, you := b.side, b.side^1
	if b.count[me][clFive] > 0 {
		e.threat[ply] = e.onlyPoint(ply, me, clFive)
		return 1
	}
	var list []int
	switch {
	case b.count[you][clFive] > 1:
		return 0
	case b.count[you][clFive] == 1:
		list = e.only(ply, you, clFive)
		if len(list) == 0 || b.class(me, list[0]) < clFour {
			return 0 // the block is no four: the fours end here
		}
	case b.count[me][clFlex4] > 0:
		e.threat[ply] = e.onlyPoint(ply, me, clFlex4)
		return 3
	case b.count[me][clFour]+b.count[me][clFourThree] == 0 || left <= 0 || ply >= maxPly-4:
		return 0
	}
	if plies, move, known := e.cache.probe(b.hash, kindVCF, e.gen, left); known {
		e.threat[ply] = move
		return plies
	}
	if list == nil {
		list = b.find(e.list[ply][:0], me, clFour)
		e.list[ply] = list
		e.sortThreats(ply, list, me)
	}
	for _, p := range list {
		b.play(p)
		e.tick()
		f := b.fivePointAfter(p, me)
		if f < 0 { // not a four after all: no line to follow
			b.undo()
			continue
		}
		b.play(f)
		e.tick()
		r := e.vcf(ply+2, left-1)
		b.undo()
		b.undo()
		if e.aborted() {
			return 0
		}
		if r > 0 {
			e.cache.store(b.hash, kindVCF, e.gen, left, r+2, p)
			e.threat[ply] = p
			return r + 2
		}
	}
	e.cache.store(b.hash, kindVCF, e.gen, left, 0, 0)
	return 0
}

// vct looks for a win of the side to move by continuous fours and open
// threes with at most left threats of its own, trying VCF first. It
// returns the plies to the five (0: none found) and records its first
// move in e.threat[ply].
func (e *Engine) vct(ply, left int) int {
	b := e.b
	me, you := b.side, b.side^1
	switch {
	case b.count[me][clFive] > 0:
		e.threat[ply] = e.onlyPoint(ply, me, clFive)
		return 1
	case b.count[you][clFive] > 1:
		return 0
	case b.count[you][clFive] == 0 && b.count[me][clFlex4] > 0:
		e.threat[ply] = e.onlyPoint(ply, me, clFlex4)
		return 3
	case left <= 0 || ply >= maxPly-8:
		return 0
	}
	if r := e.vcf(ply, min(left+2, vcfInVCT)); r > 0 || e.aborted() {
		return r
	}
	if plies, move, known := e.cache.probe(b.hash, kindVCT, e.gen, left); known {
		e.threat[ply] = move
		return plies
	}
	var list []int
	if b.count[you][clFive] == 1 {
		// Forced to block: a win only if a threat stands after it.
		list = e.only(ply, you, clFive)
	} else {
		list = b.find(e.list[ply][:0], me, clThree)
		e.list[ply] = list
		e.sortThreats(ply, list, me)
	}
	for _, p := range list {
		b.play(p)
		e.tick()
		r := e.defend(ply+1, left-1)
		b.undo()
		if e.aborted() {
			return 0
		}
		if r > 0 {
			e.cache.store(b.hash, kindVCT, e.gen, left, r+1, p)
			e.threat[ply] = p
			return r + 1
		}
	}
	e.cache.store(b.hash, kindVCT, e.gen, left, 0, 0)
	return 0
}

// defend is the defender's turn in VCT, after the attacker's move: it
// returns the plies to the attacker's five if every defence fails
// (0 if one holds or the attacker threatens nothing).
func (e *Engine) defend(ply, left int) int {
	b := e.b
	def, att := b.side, b.side^1
	var list []int
	switch {
	case b.count[def][clFive] > 0:
		return 0 // the defender's five comes first
	case b.count[att][clFive] > 1:
		return 2
	case b.count[att][clFive] == 1:
		list = e.only(ply, att, clFive)
	case b.count[att][clFlex4] > 0:
		list = e.defences(ply, def)
	default:
		return 0 // no threat: the defender plays as it likes
	}
	worst := 0
	for _, p := range list {
		b.play(p)
		e.tick()
		r := e.vct(ply+1, left)
		b.undo()
		if r == 0 || e.aborted() {
			return 0
		}
		worst = max(worst, r+1)
	}
	return worst
}

// defences lists the moves of the side to move, def, against an open
// three of its opponent: the points where the opponent would make a four
// or an open four, and def's own fours.
func (e *Engine) defences(ply, def int) []int {
	b := e.b
	att := def ^ 1
	l := e.list[ply][:0]
	if b.hi[0] >= b.lo[0] {
		r0, r1 := max(b.lo[1]-2, 0), min(b.hi[1]+2, b.size-1)
		c0, c1 := max(b.lo[0]-2, 0), min(b.hi[0]+2, b.size-1)
		for row := r0; row <= r1; row++ {
			for p, end := point(c0, row), point(c1, row); p <= end; p++ {
				if b.cell[p] == 0 && (b.class(att, p) >= clFour || b.class(def, p) >= clFour) {
					l = append(l, p)
				}
			}
		}
	}
	e.list[ply] = l
	e.sortMoves(ply, l, -1)
	return l
}

// sortThreats orders the attacker's threats: the strongest class first,
// then by value.
func (e *Engine) sortThreats(ply int, list []int, me int) {
	b := e.b
	ord := e.ord[ply][:0]
	for _, p := range list {
		ord = append(ord, int32(b.class(me, p))<<24+b.value(me, p)+b.value(me^1, p)/2)
	}
	sortBy(list, ord)
}
