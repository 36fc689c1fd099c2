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

// localStrategies are the local-search players of reports 000 and 001.
var localStrategies = []Info{
	{
		Name:        "greedy",
		DisplayName: "Greedy",
		Blurb:       "takes the most it can right now, never looks ahead",
		Games:       allGames,
		Description: "one ply: the move capturing most marks (elsewhere the best-looking move), ties broken at random",
		Strategy:    Greedy{},
	},
	{
		Name:        "hill-steepest",
		DisplayName: "Hill climber",
		Blurb:       "improves a three-move plan step by step",
		Games:       allGames,
		Description: "steepest-ascent hill climbing with restarts over 3-move plans against greedy replies",
		Strategy:    HillClimbing{Variant: Steepest},
	},
	{
		Name:        "hill-sideways",
		DisplayName: "Patient climber",
		Blurb:       "a hill climber that may step sideways when stuck",
		Games:       allGames,
		Description: "hill climbing allowing up to 10 sideways moves, with restarts, over 3-move plans",
		Strategy:    HillClimbing{Variant: Sideways},
	},
	{
		Name:        "hill-stochastic",
		DisplayName: "Wandering climber",
		Blurb:       "a hill climber taking any step up at random",
		Games:       allGames,
		Description: "stochastic hill climbing (a random uphill neighbour) with restarts over 3-move plans",
		Strategy:    HillClimbing{Variant: Stochastic},
	},
	{
		Name:        "annealing",
		DisplayName: "Annealer",
		Blurb:       "tries plans, sometimes worse ones, to avoid dead ends",
		Games:       allGames,
		Description: "simulated annealing over 3-move plans against greedy replies, reheating until time runs out",
		Strategy:    HillClimbing{Variant: Annealing},
	},
	{
		Name:        "beam",
		DisplayName: "Beam searcher",
		Blurb:       "follows the best few lines to the end of the game",
		Games:       allGames,
		Description: "local beam search to the end of the game with minimax backup, widening the beam while time lasts",
		Strategy:    Beam{},
	},
}

// defaultNodes caps the evaluations of a local or genetic search that has
// neither a deadline nor Limits.Nodes, so that it ends.
const defaultNodes = 1 << 20

// Greedy is the bot that report 000's hill climbers (section 1.3,
// "Algoritma Local Search") really are: it looks one ply ahead and plays
// the move that captures most opponent marks (the plug-in's Gain:
// Adjacency's Captures), breaking ties at random. In the other games it
// plays the move whose position evaluates best for it, a winning move
// first. Ties are broken by a PCG generator seeded from Limits.Seed.
type Greedy struct{}

// Search implements Strategy.
func (Greedy) Search(ctx context.Context, pos engine.Position, limits Limits) (Result, error) {
	r, err := newRun(ctx, pos, limits, "greedy")
	if err != nil {
		return Result{}, err
	}
	m, v := r.greedy()
	return r.result(m, v, 1, []engine.Move{m}), nil
}

// scorer evaluates the positions of one game for the side to move, in the
// internal units of its rules.
type scorer struct {
	rules rules
	eval  func(engine.Position) int
	gain  func(engine.Position, engine.Move) int // the plug-in's Gain, or nil
}

// scorerFor returns the scorer of pos's game: its plug-in's Local
// evaluation if it has one, its Evaluate otherwise.
func scorerFor(pos engine.Position) (scorer, bool) {
	g := catalog.Of(pos)
	if g == nil || g.AI == nil {
		return scorer{}, false
	}
	eval := g.AI.Evaluate
	if g.AI.Local != nil {
		eval = g.AI.Local
	}
	return scorer{gameRules{g.AI}, eval, g.AI.Gain}, true
}

// value scores p for the side to move: exactly when the game is over.
func (s scorer) value(p engine.Position) int {
	if p.Terminal() {
		return s.rules.terminal(p)
	}
	return s.eval(p)
}

// run is one call of Search of a local or genetic strategy: its own copy
// of the position, random generator, node count and stop condition, and
// a move buffer per ply so that nothing allocates in the inner loops.
type run struct {
	sc       scorer
	pos      engine.Position
	side     engine.Side // the side to move at the root
	rng      *rand.Rand
	ctx      context.Context
	deadline time.Time
	maxNodes uint64
	progress func(Progress)
	started  time.Time
	nodes    uint64
	stopped  bool
	ply      int
	bufs     [maxPly][engine.MaxMoves]engine.Move
}

