package puzzles

import (
	"context"
	"fmt"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/slidingtile"
)

// PackedPDB is an additive pattern database on patterns too large for
// PDB's 16^k bytes: each pattern's table (packedTable) has one 4-bit
// entry for each placement of its tiles, indexed by compact rank. The
// 15-puzzle's 7-8 split (Korf & Felner 2002) takes 259 MB for the top
// two rows' 8 tiles and 29 MB for the bottom rows' 7. As in PDB the
// tables abstract the blank away (a tile slides into any cell its
// pattern leaves free), and the estimate is the larger of the tables'
// sums on the board and on its reflection in the main diagonal.
type PackedPDB struct {
	partition
	tables []*packedTable
	// Built is how long the tables took to build, or to load from the
	// disk cache (Loaded).
	Built time.Duration
	// Loaded reports that the tables were read from the disk cache.
	Loaded bool
}

// NewPackedPDB builds the additive pattern database of the given board
// side for the given disjoint patterns, which must cover every tile; the
// 15-puzzle's 8-tile table takes minutes of CPU and 390 MB while it
// builds.
func NewPackedPDB(size int, patterns [][]int) (*PackedPDB, error) {
	return buildPacked(size, patterns, nil)
}

// buildPacked is NewPackedPDB reporting to progress, if not nil, the
// placements reached and their total after each level of the build.
func buildPacked(size int, patterns [][]int, progress func(done, total int)) (*PackedPDB, error) {
	start := time.Now()
	d, err := newPackedPDB(size, patterns)
	if err != nil {
		return nil, err
	}
	total, before := 0, 0
	for _, t := range d.tables {
		total += int(t.entries)
	}
	for _, t := range d.tables {
		reached := t.build(size, func(n int) {
			if progress != nil {
				progress(before+n, total)
			}
		})
		before += reached
	}
	d.Built = time.Since(start)
	return d, nil
}

// newPackedPDB returns the database with its tables not filled.
func newPackedPDB(size int, patterns [][]int) (*PackedPDB, error) {
	pt, err := newPartition(size, patterns, 8, "compact ranks of 32 bits")
	if err != nil {
		return nil, err
	}
	d := &PackedPDB{partition: pt}
	for _, tiles := range patterns {
		d.tables = append(d.tables, newPackedTable(size, tiles))
	}
	return d, nil
}

// Bytes returns the memory the tables take.
func (d *PackedPDB) Bytes() int {
	n := 0
	for _, t := range d.tables {
		n += 4 * int((t.entries+7)/8)
	}
	return n
}

// sum returns the tables' sum on the board given by pos (tile → cell):
// the Manhattan distance plus twice the entries.
func (d *PackedPDB) sum(pos *[16]uint8) int {
	h := 0
	for t := 1; t < d.size*d.size; t++ {
		h += manhattan[d.size][t][pos[t]]
	}
	for p, t := range d.tables {
		h += 2 * t.get(t.rank(d.cellsOf(p, pos)))
	}
	return h
}

// cellsOf returns the cells of pattern p's tiles (slot → cell) on the
// board given by pos (tile → cell).
func (d *PackedPDB) cellsOf(p int, pos *[16]uint8) []uint8 {
	c := make([]uint8, len(d.patterns[p]))
	for s, t := range d.patterns[p] {
		c[s] = pos[t]
	}
	return c
}

// Estimate returns the database's lower bound for the position: the larger
// of the tables' sums on the board and on its reflection.
func (d *PackedPDB) Estimate(p *slidingtile.Position) int {
	var pos [16]uint8
	for c, t := range p.Tiles() {
		pos[t] = uint8(c)
	}
	m := d.reflect(&pos)
	return max(d.sum(&pos), d.sum(&m))
}

// maxPatterns bounds the patterns of a PackedPDB a search keeps track of.
const maxPatterns = 15

// view is one board, the board searched or its reflection, as the
// packed tables see it: each pattern's rank, entry, cells taken and the
// slot on each cell.
type view struct {
	rank, value [maxPatterns]uint32
	used        [maxPatterns]uint32
	slotAt      [maxPatterns][16]int8
	sum         int // the entries' sum
}

func (v *view) init(d *PackedPDB, pos *[16]uint8) {
	v.sum = 0
	for p, t := range d.tables {
		c := d.cellsOf(p, pos)
		v.rank[p] = t.rank(c)
		v.value[p] = uint32(t.get(v.rank[p]))
		v.sum += int(v.value[p])
		v.used[p] = 0
		for i := range v.slotAt[p] {
			v.slotAt[p][i] = -1
		}
		for s, cell := range c {
			v.used[p] |= 1 << cell
			v.slotAt[p][cell] = int8(s)
		}
	}
}

// child returns the rank and entry of pattern p with the tile of slot s
// moved from cell x to cell y, and the entries' sum then, leaving the
// view as it is.
func (v *view) child(t *packedTable, p, s, x, y int) (rank, value uint32, sum int) {
	rank = t.shift(v.rank[p], s, x, y, v.used[p], &v.slotAt[p])
	value = uint32(t.get(rank))
	return rank, value, v.sum + int(value) - int(v.value[p])
}

// move moves the tile of slot s of pattern p from cell x to cell y,
// giving the pattern the rank and entry child found, and returns what
// undo needs: the old rank and value.
func (v *view) move(p, s, x, y int, rank, value uint32) (uint32, uint32) {
	oldRank, oldValue := v.rank[p], v.value[p]
	v.rank[p], v.value[p] = rank, value
	v.sum += int(value) - int(oldValue)
	v.used[p] ^= 1<<x | 1<<y
	v.slotAt[p][x], v.slotAt[p][y] = -1, int8(s)
	return oldRank, oldValue
}

