package puzzles

import (
	"container/heap"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/slidingtile"
)

// TileSolver is a named search for the sliding-tile puzzles.
type TileSolver struct {
	// Name is the stable name the command line uses.
	Name string
	// Description is one line for people.
	Description string
	// Optimal reports that a solution found is always a shortest one.
	Optimal bool

	solve func(ctx context.Context, s *state, l Limits, b *budget) ([]engine.Move, error)
}

// TileSolution is what a TileSolver found.
type TileSolution struct {
	// Moves are the blank's directions from the start to the goal.
	Moves []engine.Move
	// Nodes counts the states expanded (their successors generated).
	Nodes uint64
	// Optimal reports that Moves is proved a shortest solution.
	Optimal bool
}

// Solve searches p for a solution. On a limit or the context's end it
// returns the nodes spent and an error wrapping ErrLimit or the
// context's error; p is left as it was.
func (t TileSolver) Solve(ctx context.Context, p *slidingtile.Position, l Limits) (TileSolution, error) {
	b := newBudget(ctx, l)
	moves, err := t.solve(ctx, newState(p), l, b)
	if err != nil {
		return TileSolution{Nodes: b.nodes}, fmt.Errorf("puzzles: %s on %v: %w", t.Name, p, err)
	}
	return TileSolution{Moves: moves, Nodes: b.nodes, Optimal: t.Optimal}, nil
}

// RunTileWithin runs one sliding-tile solver on p within the limits and
// the context, and times it.
func RunTileWithin(ctx context.Context, s TileSolver, p *slidingtile.Position, l Limits) Run {
	start := time.Now()
	sol, err := s.Solve(ctx, p, l)
	r := Run{Algorithm: s.Name, Nodes: sol.Nodes, Elapsed: time.Since(start), Err: err}
	if err != nil {
		return r
	}
	r.Solved, r.Length, r.Moves = true, len(sol.Moves), sol.Moves
	if sol.Optimal {
		r.Optimal = "proved"
	}
	return r
}

// TileSolvers lists the sliding-tile solvers in the order --compare shows
// them.
func TileSolvers() []TileSolver {
	return slices.Clone(tileSolvers)
}

// LookupTile returns the sliding-tile solver of the given name.
func LookupTile(name string) (TileSolver, error) {
	for _, s := range tileSolvers {
		if s.Name == name {
			return s, nil
		}
	}
	return TileSolver{}, fmt.Errorf("puzzles: no sliding-tile solver %q; have %s", name, names(tileSolvers, func(s TileSolver) string { return s.Name }))
}

// tilePuzzle is the sliding-tile puzzles' part of play.go.
type tilePuzzle struct{}

// shortest is IDA* on the pattern databases: on the 8-puzzle on the one
// table of all its tiles, the exact distance (built in milliseconds at
// first use); on the 15-puzzle on the 7-8 tables; each only once its
// tables are in memory (PDB78Ready), else on the 4-4 or 6-6-3 ones, so
// that no deal or hint waits for a build (the 8-puzzle's takes about a
// second under the race detector).
func (tilePuzzle) shortest(ctx context.Context, pos engine.Position) ([]engine.Move, error) {
	p := pos.(*slidingtile.Position)
	name := "idastar-pdb"
	if PDB78Ready(p.Size()) {
		name = "idastar-pdb78"
	}
	s, err := LookupTile(name)
	if err != nil {
		return nil, err
	}
	sol, err := s.Solve(ctx, p, Limits{})
	return sol.Moves, err
}

// entrants are every TileSolver from pos.
func (tilePuzzle) entrants(pos engine.Position) []Entrant {
	p := pos.(*slidingtile.Position)
	var out []Entrant
	for _, s := range TileSolvers() {
		if s.Name == "idastar-pdb78" && p.Size() >= 4 && !PDB78Ready(p.Size()) {
			continue // never built or loaded on a player's click (the 8-puzzle's table is small)
		}
		out = append(out, Entrant{Algorithm: s.Name, run: func(ctx context.Context, l Limits) Run { return RunTileWithin(ctx, s, p, l) }})
	}
	return out
}

