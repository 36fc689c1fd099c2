package strategies

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games/catalog"
)

// mctsStrategies is Monte Carlo tree search, which none of the reports
// has.
var mctsStrategies = []Info{
	{
		Name:        "mcts",
		DisplayName: "Monte Carlo",
		Blurb:       "plays out many random games to pick its move",
		Games:       allGames,
		Description: "Monte Carlo tree search (UCT), random playouts; greedy ones in Adjacency and Othello",
		Strategy:    MCTS{},
	},
}

const (
	// mctsC is UCT's exploration constant: √2, the value of Kocsis and
	// Szepesvári's bound for rewards in [0, 1].
	mctsC = math.Sqrt2
	// mctsGreedy is the probability that a playout move is the one that
	// gains most (games.AI.Gain: in Adjacency, captures most; ties broken
	// at random) rather than a uniformly random one, in a game that has
	// Gain.
	mctsGreedy = 0.5
	// mctsDefaultPlayouts caps a search with neither a deadline nor a
	// node limit, which would otherwise never end.
	mctsDefaultPlayouts = 100_000
	// mctsCheckMask: the clock is read every 32 playouts (an Adjacency
	// playout is tens of moves).
	mctsCheckMask = 31
	// mctsProgressMask: Limits.Progress is called every 4096 playouts.
	mctsProgressMask = 4095
)

// MCTS is Monte Carlo tree search with UCT selection (Kocsis and
// Szepesvári 2006): each playout descends the tree by the child that
// maximises mean reward + √2·√(ln N / n), every unvisited child first (in
// random order), adds the children of the first node it reaches that has
// been visited before, and plays on to the end of the game: uniformly
// random moves, except in a game whose plug-in gives games.AI.Gain
// (Adjacency: captures; Othello: flips), where with probability ½ it plays
// the move that gains most, otherwise a random one.
// The result — 1 for a win, ½ a draw, 0 a loss, for the side that moved
// into each node — is added along the path. There is no tree reuse
// between moves.
//
// It runs until the deadline, or Limits.Nodes playouts (100,000 with
// neither), and plays the most-visited child of the root (ties: the
// better mean). The tree holds at most Limits.HashMiB of nodes (32 bytes
// each), then playouts go on from its leaves. Randomness comes from a PCG
// generator seeded with Limits.Seed (0: random), so a node-limited search
// without a deadline is reproducible. In the Result, Score is the mean
// final score of the chosen move's playouts in the game's unit (marks,
// Pons' convention, ±1), rounded, never Exact; Nodes counts playouts;
// Depth is the deepest tree node reached; PV follows the most-visited
// children.
type MCTS struct{}

// mctsNode is a node of the tree: the move into it, its children (a
// block of the node slice) and the statistics of the playouts through
// it, for the side that made the move.
type mctsNode struct {
	first  int32 // index of the first child; 0 until expanded (the root is 0)
	visits uint32
	n      uint8 // number of children
	move   engine.Move
	reward float64 // sum of the rewards, 1 win, ½ draw, 0 loss
	score  int64   // sum of the final scores in the game's unit
}

// mcts is one search.
type mcts struct {
	pos      engine.Position
	gain     func(engine.Position, engine.Move) int // the plug-in's Gain, or nil
	root     engine.Side
	rng      *rand.Rand
	nodes    []mctsNode
	maxNodes int
	path     []int32
	moves    [engine.MaxMoves]engine.Move
	depth    int
}

// Search implements Strategy.
func (MCTS) Search(ctx context.Context, pos engine.Position, limits Limits) (Result, error) {
	var buf [engine.MaxMoves]engine.Move
	moves := pos.Moves(buf[:0])
	if len(moves) == 0 {
		return Result{}, fmt.Errorf("strategies: mcts %v: %w", pos, ErrNoMoves)
	}
	mib := limits.HashMiB
	if mib <= 0 {
		mib = DefaultHashMiB
	}
	t := &mcts{pos: pos.Clone(), root: pos.SideToMove(), rng: seededRand(limits.Seed), maxNodes: mib << 20 / 32}
	if g := catalog.Of(pos); g != nil && g.AI != nil {
		t.gain = g.AI.Gain
	}
	if ctx.Err() != nil {
		m := t.choose(moves) // what a playout would play
		return Result{Move: m, PV: []engine.Move{m}}, nil
	}
	deadline, timed := ctx.Deadline()
	limit := limits.Nodes
	if limit == 0 && !timed {
		limit = mctsDefaultPlayouts
	}
	started := time.Now()
	t.nodes = append(make([]mctsNode, 0, min(t.maxNodes, 1<<16)), mctsNode{})
	var playouts uint64
	for limit == 0 || playouts < limit {
		t.playout()
		playouts++
		if playouts&mctsCheckMask == 0 && (timed && !time.Now().Before(deadline) || ctx.Err() != nil) {
			break
		}
		if limits.Progress != nil && playouts&mctsProgressMask == 0 {
			r := t.result(playouts)
			limits.Progress(Progress{Depth: r.Depth, Move: r.Move, Score: r.Score, Nodes: playouts, Elapsed: time.Since(started)})
		}
	}
	return t.result(playouts), nil
}

