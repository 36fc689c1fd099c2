package puzzles

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine/slidingtile"
)

// reflected returns p reflected in its main diagonal: the tile on row r,
// column c goes to row c, column r, renamed to the tile whose home is the
// reflection of its home.
func reflected(t testing.TB, p *slidingtile.Position) *slidingtile.Position {
	t.Helper()
	size, tiles := p.Size(), p.Tiles()
	cells := make([]string, len(tiles))
	for c, tile := range tiles {
		r, col := c/size, c%size
		if tile != 0 {
			home := int(tile) - 1
			tile = uint8(home%size*size+home/size) + 1
		}
		cells[col*size+r] = strconv.Itoa(int(tile))
	}
	return mustParse(t, strings.Join(cells, ","))
}

// TestPDBLooksUpTheReflection: on every 8-puzzle state (20,000 random
// ones with -short) the estimate is the same as on the reflected state,
// at least the tables' plain sum, above it on some states, and never
// above the distance (TestHeuristicsAreAdmissible checks that on all of
// them).
func TestPDBLooksUpTheReflection(t *testing.T) {
	d := DefaultPDB(3)
	states := slices.Collect(maps.Keys(distances8))
	if testing.Short() {
		states = random8(9, 20_000)
	}
	above := 0
	for _, text := range states {
		dist := distances8[text]
		p := mustParse(t, text)
		m := reflected(t, p)
		if distances8[m.String()] != dist {
			t.Fatalf("%s at %d moves, its reflection %s at %d", text, dist, m, distances8[m.String()])
		}
		h := d.Estimate(p)
		if hm := d.Estimate(m); h != hm {
			t.Fatalf("%s: estimate %d, %d on its reflection %s", text, h, hm, m)
		}
		var pos [16]uint8
		for c, tile := range p.Tiles() {
			pos[tile] = uint8(c)
		}
		switch plain := d.sum(&pos); {
		case h < plain:
			t.Fatalf("%s: estimate %d below the tables' sum %d", text, h, plain)
		case h > plain:
			above++
		}
	}
	if above == 0 {
		t.Error("the reflection never raised the estimate")
	}
}

// TestReflectionSavesNodes: on Korf's easiest instances IDA* on the 6-6-3
// tables finds the same optimal length with the reflection, expanding
// fewer nodes. Under -short it searches on the 5-5-5 tables of
// TestPackedSearchIsPDBSearch instead: the 6-6-3 ones take 15 s of CPU to
// build under -race (see TestKorfEasiest).
func TestReflectionSavesNodes(t *testing.T) {
	var d *PDB
	if testing.Short() {
		var err error
		if d, err = plain555(); err != nil {
			t.Fatal(err)
		}
	} else {
		d = DefaultPDB(4)
	}
	positions, lengths := korf100(t)
	for _, i := range []int{54, 78} {
		var nodes [2]uint64
		for k, reflect := range []bool{false, true} {
			b := newBudget(context.Background(), Limits{})
			moves, err := idaStar(newState(positions[i]), d, reflect, b)
			if err != nil {
				t.Fatal(err)
			}
			checkSolution(t, "idastar-pdb", positions[i], moves)
			if len(moves) != lengths[i] {
				t.Fatalf("instance %d, reflection %v: %d moves, want %d", i+1, reflect, len(moves), lengths[i])
			}
			nodes[k] = b.nodes
		}
		if nodes[1] >= nodes[0] {
			t.Errorf("instance %d: %d nodes with the reflection, %d without", i+1, nodes[1], nodes[0])
		}
		t.Logf("instance %d: %d nodes without the reflection, %d with", i+1, nodes[0], nodes[1])
	}
}

// BenchmarkKorf10 solves the first 10 of Korf's instances by IDA* on the
// 6-6-3 tables, plain and with the reflection, the tables built before
// the clock starts; cpu-ns/op is the CPU time of the 10.
func BenchmarkKorf10(b *testing.B) {
	positions, _ := korf100(b)
	benchIDA(b, positions[:10], DefaultPDB(4))
}

// BenchmarkEightPuzzlePDB solves 200 random 8-puzzle states by IDA* on the
// 4-4 tables, plain and with the reflection.
func BenchmarkEightPuzzlePDB(b *testing.B) {
	var positions []*slidingtile.Position
	for _, text := range random8(5, 200) {
		positions = append(positions, mustParse(b, text))
	}
	benchIDA(b, positions, DefaultPDB(3))
}

func benchIDA(b *testing.B, positions []*slidingtile.Position, d *PDB) {
	for _, reflect := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "reflected"}[reflect], func(b *testing.B) {
			var nodes uint64
			start := cpuTime(b)
			for b.Loop() {
				nodes = 0
				for _, p := range positions {
					bud := newBudget(context.Background(), Limits{})
					if _, err := idaStar(newState(p), d, reflect, bud); err != nil {
						b.Fatal(err)
					}
					nodes += bud.nodes
				}
			}
			reportCPU(b, start)
			b.ReportMetric(float64(nodes), "nodes/op")
		})
	}
}
