package puzzles

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/slidingtile"
)

// PDB is an additive pattern database (Korf & Felner 2002): the tiles are
// split into disjoint patterns, and for each pattern a table holds, for
// every placement of its tiles, the fewest moves of those tiles that bring
// them home. Only the pattern's own tiles' moves count, so the patterns'
// values add up to a lower bound on the moves left.
//
// The tables abstract the blank away: a pattern tile may slide into any
// cell that no other tile of its pattern holds. That relaxes the true
// moves further than Korf & Felner's tables (which keep the blank and take
// the least value over its cells), so the bound is a little weaker and
// still admissible; in exchange a table builds by a plain breadth-first
// search over the placements alone. A table is indexed by the cells of its
// tiles, 4 bits each, so a pattern of k tiles takes 16^k bytes.
//
// The board reflected in its main diagonal (rows read as columns) is as
// far from the goal as the board itself, since the goal and the moves
// reflect onto themselves; reflected, other tiles fall in each pattern. So
// the tables looked up on the reflected board give a second lower bound,
// and the larger of the two is one too (Culberson & Schaeffer 1998; Korf &
// Felner 2002).
type PDB struct {
	partition
	tables [][]uint8
	// Built is how long the tables took to build.
	Built time.Duration
}

// partition is the split of a board's tiles into disjoint patterns, with
// the board's reflection in its main diagonal.
type partition struct {
	size     int
	patterns [][]int  // tiles of each pattern
	patOf    [16]int8 // the pattern of each tile, −1 for the blank
	slotOf   [16]uint8
	// mirrorCell is each cell's reflection; mirrorTile each tile's, the
	// tile whose home is the reflection of its home (the blank's is the
	// blank).
	mirrorCell, mirrorTile [16]uint8
}

// newPartition checks that the patterns, of at most maxTiles tiles each,
// split the tiles of the board of the given side.
func newPartition(size int, patterns [][]int, maxTiles int, why string) (partition, error) {
	d := partition{size: size, patterns: patterns}
	for i := range d.patOf {
		d.patOf[i] = -1
	}
	for c := range size * size {
		d.mirrorCell[c] = uint8(c%size*size + c/size)
	}
	for t := 1; t < size*size; t++ {
		d.mirrorTile[t] = d.mirrorCell[t-1] + 1
	}
	covered := 0
	for p, tiles := range patterns {
		if len(tiles) > maxTiles {
			return d, fmt.Errorf("puzzles: pattern %v: at most %d tiles (%s)", tiles, maxTiles, why)
		}
		for s, t := range tiles {
			if t < 1 || t >= size*size || d.patOf[t] != -1 {
				return d, fmt.Errorf("puzzles: pattern %v: tile %d is not a tile of the %d×%d board or is in two patterns", tiles, t, size, size)
			}
			d.patOf[t], d.slotOf[t] = int8(p), uint8(s)
			covered++
		}
	}
	if covered != size*size-1 {
		return d, fmt.Errorf("puzzles: patterns %v cover %d of %d tiles", patterns, covered, size*size-1)
	}
	return d, nil
}

// Bytes returns the memory the tables take.
func (d *PDB) Bytes() int {
	n := 0
	for _, t := range d.tables {
		n += len(t)
	}
	return n
}

// Patterns returns the tiles of each pattern.
func (d *partition) Patterns() [][]int { return d.patterns }

// NewPDB builds the additive pattern database of the given board side for
// the given disjoint patterns, which must cover every tile.
func NewPDB(size int, patterns [][]int) (*PDB, error) {
	start := time.Now()
	pt, err := newPartition(size, patterns, 6, "16^k bytes")
	if err != nil {
		return nil, err
	}
	d := &PDB{partition: pt}
	for _, tiles := range patterns {
		d.tables = append(d.tables, buildTable(size, tiles))
	}
	d.Built = time.Since(start)
	return d, nil
}

