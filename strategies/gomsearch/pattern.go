package gomsearch

import "sync"

// The shape a stone of one colour would make on a point along one line,
// judged on the nine points centred on it (four each side, enough for any
// five through it), by freestyle rules: five or more in a row win. Each
// shape is defined by what one more stone of the colour on the line can
// make of it, so that the table is computed, not written by hand:
//
//   - five: the stone completes five or more;
//   - open four (f4): two empty points would then complete five;
//   - four (b4): one would;
//   - open three (f3): some empty point would then make an open four;
//   - three (b3): some would make a four;
//   - open two, two, open one, one (f2, b2, f1, b1): likewise a step down;
//   - dead: the line cannot hold a five of the colour through the point.
const (
	shDead uint8 = iota
	shB1
	shF1
	shB2
	shF2
	shB3
	shF3
	shB4
	shF4
	shFive
	shapes
)

// A point's class for one colour sums up its four shapes, what a stone
// there would threaten, for the threat logic.
const (
	clNone      uint8 = iota // no open three or four
	clThree                  // one open three
	clThree2                 // two open threes
	clFour                   // a four
	clFourThree              // a four and an open three
	clFlex4                  // an open four or two fours: five next unless answered by five
	clFive                   // five now
	classes
)

// shapeValue is what a point's shape along one line is worth to the
// colour, in evaluation units: how near the colour's stones there are to
// five.
var shapeValue = [shapes]int32{shDead: 0, shB1: 0, shF1: 1, shB2: 2, shF2: 8, shB3: 10, shF3: 40, shB4: 50, shF4: 300, shFive: 2000}

// classBonus adds to a point's value what its shapes together threaten.
var classBonus = [classes]int32{clThree2: 220, clFourThree: 420, clFlex4: 300}

var (
	// shapeOf is the shape for colour c (0 black, 1 white) of a point
	// whose line key (see board.key) is k; shapes2 holds both, black's
	// in the low four bits.
	shapeOf [2][1 << 16]uint8
	shapes2 [1 << 16]uint8
	// classOf and valueOf are the class and value of a point whose four
	// shapes for a colour are packed four bits each (board.packed).
	classOf [1 << 16]uint8
	valueOf [1 << 16]int32
	// tables computes them once, at the first engine's birth.
	tables = sync.OnceFunc(makeTables)
)

// A line of nine points seen by one colour: empty, own, or blocked (the
// opponent's stone or the board's edge). The centre, index 4, is own.
const (
	lnEmpty = 0
	lnOwn   = 1
	lnBlock = 2
)

// makeTables fills shapeOf, classOf and valueOf.
func makeTables() {
	memo := make([]uint8, 19683) // by base-3 code of the line; 0 = not computed, else shape+1
	var line [9]uint8
	for k := range 1 << 16 {
		for c := range 2 {
			for i := range 8 {
				v := uint8(k>>(2*i)) & 3
				var l uint8
				switch {
				case v == 0:
					l = lnEmpty
				case int(v) == c+1:
					l = lnOwn
				default: // the opponent's stone or the edge
					l = lnBlock
				}
				line[slotPoint(i)] = l
			}
			line[4] = lnOwn
			shapeOf[c][k] = shape(&line, memo)
		}
		shapes2[k] = shapeOf[0][k] | shapeOf[1][k]<<4
	}
	for k := range 1 << 16 {
		var n [shapes]int
		var v int32
		for d := range 4 {
			s := uint8(k>>(4*d)) & 15
			if s >= shapes {
				s = shDead // not a packing that occurs
			}
			n[s]++
			v += shapeValue[s]
		}
		var cl uint8
		switch {
		case n[shFive] > 0:
			cl = clFive
		case n[shF4] > 0 || n[shB4] >= 2:
			cl = clFlex4
		case n[shB4] == 1 && n[shF3] > 0:
			cl = clFourThree
		case n[shB4] == 1:
			cl = clFour
		case n[shF3] >= 2:
			cl = clThree2
		case n[shF3] == 1:
			cl = clThree
		}
		classOf[k], valueOf[k] = cl, v+classBonus[cl]
	}
}

// slotPoint is the index in a line of nine of a key's slot i: slots 0–3
// are the points 4 to 1 before the centre, 4–7 those 1 to 4 after it.
func slotPoint(i int) int {
	if i < 4 {
		return i
	}
	return i + 1
}

// runThrough is the length of the colour's unbroken row through the
// centre.
func runThrough(line *[9]uint8) int {
	n := 1
	for i := 3; i >= 0 && line[i] == lnOwn; i-- {
		n++
	}
	for i := 5; i < 9 && line[i] == lnOwn; i++ {
		n++
	}
	return n
}

// shape classifies the line (its centre own) by what one more stone can
// make of it, memoised by the line's base-3 code.
func shape(line *[9]uint8, memo []uint8) uint8 {
	code := 0
	for _, v := range line {
		code = 3*code + int(v)
	}
	if m := memo[code]; m != 0 {
		return m - 1
	}
	s := shapeUncached(line, memo)
	memo[code] = s + 1
	return s
}

// shapeUncached is shape's computation.
func shapeUncached(line *[9]uint8, memo []uint8) uint8 {
	if runThrough(line) >= 5 {
		return shFive
	}
	fives := 0
	for i := range line {
		if line[i] != lnEmpty {
			continue
		}
		line[i] = lnOwn
		if runThrough(line) >= 5 {
			fives++
		}
		line[i] = lnEmpty
	}
	switch {
	case fives >= 2:
		return shF4
	case fives == 1:
		return shB4
	}
	// One step down from what the best next stone makes.
	down := [shapes]uint8{shF4: shF3, shB4: shB3, shF3: shF2, shB3: shB2, shF2: shF1, shB2: shB1}
	best := shDead
	for i := range line {
		if line[i] != lnEmpty {
			continue
		}
		line[i] = lnOwn
		best = max(best, down[shape(line, memo)])
		line[i] = lnEmpty
	}
	return best
}
