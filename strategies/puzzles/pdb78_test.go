package puzzles

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/slidingtile"
	"github.com/gambitbot/gambit/internal/racetest"
	"testing"
)

// placements calls f on every placement (slot → cell) of k tiles on
// distinct cells of n.
func placements(n, k int, f func(c []uint8)) {
	c := make([]uint8, k)
	var place func(s int, used uint32)
	place = func(s int, used uint32) {
		if s == k {
			f(c)
			return
		}
		for cell := range n {
			if used&(1<<cell) == 0 {
				c[s] = uint8(cell)
				place(s+1, used|1<<cell)
			}
		}
	}
	place(0, 0)
}

// TestPackedTableMatchesBFS: the packed tables' breadth-first search, with
// its ranks, shifts, levels and 4-bit entries, gives every placement of a
// pattern the value of buildTable's plain search on 16^k bytes: (d − m)/2,
// d the moves, m the Manhattan distance; every rank is used once.
func TestPackedTableMatchesBFS(t *testing.T) {
	for _, c := range []struct {
		size  int
		tiles []int
	}{{3, []int{1, 2, 3, 4}}, {3, []int{8, 5, 6}}, {4, []int{1, 2, 5, 6, 9}}, {4, []int{15, 12, 3}}} {
		pt := newPackedTable(c.size, c.tiles)
		last := 0
		if n := pt.build(c.size, func(n int) {
			if n < last || n > int(pt.entries) {
				t.Errorf("%v: progress went from %d to %d of %d placements", c.tiles, last, n, pt.entries)
			}
			last = n
		}); n != int(pt.entries) || last != n {
			t.Errorf("%v: the build reached %d placements (reported last %d), want all %d", c.tiles, n, last, pt.entries)
		}
		want := buildTable(c.size, c.tiles)
		seen := make([]bool, pt.entries)
		placements(c.size*c.size, len(c.tiles), func(cells []uint8) {
			r := pt.rank(cells)
			if r >= pt.entries || seen[r] {
				t.Fatalf("%v: placement %v ranked %d of %d, or twice", c.tiles, cells, r, pt.entries)
			}
			seen[r] = true
			var idx uint32
			md := 0
			for s, cell := range cells {
				idx |= uint32(cell) << (4 * s)
				md += manhattan[c.size][c.tiles[s]][cell]
			}
			if d := int(want[idx]); pt.get(r) != min((d-md)/2, maxPacked) || (d-md)%2 != 0 {
				t.Fatalf("%v at %v: entry %d, want (%d − %d)/2", c.tiles, cells, pt.get(r), d, md)
			}
		})
	}
}

// TestShiftIsRank: moving one tile of a placement to a free neighbour
// changes the rank as ranking the new placement does, on random
// placements of 8 tiles of the 15-puzzle.
func TestShiftIsRank(t *testing.T) {
	pt := newPackedTable(4, []int{1, 2, 3, 4, 5, 6, 7, 8})
	rng := rand.New(rand.NewPCG(1, 2))
	c := make([]uint8, 8)
	var slotAt [16]int8
	for range 20_000 {
		for i := range slotAt {
			slotAt[i] = -1
		}
		r := rng.Uint32N(pt.entries)
		used := pt.unrank(r, c, &slotAt)
		if got := pt.rank(c); got != r {
			t.Fatalf("unrank(%d) = %v, ranked %d", r, c, got)
		}
		s := rng.IntN(8)
		x := int(c[s])
		for _, st := range neighbours[4][x] {
			if used&(1<<st.to) != 0 {
				continue
			}
			got := pt.shift(r, s, x, st.to, used, &slotAt)
			c[s] = uint8(st.to)
			if want := pt.rank(c); got != want {
				t.Fatalf("%v with slot %d from %d: shift gives %d, rank %d", c, s, x, got, want)
			}
			c[s] = uint8(x)
		}
	}
}

