package tournament

import (
	"fmt"
	"math/bits"
	"sort"
)

// The FIDE Dutch system (C.04.3, the rules of 2025) as a sequence of
// maximum-weight matchings, the method of bbpPairings, the engine FIDE
// endorses: every possible pair of the round is an edge whose weight
// puts each of the rules' criteria in a field of bits, the more
// important the higher. One matching over all the players first fixes
// who can get the bye; then bracket by bracket, from the top score down,
// matchings with adjusted weights decide which moved-down players are
// paired, which players are exchanged between the bracket's halves and
// who meets whom, and each decision is frozen before the next. The
// weights are chosen so that every decision is the one the rules'
// ordering of candidates gives, whichever maximum matching the
// algorithm finds.
//
// The method — the fields of the weights and the sequence of matchings
// and decisions — is bbpPairings' (src/swisssystems/dutch.cpp,
// Copyright 2016-2026 Jeremy Bierema, Apache License 2.0), studied at
// commit 16a000f and implemented here in Go on a matching algorithm of
// our own; matching its steps one for one is what makes the pairings
// identical to its, which TestDutchMatchesBBPPairings checks.

// dutchFloat is the direction a player floated in a past round.
type dutchFloat uint8

const (
	floatDown dutchFloat = iota
	floatUp
	floatNone
)

// dMatch is one round of a player as the pairing sees it.
type dMatch struct {
	opponent     int // player index; the player's own for none
	color        Color
	result       Result
	played       bool
	participated bool // placed by a round's pairing
}

// dPlayer is a player as the pairing sees it.
type dPlayer struct {
	id, rank    int
	matches     []dMatch
	score       int // half-points over the played rounds
	imbalance   int
	pref        Color
	repeated    Color
	strong      bool
	playedGames int
	valid       bool
}

func (p *dPlayer) absoluteImbalance() bool  { return p.imbalance > 1 }
func (p *dPlayer) absolutePreference() bool { return p.absoluteImbalance() || p.repeated != NoColor }

// dutch is a round to pair.
type dutch struct {
	players  []*dPlayer
	played   int // rounds paired before this one
	expected int // rounds planned
	initial  Color
}

// points is what a round gave a player, in half-points.
func (m dMatch) points() int { return m.result.HalfPoints() }

// scoreBack is the player's score roundsBack rounds ago.
func (d *dutch) scoreBack(p *dPlayer, roundsBack int) int {
	s := p.score
	for r := d.played - 1; r >= d.played-roundsBack; r-- {
		s -= p.matches[r].points()
	}
	return s
}

func (d *dutch) float(p *dPlayer, roundsBack int) dutchFloat {
	m := p.matches[d.played-roundsBack]
	if !m.played {
		if m.points() > 0 {
			return floatDown
		}
		return floatNone
	}
	ps, os := d.scoreBack(p, roundsBack), d.scoreBack(d.players[m.opponent], roundsBack)
	switch {
	case ps > os:
		return floatDown
	case ps < os:
		return floatUp
	}
	return floatNone
}

// eligibleForBye: no earlier round gave the player a win's points
// without a game (a forfeit win, a full-point bye) or the
// pairing-allocated bye (C.04.3 C.2).
func eligibleForBye(p *dPlayer) bool {
	for _, m := range p.matches {
		if !m.played && (m.points() >= 2 || (m.participated && m.opponent == p.id)) {
			return false
		}
	}
	return true
}

func preferencesCompatible(a, b Color) bool { return a != b || a == NoColor || b == NoColor }

// compatible reports whether two players may meet under the absolute
// criteria: they have not played each other, and they do not both have
// the same absolute colour preference, unless one of them scores over
// half the maximum before the last round (C.04.3 C.3).
func (d *dutch) compatible(a, b *dPlayer, forbidden []map[int]bool) bool {
	if forbidden[a.id][b.id] {
		return false
	}
	if !a.absolutePreference() || !b.absolutePreference() || a.pref != b.pref {
		return true
	}
	threshold := d.played // half of 2 half-points a round
	return d.played >= d.expected-1 && (a.score > threshold || b.score > threshold)
}

// weightLayout sizes the fields of an edge weight for one round.
type weightLayout struct {
	sizeBits  uint         // bits for a count of one score group's players
	groupBits uint         // bits for one bit per player's score group
	shift     map[int]uint // score → its group's offset within groupBits
	total     uint         // bits below the top field
	words     int          // words of a weight
	max       wide         // all ones over the weight's bits: a frozen pair
	ranks     map[int]int  // played games → rank, among the bye's score
}

