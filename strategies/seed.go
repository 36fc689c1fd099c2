package strategies

import (
	"context"
	"math"
	"slices"

	"github.com/gambitbot/gambit/engine"
	adjgame "github.com/gambitbot/gambit/games/adjacency"
	c4game "github.com/gambitbot/gambit/games/connect4"
	tttgame "github.com/gambitbot/gambit/games/tictactoe"
	"github.com/gambitbot/gambit/strategies/internal/clock"
)

// seedStrategies are replicas of the original reports' own bots, quirks
// included, so that players can meet "the bot from the report". Each
// replica's doc comment names its report and describes what it
// reproduces.
var seedStrategies = []Info{
	{
		Name:        "seed001-minimax",
		DisplayName: "Forgetful thinker",
		Blurb:       "looks a few moves ahead but misremembers positions",
		Games:       []string{adjgame.Game.Name},
		Description: "alpha-beta deepening by two plies, with a transposition table that returns wrong values for some positions",
		Strategy:    Seed001Minimax{},
	},
	{
		Name:        "seed002-alphabeta",
		DisplayName: "Three-step thinker",
		Blurb:       "looks three moves ahead on a slightly wrong board",
		Games:       []string{adjgame.Game.Name},
		Description: "depth-3 alpha-beta on its own board simulation, which gets some rules slightly wrong",
		Strategy:    Seed002AlphaBeta{},
	},
	{
		Name:        "seed003-minimax",
		DisplayName: "Unhurried perfectionist",
		Blurb:       "never loses at Tic-Tac-Toe, but wins in no hurry",
		Games:       []string{tttgame.Game.Name},
		Description: "full minimax scoring a win +10, a loss −10 and a draw 0: never loses, but does not prefer a quicker win",
		Strategy:    Seed003Minimax{},
	},
	{
		Name:        "seed004-minimax",
		DisplayName: "Line hunter",
		Blurb:       "looks five moves ahead for lines of four",
		Games:       []string{c4game.Game.Name},
		Description: "depth-5 alpha-beta judging a position by the lines of four each side can still make",
		Strategy:    Seed004Minimax{},
	},
}

// seedTree is a game tree as one of the reports' bots sees it: the moves
// in the bot's own order and the bot's own scores, from the point of view
// of the bot, the side to move at the root.
type seedTree interface {
	// children appends the moves of the current node to buf[:0] in the
	// order the bot searches them; none where the bot's game ends.
	children(buf []engine.Move) []engine.Move
	// play makes one of the current node's moves; undo takes it back.
	play(m engine.Move)
	undo()
	// value is the bot's score of the current node: its result at the
	// end of the bot's game, its heuristic elsewhere.
	value() int
}

// seedEntry is a slot of report 001's transposition table: a position's
// key and the value last found for it, in the iteration that found it.
type seedEntry struct {
	key       uint64
	value     int32
	iteration uint32
}

// seedInfinity is beyond every replica's scores.
const seedInfinity = math.MaxInt32

// seedTableMaxMiB bounds report 001's table (its Java HashMap grew
// without bound).
const seedTableMaxMiB = 16

// seedSearch is the plain alpha-beta minimax of the reports' listings,
// shared by the replicas: the bot maximises at even plies and minimises
// at odd ones, fail-soft, moves in the tree's order, a node's best move
// the first that scores best. It has none of the generic search's
// refinements (principal variation search, killers, history, reductions,
// a bound-aware table), whose absence is what the replicas reproduce;
// report 001's features are options.
type seedSearch struct {
	tree seedTree
	// key, if not nil, enables report 001's transposition table and
	// returns the current node's key.
	key   func() uint64
	table []seedEntry
	// pvFirst searches the previous iteration's principal variation
	// first (report 001's "best move heuristic").
	pvFirst bool

	iteration uint32
	limits    Limits
	clock     clock.Manager // when to stop, and the nodes so far
	count     clock.Counter // the nodes since the last check-in
	moves     [maxPly][engine.MaxMoves]engine.Move
	pv        [maxPly + 1][maxPly]engine.Move
	pvLen     [maxPly + 1]int
	prevPV    []engine.Move
}

// run searches the tree to each of depths in turn until the context or
// the limits stop it. The answer is the deepest complete iteration's
// move; failing that, the best move the interrupted first iteration
// found; failing that, the tree's first move. Scores are divided by unit
// to give the game's (or the report's) unit; a complete iteration at
// least exactDepth deep is exact (0: never).
func (s *seedSearch) run(ctx context.Context, limits Limits, depths []int, unit, exactDepth int) Result {
	first := s.tree.children(s.moves[0][:0])[0]
	res := Result{Move: first, PV: []engine.Move{first}}
	if ctx.Err() != nil {
		return res
	}
	s.limits = limits
	s.clock.Start(ctx, limits.Nodes, nil)
	s.count = clock.Counter{M: &s.clock}
	if s.key != nil {
		mib := limits.HashMiB
		if mib <= 0 {
			mib = DefaultHashMiB
		}
		s.table = make([]seedEntry, min(mib, seedTableMaxMiB)<<20/16) // 16 bytes an entry: a power of two
	}
	for _, depth := range depths {
		s.iteration++ // a fresh table: entries of earlier iterations no longer match
		move, score, complete := s.root(depth)
		if complete || (res.Depth == 0 && move != engine.NoMove) {
			res.Move, res.Score = move, score/unit
			res.PV = append(res.PV[:0], s.pv[0][:s.pvLen[0]]...)
			s.prevPV = append(s.prevPV[:0], res.PV...)
		}
		if !complete {
			break
		}
		res.Depth = depth
		res.Exact = exactDepth > 0 && depth >= exactDepth
		if limits.Progress != nil {
			limits.Progress(Progress{
				Depth: res.Depth, Move: res.Move, Score: res.Score, Exact: res.Exact,
				Nodes: s.count.Total(), Elapsed: s.clock.Elapsed(),
			})
		}
	}
	s.count.Flush()
	res.Nodes = s.clock.Nodes()
	return res
}

