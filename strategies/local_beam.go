package strategies

import (
	"cmp"
	"context"
	"slices"

	"github.com/gambitbot/gambit/engine"
)

// Beam widths: the first pass keeps beamStartWidth states per level, each
// further pass twice as many, up to beamMaxWidth.
const (
	beamStartWidth = 2
	beamMaxWidth   = 256
)

// Beam is the local beam search of report 001 (section 3, "Proses
// Pencarian dengan Local Beam Search"): from the root it descends the game
// tree level by level to the end of the game (or Limits.Depth plies),
// generating every child of the k states kept at the previous level,
// evaluating each (adjacencyEval for Adjacency, the game's exact score at
// its end) and keeping k of them; the kept tree is then backed up by
// minimax and the root's best child is played.
//
// The report keeps, at every level, the k children best for the bot —
// at the opponent's levels too, so its tree holds the opponent's worst
// replies and minimax over it is as optimistic as a search that lets the
// opponent help. Here the children are ranked for the side that chooses
// them: at the bot's levels the k best of all children for the bot; at
// the opponent's levels each state's best reply for the opponent, then
// each one's second best and so on until k are kept, so that every line
// is answered by its strongest reply by the evaluation. A state whose
// children were all dropped keeps its own evaluation (the report deleted
// such states), so values back up from leaves of different depths.
//
// A pass with k = 2 gives the first answer; while time (or Limits.Nodes,
// counting evaluations) lasts, passes with k doubled up to 256 replace it,
// and the search ends early once a pass dropped no child: its tree was the
// whole tree. Result.Depth is the levels of the last pass.
type Beam struct{}

// Search implements Strategy.
func (Beam) Search(ctx context.Context, pos engine.Position, limits Limits) (Result, error) {
	r, err := newRun(ctx, pos, limits, "beam")
	if err != nil {
		return Result{}, err
	}
	m, v := r.greedy()
	res := r.result(m, v, 1, []engine.Move{m})
	if len(r.legal()) == 1 {
		return res, nil
	}
	depth := pos.PliesLeft()
	if limits.Depth > 0 {
		depth = min(depth, limits.Depth)
	}
	b := &beamSearch{run: r}
	for k := beamStartWidth; k <= beamMaxWidth && !r.stopped; k *= 2 {
		levels, dropped, ok := b.pass(k, depth)
		if !ok {
			break
		}
		best := b.tree.bestChild(0)
		res = r.result(b.tree.nodes[best].move, b.tree.nodes[0].value, levels, b.tree.line(nil))
		r.report(res.Move, b.tree.nodes[0].value, levels)
		if !dropped {
			break
		}
	}
	res.Nodes = r.nodes
	return res, nil
}

// beamSearch holds one Beam search's buffers.
type beamSearch struct {
	*run
	tree       gameTree
	beam, next []int32
	cands      []beamCandidate
	path       []engine.Move
}

// beamCandidate is a child of a beam state: the parent, the move, the
// child's evaluation for its side to move, and its rank among its
// siblings.
type beamCandidate struct {
	parent int32
	move   engine.Move
	value  int
	rank   int
}

// pass runs the beam with width k to the given depth and backs the tree
// up. It reports the levels descended, whether any child was dropped, and
// false if the search stopped before the pass was complete.
func (b *beamSearch) pass(k, depth int) (levels int, dropped, ok bool) {
	b.tree.reset()
	b.beam = append(b.beam[:0], 0)
	for ; levels < depth && len(b.beam) > 0; levels++ {
		b.cands = b.cands[:0]
		for _, n := range b.beam {
			b.expand(n)
			if b.stopped {
				return levels, dropped, false
			}
		}
		if len(b.cands) == 0 {
			break
		}
		b.choose(k, levels%2 == 1)
		dropped = dropped || len(b.cands) > k
		b.next = b.next[:0]
		for _, c := range b.cands[:min(k, len(b.cands))] {
			b.next = append(b.next, b.tree.add(c.parent, c.move, c.value))
		}
		b.beam, b.next = b.next, b.beam
	}
	b.tree.backup()
	return levels, dropped, true
}

// expand evaluates every child of tree node n into the candidates.
func (b *beamSearch) expand(n int32) {
	b.path = b.tree.path(n, b.path[:0])
	for _, m := range b.path {
		b.play(m)
	}
	for _, m := range b.legal() {
		b.play(m)
		b.cands = append(b.cands, beamCandidate{parent: n, move: m, value: b.eval()})
		b.undo()
	}
	for range b.path {
		b.undo()
	}
}

// choose orders the candidates so that the k to keep come first. Children
// are ranked for the side that chooses them (minus their own value): at
// the bot's levels over all of them, at the opponent's (replies) by rank
// among siblings first, so that every state keeps its best replies.
func (b *beamSearch) choose(k int, replies bool) {
	byValue := func(x, y beamCandidate) int { return cmp.Compare(x.value, y.value) }
	if !replies {
		slices.SortStableFunc(b.cands, byValue)
		return
	}
	// Siblings are contiguous: rank each group, then order by rank.
	for start := 0; start < len(b.cands); {
		end := start + 1
		for end < len(b.cands) && b.cands[end].parent == b.cands[start].parent {
			end++
		}
		group := b.cands[start:end]
		slices.SortStableFunc(group, byValue)
		for i := range group {
			group[i].rank = i
		}
		start = end
	}
	if len(b.cands) > k {
		slices.SortStableFunc(b.cands, func(x, y beamCandidate) int { return cmp.Compare(x.rank, y.rank) })
	}
}
