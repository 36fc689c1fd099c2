package strategies

import (
	"context"
	"fmt"
	"sync"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/strategies/internal/alphabeta"
	"github.com/gambitbot/gambit/strategies/internal/clock"
	"github.com/gambitbot/gambit/strategies/internal/ttable"
)

// Internal scores fit the transposition table's 16 bits.
const (
	infinity = alphabeta.Infinity
	maxPly   = 256 // more plies than any game lasts (Othello: 60 discs and up to 60 passes; a 15×15 board fills in 225)
)

// rules is what the generic search knows of one game. Scores are in
// internal units: the game's unit times unit().
type rules interface {
	// unit is the number of internal units in one unit of the game's
	// score.
	unit() int
	// terminal returns the exact score of a finished position for the side
	// to move.
	terminal(p engine.Position) int
	// evaluate estimates an unfinished position for the side to move.
	evaluate(p engine.Position) int
	// orderBonus ranks the moves of p for search order: higher first,
	// before the history heuristic breaks ties. Values in 0–255.
	orderBonus(p engine.Position, m engine.Move) int
}

// opening is implemented by rules whose game has an opening book
// (games.AI.Book), which the search answers from before searching.
type opening interface {
	// book returns the book's move in p, the value of p in internal
	// units and the depth the book searched it to; ok false when p is not
	// in the book. seed chooses among near-equal moves (games.AI.Book).
	book(p engine.Position, seed uint64) (m engine.Move, units, depth int, ok bool)
}

// exactSolver is implemented by rules that have a dedicated solver for
// the iteration that searches to the end of the game.
type exactSolver interface {
	// solve returns the best move, its exact score in internal units, and
	// whether the solve finished before the search was told to stop. first
	// and guess are the heuristic search's best move and score. It may put
	// a principal variation in t.pv[0] and t.pvLen[0] (the best move alone
	// otherwise).
	solve(t *thread, first engine.Move, guess int) (engine.Move, int, bool)
	// reach says when to solve rather than deepen: in p, once a heuristic
	// iteration of at least depth plies has completed, if ok.
	reach(p engine.Position) (depth int, ok bool)
	// sharesTable reports whether the solver keeps its results in the
	// search's transposition table, so that helper threads solving the
	// same position speed the main thread up.
	sharesTable() bool
}

// searchConfig selects the features of a search, so that seed replicas
// and tests can switch them off.
type searchConfig struct {
	// lmr enables late-move reductions outside exact solving.
	lmr bool
}

// search is one call of Search: what its threads share.
type search struct {
	cfg     searchConfig
	rules   rules
	tt      *ttable.Table
	hashMiB int
	limits  Limits
	fresh   bool          // reproducible: a node cap and no deadline; tables start empty
	clock   clock.Manager // when to stop, and the nodes checked in so far
}

// thread is one searching goroutine with its own copy of the position
// and its own move-ordering tables.
type thread struct {
	s       *search
	pos     engine.Position
	count   clock.Counter // nodes since the last check-in
	exact   bool          // this iteration solves to the end: no reductions
	search  alphabeta.Search[engine.Position, engine.Move, *thread]
	moves   [maxPly][engine.MaxMoves]engine.Move
	listed  [maxPly]int // the moves of each ply's list
	order   [maxPly][engine.MaxMoves]int32
	killers [maxPly]alphabeta.Killers[engine.Move]
	history alphabeta.History
	pv      [maxPly + 1][maxPly]engine.Move
	pvLen   [maxPly + 1]int
}