func bitsFor(x int) uint { return uint(bits.Len(uint(x))) }

func (d *dutch) layout(sorted []*dPlayer) *weightLayout {
	l := &weightLayout{shift: map[int]uint{}, ranks: map[int]int{}}
	maxGroup, repeated := 0, 0
	for i := len(sorted) - 1; i >= 0; i-- {
		repeated++
		score := sorted[i].score
		if i == 0 || score < sorted[i-1].score {
			l.shift[score] = l.groupBits
			maxGroup = max(maxGroup, repeated)
			l.groupBits += bitsFor(repeated)
			repeated = 0
		}
	}
	l.sizeBits = bitsFor(maxGroup)
	s, g := l.sizeBits, l.groupBits
	total := s + g + s + g + 2*s + 4*s
	if d.played > 0 {
		total += 2*s + 2*g
	}
	if d.played > 1 {
		total += 2*s + 2*g
	}
	total += 3*s + 1
	l.total = total
	l.words = int((total + 2 + 4 + 63) / 64) // the matcher's 4 bits of headroom
	l.max = make(wide, l.words)
	l.max.addBit(total + 2)
	l.max.subUint(1)
	return l
}

// field shifts w left by k bits and adds x.
func field(w wide, k uint, x uint64) {
	w.shl(k)
	w.addUint(x)
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// edgeWeight is the weight of the pair higher–lower (higher ahead in the
// order), lower in the bracket being paired (inCurrent) or in the next
// (inNext), or neither (only the absolute criteria and the bye count).
func (d *dutch) edgeWeight(l *weightLayout, hi, lo *dPlayer, inCurrent, inNext bool, byeScore int, singleDownfloaterBye bool, forbidden []map[int]bool) wide {
	w := make(wide, l.words)
	if !d.compatible(hi, lo, forbidden) {
		return w
	}
	s, g := l.sizeBits, l.groupBits
	byeCandidate := func(p *dPlayer) bool { return eligibleForBye(p) && p.score <= byeScore }
	// C.04.3 C.4/C.5: complete the round; the bye to an eligible player.
	w.addUint(1 + b2u(!byeCandidate(hi)) + b2u(!byeCandidate(lo)))
	// C.6: as many pairs in the bracket as possible, then the highest
	// scores (C.7).
	field(w, s, b2u(inCurrent))
	w.shl(g)
	if inCurrent {
		w.addBit(l.shift[hi.score])
	}
	// C.8: the next bracket's pairs and scores too.
	field(w, s, b2u(inNext))
	w.shl(g)
	if inNext {
		w.addBit(l.shift[hi.score])
	}
	// C.9: the bye's receiver with the fewest unplayed games.
	w.shl(2 * s)
	if singleDownfloaterBye {
		if hi.score == byeScore {
			w.addUint(uint64(l.ranks[hi.playedGames]))
		}
		if lo.score == byeScore {
			w.addUint(uint64(l.ranks[lo.playedGames]))
		}
	}
	// C.10–C.13: colours.
	d.colorFields(w, s, lo, hi, inCurrent)
	// C.14–C.21: floats in the last two rounds.
	if d.played > 0 {
		d.floatCounts(w, s, hi, lo, inCurrent, 1)
	}
	if d.played > 1 {
		d.floatCounts(w, s, hi, lo, inCurrent, 2)
	}
	if d.played > 0 {
		d.floatScores(w, l, hi, lo, inCurrent, 1)
	}
	if d.played > 1 {
		d.floatScores(w, l, hi, lo, inCurrent, 2)
	}
	// Room for the brackets' orderings (exchanges, then who meets whom).
	w.shl(3*s + 1)
	return w
}

func (d *dutch) colorFields(w wide, s uint, p, o *dPlayer, mask bool) {
	same := p.pref == o.pref
	field(w, s, b2u(mask && (!p.absoluteImbalance() || !o.absoluteImbalance() || !same)))
	var absolute bool
	switch {
	case !p.absolutePreference() || !o.absolutePreference() || !same:
		absolute = true
	case p.imbalance == o.imbalance:
		absolute = p.repeated == NoColor || p.repeated != o.repeated
	default:
		x := p
		if p.imbalance > o.imbalance {
			x = o
		}
		absolute = x.repeated != p.pref.Invert()
	}
	field(w, s, b2u(mask && absolute))
	field(w, s, b2u(mask && preferencesCompatible(p.pref, o.pref)))
	field(w, s, b2u(mask && ((!p.strong && !p.absolutePreference()) || (!o.strong && !o.absolutePreference()) ||
		(p.absolutePreference() && o.absolutePreference()) || !same)))
}

func (d *dutch) floatCounts(w wide, s uint, hi, lo *dPlayer, inCurrent bool, back int) {
	var x uint64
	if inCurrent {
		x = b2u(d.float(lo, back) == floatDown) + b2u(hi.score <= lo.score && d.float(hi, back) == floatDown)
	}
	field(w, s, x)
	x = 0
	if inCurrent {
		x = b2u(!(hi.score > lo.score && d.float(lo, back) == floatUp))
	}
	field(w, s, x)
}

func (d *dutch) floatScores(w wide, l *weightLayout, hi, lo *dPlayer, inCurrent bool, back int) {
	w.shl(l.groupBits)
	if inCurrent {
		if d.float(lo, back) == floatDown {
			w.addBit(l.shift[lo.score])
		}
		if d.float(hi, back) == floatDown {
			w.addBit(l.shift[hi.score])
		}
	}
	w.shl(l.groupBits)
	if inCurrent && !(d.float(lo, back) == floatUp && hi.score > lo.score) {
		w.addBit(l.shift[hi.score])
	}
}

// chooseColor is the colour of p against o (C.04.3 E).
func (d *dutch) chooseColor(p, o *dPlayer) Color {
	if c := neutralColor(p, o); c != NoColor {
		return c
	}
	pAhead := !d.before(p, o) // p ranks above o
	if p.pref == NoColor {
		if !pAhead {
			if o.rank&1 != 0 {
				return d.initial
			}
			return d.initial.Invert()
		}
		if p.rank&1 != 0 {
			return d.initial.Invert()
		}
		return d.initial
	}
	if !pAhead {
		return o.pref.Invert()
	}
	return p.pref
}

// before reports whether a comes after b in the pairing order (a lower
// score, or the same score and a higher rank number): bbpPairings'
// acceleratedScoreRankCompare.
func (d *dutch) before(a, b *dPlayer) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return b.rank < a.rank
}