// buildTable runs the breadth-first search from the pattern's goal
// placement over all placements of its tiles.
//
// The race detector has nothing to watch here: one goroutine fills a
// table of its own, which DefaultPDB's sync.Once publishes. Watched, it
// spent 80% of a -race process's 15 s of CPU building the 15-puzzle's
// tables, which every bot process (bot.Start) and every test binary that
// starts one builds; unwatched it takes 3 s, a plain build's 2.5 s.
//
//go:norace
//go:nocheckptr
func buildTable(size int, tiles []int) []uint8 {
	k := len(tiles)
	table := make([]uint8, 1<<(4*k))
	for i := range table {
		table[i] = 0xFF
	}
	var goal uint32
	for s, t := range tiles {
		goal |= uint32(t-1) << (4 * s)
	}
	table[goal] = 0
	frontier := []uint32{goal}
	for dist := uint8(1); len(frontier) > 0; dist++ {
		var next []uint32
		for _, idx := range frontier {
			var occupied uint16
			for s := range k {
				occupied |= 1 << ((idx >> (4 * s)) & 15)
			}
			for s := range k {
				from := int(idx>>(4*s)) & 15
				for _, st := range neighbours[size][from] {
					if occupied&(1<<st.to) != 0 {
						continue
					}
					child := idx&^(15<<(4*s)) | uint32(st.to)<<(4*s)
					if table[child] == 0xFF {
						table[child] = dist
						next = append(next, child)
					}
				}
			}
		}
		frontier = next
	}
	return table
}

// index returns the table index of pattern p with the tiles on the cells
// given by pos (tile → cell).
func (d *PDB) index(p int, pos *[16]uint8) uint32 {
	var idx uint32
	for s, t := range d.patterns[p] {
		idx |= uint32(pos[t]) << (4 * s)
	}
	return idx
}

// reflect returns the cells of the tiles (tile → cell) of the reflected
// board.
func (d *partition) reflect(pos *[16]uint8) (m [16]uint8) {
	for t := range d.size * d.size {
		m[d.mirrorTile[t]] = d.mirrorCell[pos[t]]
	}
	return m
}

// sum returns the tables' sum on the board given by pos (tile → cell).
func (d *PDB) sum(pos *[16]uint8) int {
	h := 0
	for i := range d.patterns {
		h += int(d.tables[i][d.index(i, pos)])
	}
	return h
}

// Estimate returns the database's lower bound for the position: the larger
// of the tables' sums on the board and on its reflection.
func (d *PDB) Estimate(p *slidingtile.Position) int {
	var pos [16]uint8
	for c, t := range p.Tiles() {
		pos[t] = uint8(c)
	}
	m := d.reflect(&pos)
	return max(d.sum(&pos), d.sum(&m))
}

// Default partitions: 6-6-3 on the 15-puzzle (the two 6-tile blocks the
// left and right halves of the top three rows, the bottom row the 3), 4-4
// on the 8-puzzle (top row and a block, the rest).
var defaultPatterns = map[int][][]int{
	3: {{1, 2, 3, 4}, {5, 6, 7, 8}},
	4: {{1, 2, 5, 6, 9, 10}, {3, 4, 7, 8, 11, 12}, {13, 14, 15}},
}

var (
	defaultPDBs [slidingtile.MaxSize + 1]*PDB
	pdbOnce     [slidingtile.MaxSize + 1]sync.Once
	pdbBuilt    [slidingtile.MaxSize + 1]atomic.Bool
)

// DefaultPDB returns the pattern database idastar-pdb uses on the board
// of the given side, building it at first use (about 1.5 s and 32 MiB
// for the 15-puzzle) and keeping it for the life of the process.
func DefaultPDB(size int) *PDB {
	pdbOnce[size].Do(func() {
		d, err := NewPDB(size, defaultPatterns[size])
		if err != nil {
			panic(err) // the default patterns are constants known to be valid
		}
		defaultPDBs[size] = d
		pdbBuilt[size].Store(true)
	})
	return defaultPDBs[size]
}

// Ready reports, without waiting, whether the optimal solver of p is ready
// to run at full speed: for the 15-puzzle, whether its pattern databases
// have been built (DefaultPDB). A caller with a deadline can then decline
// to wait for them.
func Ready(p engine.Position) bool {
	t, ok := p.(*slidingtile.Position)
	return !ok || t.Size() < 4 || pdbBuilt[t.Size()].Load()
}

// manhattanPDB returns the database of one tile a pattern: the Manhattan
// distance.
var manhattanPDB = func() (m [slidingtile.MaxSize + 1]*PDB) {
	for _, size := range []int{3, 4} {
		var patterns [][]int
		for t := 1; t < size*size; t++ {
			patterns = append(patterns, []int{t})
		}
		d, err := NewPDB(size, patterns)
		if err != nil {
			panic(err)
		}
		m[size] = d
	}
	return m
}()