// undo moves the tile back from y to x.
func (v *view) undo(p, s, x, y int, oldRank, oldValue uint32) {
	v.sum += int(oldValue) - int(v.value[p])
	v.rank[p], v.value[p] = oldRank, oldValue
	v.used[p] ^= 1<<x | 1<<y
	v.slotAt[p][x], v.slotAt[p][y] = int8(s), -1
}

// packedIDA is one IDA* search on a PackedPDB: the board in place, its
// Manhattan distance and the two views kept up to date move by move.
type packedIDA struct {
	d        *PackedPDB
	man      *[16][16]int
	cells    [16]uint8
	md       int
	board    view
	mirrored view
	b        *budget
	moves    []engine.Move
	next     int // the least f above the bound seen in this iteration
}

// packedIDAStar is idaStar on a PackedPDB, with the reflection: h is the
// Manhattan distance plus twice the larger of the entries' sums on the
// board and on its reflection.
func packedIDAStar(s *state, d *PackedPDB, b *budget) ([]engine.Move, error) {
	r := &packedIDA{d: d, man: &manhattan[s.size], b: b}
	var pos [16]uint8
	blank := 0
	for c := range s.size * s.size {
		t := tileAt(s.key, c)
		r.cells[c], pos[t] = uint8(t), uint8(c)
		if t == 0 {
			blank = c
		} else {
			r.md += r.man[t][c]
		}
	}
	m := d.reflect(&pos)
	r.board.init(d, &pos)
	r.mirrored.init(d, &m)
	for bound := r.md + 2*max(r.board.sum, r.mirrored.sum); ; bound = r.next {
		r.next = 1 << 30
		if r.search(blank, 0, bound, engine.NoMove) {
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

// packedChild is a child of a node of packedIDA's search that its bound
// does not cut off: the blank's step, the child's f, and its ranks and
// entries on the board and on the reflection.
type packedChild struct {
	st            step
	f             int
	rank, value   uint32
	mrank, mvalue uint32
}

// search searches below the board, whose f = g + h the caller has found
// within the bound. It looks up every child's entries before searching
// below any, and searches the children of least f first: in the last
// iteration, the one that reaches the goal, moves that bring the
// estimate down lead to it sooner, and in the others every child within
// the bound is searched whatever the order.
func (r *packedIDA) search(blank, g, bound int, prev engine.Move) bool {
	if r.md == 0 {
		return true // every tile is home
	}
	if r.b.spend() {
		return false
	}
	d := r.d
	var kids [4]packedChild
	n := 0
	for _, st := range neighbours[d.size][blank] {
		if prev != engine.NoMove && st.move == slidingtile.Opposite(prev) {
			continue
		}
		t := r.cells[st.to]
		md := r.md + r.man[t][blank] - r.man[t][st.to]
		p, s := int(d.patOf[t]), int(d.slotOf[t])
		rank, value, sum := r.board.child(d.tables[p], p, s, st.to, blank)
		// A child the board's own bound cuts off needs no lookup on the
		// reflection: the misses in tables of hundreds of megabytes are
		// most of a node's time. Its f is a lower bound on the one the
		// child would find, and more than the bound, so it serves for
		// the next bound as well (and f rises by 2 from one bound to the
		// next, the parity of the moves left fixed by the board).
		if f := g + 1 + md + 2*sum; f > bound {
			r.next = min(r.next, f)
			continue
		}
		// On the reflection, t's reflection moves to the blank's.
		mt := d.mirrorTile[t]
		mp, ms := int(d.patOf[mt]), int(d.slotOf[mt])
		mrank, mvalue, msum := r.mirrored.child(d.tables[mp], mp, ms, int(d.mirrorCell[st.to]), int(d.mirrorCell[blank]))
		f := g + 1 + md + 2*max(sum, msum)
		if f > bound {
			r.next = min(r.next, f)
			continue
		}
		// Insert in order of f, the first of equals first.
		i := n
		for ; i > 0 && kids[i-1].f > f; i-- {
			kids[i] = kids[i-1]
		}
		kids[i] = packedChild{st, f, rank, value, mrank, mvalue}
		n++
	}
	for _, k := range kids[:n] {
		st := k.st
		t := r.cells[st.to]
		dmd := r.man[t][blank] - r.man[t][st.to]
		p, s := int(d.patOf[t]), int(d.slotOf[t])
		mt := d.mirrorTile[t]
		mp, ms := int(d.patOf[mt]), int(d.slotOf[mt])
		mx, my := int(d.mirrorCell[st.to]), int(d.mirrorCell[blank])
		rank, value := r.board.move(p, s, st.to, blank, k.rank, k.value)
		mrank, mvalue := r.mirrored.move(mp, ms, mx, my, k.mrank, k.mvalue)
		r.md += dmd
		r.cells[blank], r.cells[st.to] = t, 0
		r.moves = append(r.moves, st.move)
		if r.search(st.to, g+1, bound, st.move) {
			return true
		}
		r.moves = r.moves[:len(r.moves)-1]
		r.cells[blank], r.cells[st.to] = 0, t
		r.md -= dmd
		r.board.undo(p, s, st.to, blank, rank, value)
		r.mirrored.undo(mp, ms, mx, my, mrank, mvalue)
		if r.b.err != nil {
			return false
		}
	}
	return false
}

func idaPDB78(ctx context.Context, s *state, l Limits, b *budget) ([]engine.Move, error) {
	d, err := PDB78(s.size, l)
	if err != nil {
		return nil, err
	}
	return packedIDAStar(s, d, b)
}