// best is the length an optimal solver of the runs proved.
func (tilePuzzle) best(_ context.Context, _ engine.Position, runs []Run) (int, error) {
	best := -1
	for _, r := range runs {
		if r.Optimal == "proved" {
			best = r.Length
		}
	}
	return best, nil
}

// deal scrambles the goal until a start of the level's length comes up.
func (tilePuzzle) deal(ctx context.Context, rng *rand.Rand, start engine.Position, level Level) (engine.Position, error) {
	size := start.(*slidingtile.Position).Size()
	q, _, err := Scramble(ctx, rng, size, level.lo[size], level.hi[size])
	if err != nil {
		return nil, err
	}
	return q, nil
}

func names[T any](list []T, name func(T) string) string {
	out := ""
	for i, s := range list {
		if i > 0 {
			out += ", "
		}
		out += name(s)
	}
	return out
}

var tileSolvers = []TileSolver{
	{Name: "bfs", Description: "breadth-first search with a visited set (report 003 §1.1, which kept none)", Optimal: true, solve: bfs},
	{Name: "seed003-bfs", Description: "report 003's BFS as written: a tree search that re-queues states already seen", Optimal: true, solve: treeBFS},
	{Name: "dfs", Description: "depth-first search, depth-capped, with the shallowest depth of each state kept (report 003 §1.2)", solve: dfs},
	{Name: "ids", Description: "iterative deepening depth-first search (report 003 §1.3)", Optimal: true, solve: ids},
	{Name: "greedy-h1", Description: "greedy best-first search on misplaced tiles (report 003 §2, h1)", solve: greedy(h1)},
	{Name: "greedy-h2", Description: "greedy best-first search on the Manhattan distance (report 003 §2, h2)", solve: greedy(h2)},
	{Name: "astar", Description: "A* on the Manhattan distance", Optimal: true, solve: astar},
	{Name: "idastar", Description: "IDA* on the Manhattan distance (Korf 1985)", Optimal: true, solve: idaManhattan},
	{Name: "idastar-pdb", Description: "IDA* on additive pattern databases (Korf & Felner 2002): 6-6-3 tiles, 4-4 on the 8-puzzle, the larger of the lookups on the board and on its reflection", Optimal: true, solve: idaPDB},
	{Name: "idastar-pdb78", Description: "IDA* on the 7-8 additive pattern database (Korf & Felner 2002), 4 bits an entry, built once and kept on disk; the 8-puzzle's one table of all 8 tiles is the exact distance", Optimal: true, solve: idaPDB78},
}

// state is a position packed 4 bits a cell, the first cell lowest.
type state struct {
	size int
	key  uint64
}

func newState(p *slidingtile.Position) *state {
	s := &state{size: p.Size()}
	for c, t := range p.Tiles() {
		s.key |= uint64(t) << (4 * c)
	}
	return s
}

func tileAt(key uint64, c int) int { return int(key>>(4*c)) & 15 }

func blankOf(key uint64, n int) int {
	for c := range n {
		if tileAt(key, c) == 0 {
			return c
		}
	}
	panic("puzzles: no blank")
}

// goalKey returns the packed goal of a size.
func goalKey(size int) uint64 {
	var k uint64
	for c := range size*size - 1 {
		k |= uint64(c+1) << (4 * c)
	}
	return k
}