// idaManhattan searches on the one-tile tables: their sum is the
// Manhattan distance, the same on the reflected board, so it is not
// looked up there.
func idaManhattan(ctx context.Context, s *state, l Limits, b *budget) ([]engine.Move, error) {
	return idaStar(s, manhattanPDB[s.size], false, b)
}

func idaPDB(ctx context.Context, s *state, l Limits, b *budget) ([]engine.Move, error) {
	return idaStar(s, DefaultPDB(s.size), true, b)
}

// ida is one IDA* search: the board in place, each pattern's table index
// on the board and on its reflection, and the estimates kept up to date
// move by move.
type ida struct {
	d     *PDB
	size  int
	cells [16]uint8
	// idx and midx are each pattern's table index on the board and on
	// its reflection; midx is kept only when reflect is.
	idx, midx []uint32
	reflect   bool
	b         *budget
	moves     []engine.Move
	next      int // the least f above the bound seen in this iteration
}

// idaStar is iterative-deepening A* (Korf 1985): depth-first searches
// bounded by f = depth + h, the bound raised each time to the least f that
// exceeded it, never undoing the move just made. With reflect, h is the
// larger of the tables' sums on the board and on its reflection.
func idaStar(s *state, d *PDB, reflect bool, b *budget) ([]engine.Move, error) {
	n := s.size * s.size
	r := &ida{d: d, size: s.size, b: b, reflect: reflect, idx: make([]uint32, len(d.patterns)), midx: make([]uint32, len(d.patterns))}
	var pos [16]uint8
	blank := 0
	for c := range n {
		t := tileAt(s.key, c)
		r.cells[c], pos[t] = uint8(t), uint8(c)
		if t == 0 {
			blank = c
		}
	}
	m := d.reflect(&pos)
	h, mh := 0, 0
	for i := range d.patterns {
		r.idx[i], r.midx[i] = d.index(i, &pos), d.index(i, &m)
		h += int(d.tables[i][r.idx[i]])
		mh += int(d.tables[i][r.midx[i]])
	}
	if !reflect {
		mh = 0
	}
	for bound := max(h, mh); ; bound = r.next {
		r.next = 1 << 30
		if r.search(blank, 0, h, mh, bound, engine.NoMove) {
			return r.moves, nil
		}
		if b.err != nil {
			return nil, b.err
		}
		if r.next > 255 {
			return nil, fmt.Errorf("%w: the goal is unreachable", ErrLimit)
		}
	}
}

// search searches below the board whose estimates are h on the board and
// mh on its reflection (0 without reflect).
func (r *ida) search(blank, g, h, mh, bound int, prev engine.Move) bool {
	if f := g + max(h, mh); f > bound {
		r.next = min(r.next, f)
		return false
	}
	if h == 0 {
		return true // every tile is home: the patterns cover them all
	}
	if r.b.spend() {
		return false
	}
	for _, st := range neighbours[r.size][blank] {
		if prev != engine.NoMove && st.move == slidingtile.Opposite(prev) {
			continue
		}
		t := r.cells[st.to]
		p, shift := r.d.patOf[t], 4*r.d.slotOf[t]
		table := r.d.tables[p]
		old := r.idx[p]
		moved := old&^(15<<shift) | uint32(blank)<<shift
		h2 := h - int(table[old]) + int(table[moved])
		r.idx[p] = moved
		// On the reflection, t's reflection moves to the blank's.
		mh2, mp, mold := 0, 0, uint32(0)
		if r.reflect {
			mt := r.d.mirrorTile[t]
			mp, shift = int(r.d.patOf[mt]), 4*r.d.slotOf[mt]
			mtable := r.d.tables[mp]
			mold = r.midx[mp]
			mmoved := mold&^(15<<shift) | uint32(r.d.mirrorCell[blank])<<shift
			mh2 = mh - int(mtable[mold]) + int(mtable[mmoved])
			r.midx[mp] = mmoved
		}
		r.cells[blank], r.cells[st.to] = t, 0
		r.moves = append(r.moves, st.move)
		if r.search(st.to, g+1, h2, mh2, bound, st.move) {
			return true
		}
		r.moves = r.moves[:len(r.moves)-1]
		r.cells[blank], r.cells[st.to] = 0, t
		r.idx[p] = old
		if r.reflect {
			r.midx[mp] = mold
		}
		if r.b.err != nil {
			return false
		}
	}
	return false
}