// TestPDB78IsExactOnTheEightPuzzle: on the 8-puzzle idastar-pdb78's one
// table of all 8 tiles is the distance, so IDA* expands only the
// solution's states: at most one node a move.
func TestPDB78IsExactOnTheEightPuzzle(t *testing.T) {
	d, err := PDB78(3, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range random8(3, 2_000) {
		p := mustParse(t, text)
		if h := d.Estimate(p); h != distances8[text] {
			t.Fatalf("%s: estimate %d, distance %d", text, h, distances8[text])
		}
	}
	s := lookup(t, "idastar-pdb78")
	for _, text := range random8(4, 50) {
		p := mustParse(t, text)
		sol, err := s.Solve(context.Background(), p, Limits{Nodes: 40})
		if err != nil {
			t.Fatal(err)
		}
		checkSolution(t, s.Name, p, sol.Moves)
		if len(sol.Moves) != distances8[text] || sol.Nodes > uint64(len(sol.Moves)) {
			t.Fatalf("%s: %d moves in %d nodes, want %d moves", text, len(sol.Moves), sol.Nodes, distances8[text])
		}
	}
}

// TestPackedSearchIsPDBSearch: the packed tables of a 5-5-5 split give the
// same estimates as PDB's 16^k tables of it, and IDA* on them finds the
// same optimal solutions of Korf's easiest instances, in fewer nodes,
// because it searches the children of least f first, which in the last
// iteration reach the goal sooner (in the others every child within the
// bound is searched whatever the order). Under -race -short the split is
// 4-4-4-3: the packed 5-5-5 tables take 9 s of CPU to build under -race,
// the 4-4-4-3 ones half a second, and IDA* searches ten times the nodes
// on them for instance 55. (A 4-tile table is one chunk of work, which
// one worker takes; TestPackedTableMatchesBFS's 5-tile pattern keeps
// several workers writing one table at once under -race.)
func TestPackedSearchIsPDBSearch(t *testing.T) {
	split, plainTables := split555, plain555
	if racetest.Short(t, "the 4-4-4-3 split's tables, not the 5-5-5 ones") {
		split = split4443
		plainTables = func() (*PDB, error) { return NewPDB(4, split4443) }
	}
	packed, err := NewPackedPDB(4, split)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := plainTables()
	if err != nil {
		t.Fatal(err)
	}
	positions, lengths := korf100(t)
	for _, i := range []int{54, 78} {
		p := positions[i]
		if a, b := packed.Estimate(p), plain.Estimate(p); a != b {
			t.Fatalf("instance %d: packed estimate %d, plain %d", i+1, a, b)
		}
		var nodes [2]uint64
		for k := range 2 {
			b := newBudget(context.Background(), Limits{Nodes: 20_000_000})
			var err error
			var moves []engine.Move
			if k == 0 {
				moves, err = packedIDAStar(newState(p), packed, b)
			} else {
				moves, err = idaStar(newState(p), plain, true, b)
			}
			if err != nil {
				t.Fatal(err)
			}
			checkSolution(t, "packed", p, moves)
			if len(moves) != lengths[i] {
				t.Fatalf("instance %d: %d moves, want %d", i+1, len(moves), lengths[i])
			}
			nodes[k] = b.nodes
		}
		if nodes[0] >= nodes[1] {
			t.Errorf("instance %d: %d nodes on the packed tables, %d on the plain ones; want fewer", i+1, nodes[0], nodes[1])
		}
		t.Logf("instance %d: %d nodes on the packed tables, %d on the plain ones", i+1, nodes[0], nodes[1])
	}
}

// split555 is a 5-5-5 split of the 15-puzzle's tiles, whose tables build
// in a fraction of the 6-6-3 ones' time.
var split555 = [][]int{{1, 2, 3, 5, 6}, {4, 7, 8, 11, 12}, {9, 10, 13, 14, 15}}

// split4443 is a 4-4-4-3 split of the 15-puzzle's tiles, whose tables
// build in a fraction of the 5-5-5 ones' time.
var split4443 = [][]int{{1, 2, 3, 5}, {6, 7, 10, 11}, {4, 8, 12}, {9, 13, 14, 15}}

// plain555 builds split555's 16^k tables once for the tests that search
// on them.
var plain555 = sync.OnceValues(func() (*PDB, error) { return NewPDB(4, split555) })

// smallPacked builds a packed database of the 8-puzzle to save and load.
func smallPacked(t *testing.T, patterns [][]int) *PackedPDB {
	t.Helper()
	d, err := NewPackedPDB(3, patterns)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func sameTables(t *testing.T, got, want *PackedPDB) {
	t.Helper()
	for p := range want.tables {
		if !slices.Equal(got.tables[p].words, want.tables[p].words) {
			t.Fatalf("pattern %v: the tables differ", want.patterns[p])
		}
	}
}

var halves = [][]int{{1, 2, 3, 4}, {5, 6, 7, 8}}

// TestPackedCacheRoundTrip: a database saved and loaded has the same
// entries, and says it was loaded.
func TestPackedCacheRoundTrip(t *testing.T) {
	d := smallPacked(t, halves)
	path := filepath.Join(t.TempDir(), "new", "8puzzle.pdb")
	if err := savePacked(path, d); err != nil {
		t.Fatal(err)
	}
	got, err := loadPacked(path, 3, halves)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Loaded || d.Loaded {
		t.Errorf("Loaded: %v on the loaded database, %v on the built one", got.Loaded, d.Loaded)
	}
	sameTables(t, got, d)
}

// TestPackedCacheRefusesDamage: a file cut short, with a bit of an entry
// flipped, of other patterns or of another format version, or empty, is
// refused as corrupt; a missing one as missing.
func TestPackedCacheRefusesDamage(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.pdb")
	if err := savePacked(good, smallPacked(t, halves)); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.pdb")
	if err := savePacked(other, smallPacked(t, [][]int{{1, 2, 3, 5}, {4, 6, 7, 8}})); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	flipped := slices.Clone(data)
	flipped[len(flipped)-100] ^= 4
	version := slices.Clone(data)
	version[len(pdbMagic)-1]++
	damaged := map[string][]byte{"cut.pdb": data[:len(data)-1], "flipped.pdb": flipped, "version.pdb": version, "empty.pdb": nil, "longer.pdb": append(slices.Clone(data), 0)}
	for name, b := range damaged {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range append(slices.Sorted(maps.Keys(damaged)), "other.pdb") {
		if _, err := loadPacked(filepath.Join(dir, name), 3, halves); !errors.Is(err, errCorrupt) {
			t.Errorf("%s: %v; want it refused as corrupt", name, err)
		}
	}
	if _, err := loadPacked(filepath.Join(dir, "missing.pdb"), 3, halves); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v; want os.ErrNotExist", err)
	}
}

// TestCachedPackedRebuildsDamage: a damaged file is rebuilt, with a log
// line, and saved whole; a budget below the tables' bytes, or below the
// build's when there is no file, refuses before building anything.
func TestCachedPackedRebuildsDamage(t *testing.T) {
	want := smallPacked(t, halves)
	path := filepath.Join(t.TempDir(), "8puzzle.pdb")
	if err := os.WriteFile(path, []byte("GMBTPDB\x01 half a database"), 0o644); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
	var reports [][2]int
	d, err := cachedPacked(path, 3, halves, 1<<20, 1<<10, 1<<20, func(done, total int) { reports = append(reports, [2]int{done, total}) })
	if err != nil {
		t.Fatal(err)
	}
	if n := len(reports); n < 2 || reports[n-1][0] != reports[n-1][1] || reports[0][0] >= reports[n-1][0] {
		t.Errorf("the rebuild reported %v; want growing counts of placements ending at their total", reports)
	}
	if d.Loaded || !strings.Contains(logged.String(), "damaged; rebuilding") {
		t.Errorf("loaded %v, log %q; want it rebuilt with a log line", d.Loaded, logged.String())
	}
	sameTables(t, d, want)
	if d, err = cachedPacked(path, 3, halves, 1<<20, 1<<10, 1<<20, nil); err != nil || !d.Loaded {
		t.Fatalf("after the rebuild: loaded %v, %v; want the saved file loaded", d != nil && d.Loaded, err)
	}
	sameTables(t, d, want)
	var me *MemoryError
	if _, err := cachedPacked(path, 3, halves, 1<<10, 1<<11, 1<<20, nil); !errors.As(err, &me) || me.Budget != 1<<10 {
		t.Errorf("a budget below the tables: %v; want a memory error", err)
	}
	missing := filepath.Join(t.TempDir(), "missing.pdb")
	if _, err := cachedPacked(missing, 3, halves, 1<<19, 1<<10, 1<<20, nil); !errors.As(err, &me) {
		t.Errorf("a budget below the build: %v; want a memory error", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused build left a file: %v", err)
	}
}

// TestPDB78OfferedWhenReady: a comparison on the 15-puzzle leaves
// idastar-pdb78 out while its tables are not in memory, so a player's
// click never builds or loads them; on the 8-puzzle it is in.
func TestPDB78OfferedWhenReady(t *testing.T) {
	if PDB78Ready(4) {
		t.Skip("the 7-8 tables are in memory in this process")
	}
	for _, c := range []struct {
		position string
		want     bool
	}{{"1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15", false}, {"1,2,3,4,5,6,7,0,8", true}} {
		entrants, err := Entrants(mustParse(t, c.position))
		if err != nil {
			t.Fatal(err)
		}
		has := slices.ContainsFunc(entrants, func(e Entrant) bool { return e.Algorithm == "idastar-pdb78" })
		if has != c.want {
			t.Errorf("%s: idastar-pdb78 among the entrants: %v, want %v", c.position, has, c.want)
		}
	}
}

// BenchmarkEightPuzzle solves 200 random 8-puzzle states with A* (the
// 8-puzzle's solver before idastar-pdb78), idastar-pdb and idastar-pdb78,
// the tables built before the clock starts; cpu-ns/op is the CPU time of
// the 200.
func BenchmarkEightPuzzle(b *testing.B) {
	var positions []*slidingtile.Position
	for _, text := range random8(5, 200) {
		positions = append(positions, mustParse(b, text))
	}
	DefaultPDB(3)
	if _, err := PDB78(3, Limits{}); err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"astar", "idastar-pdb", "idastar-pdb78"} {
		s, err := LookupTile(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			var nodes uint64
			start := cpuTime(b)
			for b.Loop() {
				nodes = 0
				for _, p := range positions {
					sol, err := s.Solve(context.Background(), p, Limits{})
					if err != nil {
						b.Fatal(err)
					}
					nodes += sol.Nodes
				}
			}
			reportCPU(b, start)
			b.ReportMetric(float64(nodes), "nodes/op")
		})
	}
}

// BenchmarkKorfPDB78 solves Korf's first 10 instances with idastar-pdb78,
// its tables loaded from PDBDir (or built there) before the clock starts;
// it is skipped unless GAMBIT_PDB_DIR names the directory, so that a plain
// benchmark run never builds them. cpu-ns/op is the CPU time of the 10.
func BenchmarkKorfPDB78(b *testing.B) {
	if os.Getenv("GAMBIT_PDB_DIR") == "" {
		b.Skip("set GAMBIT_PDB_DIR to the directory of the 7-8 tables")
	}
	positions, _ := korf100(b)
	d, err := PDB78(4, Limits{Memory: pdb78BuildBytes})
	if err != nil {
		b.Fatal(err)
	}
	var nodes uint64
	start := cpuTime(b)
	for b.Loop() {
		nodes = 0
		for _, p := range positions[:10] {
			bud := newBudget(context.Background(), Limits{})
			if _, err := packedIDAStar(newState(p), d, bud); err != nil {
				b.Fatal(err)
			}
			nodes += bud.nodes
		}
	}
	reportCPU(b, start)
	b.ReportMetric(float64(nodes), "nodes/op")
}