// neighbours[size][cell] lists the blank's moves from cell: direction and
// target.
var neighbours = func() (nb [slidingtile.MaxSize + 1][][]step) {
	for _, size := range []int{3, 4} {
		nb[size] = make([][]step, size*size)
		for c := range size * size {
			r, col := c/size, c%size
			for m := slidingtile.Up; m <= slidingtile.Right; m++ {
				rr, cc := r, col
				switch m {
				case slidingtile.Up:
					rr--
				case slidingtile.Down:
					rr++
				case slidingtile.Left:
					cc--
				case slidingtile.Right:
					cc++
				}
				if rr >= 0 && rr < size && cc >= 0 && cc < size {
					nb[size][c] = append(nb[size][c], step{m, rr*size + cc})
				}
			}
		}
	}
	return nb
}()

type step struct {
	move engine.Move
	to   int
}

// slide returns key with the blank (on cell blank) moved to cell to.
func slide(key uint64, blank, to int) uint64 {
	t := uint64(tileAt(key, to))
	return key ^ t<<(4*to) ^ t<<(4*blank)
}

// h1 counts the misplaced tiles.
func h1(size int, key uint64) int {
	n, goal := 0, goalKey(size)
	for c := range size * size {
		if t := tileAt(key, c); t != 0 && t != tileAt(goal, c) {
			n++
		}
	}
	return n
}

// h2 is the Manhattan distance.
func h2(size int, key uint64) int {
	d := 0
	for c := range size * size {
		if t := tileAt(key, c); t != 0 {
			d += manhattan[size][t][c]
		}
	}
	return d
}

// manhattan[size][tile][cell] is the tile's distance from cell to its goal.
var manhattan = func() (m [slidingtile.MaxSize + 1][16][16]int) {
	for _, size := range []int{3, 4} {
		for t := 1; t < size*size; t++ {
			for c := range size * size {
				g := t - 1
				m[size][t][c] = absInt(c/size-g/size) + absInt(c%size-g%size)
			}
		}
	}
	return m
}()

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// link is how a graph search reached a state.
type link struct {
	parent uint64
	move   engine.Move
	depth  int
}

// The bytes a graph search holds per entry of its sets, measured with
// runtime.MemStats on Go 1.26 and rounded up: a link in a map 53–80 bytes
// (the most just after the map grows), a closed mark 24–36; a slice entry
// counts twice its size, for the slack of the slice's growth.
const (
	linkBytes     = 80
	closedBytes   = 40
	queueBytes    = 2 * 8
	stackBytes    = 2 * 16
	treeNodeBytes = 2 * 16
	openBytes     = 2 * 32
)

// path follows the links back from key to the start.
func path(links map[uint64]link, start, key uint64) []engine.Move {
	var moves []engine.Move
	for key != start {
		l := links[key]
		moves = append(moves, l.move)
		key = l.parent
	}
	slices.Reverse(moves)
	return moves
}

// bfs is breadth-first graph search: the goal test when a state is taken
// from the queue, as in the report; each state queued once.
func bfs(_ context.Context, s *state, _ Limits, b *budget) ([]engine.Move, error) {
	n, goal := s.size*s.size, goalKey(s.size)
	if b.hold(1, linkBytes+queueBytes) {
		return nil, b.err
	}
	links := map[uint64]link{s.key: {}}
	queue := []uint64{s.key}
	for len(queue) > 0 {
		key := queue[0]
		queue = queue[1:]
		if key == goal {
			return path(links, s.key, key), nil
		}
		if b.spend() {
			return nil, b.err
		}
		blank := blankOf(key, n)
		for _, st := range neighbours[s.size][blank] {
			child := slide(key, blank, st.to)
			if _, seen := links[child]; !seen {
				if b.hold(1, linkBytes+queueBytes) {
					return nil, b.err
				}
				links[child] = link{key, st.move, links[key].depth + 1}
				queue = append(queue, child)
			}
		}
	}
	return nil, fmt.Errorf("%w: the goal is unreachable", ErrLimit)
}