func neutralColor(p, o *dPlayer) Color {
	switch {
	case preferencesCompatible(p.pref, o.pref):
		if p.pref != NoColor {
			return p.pref
		}
		return o.pref.Invert()
	case p.absolutePreference() && (p.imbalance > o.imbalance || !o.absolutePreference()):
		return p.pref
	case o.absolutePreference() && (o.imbalance > p.imbalance || !p.absolutePreference()):
		return o.pref.Invert()
	case p.strong && !o.strong:
		return p.pref
	case o.strong && !p.strong:
		return o.pref.Invert()
	}
	pc, oc := firstColorDifference(p, o)
	if pc != NoColor && oc != NoColor {
		return oc
	}
	return NoColor
}

// firstColorDifference walks both players' played games back from the
// last and returns their colours in the latest round they differ.
func firstColorDifference(p, o *dPlayer) (Color, Color) {
	i, j := len(p.matches)-1, len(o.matches)-1
	skip := func(ms []dMatch, k int) int {
		for k >= 0 && !ms[k].played {
			k--
		}
		return k
	}
	i, j = skip(p.matches, i), skip(o.matches, j)
	for i >= 0 && j >= 0 && p.matches[i].color == o.matches[j].color {
		i, j = skip(p.matches, i-1), skip(o.matches, j-1)
	}
	pc, oc := NoColor, NoColor
	if i >= 0 {
		pc = p.matches[i].color
	}
	if j >= 0 {
		oc = o.matches[j].color
	}
	return pc, oc
}

// newDutch reads the state before the next round.
func newDutch(s *Swiss) (*dutch, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	d := &dutch{played: s.Played(), expected: s.Rounds, initial: s.FirstColor}
	if d.expected < d.played+1 {
		return nil, fmt.Errorf("round %d of %d planned: %w", d.played+1, s.Rounds, ErrTournament)
	}
	for i, sp := range s.Players {
		p := &dPlayer{id: i}
		for r := 0; r < max(len(sp.Results), d.played); r++ {
			m := dMatch{opponent: i}
			if r < len(sp.Results) {
				e := sp.Results[r]
				m.result = e.Result
				m.played = e.Result.played()
				m.participated = e.Result.paired()
				if e.Opponent > 0 {
					m.opponent = e.Opponent - 1
				}
				m.color = e.Color
			}
			p.matches = append(p.matches, m)
		}
		if len(p.matches) > d.played+1 {
			return nil, fmt.Errorf("player %d has results after round %d: %w", i+1, d.played+1, ErrTournament)
		}
		d.players = append(d.players, p)
	}
	if d.initial == NoColor {
		d.initial = s.inferFirstColor()
	}
	if d.initial == NoColor {
		d.initial = White
	}
	rank := 0
	for _, p := range d.players {
		p.valid = len(p.matches) <= d.played
		for _, m := range p.matches {
			if m.participated {
				p.valid = true
			}
		}
		if p.valid {
			p.rank = rank
			rank++
		}
		for r := 0; r < d.played && r < len(p.matches); r++ {
			p.score += p.matches[r].points()
		}
		computeColors(p)
	}
	return d, nil
}

