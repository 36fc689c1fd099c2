package adjsearch

import (
	"github.com/gambitbot/gambit/engine/adjacency"
)

// Traps. Once the search has solved a position, every move of the best
// exact value is as good as another against perfect play; against an
// opponent that searches a few plies, some are better than others. With
// Options.Traps the search spends what is left of its time choosing,
// among the moves of the best exact value, the one after which the
// replies of shallow searches (the engine's own, to trapDepths plies, as
// a fixed-depth alpha-beta opponent would play) leave it the most marks,
// each reply's outcome solved exactly. It never gives up a mark against
// perfect play: a move is only chosen if it keeps the solved value.

// trapDepths are the depths of the shallow searches that stand for the
// opponent.
var trapDepths = [...]int{2, 3, 4, 5, 6}

// trapTableMiB is the table of the shallow searches, small: they search
// a few thousand nodes each.
const trapTableMiB = 1

// trap returns, among the moves of b whose exact value is score, move
// among them, the one whose shallow replies leave the side to move the
// most marks in total (move on ties, and once time runs out the best
// found so far). h is b's board key.
func (t *thread) trap(b adjacency.Board, h uint64, move, score int) int {
	r := t.r
	if b.PliesLeft() < 3 {
		return move
	}
	model := New(r.e.eval)
	model.cfg = r.e.cfg
	sh := r.solveKey(b, h)
	best, bestGain := move, 0
	order := newCaptureOrder(b, move)
	for m, ok := order.next(); ok; m, ok = order.next() {
		c, ch := r.step(b, sh, m)
		if m != move && -t.solveNode(c, ch, -score, -score+1) < score {
			continue // worse than the solved value
		}
		if r.clock.Stopped() {
			break
		}
		gain, complete := t.trapGain(model, c, score)
		if !complete {
			break
		}
		if m == move || gain > bestGain {
			best, bestGain = m, gain
		}
	}
	return best
}

// trapGain is the sum over trapDepths of what the reply of a shallow
// search of c (the opponent to move) leaves the side that moved to c,
// exactly, beyond score. It reports whether it finished in time.
func (t *thread) trapGain(model *Engine, c adjacency.Board, score int) (int, bool) {
	r := t.r
	var replies [len(trapDepths)]int
	var values [len(trapDepths)]int
	gain := 0
	for i, d := range trapDepths {
		res, _ := model.search(r.clock.Context(), c, Options{Depth: d, Threads: 1, MaxTableMiB: trapTableMiB})
		t.count.Count(res.Nodes)
		if t.count.CheckIn(); r.clock.Stopped() || res.Depth < min(d, c.PliesLeft()) {
			return 0, false
		}
		reply := int(res.Move)
		replies[i] = reply
		value, known := 0, false
		for j := range i {
			if replies[j] == reply {
				value, known = values[j], true
				break
			}
		}
		if !known {
			g := c.After(engineMove(reply))
			if g.Terminal() {
				value = diff(g)
			} else {
				var complete bool
				if _, value, complete = t.solve(g, hashOf(g), noCell, score); !complete {
					return 0, false
				}
			}
		}
		values[i] = value
		gain += value - score
	}
	return gain, true
}