// treeBFS is report 003's BFS listing: a FIFO queue of nodes, each with
// its parent, the goal tested when a node is taken from the queue, and no
// record of the states seen, so every child is queued, including the
// parent it came from. It is optimal and exponential.
func treeBFS(_ context.Context, s *state, _ Limits, b *budget) ([]engine.Move, error) {
	type node struct {
		key    uint64
		parent int32
		move   engine.Move
	}
	n, goal := s.size*s.size, goalKey(s.size)
	if b.hold(1, treeNodeBytes) {
		return nil, b.err
	}
	nodes := []node{{key: s.key, parent: -1}}
	for head := 0; head < len(nodes); head++ {
		nd := nodes[head]
		if nd.key == goal {
			var moves []engine.Move
			for i := head; nodes[i].parent >= 0; i = int(nodes[i].parent) {
				moves = append(moves, nodes[i].move)
			}
			slices.Reverse(moves)
			return moves, nil
		}
		if b.spend() {
			return nil, b.err
		}
		blank := blankOf(nd.key, n)
		// The report's order: down, left, up, right.
		for _, m := range []engine.Move{slidingtile.Down, slidingtile.Left, slidingtile.Up, slidingtile.Right} {
			for _, st := range neighbours[s.size][blank] {
				if st.move == m {
					if b.hold(1, treeNodeBytes) {
						return nil, b.err
					}
					nodes = append(nodes, node{slide(nd.key, blank, st.to), int32(head), m})
				}
			}
		}
	}
	return nil, fmt.Errorf("%w: the goal is unreachable", ErrLimit)
}

// dfs is depth-first graph search with an explicit stack, children pushed
// in the report's order (down, left, up, right, so right is tried first)
// and a depth cap. A state is expanded again only when reached by a
// shorter path than before, which keeps it complete within the cap.
func dfs(_ context.Context, s *state, l Limits, b *budget) ([]engine.Move, error) {
	limit := l.Depth
	if limit <= 0 {
		limit = slidingtile.Diameter(s.size)
	}
	n, goal := s.size*s.size, goalKey(s.size)
	if b.hold(1, linkBytes+stackBytes) {
		return nil, b.err
	}
	links := map[uint64]link{s.key: {}}
	type entry struct {
		key   uint64
		depth int
	}
	st := []entry{{s.key, 0}}
	for len(st) > 0 {
		e := st[len(st)-1]
		st = st[:len(st)-1]
		b.release(1, stackBytes)
		if links[e.key].depth != e.depth {
			continue // reached more shallowly since it was pushed
		}
		if e.key == goal {
			return path(links, s.key, e.key), nil
		}
		if e.depth >= limit {
			continue
		}
		if b.spend() {
			return nil, b.err
		}
		blank := blankOf(e.key, n)
		for _, m := range []engine.Move{slidingtile.Down, slidingtile.Left, slidingtile.Up, slidingtile.Right} {
			for _, nb := range neighbours[s.size][blank] {
				if nb.move != m {
					continue
				}
				child := slide(e.key, blank, nb.to)
				old, seen := links[child]
				if seen && (old.depth <= e.depth+1 || child == s.key) {
					continue
				}
				size := uint64(stackBytes)
				if !seen {
					size += linkBytes
				}
				if b.hold(1, size) {
					return nil, b.err
				}
				links[child] = link{e.key, m, e.depth + 1}
				st = append(st, entry{child, e.depth + 1})
			}
		}
	}
	return nil, fmt.Errorf("%w: no solution within %d moves", ErrLimit, limit)
}

