package strategies

import (
	"math"

	"github.com/gambitbot/gambit/engine"
)

// gameTree is a partial game tree grown from the root position, node 0:
// Beam's evaluation tree and the genetic algorithm's reservation tree.
// Children always come after their parent in nodes, so one backward pass
// backs values up. Values are negamax: each node's for its side to move.
type gameTree struct {
	nodes []treeNode
}

// treeNode is a position of a gameTree, reached from its parent by move.
type treeNode struct {
	move   engine.Move
	parent int32 // -1 at the root
	child  int32 // first child, -1 for a leaf
	next   int32 // next sibling, -1 for the last
	depth  int32
	static int // the evaluation of a leaf
	value  int // the backed-up value
}

// reset leaves only the root.
func (t *gameTree) reset() {
	t.nodes = append(t.nodes[:0], treeNode{move: engine.NoMove, parent: -1, child: -1, next: -1})
}

// add appends a child of parent reached by m, with the given evaluation
// for its side to move, and returns it.
func (t *gameTree) add(parent int32, m engine.Move, static int) int32 {
	p := &t.nodes[parent]
	n := int32(len(t.nodes))
	t.nodes = append(t.nodes, treeNode{move: m, parent: parent, child: -1, next: p.child, depth: p.depth + 1, static: static})
	t.nodes[parent].child = n
	return n
}

// find returns the child of parent reached by m, or -1.
func (t *gameTree) find(parent int32, m engine.Move) int32 {
	for c := t.nodes[parent].child; c >= 0; c = t.nodes[c].next {
		if t.nodes[c].move == m {
			return c
		}
	}
	return -1
}

// backup computes every node's value: a leaf's is its evaluation, an inner
// node's the best over its children of minus theirs (minimax).
func (t *gameTree) backup() {
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.child < 0 {
			n.value = n.static
		} else {
			n.value = math.MinInt
		}
	}
	for i := len(t.nodes) - 1; i > 0; i-- {
		n := &t.nodes[i]
		p := &t.nodes[n.parent]
		p.value = max(p.value, -n.value)
	}
}

// update sets the value of a leaf just added to a backed-up tree and
// recomputes its ancestors' values from their children, so that the tree
// is backed up again at the cost of one path.
func (t *gameTree) update(leaf int32) {
	t.nodes[leaf].value = t.nodes[leaf].static
	for n := t.nodes[leaf].parent; n >= 0; n = t.nodes[n].parent {
		v := math.MinInt
		for c := t.nodes[n].child; c >= 0; c = t.nodes[c].next {
			v = max(v, -t.nodes[c].value)
		}
		t.nodes[n].value = v
	}
}

// bestChild returns the child of n holding n's value (the first added on
// ties), or -1 for a leaf. Call once the tree is backed up.
func (t *gameTree) bestChild(n int32) int32 {
	best := int32(-1)
	for c := t.nodes[n].child; c >= 0; c = t.nodes[c].next {
		if -t.nodes[c].value == t.nodes[n].value {
			best = c // children are listed newest first: keep the oldest
		}
	}
	return best
}

// reach returns how many levels up a leaf's value propagates in the
// backed-up tree: the number of ancestors in a row whose value is the leaf's (up to
// sign), the genetic algorithm's fitness.
func (t *gameTree) reach(leaf int32) int {
	levels := 0
	for n := leaf; n > 0 && t.nodes[t.nodes[n].parent].value == -t.nodes[n].value; n = t.nodes[n].parent {
		levels++
	}
	return levels
}

// line appends to pv the principal variation from the root: the best
// child at each level.
func (t *gameTree) line(pv []engine.Move) []engine.Move {
	for n := t.bestChild(0); n >= 0; n = t.bestChild(n) {
		pv = append(pv, t.nodes[n].move)
	}
	return pv
}

// path appends to buf the moves from the root to n, in order.
func (t *gameTree) path(n int32, buf []engine.Move) []engine.Move {
	start := len(buf)
	for ; n > 0; n = t.nodes[n].parent {
		buf = append(buf, t.nodes[n].move)
	}
	for i, j := start, len(buf)-1; i < j; i, j = i+1, j-1 {
		buf[i], buf[j] = buf[j], buf[i]
	}
	return buf
}