// runSearch is the shared body of the iterative alpha-beta strategies.
func runSearch(ctx context.Context, pos engine.Position, limits Limits, r rules, cfg searchConfig) (Result, error) {
	moves := pos.Moves(make([]engine.Move, 0, engine.MaxMoves))
	if len(moves) == 0 {
		return Result{}, fmt.Errorf("strategies: search %v: %w", pos, ErrNoMoves)
	}
	// The fallback answer, ready before any search: the best-looking move.
	fallback := moves[0]
	for _, m := range moves[1:] {
		if r.orderBonus(pos, m) > r.orderBonus(pos, fallback) {
			fallback = m
		}
	}
	res := Result{Move: fallback, PV: []engine.Move{fallback}}
	if ctx.Err() != nil {
		return res, nil
	}
	if b, ok := r.(opening); ok {
		// The book's depth stands for the search it saves; a search
		// capped shallower than that searches (the book's own builder
		// does).
		if m, units, depth, ok := b.book(pos, limits.Seed); ok && pos.Legal(m) && (limits.Depth == 0 || limits.Depth >= depth) {
			res = Result{Move: m, Score: units / r.unit(), Units: units, Depth: depth, PV: []engine.Move{m}}
			if limits.Progress != nil {
				limits.Progress(Progress{Depth: depth, Move: m, Score: res.Score})
			}
			return res, nil
		}
	}
	s := &search{cfg: cfg, rules: r, limits: limits}
	s.clock.Start(ctx, limits.Nodes, nil)
	s.hashMiB = limits.HashMiB
	if s.hashMiB <= 0 {
		s.hashMiB = DefaultHashMiB
	}
	s.tt = borrowTable(s.hashMiB)
	defer tables.put(s.hashMiB, s.tt)
	if _, timed := ctx.Deadline(); limits.Nodes > 0 && !timed {
		s.fresh = true
		s.tt.Clear() // what earlier searches left would change the answer
	}
	threads := max(limits.Threads, 1)
	maxDepth := pos.PliesLeft()
	if limits.Depth > 0 {
		maxDepth = min(maxDepth, limits.Depth)
	}

	// Every thread's copy of pos is made here, before any runs: a
	// position need not be safe to copy from several goroutines.
	ts := make([]*thread, threads)
	for i := range ts {
		ts[i] = s.newThread(pos)
	}
	alphabeta.Threads(&s.clock, threads,
		func() { ts[0].iterate(maxDepth, 0, &res) },
		func(i int) { ts[i].iterate(maxDepth, i%2, nil) })
	for _, t := range ts {
		t.s, t.pos, t.search = nil, nil, alphabeta.Search[engine.Position, engine.Move, *thread]{}
		threadPool.Put(t)
	}
	res.Nodes = s.clock.Nodes()
	return res, nil
}

// threadPool keeps threads between searches: a thread's tables are about
// half a megabyte, and a bot or a test that runs thousands of short
// searches (Tic-Tac-Toe's, an AI's reply in an endgame) would otherwise
// allocate and clear them every time.
var threadPool = sync.Pool{New: func() any { return new(thread) }}

// newThread returns a thread of s on its own copy of pos, with the move
// ordering's memory (killers, history) and the principal variation empty,
// as a new one: a search's node count must not depend on the searches
// before it. The move lists are scratch, written before they are read.
func (s *search) newThread(pos engine.Position) *thread {
	t := threadPool.Get().(*thread)
	t.s, t.pos, t.count, t.exact = s, pos.Clone(), clock.Counter{M: &s.clock}, false
	t.search = alphabeta.Search[engine.Position, engine.Move, *thread]{Game: t, Clock: &s.clock, None: engine.NoMove, InPlace: true}
	t.killers = [maxPly]alphabeta.Killers[engine.Move]{}
	t.history = alphabeta.History{}
	t.pvLen = [maxPly + 1]int{}
	return t
}

// iterate deepens from depth 1 (plus skew) to maxDepth until told to stop.
// The main thread passes res, which it keeps up to date with each
// completed iteration.
func (t *thread) iterate(maxDepth, skew int, res *Result) {
	s := t.s
	solver, hasSolver := s.rules.(exactSolver)
	for depth := 1 + skew; depth <= maxDepth && !s.clock.Stopped(); depth++ {
		t.exact = depth >= t.pos.PliesLeft()
		var move engine.Move
		var score int
		var complete bool
		if hasSolver && t.exact {
			if res == nil {
				if solver.sharesTable() { // Lazy SMP: fill the shared table
					solver.solve(t, engine.NoMove, 0)
				}
				break
			}
			t.pvLen[0] = 0
			move, score, complete = solver.solve(t, res.Move, res.Score*s.rules.unit())
			if !complete {
				break // the solve ran out of time: keep the heuristic answer
			}
			if t.pvLen[0] == 0 { // the solver gave no principal variation
				t.pv[0][0], t.pvLen[0] = move, 1
			}
		} else {
			move, score, complete = t.search.Root(t.pos, depth, t.rootHint(res))
		}
		// Once the solver is within reach, solve next rather than deepen.
		jump := false
		if hasSolver && complete && !t.exact && maxDepth == t.pos.PliesLeft() {
			minDepth, ok := solver.reach(t.pos)
			jump = ok && depth >= minDepth
		}
		if res == nil {
			if jump {
				depth = maxDepth - 1
			}
			continue
		}
		if !complete && move == engine.NoMove {
			break // interrupted before the first move was searched
		}
		res.Move, res.Score, res.Units = move, score/s.rules.unit(), score
		res.PV = append(res.PV[:0], t.pv[0][:t.pvLen[0]]...)
		if complete {
			res.Depth = depth
			res.Exact = t.exact
		}
		if s.limits.Progress != nil {
			s.limits.Progress(Progress{
				Depth: res.Depth, Move: res.Move, Score: res.Score, Exact: res.Exact,
				Nodes: t.count.Total(), Elapsed: s.clock.Elapsed(),
			})
		}
		if !complete || res.Exact {
			break
		}
		if jump {
			depth = maxDepth - 1
		}
	}
	t.count.Flush()
}