// computeColors sets the player's colour difference, preference and
// repeated colour from their played games (C.04.3 A.6).
func computeColors(p *dPlayer) {
	whites, blacks, run := 0, 0, 0
	for _, m := range p.matches {
		if !m.played {
			continue
		}
		p.playedGames++
		if m.color == White {
			whites++
		} else {
			blacks++
		}
		if run == 0 || m.color != p.repeated {
			run = 1
		} else {
			run++
		}
		p.repeated = m.color
	}
	lower := White
	if whites > blacks {
		lower = Black
	}
	p.imbalance = whites - blacks
	if lower == White {
		p.imbalance = blacks - whites
	}
	switch {
	case p.imbalance > 1:
		p.pref = lower
	case run > 1:
		p.pref = p.repeated.Invert()
	case p.imbalance > 0:
		p.pref = lower
	case run > 0:
		p.pref = p.repeated.Invert()
	default:
		p.pref = NoColor
	}
	if run <= 1 {
		p.repeated = NoColor
	}
	p.strong = !p.absolutePreference() && p.imbalance > 0
}

// inferFirstColor reads the colour of the highest-ranked player paired
// in the first round that has colours (inverted for each player paired
// above them), as bbpPairings does when no colour is given; NoColor if
// no round has colours.
func (s *Swiss) inferFirstColor() Color {
	first := -1
	for _, p := range s.Players {
		for r, e := range p.Results {
			if e.Color != NoColor && (first == -1 || r < first) {
				first = r
			}
		}
	}
	if first == -1 {
		return NoColor
	}
	k := 0
	for _, p := range s.Players {
		paired := false
		for r, e := range p.Results {
			if r <= first && e.Result.paired() {
				paired = true
			}
		}
		if !paired {
			continue
		}
		if c := p.Results[first].Color; c != NoColor {
			if k&1 != 0 {
				return c.Invert()
			}
			return c
		}
		k++
	}
	return NoColor
}

// PairDutch pairs the next round of the tournament by the FIDE Dutch
// system (C.04.3). Players with an entry for that round already (a bye
// they asked for, an absence) sit it out. The pairings come highest
// board first; a bye is Pairing{White: n}. It fails with ErrNoPairing
// when no pairing satisfies the absolute criteria, and ErrTournament on
// an inconsistent state.
func PairDutch(s *Swiss) ([]Pairing, error) {
	d, err := newDutch(s)
	if err != nil {
		return nil, fmt.Errorf("tournament: dutch pairing: %w", err)
	}
	mates, err := d.pair()
	if err != nil {
		return nil, fmt.Errorf("tournament: dutch pairing of round %d: %w", d.played+1, err)
	}
	return d.pairings(mates), nil
}

// pairings turns the matching (by player index, -1 for the bye) into
// boards, sorted as FIDE publishes them: by the higher player's score,
// then the lower's, then the higher's rank; the bye last.
func (d *dutch) pairings(mates map[int]int) []Pairing {
	var out []Pairing
	type board struct {
		p      Pairing
		hi, lo *dPlayer
		bye    bool
	}
	var boards []board
	for id, o := range mates {
		p := d.players[id]
		if o < 0 {
			boards = append(boards, board{p: Pairing{White: id + 1}, hi: p, lo: p, bye: true})
			continue
		}
		if id > o {
			continue
		}
		q := d.players[o]
		pr := Pairing{White: id + 1, Black: o + 1}
		if d.chooseColor(p, q) == Black {
			pr = Pairing{White: o + 1, Black: id + 1}
		}
		hi, lo := p, q
		if d.before(p, q) {
			hi, lo = q, p
		}
		boards = append(boards, board{p: pr, hi: hi, lo: lo})
	}
	sort.Slice(boards, func(i, j int) bool {
		a, b := boards[i], boards[j]
		if a.bye != b.bye {
			return b.bye
		}
		if a.hi.score != b.hi.score {
			return a.hi.score > b.hi.score
		}
		if a.lo.score != b.lo.score {
			return a.lo.score > b.lo.score
		}
		return a.hi.rank < b.hi.rank
	})
	for _, b := range boards {
		out = append(out, b.p)
	}
	return out
}
