// Package adjsearch is Gambit's specialised Adjacency search: the engine
// of the minimax strategy for Adjacency, and its exact endgame solver.
//
// An Engine owns its transposition table and plays on
// engine/adjacency.Board values (two bitboards, the move a mask lookup,
// undo free) with incremental Zobrist keys: no interface call, allocation
// or whole-board hash on the path from node to node. Moves are generated
// and ordered on bitboards (the captures of every empty cell counted at
// once by a bit-sliced adder). The one call through an interface is the
// evaluation at the leaves of a heuristic search, an Evaluator, so that
// another evaluation — a learned one — can replace the plug-in's
// hand-written one without touching the search.
//
// Search is iterative deepening with principal variation search,
// late-move reductions, killer and history heuristics and Lazy SMP over
// Options.Threads threads sharing the table; once the end of the game is
// within reach of the time left it solves the position exactly (see
// solve.go).
//
// A game that fills the board (28 rounds) is searched differently below
// the root: its result is the settled cells' difference plus a value of
// the set of empty cells alone (fill.go), so both the heuristic search and
// the solver play that set game on one bitboard, keyed by the empty
// cells, where every order of the same moves transposes. There the leaves
// are valued by a learned estimate of the set's value (filleval.go), not
// by the Evaluator.
//
// The table's size follows the time limit, so that a 20 ms move does not
// first page in 64 MiB, and an Engine keeps it from one search to the
// next.
package adjsearch

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	adjgame "github.com/gambitbot/gambit/games/adjacency"
	"github.com/gambitbot/gambit/strategies/internal/alphabeta"
	"github.com/gambitbot/gambit/strategies/internal/clock"
	"github.com/gambitbot/gambit/strategies/internal/ttable"
)

// Unit is the number of evaluation units in one mark.
const Unit = adjgame.Unit

// Evaluator estimates positions for a heuristic search.
type Evaluator interface {
	// Evaluate estimates the unfinished position b for its side to move, as
	// the final mark difference in Units (sixteenths of a mark). It is
	// called from every search thread at once, so it must be safe for
	// concurrent use. Values beyond ±MaxEval are clamped.
	Evaluate(b adjacency.Board) int
}

// EvalFunc adapts a function to the Evaluator interface.
type EvalFunc func(adjacency.Board) int

// Evaluate implements Evaluator.
func (f EvalFunc) Evaluate(b adjacency.Board) int { return f(b) }

// Default is the plug-in's hand-written evaluation (games/adjacency).
var Default Evaluator = EvalFunc(adjgame.Evaluate)

// MaxEval bounds an evaluation, in Units.
const MaxEval = 8000

// Internal bounds: scores fit the table's 16 bits.
const (
	infinity = alphabeta.Infinity
	maxPly   = adjacency.Cells + 1
)

// DefaultMaxTableMiB caps the table when Options do not.
const DefaultMaxTableMiB = 64

// Options bound a search beyond its context's deadline.
type Options struct {
	// Depth caps the nominal depth in plies; 0 means none. A cap of at
	// least the plies left solves the position exactly.
	Depth int
	// Nodes caps the nodes searched (checked every 1,024 nodes); 0 means
	// none. A search without deadline (capped by nodes or depth, or
	// solving) starts from an empty table, so on one thread it replays
	// exactly: the same move, score, line and nodes.
	Nodes uint64
	// Threads is the number of search threads (Lazy SMP); 0 means one.
	Threads int
	// MaxTableMiB caps the table; 0 means DefaultMaxTableMiB. Within the
	// cap the table is sized by the time limit (see tableBytes).
	MaxTableMiB int
	// Traps: once the position is solved, spend the time left choosing,
	// among the moves of the best exact value, one that a shallow
	// search's reply gets wrong (see trap.go). The value stays exact;
	// only the move among equal ones changes.
	Traps bool
	// Book: in a game that fills the board, play the opening book's move
	// where the book knows better than this search could (book.go), at
	// once and without searching.
	Book bool
	// Progress, if not nil, is called from the searching goroutine after
	// each completed iteration with the answer so far.
	Progress func(Result)
}

// Result is a search's answer.
type Result struct {
	// Move is the chosen move, always legal.
	Move engine.Move
	// Score is the value for the side to move in marks: the exact final
	// mark difference when Exact, otherwise the estimate.
	Score int
	// Exact reports that Score is the value under perfect play.
	Exact bool
	// Depth is the deepest completed iteration (the plies left when
	// Exact).
	Depth int
	// Nodes counts the positions searched.
	Nodes uint64
	// PV is the expected line, starting with Move.
	PV []engine.Move
	// Elapsed is the time since the search started.
	Elapsed time.Duration
}

// ErrGameOver is the error of a search of a finished game.
var ErrGameOver = errors.New("adjsearch: the game is over: no legal moves")

// config switches features off, for tests that compare with plain
// searches.
type config struct {
	// plain turns off what makes a depth-limited search differ from plain
	// alpha-beta to the same depth: reductions and pruning of late moves.
	plain bool
	// boardKeys turns off the set game of games that fill the board
	// (fill.go): the search and the solver then play them on boards, as
	// any other.
	boardKeys bool
}

// Engine is a searcher with its own table, evaluation and move-ordering
// knowledge. Searches on one Engine run one at a time (Search waits for
// the one before); use one Engine per concurrent game.
type Engine struct {
	eval Evaluator
	cfg  config
	mu   sync.Mutex
	tt   *ttable.Table
	// clock, if not nil, replaces time.Now for tests: it is told the
	// nodes searched so far, so that a test can move time with the
	// search's work instead of the machine's speed.
	clock func(nodes uint64) time.Time
}