// newRun checks pos and sets up a search of the named strategy.
func newRun(ctx context.Context, pos engine.Position, limits Limits, name string) (*run, error) {
	sc, ok := scorerFor(pos)
	if !ok {
		return nil, fmt.Errorf("strategies: %s: %T: %w", name, pos, ErrUnsupported)
	}
	r := &run{sc: sc, pos: pos.Clone(), side: pos.SideToMove(), ctx: ctx, progress: limits.Progress, started: time.Now()}
	if len(r.legal()) == 0 {
		return nil, fmt.Errorf("strategies: %s %v: %w", name, pos, ErrNoMoves)
	}
	seed := limits.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	r.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var timed bool
	r.deadline, timed = ctx.Deadline()
	switch {
	case limits.Nodes > 0:
		r.maxNodes = limits.Nodes
	case !timed:
		r.maxNodes = defaultNodes
	default:
		r.maxNodes = math.MaxUint64
	}
	r.checkClock()
	return r, nil
}

// legal returns the legal moves of the current position in this ply's
// buffer: valid until the next call at the same ply.
func (r *run) legal() []engine.Move { return r.pos.Moves(r.bufs[r.ply][:0]) }

func (r *run) play(m engine.Move) {
	r.pos.Play(m)
	r.ply++
}

func (r *run) undo() {
	r.pos.Undo()
	r.ply--
}

// eval scores the current position for its side to move, counting a node
// and looking at the clock every 256 nodes.
func (r *run) eval() int {
	r.tick()
	return r.sc.value(r.pos)
}

// tick counts a node and decides whether to stop.
func (r *run) tick() {
	r.nodes++
	if r.nodes >= r.maxNodes {
		r.stopped = true
	} else if r.nodes&255 == 0 {
		r.checkClock()
	}
}

// checkClock stops the search once the deadline has passed or the context
// is done.
func (r *run) checkClock() {
	if (!r.deadline.IsZero() && !time.Now().Before(r.deadline)) || r.ctx.Err() != nil {
		r.stopped = true
	}
}

// rootValue turns the value v of the current position for its side to
// move into the root side's point of view.
func (r *run) rootValue(v int) int {
	if r.pos.SideToMove() != r.side {
		return -v
	}
	return v
}

// greedy returns Greedy's move and its one-ply value for the mover. In a
// game whose plug-in has Gain (Adjacency: the marks captured) the move
// gains most; elsewhere it evaluates best. Ties are broken uniformly at
// random.
func (r *run) greedy() (engine.Move, int) {
	gain := r.sc.gain
	var best engine.Move
	bestKey, ties := math.MinInt, 0
	for _, m := range r.legal() {
		var key int
		if gain != nil {
			r.tick()
			key = gain(r.pos, m)
		} else {
			r.play(m)
			key = -r.eval()
			r.undo()
		}
		if key > bestKey {
			bestKey, ties = key, 0
		}
		if key == bestKey {
			ties++
			if r.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	r.play(best)
	v := -r.eval()
	r.undo()
	return best, v
}

// bestByEval returns the move whose position evaluates best for the side
// to move, the first in move order on ties: the reply model of the plans.
func (r *run) bestByEval() engine.Move {
	moves := r.legal()
	best, bestV := moves[0], math.MinInt
	for _, m := range moves {
		r.play(m)
		v := -r.eval()
		r.undo()
		if v > bestV {
			best, bestV = m, v
		}
	}
	return best
}

// result reports a search's answer; v is in internal units for the root
// side.
func (r *run) result(m engine.Move, v, depth int, pv []engine.Move) Result {
	return Result{Move: m, Score: v / r.sc.rules.unit(), Depth: depth, Nodes: r.nodes, PV: pv}
}

// report calls the progress callback, if any, with the current answer.
func (r *run) report(m engine.Move, v, depth int) {
	if r.progress != nil {
		r.progress(Progress{Depth: depth, Move: m, Score: v / r.sc.rules.unit(), Nodes: r.nodes, Elapsed: time.Since(r.started)})
	}
}