// root searches the root to depth and returns its best move and score
// and whether every move was searched; interrupted, it returns the best
// move of those searched (NoMove if none was).
func (s *seedSearch) root(depth int) (engine.Move, int, bool) {
	s.count.Tick()
	moves := s.order(0, s.tree.children(s.moves[0][:0]), true)
	best, bestScore := engine.NoMove, -seedInfinity
	for _, m := range moves {
		s.tree.play(m)
		score := s.minimax(depth-1, 1, bestScore, seedInfinity, s.follows(0, m, true))
		s.tree.undo()
		if s.clock.Stopped() {
			return best, bestScore, false
		}
		if score > bestScore {
			best, bestScore = m, score
			s.updatePV(0, m)
		}
	}
	return best, bestScore, true
}

// minimax returns the bot's value of the current node searched depth
// plies deep with the window (alpha, beta); onPV says that the moves so
// far are the previous iteration's principal variation.
func (s *seedSearch) minimax(depth, ply, alpha, beta int, onPV bool) int {
	s.count.Tick()
	s.pvLen[ply] = 0
	if s.clock.Stopped() {
		return 0 // unwinding: the value is thrown away
	}
	if depth <= 0 || ply >= maxPly {
		return s.tree.value()
	}
	var key uint64
	if s.key != nil {
		key = s.key()
		e := &s.table[key&uint64(len(s.table)-1)]
		if e.key == key && e.iteration == s.iteration {
			return int(e.value)
		}
	}
	moves := s.tree.children(s.moves[ply][:0])
	if len(moves) == 0 {
		return s.tree.value()
	}
	moves = s.order(ply, moves, onPV)
	maximise := ply%2 == 0
	best := seedInfinity
	if maximise {
		best = -seedInfinity
	}
	for _, m := range moves {
		s.tree.play(m)
		v := s.minimax(depth-1, ply+1, alpha, beta, s.follows(ply, m, onPV))
		s.tree.undo()
		if s.clock.Stopped() {
			return 0
		}
		if maximise && v > best || !maximise && v < best {
			best = v
			s.updatePV(ply, m)
		}
		if maximise {
			alpha = max(alpha, best)
		} else {
			beta = min(beta, best)
		}
		if alpha >= beta {
			break
		}
	}
	if s.key != nil {
		// Report 001's bug: after a cut-off best is only a bound, but the
		// table keeps it as the node's value.
		s.table[key&uint64(len(s.table)-1)] = seedEntry{key: key, value: int32(best), iteration: s.iteration}
	}
	return best
}

// order moves the previous principal variation's move to the front when
// the search is on it and pvFirst is set.
func (s *seedSearch) order(ply int, moves []engine.Move, onPV bool) []engine.Move {
	if !s.pvFirst || !onPV || ply >= len(s.prevPV) {
		return moves
	}
	if i := slices.Index(moves, s.prevPV[ply]); i > 0 {
		m := moves[i]
		copy(moves[1:i+1], moves[:i])
		moves[0] = m
	}
	return moves
}

// follows reports whether the child reached by m is still on the
// previous principal variation.
func (s *seedSearch) follows(ply int, m engine.Move, onPV bool) bool {
	return onPV && ply < len(s.prevPV) && s.prevPV[ply] == m
}

func (s *seedSearch) updatePV(ply int, m engine.Move) {
	s.pv[ply][0] = m
	n := copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
	s.pvLen[ply] = n + 1
}

// capDepth applies Limits.Depth to a search depth.
func capDepth(depth int, limits Limits) int {
	if limits.Depth > 0 {
		return min(depth, limits.Depth)
	}
	return depth
}

// positionTree is a seedTree over an engine.Position: the game's own
// moves, ordered by sort if not nil, scored by score.
type positionTree struct {
	pos   engine.Position
	sort  func(moves []engine.Move)
	score func(p engine.Position) int
}

func (t *positionTree) children(buf []engine.Move) []engine.Move {
	moves := t.pos.Moves(buf)
	if t.sort != nil {
		t.sort(moves)
	}
	return moves
}

func (t *positionTree) play(m engine.Move) { t.pos.Play(m) }
func (t *positionTree) undo()              { t.pos.Undo() }
func (t *positionTree) value() int         { return t.score(t.pos) }