// New returns an Engine that evaluates with eval (Default if nil).
func New(eval Evaluator) *Engine {
	if eval == nil {
		eval = Default
	}
	return &Engine{eval: eval}
}

// run is one call of Search: what its threads share.
type run struct {
	e     *Engine
	tt    *ttable.Table
	opts  Options
	clock clock.Manager // when to stop, and the nodes so far
	// fill: the game fills the board, and below the root the search and
	// the solver play the set game (see fill.go).
	fill bool
}

// solverRun is a run on tt under ctx without caps or threads, for calling
// the solvers directly rather than through Search.
func solverRun(ctx context.Context, e *Engine, tt *ttable.Table, fill bool) *run {
	r := &run{e: e, tt: tt, fill: fill}
	r.clock.Start(ctx, 0, nil)
	return r
}

// Search chooses a move for the side to move in b within ctx's deadline
// and the options' caps. An expired context gets the capture-greediest
// move at once. It fails only for a finished game.
func (e *Engine) Search(ctx context.Context, b adjacency.Board, o Options) (Result, error) {
	if b.Terminal() {
		return Result{}, fmt.Errorf("adjsearch: search %v: %w", b, ErrGameOver)
	}
	res, _ := e.search(ctx, b, o)
	return res, nil
}

// search is Search on an unfinished b; it also returns the score in
// Units (in marks, times Unit, when exact), which tests compare with plain
// searches.
func (e *Engine) search(ctx context.Context, b adjacency.Board, o Options) (Result, int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	r := &run{e: e, opts: o, fill: fills(b) && !e.cfg.boardKeys}
	r.clock.Start(ctx, o.Nodes, e.clock)
	fallback := greediest(b)
	res := Result{Move: engine.Move(fallback), PV: []engine.Move{engine.Move(fallback)}}
	if ctx.Err() != nil {
		return res, 0
	}
	if m, en, ok := r.useBook(b); ok {
		res = Result{Move: m, Score: en.Score + settled(b), Depth: en.Depth, PV: []engine.Move{m}, Elapsed: r.clock.Elapsed()}
		if o.Progress != nil {
			o.Progress(res)
		}
		return res, res.Score * Unit
	}
	r.tt = e.table(r.clock.Deadline(), r.clock.Started(), o)
	threads := max(o.Threads, 1)
	maxDepth := b.PliesLeft()
	if o.Depth > 0 {
		maxDepth = min(maxDepth, o.Depth)
	}
	main := newThread(r)
	alphabeta.Threads(&r.clock, threads,
		func() { main.iterate(b, maxDepth, 0, &res) },
		func(i int) { newThread(r).iterate(b, maxDepth, i%2, nil) })
	res.Nodes = r.clock.Nodes()
	res.Elapsed = r.clock.Elapsed()
	return res, main.units
}

// tableBytes is the table size for a search: with a deadline,
// tableBytesPerSecond per thread-second, rounded down to a power of two;
// with a node cap and no deadline, 16 bytes a node; with neither, the
// cap. Never below 256 KiB or above the cap.
func tableBytes(budget time.Duration, nodes uint64, threads, capMiB int) int {
	limit := capMiB << 20
	want := limit
	switch {
	case budget > 0:
		want = int(min(float64(limit), budget.Seconds()*float64(threads)*tableBytesPerSecond))
	case nodes > 0:
		want = int(min(uint64(limit), nodes*16))
	}
	return max(min(want, limit), 256<<10)
}

// tableBytesPerSecond is the table a thread gets for each second of its
// deadline: 16 MiB, a million slots, one for every five nodes at the
// engine's speed here (most nodes are leaves, which are not stored).
// Larger tables cost more than they save: from the 28-round opening to
// depth 16 on one thread, 64 MiB took 1.06–1.12 s of user CPU time and
// 16 MiB 0.70–0.77 s (TLB and cache misses on the probes, and the
// first touch of every page), for 1% more nodes.
const tableBytesPerSecond = 16 << 20

// table returns the table for a search: the Engine's own if it is large
// enough (and within the cap), else a new one of the right size. Its
// entries stay true from one search to the next, so the table is kept; a
// search without deadline clears it to be reproducible.
func (e *Engine) table(deadline, now time.Time, o Options) *ttable.Table {
	capMiB := o.MaxTableMiB
	if capMiB <= 0 {
		capMiB = DefaultMaxTableMiB
	}
	var budget time.Duration
	if !deadline.IsZero() {
		budget = max(deadline.Sub(now), time.Millisecond)
	}
	want := tableBytes(budget, o.Nodes, max(o.Threads, 1), capMiB)
	if e.tt == nil || e.tt.Bytes() < want/2 || e.tt.Bytes() > capMiB<<20 {
		e.tt = newTable(want)
	} else if deadline.IsZero() {
		e.tt.Clear()
	}
	e.tt.Age()
	return e.tt
}

// greediest is the move capturing most marks, ties to the lowest cell:
// the answer ready before any search.
func greediest(b adjacency.Board) int {
	_, other := b.Marks()
	sets := adjacency.CaptureSets(other)
	empty := empties(b)
	for k := 4; k > 0; k-- {
		if c := sets[k] & empty; c != 0 {
			return bits.TrailingZeros64(c)
		}
	}
	return bits.TrailingZeros64(empty)
}

func empties(b adjacency.Board) uint64 {
	mover, other := b.Marks()
	return ^(mover | other)
}

// diff is the mark difference for the side to move.
func diff(b adjacency.Board) int {
	mover, other := b.Marks()
	return bits.OnesCount64(mover) - bits.OnesCount64(other)
}