// rootHint is the move to search first at the root: the previous
// iteration's best.
func (t *thread) rootHint(res *Result) engine.Move {
	if res != nil && res.Depth > 0 {
		return res.Move
	}
	if hit, ok := t.s.tt.Probe(t.pos.Hash()); ok {
		return engine.Move(hit.Move)
	}
	return engine.NoMove
}

// The thread is the generic search's alphabeta.Game: positions are the
// thread's one engine.Position, played and taken back.

// Enter implements alphabeta.Game: a stopped search, a finished game,
// the depth or the ply limit reached, and the table end the search. While
// solving exactly only what a solve stored settles a window.
func (t *thread) Enter(pos engine.Position, depth, ply, alpha, beta int) (engine.Move, int, bool) {
	t.pvLen[ply] = 0
	t.count.Tick()
	switch {
	case t.s.clock.Stopped():
		return engine.NoMove, 0, true // unwinding: the value is thrown away
	case pos.Terminal():
		return engine.NoMove, t.s.rules.terminal(pos), true
	case depth <= 0 || ply >= maxPly:
		return engine.NoMove, t.s.rules.evaluate(pos), true
	}
	hit, ok := t.s.tt.Probe(pos.Hash())
	if !ok {
		return engine.NoMove, 0, false
	}
	settles := hit.Depth >= depth && (hit.Solved || !t.exact) && hit.Bound.Settles(hit.Score, alpha, beta)
	return engine.Move(hit.Move), hit.Score, settles
}

// Moves implements alphabeta.Game.
func (t *thread) Moves(pos engine.Position, ply int, hint engine.Move) {
	moves := pos.Moves(t.moves[ply][:0])
	t.sortMoves(ply, moves, hint)
	t.listed[ply] = len(moves)
}

// Play implements alphabeta.Game: no move is pruned; late ones are
// reduced (see reduction).
func (t *thread) Play(pos engine.Position, ply, i, depth int, _ engine.Move) (engine.Move, engine.Position, int, int, bool) {
	if i >= t.listed[ply] {
		return engine.NoMove, pos, 0, 0, false
	}
	m := t.moves[ply][i]
	pos.Play(m)
	return m, pos, 0, t.reduction(depth, i, m, ply), true
}

// Undo implements alphabeta.Game.
func (t *thread) Undo(pos engine.Position) { pos.Undo() }

// Raise implements alphabeta.Game.
func (t *thread) Raise(ply int, m engine.Move) {
	t.pv[ply][0] = m
	n := copy(t.pv[ply][1:], t.pv[ply+1][:t.pvLen[ply+1]])
	t.pvLen[ply] = n + 1
}

// Cutoff implements alphabeta.Game.
func (t *thread) Cutoff(pos engine.Position, ply int, m engine.Move, depth int) {
	t.killers[ply].Add(m)
	t.history.Add(int(pos.SideToMove()), int(m&255), depth)
}

// Store implements alphabeta.Game: an exact solve's results are solved.
func (t *thread) Store(pos engine.Position, m engine.Move, score, depth int, b ttable.Bound) {
	t.s.tt.Store(pos.Hash(), uint16(m), score, depth, b, t.exact)
}

// reduction is the late-move reduction for the i-th move at this depth:
// none at the root, in exact solving or for the killers, otherwise
// alphabeta.Reduction.
func (t *thread) reduction(depth, i int, m engine.Move, ply int) int {
	if ply == 0 || !t.s.cfg.lmr || t.exact || m == t.killers[ply][0] || m == t.killers[ply][1] {
		return 0
	}
	return alphabeta.Reduction(depth, i)
}

// sortMoves orders moves: the hint (hash or previous best move) first,
// then killers, then by the game's bonus and the history heuristic.
func (t *thread) sortMoves(ply int, moves []engine.Move, hint engine.Move) {
	order := t.order[ply][:len(moves)]
	side := t.pos.SideToMove()
	for i, m := range moves {
		var o int32
		switch m {
		case hint:
			o = 1 << 30
		case t.killers[ply][0]:
			o = 1 << 29
		case t.killers[ply][1]:
			o = 1<<29 - 1
		default:
			o = int32(t.s.rules.orderBonus(t.pos, m))<<20 + min(t.history[side][m&255], 1<<20-1)
		}
		order[i] = o
	}
	// Insertion sort: move lists are short, and it sorts both slices.
	for i := 1; i < len(moves); i++ {
		m, o := moves[i], order[i]
		j := i
		for ; j > 0 && order[j-1] < o; j-- {
			moves[j], order[j] = moves[j-1], order[j-1]
		}
		moves[j], order[j] = m, o
	}
}