// ids is iterative deepening: depth-first searches to depth 0, 1, 2, …,
// never undoing the move just made.
func ids(_ context.Context, s *state, _ Limits, b *budget) ([]engine.Move, error) {
	n, goal := s.size*s.size, goalKey(s.size)
	var moves []engine.Move
	var search func(key uint64, blank, left int, prev engine.Move) bool
	search = func(key uint64, blank, left int, prev engine.Move) bool {
		if key == goal {
			return true
		}
		if left == 0 || b.spend() {
			return false
		}
		for _, st := range neighbours[s.size][blank] {
			if prev != engine.NoMove && st.move == slidingtile.Opposite(prev) {
				continue
			}
			moves = append(moves, st.move)
			if search(slide(key, blank, st.to), st.to, left-1, st.move) {
				return true
			}
			moves = moves[:len(moves)-1]
			if b.err != nil {
				return false
			}
		}
		return false
	}
	for depth := 0; depth <= slidingtile.Diameter(s.size); depth++ {
		if search(s.key, blankOf(s.key, n), depth, engine.NoMove) {
			return moves, nil
		}
		if b.err != nil {
			return nil, b.err
		}
	}
	return nil, fmt.Errorf("%w: no solution within the diameter", ErrLimit)
}

// open is a priority queue of states: lowest f first, then (for A*) the
// deepest, then the first queued.
type open []openEntry

type openEntry struct {
	key      uint64
	f, depth int
	seq      uint64
}

func (o open) Len() int { return len(o) }
func (o open) Less(i, j int) bool {
	if o[i].f != o[j].f {
		return o[i].f < o[j].f
	}
	if o[i].depth != o[j].depth {
		return o[i].depth > o[j].depth
	}
	return o[i].seq < o[j].seq
}
func (o open) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o *open) Push(x any)   { *o = append(*o, x.(openEntry)) }
func (o *open) Pop() any {
	old := *o
	x := old[len(old)-1]
	*o = old[:len(old)-1]
	return x
}

// bestFirst expands states in the order of f(depth, h): greedy uses h
// alone, A* depth + h. A state is queued again when reached by a shorter
// path (only A* cares; greedy keeps its first path).
func bestFirst(s *state, b *budget, h func(int, uint64) int, f func(depth, h int) int, reopen bool) ([]engine.Move, error) {
	n, goal := s.size*s.size, goalKey(s.size)
	if b.hold(1, linkBytes+openBytes) {
		return nil, b.err
	}
	links := map[uint64]link{s.key: {}}
	closed := map[uint64]bool{}
	q := &open{{key: s.key, f: f(0, h(s.size, s.key))}}
	var seq uint64
	for q.Len() > 0 {
		e := heap.Pop(q).(openEntry)
		b.release(1, openBytes)
		if closed[e.key] || links[e.key].depth != e.depth {
			continue
		}
		if e.key == goal {
			return path(links, s.key, e.key), nil
		}
		if b.spend() || b.hold(1, closedBytes) {
			return nil, b.err
		}
		closed[e.key] = true
		blank := blankOf(e.key, n)
		for _, st := range neighbours[s.size][blank] {
			child := slide(e.key, blank, st.to)
			d := e.depth + 1
			old, seen := links[child]
			if seen && (!reopen || old.depth <= d || child == s.key) {
				continue
			}
			size := uint64(openBytes)
			if !seen {
				size += linkBytes
			}
			if b.hold(1, size) {
				return nil, b.err
			}
			delete(closed, child)
			links[child] = link{e.key, st.move, d}
			seq++
			heap.Push(q, openEntry{key: child, f: f(d, h(s.size, child)), depth: d, seq: seq})
		}
	}
	return nil, fmt.Errorf("%w: the goal is unreachable", ErrLimit)
}

// greedy is greedy best-first search on h: the state that looks closest
// to the goal first, ties to the deepest, then the first queued.
func greedy(h func(int, uint64) int) func(context.Context, *state, Limits, *budget) ([]engine.Move, error) {
	return func(_ context.Context, s *state, _ Limits, b *budget) ([]engine.Move, error) {
		return bestFirst(s, b, h, func(_, h int) int { return h }, false)
	}
}

// astar is A* on the Manhattan distance, which is consistent: f = depth +
// h, ties to the deepest state.
func astar(_ context.Context, s *state, _ Limits, b *budget) ([]engine.Move, error) {
	return bestFirst(s, b, h2, func(d, h int) int { return d + h }, true)
}