// playout runs one iteration: selection, expansion, a random playout to
// the end of the game and the update of the path's statistics.
func (t *mcts) playout() {
	t.path = append(t.path[:0], 0)
	n := int32(0)
	for {
		if t.nodes[n].first == 0 && !t.expand(n) {
			break // a finished game, or the tree is full
		}
		n = t.selectChild(n)
		t.pos.Play(t.nodes[n].move)
		t.path = append(t.path, n)
		if t.nodes[n].visits == 0 {
			break
		}
	}
	t.depth = max(t.depth, len(t.path)-1)
	plies := len(t.path) - 1
	for moves := t.pos.Moves(t.moves[:0]); len(moves) > 0; moves = t.pos.Moves(t.moves[:0]) {
		t.pos.Play(t.choose(moves))
		plies++
	}
	reward, score := 0.0, t.pos.Score(t.root)
	switch t.pos.Result(t.root) {
	case engine.Win:
		reward = 1
	case engine.Draw:
		reward = 0.5
	}
	for d, i := range t.path {
		node := &t.nodes[i]
		node.visits++
		if d%2 == 1 { // moved into by the root's side
			node.reward += reward
			node.score += int64(score)
		} else {
			node.reward += 1 - reward
			node.score -= int64(score)
		}
	}
	for range plies {
		t.pos.Undo()
	}
}

// expand adds the children of node n, in random order, unless the game
// is over there or the tree is full; it reports whether it did.
func (t *mcts) expand(n int32) bool {
	moves := t.pos.Moves(t.moves[:0])
	if len(moves) == 0 || len(t.nodes)+len(moves) > t.maxNodes {
		return false
	}
	t.rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	t.nodes[n].first, t.nodes[n].n = int32(len(t.nodes)), uint8(len(moves))
	for _, m := range moves {
		t.nodes = append(t.nodes, mctsNode{move: m})
	}
	return true
}

// selectChild returns the child of n with the highest UCT value, the
// first unvisited one if any.
func (t *mcts) selectChild(n int32) int32 {
	parent := t.nodes[n]
	logN := math.Log(float64(parent.visits))
	best, bestU := parent.first, math.Inf(-1)
	for c := parent.first; c < parent.first+int32(parent.n); c++ {
		child := &t.nodes[c]
		if child.visits == 0 {
			return c
		}
		v := float64(child.visits)
		if u := child.reward/v + mctsC*math.Sqrt(logN/v); u > bestU {
			best, bestU = c, u
		}
	}
	return best
}

// choose is the playout policy's move among moves.
func (t *mcts) choose(moves []engine.Move) engine.Move {
	if t.gain == nil || t.rng.Float64() >= mctsGreedy {
		return moves[t.rng.IntN(len(moves))]
	}
	best, most, ties := moves[0], -1, 0
	for _, m := range moves {
		switch c := t.gain(t.pos, m); {
		case c > most:
			best, most, ties = m, c, 1
		case c == most:
			ties++
			if t.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}

// mostVisited returns n's most-visited child (ties: the better mean
// reward), or -1 if none has been visited.
func (t *mcts) mostVisited(n int32) int32 {
	parent := t.nodes[n]
	best := int32(-1)
	for c := parent.first; c < parent.first+int32(parent.n); c++ {
		child := &t.nodes[c]
		if child.visits == 0 {
			continue
		}
		if best < 0 || child.visits > t.nodes[best].visits ||
			child.visits == t.nodes[best].visits && child.reward > t.nodes[best].reward {
			best = c
		}
	}
	return best
}

// result is the answer after playouts playouts.
func (t *mcts) result(playouts uint64) Result {
	res := Result{Depth: t.depth, Nodes: playouts}
	for n := t.mostVisited(0); n >= 0; n = t.mostVisited(n) {
		res.PV = append(res.PV, t.nodes[n].move)
	}
	best := &t.nodes[t.mostVisited(0)]
	res.Move = best.move
	res.Score = int(math.Round(float64(best.score) / float64(best.visits)))
	return res
}
